#!/usr/bin/env bash
# Report speed and memory on realistic logs: real runner output from the
# excerpt corpus (report/testdata/corpus), its passing part repeated to
# the size asked for with the one real failure block in the middle, against
# `grep -nE` over the same stored log, in one run. Rounds alternate grep and
# report; the medians are compared.
#
#   bench/report.sh [KIND] [SIZE_MIB] [ROUNDS]   (default go, 1024 MiB, 3 rounds)
#   RUNLEDGER=/path/to/runledger bench/report.sh …   (a prebuilt binary)
#
# KIND:
#   go      `go test -v` of 3000 tests that log with t.Log: 83% of the lines
#           are `large_test.go:N: …` lines (corpus case go-large-middle)
#   pytest  `pytest -v` of 3000 parametrized tests (pytest-large)
#   jest    `jest --verbose`, 1500 tests in 15 files (jest-large)
#   dense   `go test -v` of many tiny tests (12 million at 1 GiB): `=== RUN`,
#           one t.Log line and `--- PASS` each, one failing test in the
#           middle; made by awk in the shape go test prints (the verdict
#           lines are the common case here, not the t.Log lines)
set -euo pipefail
kind=${1:-go}
size_mib=${2:-1024}
rounds=${3:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/runledger-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
corpus=$root/report/testdata/corpus

# split SRC FAIL_START_RE FAIL_END_RE TRAILER_RE: writes body, fail and
# trailer from a real log: fail is the failure block (its first and last
# lines matched), trailer everything from the first TRAILER_RE line on,
# body the rest.
split() {
  local src=$1 fs fe tr
  fs=$(grep -n -m1 -E "$2" "$src" | cut -d: -f1)
  fe=$(awk -v s="$fs" -v re="$3" 'NR >= s && $0 ~ re {print NR; exit}' "$src")
  tr=$(grep -n -m1 -E "$4" "$src" | cut -d: -f1)
  [ -n "$fs" ] && [ -n "$fe" ] && [ -n "$tr" ] || { echo "$src: failure block or trailer not found" >&2; exit 1; }
  sed -n "${fs},${fe}p" "$src" > "$work/fail"
  sed -n "${tr},\$p" "$src" > "$work/trailer"
  sed -e "${fs},${fe}d" -e "${tr},\$d" "$src" > "$work/body"
}
case $kind in
go)
  split "$(ls "$corpus"/go-large-middle/store/*/stdout.log)" '^=== RUN   TestRecord1500$' '^--- FAIL: TestRecord1500 ' '^FAIL$'
  must='Checksum(1500) = 878484, want 878538' ;;
pytest)
  src=$(ls "$corpus"/pytest-large/store/*/stdout.log)
  split "$src" '^=+ FAILURES =+$' '^test_codec.py:9: AssertionError$' '^=+ short test summary'
  sed -i 's/\[1500\] FAILED /[1500] PASSED /' "$work/body"
  must="AssertionError: assert '5DC' == '5dc'" ;;
jest)
  split "$(ls "$corpus"/jest-large/store/*/stderr.log)" '^FAIL ' '^      at ' '^Test Suites:'
  must='Received: 101' ;;
dense) ;;
*) echo "unknown kind $kind" >&2; exit 2 ;;
esac

if [ -n "${RUNLEDGER:-}" ]; then cp "$RUNLEDGER" "$work/runledger"; else go build -o "$work/runledger" "$root/cmd/runledger"; fi
bytes=$(( size_mib << 20 ))
if [ "$kind" = dense ]; then
  # One test is ~88 bytes; n tests fill the size asked for.
  dense() {
    awk -v n="$1" 'BEGIN {
      for (i = 1; i <= n; i++) {
        printf "=== RUN   TestDense%08d\n    dense_test.go:14: step %d ok\n", i, i
        if (i == int(n / 2)) printf "    dense_test.go:17: Sum(%d) = 41, want 42\n--- FAIL: TestDense%08d (0.00s)\n", i, i
        else printf "--- PASS: TestDense%08d (0.00s)\n", i
      }
      print "FAIL"; print "FAIL\texample.com/dense\t41.203s"
    }'
  }
  per=$(dense 1000 | wc -c)
  dense $(( bytes / (per / 1000) )) > "$work/log"
  must="Sum($(( bytes / (per / 1000) / 2 ))) = 41, want 42"
else
body=$(wc -c < "$work/body")
half=$(( bytes / 2 / body ))
# half copies of the body, by doubling: a few dozen cats, not thousands
: > "$work/half"
n=$half
while [ "$n" -gt 0 ]; do
  if [ $((n % 2)) = 1 ]; then cat "$work/body" >> "$work/half"; fi
  n=$((n / 2))
  if [ "$n" -gt 0 ]; then cat "$work/body" "$work/body" > "$work/body2" && mv "$work/body2" "$work/body"; fi
done
cat "$work/half" "$work/fail" "$work/half" "$work/trailer" > "$work/log"
rm "$work/half" "$work/body"
fi
"$work/runledger" run --quiet --max-log-bytes 0 --dir "$work/store" --name bench -- sh -c 'cat "$1"; exit 1' sh "$work/log" || true
stored=$(find "$work/store" -name stdout.log)
cmp -s "$stored" "$work/log" || { echo "stored log differs from the input" >&2; exit 1; }
rm "$work/log"
lines=$(wc -l < "$stored")
# The failure markers a reader greps a test log for, at line starts, as
# one ERE. Not the `file:line` locations: in these logs most lines have
# one, and grep printing them all would make it slow, not the report fast.
pattern='^[[:space:]]*(--- FAIL|FAIL|panic:|Traceback \(most recent|=+ FAILURES|=+ [0-9]+ (failed|passed)|_{3,} |E   |●|✕|Tests:|error(\[|:))'

# Output goes to a file, not /dev/null: GNU grep notices /dev/null and
# stops at its first match.
measure() { # name, command
  /usr/bin/time -f '%e %M %U %S' -o "$work/t" bash -c "$2" >"$work/out.$1"
  cat "$work/t" >> "$work/res.$1"
}
for _ in $(seq "$rounds"); do
  measure grep "grep -nE '$pattern' $stored"
  measure report "$work/runledger report --format json --dir $work/store"
done
# Both did the whole job: grep reached the last line; the report failed
# the run and quotes the failure's root cause.
last=$(tail -n 500 "$stored" | { grep -E "$pattern" || true; } | tail -n 1)
[ -n "$last" ] || { echo "no line near the log's end matches the pattern" >&2; exit 1; }
[ "$(tail -n 1 "$work/out.grep" | cut -d: -f2-)" = "$last" ] || { echo "grep did not reach the log's end" >&2; exit 1; }
grep -q '"status": "failed"' "$work/out.report" || { echo "report did not say failed" >&2; exit 1; }
grep -qF "$(printf '%s' "$must" | sed 's/"/\\"/g')" "$work/out.report" || { echo "report does not quote: $must" >&2; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
gw=$(cut -d' ' -f1 "$work/res.grep" | median); gr=$(cut -d' ' -f2 "$work/res.grep" | median)
rw=$(cut -d' ' -f1 "$work/res.report" | median); rr=$(cut -d' ' -f2 "$work/res.report" | median)
# CPU seconds (user + system): on a machine others load, wall time also
# counts the waits for a core; the CPU ratio says what each side costs.
cpu() { awk '{print $3 + $4}' "$1" | median; }
gc=$(cpu "$work/res.grep"); rc=$(cpu "$work/res.report")
echo "report over a ${size_mib} MiB $kind log ($lines lines), median of $rounds rounds, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-10s %8s %8s %12s\n' side wall_s cpu_s peak_rss_kib grep "$gw" "$gc" "$gr" report "$rw" "$rc" "$rr"
awk -v a="$rw" -v b="$gw" 'BEGIN {printf "wall ratio report/grep: %.2f\n", a/b}'
awk -v a="$rc" -v b="$gc" 'BEGIN {printf "cpu ratio report/grep: %.2f\n", a/b}'
echo "report peak RSS: $((rr / 1024)) MiB"
