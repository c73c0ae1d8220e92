#!/usr/bin/env bash
# What --baseline adds to `runledger report` on a run of many tests: a real
# `go test -v` of TESTS table-driven subtests in 20 packages, each logging
# a line with t.Log, run once as the base and once as the head with other
# failures, then `report --format json` of the head alone and with
# `--baseline` the base store, rounds alternating; the medians are
# compared. With valgrind installed, the instructions each executes
# (callgrind, one run each) are compared too: they do not depend on what
# else the machine is doing.
#
#   bench/baseline.sh [TESTS] [ROUNDS]   (default 100000 tests, 5 rounds)
set -euo pipefail
tests=${1:-100000}
rounds=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/runledger-bench.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
bin=${RUNLEDGER:-$work/runledger}
[ -n "${RUNLEDGER:-}" ] || (cd "$root" && go build -o "$bin" ./cmd/runledger)

mod=$work/mod
per=$((tests / 20))
mkdir -p "$mod"
printf 'module example.com/shop\n\ngo 1.22\n' > "$mod/go.mod"
for p in $(seq -w 0 19); do
  mkdir -p "$mod/pkg$p"
  cat > "$mod/pkg$p/checkout_test.go" <<GO
package pkg$p

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestCheckout(t *testing.T) {
	fail := map[string]bool{}
	for _, f := range strings.Split(os.Getenv("RL_FAIL"), ",") {
		fail[f] = true
	}
	for i := range $per {
		name := fmt.Sprintf("case_%06d", i)
		t.Run(name, func(t *testing.T) {
			t.Logf("cart of %d items, coupon %q", i%97, "SAVE10")
			if fail["pkg$p/"+name] {
				t.Errorf("total = %d, want %d", i*100, i*100+1)
			}
		})
	}
}
GO
done
(cd "$mod" && RL_FAIL=pkg03/case_000007,pkg10/case_000500 "$bin" run --quiet --dir "$work/base" --name unit -- go test -count=1 -v ./... || true)
(cd "$mod" && RL_FAIL=pkg10/case_000500,pkg19/case_000001,pkg07/case_000123 "$bin" run --quiet --dir "$work/head" --name unit -- go test -count=1 -v ./... || true)
log=$(ls -d "$work"/head/*/ | head -1)output.log
echo "head log: $(wc -c < "$log") bytes, $(wc -l < "$log") lines"

s=$(date +%s.%N); "$bin" report --dir "$work/head" --format json --baseline "$work/base" > /dev/null; e=$(date +%s.%N)
echo "first comparison, the base store not indexed yet (its report is built, and its index kept): $(echo "$e - $s" | bc)s"
alone=() compared=()
for _ in $(seq "$rounds"); do
  s=$(date +%s.%N); "$bin" report --dir "$work/head" --format json > "$work/alone.json"; e=$(date +%s.%N)
  alone+=("$(echo "$e - $s" | bc)")
  s=$(date +%s.%N); "$bin" report --dir "$work/head" --format json --baseline "$work/base" > "$work/compared.json"; e=$(date +%s.%N)
  compared+=("$(echo "$e - $s" | bc)")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ma=$(median "${alone[@]}") mc=$(median "${compared[@]}")
python3 - "$work/compared.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
r = e["runs"][0]
print("regressions:", e["regressions"], "baseline:", {k: r["baseline"][k] for k in ("state", "tests", "missing")},
      "origins:", r["baseline"].get("origins"))
PY
echo "report alone: median ${ma}s; with --baseline: ${mc}s; ratio $(echo "scale=3; $mc / $ma" | bc)"
if command -v valgrind >/dev/null; then
  # Go preempts with signals, which callgrind cannot follow.
  count() { GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
  ia=$(count "$bin" report --dir "$work/head" --format json)
  ic=$(count "$bin" report --dir "$work/head" --format json --baseline "$work/base")
  echo "instructions: alone $ia, with --baseline $ic, ratio $(echo "scale=3; $ic / $ia" | bc)"
fi
