#!/usr/bin/env bash
# Regenerates the `native` group of the runner-output corpus: real runners (go test, pytest,
# unittest, cargo, gcc+ASan, prove, plain programs) run on small generated projects with
# injected failures, each captured by runledger into report/testdata/corpus/NAME/store, plus
# NAME/want.json (the root-cause substrings a reader must see).
#
# usage: report/testdata/corpus/gen/native.sh [CASE...]      (no CASE: all cases)
#   RUNLEDGER=/path/to/runledger   use this binary instead of building ./cmd/runledger
#
# The sample projects live in a FIXED directory (/tmp/runledger-corpus-native, wiped first) so
# that absolute paths printed by the runners are the same on every regeneration.
# Needs: go, /usr/bin/python3 with pytest (apt-get install python3-pytest), cargo (offline, no
# crates), gcc with libasan, make, cmake (ctest), perl prove.
set -uo pipefail

GEN=$(cd "$(dirname "$0")" && pwd)
CORPUS=$(dirname "$GEN")
ROOT=$(cd "$CORPUS/../../.." && pwd)
WORK=/tmp/runledger-corpus-native
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

RL=${RUNLEDGER:-}
if [ -z "$RL" ]; then
	RLTMP=$(mktemp -d)
	trap 'rm -rf "$RLTMP"' EXIT
	RL=$RLTMP/runledger
	(cd "$ROOT" && go build -o "$RL" ./cmd/runledger) || { echo "build runledger failed" >&2; exit 2; }
fi

# Reproducible Go output: never "(cached)", English messages, no colour anywhere.
export GOFLAGS=-count=1 GOTOOLCHAIN=local LC_ALL=C.UTF-8 LANG=C.UTF-8 NO_COLOR=1 TERM=dumb
export CARGO_TERM_COLOR=never CARGO_NET_OFFLINE=true RUST_BACKTRACE=0 PYTHONDONTWRITEBYTECODE=1
unset GOCOVERDIR PYTEST_ADDOPTS

errors=0

# w FILE: write stdin to $WORK/FILE (creating directories).
w() { mkdir -p "$(dirname "$WORK/$1")"; cat >"$WORK/$1"; }

# capture NAME SUBDIR COMMAND...: run COMMAND in $WORK/SUBDIR under runledger into NAME/store.
capture() {
	local name=$1 sub=$2
	shift 2
	local store="$CORPUS/$name/store"
	rm -rf "$store"
	mkdir -p "$CORPUS/$name"
	(cd "$WORK/$sub" && "$RL" run --dir "$store" --name "$name" --quiet -- "$@")
	local rc=$?
	rm -f "$store/.lock"
	echo "  $name: exit $rc" >&2
}

# want NAME RUNNER WHY MUST...: write NAME/want.json and check each MUST occurs in the logs.
# MESSAGE, when set, is a JSON object {test: text}: each test's failures[].message must hold text.
want() {
	local name=$1 runner=$2 why=$3
	shift 3
	local run
	run=$(ls -d "$CORPUS/$name/store"/*/ | head -1)
	for m in "$@"; do
		if ! grep -qF -- "$m" "$run/stdout.log" "$run/stderr.log"; then
			echo "  $name: MISSING must: $m" >&2
			errors=$((errors + 1))
		fi
	done
	MESSAGE=${MESSAGE:-} "$PY" - "$CORPUS/$name/want.json" "$runner" "$why" "$@" <<'EOF'
import json, os, sys
out, runner, why, must = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
want = {"runner": runner, "must": must}
if os.environ["MESSAGE"]:
    want["message"] = json.loads(os.environ["MESSAGE"])
want["why"] = why
with open(out, "w") as f:
    json.dump(want, f, indent=2)
    f.write("\n")
EOF
}

gomod() { printf 'module %s\n\ngo 1.26\n' "$2" | w "$1/go.mod"; }

# ---------------------------------------------------------------------------------------------
case_go_plain() {
	local d=go-plain
	gomod $d example.com/shop
	w $d/calc/calc.go <<'EOF'
package calc

// Add returns a+b. Bug: it adds one too many.
func Add(a, b int) int { return a + b + 1 }

// Mul returns a*b.
func Mul(a, b int) int { return a * b }
EOF
	w $d/calc/calc_test.go <<'EOF'
package calc

import "testing"

func TestMul(t *testing.T) {
	if got := Mul(3, 4); got != 12 {
		t.Errorf("Mul(3,4) = %d, want 12", got)
	}
}

func TestAdd(t *testing.T) {
	if got := Add(2, 2); got != 4 {
		t.Errorf("Add(2,2) = %d, want 4", got)
	}
}
EOF
	w $d/strutil/strutil.go <<'EOF'
package strutil

import "strings"

func Shout(s string) string { return strings.ToUpper(s) + "!" }
EOF
	w $d/strutil/strutil_test.go <<'EOF'
package strutil

import "testing"

func TestShout(t *testing.T) {
	if got := Shout("hi"); got != "HI!" {
		t.Errorf("Shout = %q", got)
	}
}
EOF
	w $d/cart/cart.go <<'EOF'
package cart

type Cart struct{ items []int }

func (c *Cart) Put(price int) { c.items = append(c.items, price) }
func (c *Cart) Len() int      { return len(c.items) }
EOF
	w $d/cart/cart_test.go <<'EOF'
package cart

import "testing"

func TestPut(t *testing.T) {
	var c Cart
	c.Put(3)
	if c.Len() != 1 {
		t.Fatal("len")
	}
}
EOF
	capture $d $d go test ./...
	want $d "go test" "calc.Add adds one too many: TestAdd fails with a got/want t.Errorf" \
		"calc_test.go:13: Add(2,2) = 5, want 4" \
		"FAIL	example.com/shop/calc"
}

# ---------------------------------------------------------------------------------------------
case_go_v_subtests() {
	local d=go-v-subtests
	gomod $d example.com/parse
	w $d/parse.go <<'EOF'
package parse

import (
	"strconv"
	"strings"
)

// Parse reads a signed integer. Bug: it drops the minus sign.
func Parse(s string) (int, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "-")
	return strconv.Atoi(s)
}

func Join(xs []string) string { return strings.Join(xs, ",") }
EOF
	w $d/parse_test.go <<'EOF'
package parse

import (
	"fmt"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want int
	}{
		{"zero", "0", 0},
		{"one", "1", 1},
		{"spaces", "  42 ", 42},
		{"negative", "-7", -7},
		{"big", "123456", 123456},
		{"padded", "007", 7},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Logf("parsing %q", c.in)
			got, err := Parse(c.in)
			if err != nil {
				t.Fatalf("Parse(%q) error: %v", c.in, err)
			}
			t.Logf("got %d", got)
			if got != c.want {
				t.Errorf("Parse(%q) = %d, want %d", c.in, got, c.want)
			}
		})
	}
}

func TestJoin(t *testing.T) {
	for n := 0; n < 12; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			xs := make([]string, n)
			for i := range xs {
				xs[i] = fmt.Sprint(i)
			}
			t.Logf("joining %d items", n)
			got := Join(xs)
			t.Logf("result %q", got)
		})
	}
}
EOF
	capture $d $d go test -v ./...
	want $d "go test -v" "Parse drops the minus sign: subtest TestParse/negative gets 7 instead of -7" \
		"parse_test.go:30: Parse(\"-7\") = 7, want -7" \
		"--- FAIL: TestParse/negative"
}

# ---------------------------------------------------------------------------------------------
case_go_v_parallel() {
	local d=go-v-parallel
	gomod $d example.com/fetch
	w $d/fetch.go <<'EOF'
package fetch

import "strings"

// Normalize lower-cases a host. Bug: it keeps a trailing dot.
func Normalize(host string) string { return strings.ToLower(host) }
EOF
	w $d/fetch_test.go <<'EOF'
package fetch

import (
	"testing"
	"time"
)

func check(t *testing.T, in, want string, delay time.Duration) {
	t.Parallel()
	t.Logf("normalizing %s", in)
	time.Sleep(delay)
	got := Normalize(in)
	t.Logf("normalized %s -> %s", in, got)
	time.Sleep(delay)
	if got != want {
		t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
	}
}

func TestLower(t *testing.T)    { check(t, "EXAMPLE.com", "example.com", 30*time.Millisecond) }
func TestMixed(t *testing.T)    { check(t, "Go.Dev", "go.dev", 10*time.Millisecond) }
func TestTrailing(t *testing.T) { check(t, "Example.COM.", "example.com", 20*time.Millisecond) }
func TestPlain(t *testing.T)    { check(t, "plain.org", "plain.org", 25*time.Millisecond) }
func TestUpper(t *testing.T)    { check(t, "UPPER.NET", "upper.net", 15*time.Millisecond) }
EOF
	capture $d $d go test -v -parallel 5 .
	want $d "go test -v" "Normalize keeps the trailing dot: parallel TestTrailing fails" \
		"fetch_test.go:16: Normalize(\"Example.COM.\") = \"example.com.\", want \"example.com\"" \
		"--- FAIL: TestTrailing"
}

# ---------------------------------------------------------------------------------------------
case_go_json() {
	local d=go-json
	gomod $d example.com/money
	w $d/money/money.go <<'EOF'
package money

// Cents converts a price in dollars to cents. Bug: truncates instead of rounding.
func Cents(dollars float64) int { return int(dollars * 100) }
EOF
	w $d/money/money_test.go <<'EOF'
package money

import "testing"

func TestCentsWhole(t *testing.T) {
	if got := Cents(3); got != 300 {
		t.Errorf("Cents(3) = %d, want 300", got)
	}
}

func TestCentsFraction(t *testing.T) {
	t.Log("checking 0.29")
	if got := Cents(0.29); got != 29 {
		t.Errorf("Cents(0.29) = %d, want 29", got)
	}
}
EOF
	w $d/units/units.go <<'EOF'
package units

func KiB(n int) int { return n * 1024 }
EOF
	w $d/units/units_test.go <<'EOF'
package units

import "testing"

func TestKiB(t *testing.T) {
	if KiB(2) != 2048 {
		t.Fatal("KiB")
	}
}
EOF
	capture $d $d go test -json ./...
	want $d "go test -json" "Cents truncates 0.29*100 to 28: TestCentsFraction fails (JSON event stream)" \
		"money_test.go:14: Cents(0.29) = 28, want 29" \
		'"Action":"fail","Package":"example.com/money/money","Test":"TestCentsFraction"'
}

# ---------------------------------------------------------------------------------------------
case_go_panic() {
	local d=go-panic
	gomod $d example.com/table
	w $d/table.go <<'EOF'
package table

var columns = []string{"id", "name", "email"}

// Column returns the name of column i.
func Column(i int) string {
	return columns[i]
}
EOF
	w $d/table_test.go <<'EOF'
package table

import "testing"

func TestColumnFirst(t *testing.T) {
	if Column(0) != "id" {
		t.Fatal("first column")
	}
}

func TestColumnOutOfRange(t *testing.T) {
	name := Column(5)
	t.Log(name)
}

func TestColumnLast(t *testing.T) {
	if Column(2) != "email" {
		t.Fatal("last column")
	}
}
EOF
	capture $d $d go test ./...
	want $d "go test" "Column(5) indexes a 3-element slice: the test binary panics" \
		"panic: runtime error: index out of range [5] with length 3" \
		"example.com/table.Column(...)" \
		"/go-panic/table.go:7" \
		"/go-panic/table_test.go:12"
}

# ---------------------------------------------------------------------------------------------
case_go_race() {
	local d=go-race
	gomod $d example.com/counter
	w $d/counter.go <<'EOF'
package counter

// Counter counts hits. Bug: no lock.
type Counter struct{ n int }

func (c *Counter) Inc()       { c.n++ }
func (c *Counter) Value() int { return c.n }
EOF
	w $d/counter_test.go <<'EOF'
package counter

import (
	"sync"
	"testing"
)

func TestConcurrentInc(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				c.Inc()
			}
		}()
	}
	wg.Wait()
	t.Logf("value %d", c.Value())
}

func TestSharedMap(t *testing.T) {
	m := map[string]int{}
	done := make(chan bool)
	go func() {
		m["a"] = 1
		done <- true
	}()
	m["b"] = 2
	<-done
}
EOF
	capture $d $d go test -race .
	want $d "go test -race" "Counter.Inc and a shared map are written from several goroutines without a lock" \
		"WARNING: DATA RACE" \
		"/go-race/counter.go:6" \
		"/go-race/counter_test.go:28" \
		"race detected during execution of test"
}

# ---------------------------------------------------------------------------------------------
case_go_build_error() {
	local d=go-build-error
	gomod $d example.com/inv
	w $d/stock/stock.go <<'EOF'
package stock

// Total sums the quantities.
func Total(qty []int) int {
	sum := 0
	for _, q := range qty {
		total += q
	}
	return sum
}
EOF
	w $d/stock/stock_test.go <<'EOF'
package stock

import "testing"

func TestTotal(t *testing.T) {
	if Total([]int{1, 2}) != 3 {
		t.Fatal("total")
	}
}
EOF
	w $d/label/label.go <<'EOF'
package label

func For(sku string) string { return "SKU-" + sku }
EOF
	w $d/label/label_test.go <<'EOF'
package label

import "testing"

func TestFor(t *testing.T) {
	if For("1") != "SKU-1" {
		t.Fatal("label")
	}
}
EOF
	capture $d $d go test ./...
	want $d "go test" "stock.go uses an undeclared variable total: package stock does not compile" \
		"stock/stock.go:7:3: undefined: total" \
		"FAIL	example.com/inv/stock [build failed]"
}

# ---------------------------------------------------------------------------------------------
# go-large-*: ~3000 top-level tests with 10 t.Log lines each; one failure at FAILAT.
gen_large() {
	local d=$1 failat=$2
	gomod $d example.com/large
	w $d/large.go <<'EOF'
package large

// Checksum folds a record id into a small checksum.
func Checksum(id int) int {
	if id == 0 {
		return 0
	}
	return (id*7919 + 17) % 1000003
}
EOF
	"$PY" - "$WORK/$d/large_test.go" "$failat" <<'EOF'
import sys
out, failat = sys.argv[1], int(sys.argv[2])
lines = ['package large', '', 'import "testing"', '']
for i in range(1, 3001):
    want = 'Checksum(%d)' % i if i != failat else '(%d*7919 + 71) %% 1000003' % i
    lines += [
        'func TestRecord%04d(t *testing.T) {' % i,
        '\tt.Logf("record %%04d: opening segment file segment-%%04d.dat for verification", %d, %d)' % (i, i),
        '\tt.Logf("record %%04d: read header magic=0x52554e4c version=3 flags=0x%%04x", %d, %d)' % (i, i * 31 % 65536),
        '\tt.Logf("record %%04d: payload length %%d bytes, %%d chunks, compression=none", %d, %d, %d)' % (i, i * 13, i % 7 + 1),
        '\tt.Logf("record %%04d: chunk table verified, offsets monotonic, no gaps detected", %d)' % i,
        '\tt.Logf("record %%04d: computing checksum over %%d bytes with polynomial 0x1edc6f41", %d, %d)' % (i, i * 13),
        '\tt.Logf("record %%04d: checksum computed, comparing with stored trailer value", %d)' % i,
        '\tt.Logf("record %%04d: index entries cross-checked against the segment directory", %d)' % i,
        '\tt.Logf("record %%04d: replica a: segment-%%04d.dat present, mtime ok, size %%d", %d, %d, %d)' % (i, i, i * 13 + 64),
        '\tt.Logf("record %%04d: metadata block flushed, fsync ok, lease renewed for 30s", %d)' % i,
        '\tgot, want := Checksum(%d), %s' % (i, want),
        '\tif got != want {',
        '\t\tt.Errorf("Checksum(%d) = %%d, want %%d (stored trailer mismatch)", got, want)' % i,
        '\t}',
        '\tt.Logf("record %%04d: done", %d)' % i,
        '}',
        '',
    ]
open(out, 'w').write('\n'.join(lines))
EOF
}

# Line of the t.Errorf in TestRecordN: 4 header lines, 17 lines per test, Errorf is the 13th.
large_errline() { echo $((4 + ($1 - 1) * 17 + 13)); }

case_go_large() {
	local which=$1 failat=$2 d=go-large-$1
	gen_large $d "$failat"
	capture $d $d go test -v .
	local n
	n=$(printf '%04d' "$failat")
	local want_v=$(((failat * 7919 + 71) % 1000003)) got_v=$(((failat * 7919 + 17) % 1000003))
	# The assertion, not the first of the test's ten t.Log lines.
	MESSAGE="{\"TestRecord$n\": \"Checksum($failat) = $got_v, want $want_v\"}" \
		want $d "go test -v" "TestRecord$n (at the $which of 3000 verbose tests) gets a checksum mismatch" \
		"large_test.go:$(large_errline "$failat"): Checksum($failat) = $got_v, want $want_v (stored trailer mismatch)" \
		"--- FAIL: TestRecord$n"
}

# ---------------------------------------------------------------------------------------------
case_go_spread() {
	local d=go-spread
	gomod $d example.com/spread
	local p
	for p in alpha bravo charlie delta echo foxtrot; do
		w $d/$p/$p.go <<EOF
package $p

func Double(x int) int { return x * 2 }

func Name() string { return "$p" }
EOF
		w $d/$p/${p}_test.go <<EOF
package $p

import "testing"

func TestDouble(t *testing.T) {
	if Double(21) != 42 {
		t.Fatal("double")
	}
}

func TestName(t *testing.T) {
	if Name() != "$p" {
		t.Fatal("name")
	}
}
EOF
	done
	w $d/bravo/bravo_extra_test.go <<'EOF'
package bravo

import "testing"

func TestHalf(t *testing.T) {
	if got := Double(5) / 4; got != 2 {
		t.Errorf("Double(5)/4 = %d, want 2", got)
	}
	if got := Double(3); got != 7 {
		t.Errorf("Double(3) = %d, want 7", got)
	}
}
EOF
	w $d/delta/delta_extra_test.go <<'EOF'
package delta

import (
	"strings"
	"testing"
)

func TestUpperName(t *testing.T) {
	got := strings.ToUpper(Name())
	if got != "DELTA!" {
		t.Fatalf("upper name = %q, want %q", got, "DELTA!")
	}
}
EOF
	w $d/foxtrot/foxtrot_extra_test.go <<'EOF'
package foxtrot

import "testing"

func TestTable(t *testing.T) {
	for _, in := range []int{1, 2, 3} {
		if got := Double(in); got%4 != 0 {
			t.Errorf("Double(%d) = %d, not a multiple of 4", in, got)
		}
	}
}
EOF
	capture $d $d go test ./...
	want $d "go test" "three of six packages fail: bravo TestHalf, delta TestUpperName, foxtrot TestTable" \
		"bravo_extra_test.go:10: Double(3) = 6, want 7" \
		"delta_extra_test.go:11: upper name = \"DELTA\", want \"DELTA!\"" \
		"foxtrot_extra_test.go:8: Double(1) = 2, not a multiple of 4" \
		"foxtrot_extra_test.go:8: Double(3) = 6, not a multiple of 4"
}

# ---------------------------------------------------------------------------------------------
case_pytest_basic() {
	local d=pytest-basic
	w $d/calc.py <<'EOF'
def add(a, b):
    return a + b + 1


def mul(a, b):
    return a * b
EOF
	w $d/test_calc.py <<'EOF'
from calc import add, mul


def test_add():
    assert add(2, 2) == 4


def test_mul():
    assert mul(3, 4) == 12
EOF
	capture $d $d "$PY" -m pytest -p no:cacheprovider
	want $d "pytest" "calc.add adds one too many: test_add asserts 5 == 4" \
		"E       assert 5 == 4" \
		"test_calc.py:5: AssertionError" \
		"FAILED test_calc.py::test_add - assert 5 == 4"
}

case_pytest_multi() {
	local d=pytest-multi
	w $d/inventory.py <<'EOF'
class OutOfStock(Exception):
    pass


STOCK = {"apple": 3, "pear": 0}


def take(item, n):
    have = STOCK.get(item, 0)
    if have < n:
        raise OutOfStock(f"cannot take {n} {item}: only {have} left")
    STOCK[item] = have - n
    return STOCK[item]


def price(item):
    return {"apple": 50, "pear": 70}[item]
EOF
	w $d/test_inventory.py <<'EOF'
import inventory


def test_take_apple():
    assert inventory.take("apple", 1) == 2


def test_take_pear():
    assert inventory.take("pear", 1) == 0


def test_price_pear():
    assert inventory.price("pear") == 75
EOF
	w $d/test_format.py <<'EOF'
def fmt_price(cents):
    return "$%d.%d" % (cents // 100, cents % 100)


def test_fmt_whole():
    assert fmt_price(300) == "$3.00"


def test_fmt_cents():
    assert fmt_price(1250) == "$12.50"
EOF
	capture $d $d "$PY" -m pytest -p no:cacheprovider
	MESSAGE='{"test_price_pear": "AssertionError: assert 70 == 75", "test_take_pear": "OutOfStock: cannot take 1 pear: only 0 left"}' \
		want $d "pytest" "3 failures in 2 files: OutOfStock raised from inventory.take, wrong pear price, fmt_price drops zero padding" \
		"E           inventory.OutOfStock: cannot take 1 pear: only 0 left" \
		"inventory.py:11: OutOfStock" \
		"E       AssertionError: assert 70 == 75" \
		"test_inventory.py:13: AssertionError" \
		"E       AssertionError: assert '\$3.0' == '\$3.00'" \
		"test_format.py:6: AssertionError"
}

case_pytest_collect_error() {
	local d=pytest-collect-error
	w $d/app.py <<'EOF'
def compute_subtotal(items):
    return sum(items)
EOF
	w $d/test_app.py <<'EOF'
import pytest

from app import compute_total


def test_total():
    assert compute_total([1, 2]) == 3
EOF
	w $d/test_ok.py <<'EOF'
def test_ok():
    assert True
EOF
	capture $d $d "$PY" -m pytest -p no:cacheprovider
	want $d "pytest" "test_app.py imports compute_total, which app.py does not define: collection error" \
		"ERROR collecting test_app.py" \
		"test_app.py:3: in <module>" \
		"E   ImportError: cannot import name 'compute_total' from 'app'"
}

case_pytest_large() {
	local d=pytest-large
	w $d/codec.py <<'EOF'
def encode(n):
    s = format(n, "x")
    if n == 1500:
        return s.upper()
    return s
EOF
	w $d/test_codec.py <<'EOF'
import pytest

from codec import encode


@pytest.mark.parametrize("n", range(3000))
def test_encode_roundtrip(n):
    assert int(encode(n), 16) == n
    assert encode(n) == format(n, "x")
EOF
	capture $d $d "$PY" -m pytest -p no:cacheprovider -v
	want $d "pytest -v" "encode(1500) returns upper-case hex: one of 3000 parametrized tests fails" \
		"_ test_encode_roundtrip[1500] _" \
		"E       AssertionError: assert '5DC' == '5dc'" \
		"test_codec.py:9: AssertionError"
}

# ---------------------------------------------------------------------------------------------
case_unittest() {
	local d=unittest
	w $d/shapes.py <<'EOF'
import math


def area(r):
    return round(math.pi * r * r, 2)


def perimeter(sides):
    return sum(sides) / len(sides) * len(sides)


def parse_size(text):
    w, h = text.split("x")
    return int(w), int(h)
EOF
	w $d/test_shapes.py <<'EOF'
import unittest

import shapes


class ShapesTest(unittest.TestCase):
    def test_area(self):
        self.assertEqual(shapes.area(1), 3.14)

    def test_area_two(self):
        self.assertEqual(shapes.area(2), 12.56)

    def test_perimeter_empty(self):
        self.assertEqual(shapes.perimeter([]), 0)

    def test_parse_size(self):
        self.assertEqual(shapes.parse_size("3x4"), (3, 4))


if __name__ == "__main__":
    unittest.main()
EOF
	capture $d $d "$PY" -m unittest -v
	want $d "python -m unittest" "area(2) rounds to 12.57 not 12.56 (FAIL); perimeter([]) divides by zero (ERROR)" \
		"AssertionError: 12.57 != 12.56" \
		"test_shapes.py\", line 11, in test_area_two" \
		"ZeroDivisionError: division by zero" \
		"shapes.py\", line 9, in perimeter"
}

case_stderr_traceback() {
	local d=stderr-traceback
	w $d/migrate.py <<'EOF'
import json
import sys

ROWS = [{"id": i, "email": "user%d@example.com" % i} for i in range(250)]
ROWS[199]["email"] = None


def normalize(row):
    local, domain = row["email"].split("@")
    return {"id": row["id"], "email": local.lower() + "@" + domain}


def main():
    out = []
    for i, row in enumerate(ROWS):
        print("migrating row %d/%d id=%d" % (i + 1, len(ROWS), row["id"]))
        sys.stdout.flush()
        out.append(normalize(row))
    json.dump(out, sys.stdout)


main()
EOF
	capture $d $d "$PY" migrate.py
	want $d "python (no runner)" "after 200 progress lines on stdout, row id=199 has email None: normalize() calls .split on None" \
		"AttributeError: 'NoneType' object has no attribute 'split'" \
		"migrate.py\", line 9, in normalize" \
		"migrating row 200/250 id=199"
}

# ---------------------------------------------------------------------------------------------
case_cargo_fail() {
	local d=cargo-fail
	w $d/Cargo.toml <<'EOF'
[package]
name = "geometry"
version = "0.1.0"
edition = "2021"
EOF
	w $d/src/lib.rs <<'EOF'
pub fn area(w: u32, h: u32) -> u32 {
    w * h
}

pub fn perimeter(w: u32, h: u32) -> u32 {
    w + h + w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_works() {
        assert_eq!(area(3, 4), 12);
    }

    #[test]
    fn perimeter_works() {
        assert_eq!(perimeter(3, 4), 14, "perimeter of a 3x4 rectangle");
    }
}
EOF
	capture $d $d cargo test --offline
	want $d "cargo test" "perimeter adds h once instead of twice: assert_eq! 10 vs 14" \
		"panicked at src/lib.rs:20:9:" \
		"assertion \`left == right\` failed: perimeter of a 3x4 rectangle" \
		"  left: 10" \
		" right: 14"
}

case_cargo_compile_error() {
	local d=cargo-compile-error
	w $d/Cargo.toml <<'EOF'
[package]
name = "config"
version = "0.1.0"
edition = "2021"
EOF
	w $d/src/lib.rs <<'EOF'
pub struct Config {
    pub port: u16,
    pub host: String,
}

pub fn default_config() -> Config {
    Config {
        port: "8080",
        host: String::from("localhost"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn port() {
        assert_eq!(super::default_config().port, 8080);
    }
}
EOF
	capture $d $d cargo test --offline
	want $d "cargo test" "port is a u16 but is given the string \"8080\": the crate does not compile" \
		"error[E0308]: mismatched types" \
		"--> src/lib.rs:8:15" \
		"expected \`u16\`, found \`&str\`"
}

case_cargo_workspace() {
	local d=cargo-workspace
	w $d/Cargo.toml <<'EOF'
[workspace]
members = ["core", "text", "cli"]
resolver = "2"
EOF
	w $d/core/Cargo.toml <<'EOF'
[package]
name = "core-math"
version = "0.1.0"
edition = "2021"
EOF
	w $d/core/src/lib.rs <<'EOF'
pub fn clamp(x: i32, lo: i32, hi: i32) -> i32 {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clamps() {
        assert_eq!(super::clamp(5, 0, 3), 3);
        assert_eq!(super::clamp(-1, 0, 3), 0);
    }
}
EOF
	w $d/text/Cargo.toml <<'EOF'
[package]
name = "text"
version = "0.1.0"
edition = "2021"
EOF
	w $d/text/src/lib.rs <<'EOF'
/// Truncates s to at most n characters, adding an ellipsis.
pub fn truncate(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_string();
    }
    let mut out: String = s.chars().take(n).collect();
    out.push_str("...");
    out
}

#[cfg(test)]
mod tests {
    use super::truncate;

    #[test]
    fn short_is_unchanged() {
        assert_eq!(truncate("abc", 5), "abc");
    }

    #[test]
    fn long_is_cut() {
        let got = truncate("abcdefgh", 5);
        assert!(got.len() <= 5, "truncate returned {:?} ({} bytes), limit 5", got, got.len());
    }
}
EOF
	w $d/cli/Cargo.toml <<'EOF'
[package]
name = "cli"
version = "0.1.0"
edition = "2021"
EOF
	w $d/cli/src/main.rs <<'EOF'
fn banner(name: &str) -> String {
    format!("== {} ==", name)
}

fn main() {
    println!("{}", banner("cli"));
}

#[cfg(test)]
mod tests {
    #[test]
    fn banner() {
        assert_eq!(super::banner("x"), "== x ==");
    }
}
EOF
	capture $d $d cargo test --offline --workspace
	want $d "cargo test" "text::truncate appends the ellipsis past the limit: long_is_cut fails in crate text" \
		"panicked at text/src/lib.rs:23:9:" \
		"truncate returned \"abcde...\" (8 bytes), limit 5" \
		"---- tests::long_is_cut stdout ----"
}

# ---------------------------------------------------------------------------------------------
case_c_asan() {
	local d=c-asan
	w $d/Makefile <<'EOF'
CC = gcc
CFLAGS = -g -O0 -Wall -fsanitize=address -fno-omit-frame-pointer

all: run

crash: crash.c util.o
	$(CC) $(CFLAGS) -o crash crash.c util.o

util.o: util.c
	$(CC) $(CFLAGS) -c util.c

run: crash
	./crash

.PHONY: all run
EOF
	w $d/util.c <<'EOF'
#include <stdio.h>

void log_step(const char *what) { printf("step: %s\n", what); fflush(stdout); }
EOF
	w $d/crash.c <<'EOF'
#include <stdlib.h>
#include <string.h>

void log_step(const char *what);

static void fill(int *buf, int n) {
	for (int i = 0; i <= n; i++) {
		buf[i] = i * i;
	}
}

int main(void) {
	log_step("allocating");
	int *squares = malloc(8 * sizeof(int));
	log_step("filling");
	fill(squares, 8);
	log_step("done");
	free(squares);
	return 0;
}
EOF
	capture $d $d make
	want $d "make + AddressSanitizer" "fill() writes buf[n] (off by one, i <= n) past an 8-int malloc" \
		"ERROR: AddressSanitizer: heap-buffer-overflow" \
		"WRITE of size 4" \
		"in fill /tmp/runledger-corpus-native/c-asan/crash.c:8" \
		"in main /tmp/runledger-corpus-native/c-asan/crash.c:16"
}

case_c_segv() {
	local d=c-segv
	w $d/segv.c <<'EOF'
#include <stdio.h>
#include <string.h>

struct node { int value; struct node *next; };

int main(void) {
	struct node c = {3, NULL}, b = {2, &c}, a = {1, &b};
	struct node *p = &a;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("walking list\n");
	for (int i = 0; i < 5; i++) {
		printf("node %d value %d\n", i, p->value);
		p = p->next;
	}
	return 0;
}
EOF
	(cd "$WORK/$d" && gcc -g -O0 -o segv segv.c)
	capture $d $d sh -c ./segv
	want $d "sh (no runner)" "the list has 3 nodes but the loop walks 5: NULL dereference after node 2" \
		"node 2 value 3" \
		"Segmentation fault"
}

# ---------------------------------------------------------------------------------------------
case_prove_tap() {
	local d=prove-tap
	w $d/lib/Slug.pm <<'EOF'
package Slug;
use strict;
use warnings;

sub slugify {
    my ($s) = @_;
    $s = lc $s;
    $s =~ s/[^a-z0-9]+/-/g;
    return $s;
}

1;
EOF
	w $d/t/slug.t <<'EOF'
use strict;
use warnings;
use Test::More tests => 4;
use lib 'lib';
use Slug;

is(Slug::slugify('Hello World'), 'hello-world', 'simple words');
is(Slug::slugify('abc'), 'abc', 'already a slug');
is(Slug::slugify('  Trim me!  '), 'trim-me', 'trims leading and trailing separators');
ok(length(Slug::slugify('x' x 10)) == 10, 'length kept');
EOF
	w $d/t/basic.t <<'EOF'
use strict;
use warnings;
use Test::More tests => 2;

ok(1, 'loads');
is(1 + 1, 2, 'arithmetic');
EOF
	capture $d $d prove -v t/
	MESSAGE="{\"t/slug.t\": \"Failed test 'trims leading and trailing separators' at t/slug.t line 9: got: '-trim-me-'; expected: 'trim-me'\"}" \
		want $d "prove (TAP)" "slugify keeps leading/trailing dashes: is() got '-trim-me-' expected 'trim-me'" \
		"#   Failed test 'trims leading and trailing separators'" \
		"#   at t/slug.t line 9." \
		"#          got: '-trim-me-'" \
		"#     expected: 'trim-me'"
}

# ---------------------------------------------------------------------------------------------
case_go_signal_small() {
	local d=go-signal-small
	gomod $d example.com/worker
	w $d/main.go <<'EOF'
package main

import (
	"fmt"
	"syscall"
)

func main() {
	for _, item := range []int{7, 19, 42} {
		fmt.Printf("processing item %d\n", item)
		if item == 42 {
			// Simulates the OOM killer or an external kill -9.
			syscall.Kill(syscall.Getpid(), syscall.SIGKILL)
		}
	}
	fmt.Println("all items processed")
}
EOF
	capture $d $d go run .
	want $d "go run" "the program is killed by SIGKILL right after printing item 42" \
		"processing item 42" \
		"signal: killed"
}

case_unknown_runner() {
	local d=unknown-runner
	w $d/check.sh <<'EOF'
#!/bin/sh
i=0
while [ $i -lt 3000 ]; do
	echo "[widget-suite] tick $i: layout pass ok, 12 nodes measured, cache hit ratio 0.93"
	i=$((i + 1))
done
echo "FAIL: test_widget_resize expected 640 got 480"
while [ $i -lt 6000 ]; do
	echo "[widget-suite] tick $i: layout pass ok, 12 nodes measured, cache hit ratio 0.93"
	i=$((i + 1))
done
exit 1
EOF
	chmod +x "$WORK/$d/check.sh"
	capture $d $d ./check.sh
	want $d "unknown (shell script)" "a home-grown runner prints one FAIL line between 6000 lines of noise" \
		"FAIL: test_widget_resize expected 640 got 480"
}

# ---------------------------------------------------------------------------------------------
case_go_multi_panic() {
	local d=go-multi-panic
	gomod $d example.com/plugins
	for p in alpha gamma; do
		w $d/$p/${p}_test.go <<EOF
package $p

import (
	"fmt"
	"testing"
)

func TestLoad(t *testing.T) {
	for i := 0; i < 1500; i++ {
		t.Run(fmt.Sprintf("plugin%04d", i), func(t *testing.T) { t.Logf("loaded plugin %d of 1500", i) })
	}
}
EOF
	done
	w $d/beta/registry_test.go <<'EOF'
package beta

import (
	"testing"
	"time"
)

type registry struct{ byName map[string]int }

func (r *registry) add(name string) { r.byName[name]++ }

func TestSlowLookup(t *testing.T) { t.Parallel(); time.Sleep(50 * time.Millisecond) }

func TestRegisterTwice(t *testing.T) {
	t.Parallel()
	var r registry // the map is never made
	time.Sleep(10 * time.Millisecond)
	r.add("alpha")
}
EOF
	capture $d $d go test -v ./...
	want $d "go test -v" "three packages run; beta's TestRegisterTwice (parallel, no output of its own) writes to a nil map and panics between two packages of 1500 logging subtests" \
		"--- FAIL: TestRegisterTwice" \
		"panic: assignment to entry in nil map" \
		"go-multi-panic/beta/registry_test.go:18"
}

# ---------------------------------------------------------------------------------------------
case_prove_parallel() {
	local d=prove-parallel
	w $d/lib/Conf.pm <<'EOF'
package Conf;
use strict;
use warnings;
use JSON::PP;

sub parse {
    my ($text) = @_;
    return JSON::PP->new->decode($text);
}

1;
EOF
	w $d/t/conf.t <<'EOF'
use strict;
use warnings;
use Test::More tests => 6;
use lib 'lib';
use Conf;

for my $i (1 .. 4) {
    is(Conf::parse(qq({"n": $i}))->{n}, $i, "number $i round-trips");
}
my $c = eval { Conf::parse('{"name": "api"} {"name": "web"}') };
ok(defined $c, 'two documents in one file are read') or diag("parse error: $@");
is(Conf::parse('{"port": 8080}')->{port}, 8080, 'port');
EOF
	for i in $(seq 1 60); do
		w $d/t/basic$i.t <<EOF
use strict;
use warnings;
use Test::More tests => 12;
ok(1, 'loads $i') for 1 .. 4;
is(1 + $i, $i + 1, 'arithmetic $i') for 1 .. 4;
like("v$i", qr/^v\d/, 'version $i') for 1 .. 4;
EOF
	done
	capture $d $d prove -v -j2 t/
	MESSAGE='{"t/conf.t": "Failed test '"'"'two documents in one file are read'"'"' at t/conf.t line 11: parse error: garbage after JSON object"}' \
		want $d "prove -v -j2 (TAP)" "Conf::parse reads one JSON document; test 5 of t/conf.t gives it two: not ok on stdout, its diagnostics on stderr, among 60 passing files run two at a time" \
		"not ok 5 - two documents in one file are read" \
		"#   Failed test 'two documents in one file are read'" \
		"# parse error: garbage after JSON object, at character offset 17"
}

# ---------------------------------------------------------------------------------------------
case_logger_error() {
	local d=logger-error
	w $d/ingest.py <<'EOF'
import errno
import logging
import os
import sys

logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                    format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("worker")
storage = logging.getLogger("storage")


def write(seg):
    if seg == 1717:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "/var/lib/ingest/seg-%d" % seg)


for seg in range(3000):
    try:
        write(seg)
        log.info("segment %d of 3000 written, 512 records, checksum ok", seg)
    except OSError as e:
        storage.error("write %s failed: %s", e.filename, e.strerror)
        failed = seg
log.critical("giving up: segment %d was not written", failed)
sys.exit(2)
EOF
	capture $d $d "$PY" ingest.py
	want $d "python logging (no runner)" "an ingest script logs 3000 INFO lines with time stamps; one ERROR line deep inside says why it exits 2" \
		"ERROR storage: write /var/lib/ingest/seg-1717 failed: No space left on device" \
		"CRITICAL worker: giving up: segment 1717 was not written"
}

# ---------------------------------------------------------------------------------------------
case_ctest_asan() {
	local d=ctest-asan
	w $d/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(ringbuf C)
enable_testing()
add_compile_options(-fsanitize=address -fno-omit-frame-pointer -g)
add_link_options(-fsanitize=address)
add_library(ring ring.c)
add_executable(test_pop test_pop.c)
target_link_libraries(test_pop ring)
foreach(n RANGE 1 400)
  add_test(NAME pop_${n} COMMAND test_pop ${n})
endforeach()
add_executable(test_wrap test_wrap.c)
target_link_libraries(test_wrap ring)
add_test(NAME wrap COMMAND test_wrap)
EOF
	w $d/ring.h <<'EOF'
#ifndef RING_H
#define RING_H
typedef struct { int *buf; int cap, head, len; } ring;
ring *ring_new(int cap);
void ring_push(ring *r, int v);
int ring_pop(ring *r);
void ring_free(ring *r);
#endif
EOF
	w $d/ring.c <<'EOF'
#include <stdlib.h>
#include "ring.h"

ring *ring_new(int cap) {
	ring *r = calloc(1, sizeof *r);
	r->buf = malloc(sizeof(int) * cap);
	r->cap = cap;
	return r;
}

void ring_push(ring *r, int v) {
	/* wraps at cap + 1: the last push writes one element past the buffer */
	r->buf[(r->head + r->len) % (r->cap + 1)] = v;
	if (r->len < r->cap) r->len++;
}

int ring_pop(ring *r) {
	int v = r->buf[r->head];
	r->head = (r->head + 1) % r->cap;
	r->len--;
	return v;
}

void ring_free(ring *r) { free(r->buf); free(r); }
EOF
	w $d/test_pop.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include "ring.h"
int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) % 8 + 1 : 4;
	ring *r = ring_new(8);
	for (int i = 0; i < n; i++) ring_push(r, i);
	for (int i = 0; i < n; i++) if (ring_pop(r) != i) { printf("pop %d wrong\n", i); return 1; }
	ring_free(r);
	return 0;
}
EOF
	w $d/test_wrap.c <<'EOF'
#include <stdio.h>
#include "ring.h"
int main(void) {
	ring *r = ring_new(8);
	for (int i = 0; i < 9; i++) { printf("push %d\n", i); ring_push(r, i); }
	ring_free(r);
	return 0;
}
EOF
	(cd "$WORK/$d" && cmake -S . -B build >/dev/null && cmake --build build >/dev/null) || { echo "  $d: build failed" >&2; errors=$((errors + 1)); return; }
	capture $d $d/build ctest --output-on-failure
	MESSAGE='{"wrap": "ERROR: AddressSanitizer: heap-buffer-overflow"}' \
		want $d "ctest + AddressSanitizer" "ring_push wraps at cap+1: test wrap's ninth push writes past the heap buffer, among 400 passing ctest tests" \
		"ERROR: AddressSanitizer: heap-buffer-overflow" \
		"in ring_push /tmp/runledger-corpus-native/ctest-asan/ring.c:13" \
		"SUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/runledger-corpus-native/ctest-asan/ring.c:13 in ring_push"
}

# ---------------------------------------------------------------------------------------------
ALL=(go-plain go-v-subtests go-v-parallel go-json go-panic go-race go-build-error
	go-large-start go-large-middle go-large-end go-spread
	pytest-basic pytest-multi pytest-collect-error pytest-large unittest stderr-traceback
	cargo-fail cargo-compile-error cargo-workspace c-asan c-segv prove-tap
	go-signal-small unknown-runner go-multi-panic prove-parallel logger-error ctest-asan)

run_case() {
	case $1 in
	go-large-start) case_go_large start 1 ;;
	go-large-middle) case_go_large middle 1500 ;;
	go-large-end) case_go_large end 3000 ;;
	*) "case_${1//-/_}" ;;
	esac
}

rm -rf "$WORK"
mkdir -p "$WORK"
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=("${ALL[@]}")
for c in "${cases[@]}"; do
	echo "case $c" >&2
	run_case "$c"
done
rm -rf "$WORK"
if [ $errors -gt 0 ]; then
	echo "native.sh: $errors must-strings not found" >&2
	exit 1
fi
