#!/usr/bin/env bash
# Report memory and speed on a big JUnit file: SIZE_MIB of test cases in
# suites of 1,000, each case with 6 KiB of captured output, one failing in
# the middle, written by the command during the run and read back by
# `runledger report`, against `grep -c` over the same stored copy, in one
# run. The reader streams suite by suite, so its memory is bounded by the
# largest suite (here about 6 MiB), not the file.
#
#   bench/junit.sh [SIZE_MIB] [ROUNDS]   (default 1024 MiB, 3 rounds)
#   RUNLEDGER=/path/to/runledger bench/junit.sh …   (a prebuilt binary)
set -euo pipefail
size_mib=${1:-1024}
rounds=${2:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/runledger-junit.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -n "${RUNLEDGER:-}" ]; then cp "$RUNLEDGER" "$work/runledger"; else go build -o "$work/runledger" "$root/cmd/runledger"; fi

out=$(head -c 6000 /dev/zero | tr '\0' 'x' | fold -w 100)
# one case's bytes, to reach the size asked for
per=$(( ${#out} + 110 ))
n=$(( (size_mib << 20) / per ))
mid=$(( n / 2 ))
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo '<testsuites>'
  awk -v n="$n" -v mid="$mid" -v out="$out" 'BEGIN {
    for (i = 0; i < n; i++) {
      if (i % 1000 == 0) {
        if (i > 0) printf "</testsuite>\n"
        printf "<testsuite name=\"big.Suite%d\" tests=\"%d\">\n", i / 1000, (n - i < 1000) ? n - i : 1000
      }
      printf "<testcase name=\"test%d\" classname=\"big.Suite%d\" time=\"0.001\">", i, i / 1000
      if (i == mid) printf "<failure message=\"expected:&lt;%d&gt; but was:&lt;0&gt;\" type=\"AssertionError\">at big.Suite.test</failure>", i
      printf "<system-out>%s</system-out></testcase>\n", out
    }
    printf "</testsuite>\n"
  }'
  echo '</testsuites>'
} > "$work/big.xml"
bytes=$(wc -c < "$work/big.xml")
(cd "$work" && ./runledger run --quiet --dir "$work/store" --name junit --junit out.xml -- sh -c 'cp big.xml out.xml; exit 1') || true
rm "$work/big.xml" "$work/out.xml"
stored=$(find "$work/store" -name '*out.xml')

measure() { # name, command
  /usr/bin/time -f '%e %M' -o "$work/t" bash -c "$2" >"$work/out.$1"
  cat "$work/t" >> "$work/res.$1"
}
for _ in $(seq "$rounds"); do
  measure grep "grep -c '<testcase' $stored"
  measure report "$work/runledger report --format json --dir $work/store"
done
[ "$(cat "$work/out.grep")" = "$n" ] || { echo "grep counted $(cat "$work/out.grep"), want $n" >&2; exit 1; }
grep -q "\"tests\": $n," "$work/out.report" || { echo "report does not count $n tests" >&2; exit 1; }
grep -q '"source": "junit"' "$work/out.report" || { echo "report does not read it as junit" >&2; exit 1; }
grep -q "\"name\": \"test$mid\"" "$work/out.report" || { echo "report does not name the failing test$mid" >&2; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
gw=$(cut -d' ' -f1 "$work/res.grep" | median); gr=$(cut -d' ' -f2 "$work/res.grep" | median)
rw=$(cut -d' ' -f1 "$work/res.report" | median); rr=$(cut -d' ' -f2 "$work/res.report" | median)
echo "report over a $((bytes >> 20)) MiB JUnit file ($n cases), median of $rounds rounds, $(nproc) cores"
printf '%-10s %8s %12s\n' side wall_s peak_rss_kib grep "$gw" "$gr" report "$rw" "$rr"
awk -v a="$rw" -v b="$gw" 'BEGIN {printf "wall ratio report/grep: %.2f\n", a/b}'
echo "report peak RSS: $((rr / 1024)) MiB"
