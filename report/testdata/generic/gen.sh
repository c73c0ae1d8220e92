#!/bin/bash
# Regenerates the cases of frameworks runledger has no runner for
# (TestGenericRecall): for every case NAME it writes a small suite with one
# injected regression into a temp directory, runs the real framework under
# `runledger run --dir NAME/store --name NAME --quiet -- CMD`, and checks
# that every root-cause line of NAME/want.json is in the stored log.
#
# Cases: perl-testmore (Test::More run with perl), yath (Test2::Harness),
# tcltest (Tcl), cunit (CUnit's basic mode, verbose), behave (a BDD suite
# whose @xfail scenarios fail as expected before the real failure).
# Needs perl, yath (libtest2-harness-perl), tclsh, gcc with libcunit1-dev,
# behave (python3-behave). Each log is over 16 KiB, its failure in the
# middle, so that neither its first nor its last 8 KiB holds it.
#
# Usage (from the repository root):
#   RUNLEDGER=/tmp/rl report/testdata/generic/gen.sh [CASE...]
set -euo pipefail
out=$(cd "$(dirname "$0")" && pwd)
RL=${RUNLEDGER:-}
if [ -z "$RL" ]; then
	RL=$(mktemp -d)/runledger
	(cd "$out/../../.." && go build -o "$RL" ./cmd/runledger)
fi
# a fixed directory, so that paths in the logs are the same on every run
WORK=/tmp/runledger-generic-corpus
rm -rf "$WORK"
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT

# capture NAME DIR CMD...: runs CMD in DIR under runledger into NAME/store.
capture() {
	local name=$1 dir=$2
	shift 2
	rm -rf "$out/$name/store"
	mkdir -p "$out/$name"
	(cd "$dir" && "$RL" run --dir "$out/$name/store" --name "$name" --quiet -- "$@") || true
	rm -f "$out/$name/store/.lock" "$out/$name/store/"*/tests.tsv.gz
}

# check NAME: every "must" of NAME/want.json is on a line of the stored log.
check() {
	python3 - "$out/$1" <<'PY'
import glob, json, sys
d = sys.argv[1]
text = "".join(open(p, encoding="utf-8", errors="replace").read() for p in glob.glob(d + "/store/*/output.log"))
bad = [m for m in json.load(open(d + "/want.json"))["must"] if m not in text]
for m in bad:
    print("%s: missing %r" % (d, m), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

queue_t() {
	mkdir -p "$1/t"
	cat > "$1/t/queue.t" <<'PL'
use strict; use warnings;
use Test::More;
sub enqueue { my ($q, @x) = @_; push @$q, @x; return scalar @$q }
sub drain { my ($q, $n) = @_; return splice(@$q, 0, $n - 1) }   # injected regression: $n - 1
for my $i (1..450) {
    my @q; enqueue(\@q, 1..$i);
    is(scalar(@q), $i, "enqueue $i items");
}
my @q = (1..5);
my @got = drain(\@q, 3);
is(scalar(@got), 3, 'drain takes n items') or diag "drained: @got";
for my $i (1..400) { ok(1, "peek $i") }
done_testing();
PL
}

case_perl-testmore() {
	local d=$WORK/perl-testmore
	queue_t "$d"
	capture perl-testmore "$d" perl t/queue.t
}

case_yath() {
	local d=$WORK/yath
	queue_t "$d"
	sed -i 's/1\.\.450/1..60/; s/1\.\.400/1..60/' "$d/t/queue.t"
	for i in $(seq 1 8); do
		printf 'use Test::More;\nok(1, "codec %s round-trips $_") for 1..60;\ndone_testing;\n' "$i" > "$d/t/a$i.t"
		printf 'use Test::More;\nok(1, "store %s keeps $_") for 1..60;\ndone_testing;\n' "$i" > "$d/t/z$i.t"
	done
	capture yath "$d" yath test -j1 -v t
}

case_tcltest() {
	local d=$WORK/tcltest
	mkdir -p "$d"
	cat > "$d/all.tcl" <<'TCL'
package require tcltest 2
namespace import ::tcltest::*
configure -verbose {pass start error}
# injected regression: a value above hi is clamped to lo
proc clamp {x lo hi} { if {$x < $lo} {return $lo}; if {$x > $hi} {return $lo}; return $x }
for {set i 0} {$i < 250} {incr i} {
    test clamp-in-$i "clamp keeps $i" -body { clamp $i 0 500 } -result $i
}
test clamp-high "clamp caps at hi" -body { clamp 750 0 500 } -result 500
test clamp-low "clamp floors at lo" -body { clamp -5 0 500 } -result 0
for {set i 0} {$i < 250} {incr i} {
    test str-$i "string $i" -body { string length [string repeat a $i] } -result $i
}
set failed $::tcltest::numTests(Failed)
cleanupTests
exit [expr {$failed > 0}]
TCL
	capture tcltest "$d" tclsh all.tcl
}

case_cunit() {
	local d=$WORK/cunit
	mkdir -p "$d"
	cat > "$d/test_ring.c" <<'C'
#include <CUnit/Basic.h>
#include <stdio.h>

/* injected regression: n - 1 */
static int ring_next(int i, int n) { return (i + 1) % (n - 1); }
static int ring_prev(int i, int n) { return (i + n - 1) % n; }

static void test_next_middle(void) { CU_ASSERT_EQUAL(ring_next(3, 8), 4); }
static void test_next_wraps(void) { CU_ASSERT_EQUAL(ring_next(7, 8), 0); }
static void test_prev(void) { CU_ASSERT_EQUAL(ring_prev(0, 8), 7); }
static void test_many(void)
{
	for (int i = 0; i < 100; i++)
		CU_ASSERT_TRUE(ring_prev(i % 8, 8) >= 0);
}

static char names[800][32];

static void add_many(CU_pSuite s, int from, int to)
{
	for (int k = from; k < to; k++) {
		snprintf(names[k], sizeof names[k], "prev_many_%03d", k);
		CU_add_test(s, names[k], test_many);
	}
}

int main(void)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	CU_pSuite s = CU_add_suite("ring", NULL, NULL);
	add_many(s, 0, 400);
	CU_add_test(s, "next_middle", test_next_middle);
	CU_add_test(s, "next_wraps", test_next_wraps);
	CU_add_test(s, "prev", test_prev);
	add_many(s, 400, 800);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
C
	gcc -o "$d/test_ring" "$d/test_ring.c" -lcunit
	capture cunit "$d" ./test_ring
}

case_behave() {
	local d=$WORK/behave
	mkdir -p "$d/features/steps"
	{
		cat <<'FEATURE'
Feature: Shopping cart

  @xfail
  Scenario Outline: coupon <code> is not supported yet
    Given an empty cart
    When I apply the coupon "<code>"
    Then the total is 0 euros

    Examples:
      | code |
FEATURE
		for i in $(seq -w 0 34); do echo "      | C$i |"; done
		cat <<'FEATURE'

  Scenario: total with tax
    Given an empty cart
    When I add 4 items at 3 euros
    Then the total with 20% tax is 14.40 euros

  Scenario Outline: adding <n> items
    Given an empty cart
    When I add <n> items at 3 euros
    Then the cart holds <n> items

    Examples:
      | n |
FEATURE
		for i in $(seq 1 90); do echo "      | $i |"; done
	} > "$d/features/cart.feature"
	cat > "$d/features/steps/cart.py" <<'PY'
from behave import given, then, when


@given("an empty cart")
def step_empty(context):
    context.items, context.price = 0, 0


@when("I add {n:d} items at {p:d} euros")
def step_add(context, n, p):
    context.items, context.price = context.items + n, p


@when('I apply the coupon "{code}"')
def step_coupon(context, code):
    raise NotImplementedError("coupons: " + code)


@then("the cart holds {n:d} items")
def step_holds(context, n):
    assert context.items == n, "cart holds %d items, expected %d" % (context.items, n)


@then("the total is {t:d} euros")
def step_total(context, t):
    assert context.items * context.price == t


@then("the total with {tax:d}% tax is {t:f} euros")
def step_tax(context, tax, t):
    total = round(context.items * context.price * (1 + tax / 10), 2)  # injected regression: / 10
    assert total == t, "total %.2f, expected %.2f" % (total, t)
PY
	cat > "$d/features/environment.py" <<'PY'
from behave.model_core import Status


def after_scenario(context, scenario):
    # Scenarios tagged @xfail are expected to fail: a failure is reported
    # as XFAIL and the scenario counts as passed.
    if "xfail" in scenario.effective_tags and scenario.status == Status.failed:
        print("    XFAIL: %s (expected to fail)" % scenario.name)
        for step in scenario.steps:
            if step.status in (Status.failed, Status.skipped):
                step.status = Status.passed
        scenario.set_status(Status.passed)
PY
	capture behave "$d" behave --no-color
}

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(perl-testmore yath tcltest cunit behave)
bad=0
for c in "${cases[@]}"; do
	echo "== $c" >&2
	"case_$c"
	check "$c" || bad=1
done
exit $bad
