#!/usr/bin/env bash
# Report memory and speed on a big VSTest TRX file: SIZE_MIB of results,
# each with 6 KiB of captured output, one failing in the middle, written by
# the command during the run and read back by `runledger report`, against
# `grep -c` over the same stored copy, in one run.
#
#   bench/trx.sh [SIZE_MIB] [ROUNDS]   (default 1024 MiB, 3 rounds)
#   RUNLEDGER=/path/to/runledger bench/trx.sh …   (a prebuilt binary)
set -euo pipefail
size_mib=${1:-1024}
rounds=${2:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/runledger-trx.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -n "${RUNLEDGER:-}" ]; then cp "$RUNLEDGER" "$work/runledger"; else go build -o "$work/runledger" "$root/cmd/runledger"; fi

out=$(head -c 6000 /dev/zero | tr '\0' 'x' | fold -w 100)
# one result's bytes, to reach the size asked for
per=$(( ${#out} + 120 ))
n=$(( (size_mib << 20) / per ))
mid=$(( n / 2 ))
{
  echo '<?xml version="1.0" encoding="utf-8"?>'
  echo '<TestRun id="1" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results>'
  awk -v n="$n" -v mid="$mid" -v out="$out" 'BEGIN {
    for (i = 0; i < n; i++) {
      o = (i == mid) ? "Failed" : "Passed"
      printf "<UnitTestResult testId=\"t%d\" testName=\"Test%d\" outcome=\"%s\"><Output><StdOut>%s</StdOut>", i, i, o, out
      if (i == mid) printf "<ErrorInfo><Message>Assert.AreEqual failed. Expected:&lt;%d&gt;.</Message></ErrorInfo>", i
      printf "</Output></UnitTestResult>\n"
    }
  }'
  echo '</Results><TestDefinitions>'
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "<UnitTest id=\"t%d\"><TestMethod className=\"Big.Tests\" name=\"Test%d\"/></UnitTest>\n", i, i }'
  echo '</TestDefinitions></TestRun>'
} > "$work/big.trx"
bytes=$(wc -c < "$work/big.trx")
(cd "$work" && ./runledger run --quiet --dir "$work/store" --name trx --junit out.trx -- sh -c 'cp big.trx out.trx; exit 1') || true
rm "$work/big.trx" "$work/out.trx"
stored=$(find "$work/store" -path '*junit*' -name '*out.trx')

measure() { # name, command
  /usr/bin/time -f '%e %M' -o "$work/t" bash -c "$2" >"$work/out.$1"
  cat "$work/t" >> "$work/res.$1"
}
for _ in $(seq "$rounds"); do
  measure grep "grep -c '<UnitTestResult' $stored"
  measure report "$work/runledger report --format json --dir $work/store"
done
[ "$(cat "$work/out.grep")" = "$n" ] || { echo "grep counted $(cat "$work/out.grep"), want $n" >&2; exit 1; }
grep -q "\"tests\": $n," "$work/out.report" || { echo "report does not count $n tests" >&2; exit 1; }
grep -q '"source": "trx"' "$work/out.report" || { echo "report does not read it as trx" >&2; exit 1; }
grep -q "\"name\": \"Test$mid\"" "$work/out.report" || { echo "report does not name the failing Test$mid" >&2; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
gw=$(cut -d' ' -f1 "$work/res.grep" | median); gr=$(cut -d' ' -f2 "$work/res.grep" | median)
rw=$(cut -d' ' -f1 "$work/res.report" | median); rr=$(cut -d' ' -f2 "$work/res.report" | median)
echo "report over a $((bytes >> 20)) MiB TRX file ($n results), median of $rounds rounds, $(nproc) cores"
printf '%-10s %8s %12s\n' side wall_s peak_rss_kib grep "$gw" "$gr" report "$rw" "$rr"
awk -v a="$rw" -v b="$gw" 'BEGIN {printf "wall ratio report/grep: %.2f\n", a/b}'
echo "report peak RSS: $((rr / 1024)) MiB"
