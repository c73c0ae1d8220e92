#!/usr/bin/env bash
# Report speed and memory: `runledger report` over a captured log, against
# `grep -nE` with an equivalent pattern set over the same bytes, in one run.
# grep reads the stored stdout.log, which report reads too (for excerpts;
# it reads output.log, the same bytes here, for the runner summary, and
# re-reads the counted lines to verify it). Rounds alternate grep and
# report; the medians are compared.
#
#   bench/report.sh [SIZE_MIB] [ROUNDS]     (default 1024 MiB, 3 rounds)
#   RUNLEDGER=/path/to/runledger bench/report.sh …   (a prebuilt binary)
#
# The log is `go test -v`-shaped with one failing test in the middle.
set -euo pipefail
size_mib=${1:-1024}
rounds=${2:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/runledger-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# RUNLEDGER=path measures a prebuilt binary (e.g. an older commit's).
if [ -n "${RUNLEDGER:-}" ]; then cp "$RUNLEDGER" "$work/runledger"; else go build -o "$work/runledger" "$root/cmd/runledger"; fi
# Whole 46-byte RUN/PASS pairs, so the failing test's line starts a line.
half=$(( (size_mib << 20) / 2 / 46 * 46 ))
# yes ends by SIGPIPE: not an error here.
set +o pipefail
{
  yes $'=== RUN   TestMany\n--- PASS: TestMany (0.00s)' | head -c "$half"
  printf -- '--- FAIL: TestMiddle (0.01s)\n    middle_test.go:42: want 2, got 3\n'
  yes $'=== RUN   TestMany\n--- PASS: TestMany (0.00s)' | head -c "$half"
  printf 'FAIL\nFAIL\texample.com/pkg\t12.345s\n'
} > "$work/log"
set -o pipefail
"$work/runledger" run --quiet --max-log-bytes 0 --dir "$work/store" -- sh -c 'cat "$1"; exit 1' sh "$work/log" || true
rm "$work/log"
stored=$(find "$work/store" -name stdout.log)
[ "$(wc -c < "$stored")" -eq $(( 2 * half + 100 )) ] || { echo "stored log has the wrong size" >&2; exit 1; }
# The patterns the report looks for at line starts, as one ERE.
pattern='^[[:space:]]*(--- FAIL|FAIL|ok  |panic:|Traceback \(most recent|=+ FAILURES|error(\[|:)|[^ ]+\.go:[0-9]+)'

# Output goes to a file, not /dev/null: GNU grep notices /dev/null and
# stops at its first match, which here is in the middle of the log.
measure() { # name, command
  /usr/bin/time -f '%e %M' -o "$work/t" bash -c "$2" >"$work/out.$1"
  cat "$work/t" >> "$work/res.$1"
}
for _ in $(seq "$rounds"); do
  measure grep "grep -nE '$pattern' $stored"
  measure report "$work/runledger report --format json --dir $work/store"
done
# Both sides did the whole job: grep found the last line, the report
# failed the run and counted its one failing test.
grep -q "^$(( 2 * half / 23 + 4 )):FAIL	example.com/pkg" "$work/out.grep" || { echo "grep did not reach the log's end" >&2; exit 1; }
grep -q '"status": "failed"' "$work/out.report" || { echo "report did not say failed" >&2; exit 1; }
grep -q '"failed": 1,' "$work/out.report" || { echo "report did not count the one failing test" >&2; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
gw=$(cut -d' ' -f1 "$work/res.grep" | median); gr=$(cut -d' ' -f2 "$work/res.grep" | median)
rw=$(cut -d' ' -f1 "$work/res.report" | median); rr=$(cut -d' ' -f2 "$work/res.report" | median)
echo "report over ${size_mib} MiB, median of $rounds rounds, $(nproc) cores"
printf '%-10s %8s %12s\n' side wall_s peak_rss_kib grep "$gw" "$gr" report "$rw" "$rr"
awk -v a="$rw" -v b="$gw" 'BEGIN {printf "wall ratio report/grep: %.2f\n", a/b}'
echo "report peak RSS: $((rr / 1024)) MiB"
