#!/bin/bash
# Regenerates the cases of frameworks runledger has no runner for
# (TestGenericRecall): for every case NAME it writes a small suite with one
# injected regression into a temp directory, runs the real framework under
# `runledger run --dir NAME/store --name NAME --quiet -- CMD`, and checks
# that every root-cause line of NAME/want.json is in the stored log.
#
# Cases: perl-testmore (Test::More run with perl), yath (Test2::Harness),
# tcltest (Tcl), cunit (CUnit's basic mode, verbose), behave (a BDD suite
# whose @xfail scenarios fail as expected before the real failure), bats
# (bats-core with bats-assert, its default TAP output off a terminal),
# shunit2 (four test files run by a runner script, in shunit2's colours),
# busted (Lua, its default plainTerminal output off a terminal), testthat
# (R, test_dir's default progress reporter, edition 3 from DESCRIPTION),
# check (libcheck, CK_VERBOSE), test-unit (Ruby's test-unit gem, its
# default progress marks and details shown at once).
# Needs perl, yath (libtest2-harness-perl), tclsh, gcc with libcunit1-dev,
# behave (python3-behave), bats with bats-assert and bats-support, shunit2,
# busted (lua-busted), Rscript with testthat (r-cran-testthat), check with
# pkg-config, ruby with test-unit (ruby-test-unit). Each log is over 16
# KiB, its failure in the middle, so that neither its first nor its last
# 8 KiB holds it — but busted's, which prints every failure after the
# run's progress, at the end (and perl-testmore's, whose stderr lands
# there). The cases share one work directory: run one gen.sh at a time.
#
# The passing controls (TestGenericPassing) are the bats and busted suites
# without their regression, under ../generic-passing:
#   RUNLEDGER=/tmp/rl report/testdata/generic/gen.sh bats-pass busted-pass
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
# The cases' root is $out; a passing control's is ../generic-passing (ROOT).
capture() {
	local name=$1 dir=$2 root=${ROOT:-$out}
	shift 2
	rm -rf "${root:?}/$name/store"
	mkdir -p "$root/$name"
	(cd "$dir" && "$RL" run --dir "$root/$name/store" --name "$name" --quiet -- "$@") || true
	rm -f "$root/$name/store/.lock" "$root/$name/store/"*/tests.tsv.gz
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

# passed NAME: the passing control NAME exited 0.
passed() {
	python3 - "$out/../generic-passing/$1" <<'PY'
import glob, json, sys
d = sys.argv[1]
codes = [json.load(open(p))["exit_code"] for p in glob.glob(d + "/store/*/record.json")]
if codes != [0]:
    print("%s: exit codes %r, want [0]" % (d, codes), file=sys.stderr)
    sys.exit(1)
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

# semver_project DIR REGRESSION: a bash tool (bin/semver, lib/semver.bash)
# with its bats suite as bats-core's tutorial lays one out: test/*.bats
# loading bats-support and bats-assert through test_helper/common-setup.
# With REGRESSION=yes a minor bump keeps the patch.
semver_project() {
	local d=$1 regression=$2
	mkdir -p "$d/bin" "$d/lib" "$d/test/test_helper"
	cat > "$d/lib/semver.bash" <<'SH'
# semver.bash: parse, compare and bump semantic versions.

# semver_parse VERSION: prints "MAJOR MINOR PATCH PRERELEASE".
semver_parse() {
	local v=${1#v}
	if [[ ! $v =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)(-([0-9A-Za-z.-]+))?$ ]]; then
		echo "semver: invalid version: $1" >&2
		return 1
	fi
	echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]} ${BASH_REMATCH[5]}"
}

# semver_compare A B: prints -1, 0 or 1.
semver_compare() {
	local a b i
	read -r -a a <<< "$(semver_parse "$1")" || return 1
	read -r -a b <<< "$(semver_parse "$2")" || return 1
	for i in 0 1 2; do
		if ((a[i] < b[i])); then echo -1; return; fi
		if ((a[i] > b[i])); then echo 1; return; fi
	done
	echo 0
}

# semver_bump PART VERSION: the next major, minor or patch version.
semver_bump() {
	local major minor patch pre
	read -r major minor patch pre <<< "$(semver_parse "$2")" || return 1
	[ -n "$major" ] || return 1
	case $1 in
	major) echo "$((major + 1)).0.0" ;;
	minor) echo "$major.$((minor + 1)).0" ;;
	patch) echo "$major.$minor.$((patch + 1))" ;;
	*)
		echo "semver: unknown part: $1" >&2
		return 2
		;;
	esac
}
SH
	if [ "$regression" = yes ]; then
		# injected regression: a minor bump keeps the patch
		sed -i 's/minor) echo "$major.$((minor + 1)).0" ;;/minor) echo "$major.$((minor + 1)).$patch" ;;/' "$d/lib/semver.bash"
		grep -q 'minor + 1)).$patch' "$d/lib/semver.bash"
	fi
	cat > "$d/bin/semver" <<'SH'
#!/usr/bin/env bash
set -eu
. "$(dirname "$0")/../lib/semver.bash"
cmd=${1:-}
shift || true
case $cmd in
parse) semver_parse "$@" ;;
compare) semver_compare "$@" ;;
bump) semver_bump "$@" ;;
*)
	echo "usage: semver parse|compare|bump ..." >&2
	exit 64
	;;
esac
SH
	chmod +x "$d/bin/semver"
	cat > "$d/test/test_helper/common-setup.bash" <<'SH'
_common_setup() {
	bats_load_library bats-support
	bats_load_library bats-assert
	PROJECT_ROOT="$(cd "$(dirname "$BATS_TEST_FILENAME")/.." >/dev/null 2>&1 && pwd)"
	PATH="$PROJECT_ROOT/bin:$PATH"
}
SH
	local f i
	for f in bump compare parse; do
		printf 'setup() {\n\tload test_helper/common-setup\n\t_common_setup\n}\n' > "$d/test/$f.bats"
	done
	{
		for i in $(seq 0 209); do
			printf '\n@test "bump patch: 2.%d.%d becomes 2.%d.%d" {\n\trun semver bump patch 2.%d.%d\n\tassert_success\n\tassert_output "2.%d.%d"\n}\n' \
				$((i % 7)) "$i" $((i % 7)) $((i + 1)) $((i % 7)) "$i" $((i % 7)) $((i + 1))
		done
		cat <<'BATS'

@test "bump major resets minor and patch" {
	run semver bump major 1.4.7
	assert_success
	assert_output "2.0.0"
}

@test "bump minor resets the patch" {
	run semver bump minor 1.4.7
	assert_success
	assert_output "1.5.0"
}

@test "bump rejects an unknown part" {
	run semver bump micro 1.4.7
	assert_failure 2
	assert_output --partial "unknown part: micro"
}

@test "bump rejects an invalid version" {
	run semver bump patch 1.4
	assert_failure
	assert_output --partial "invalid version: 1.4"
}
BATS
	} >> "$d/test/bump.bats"
	{
		for i in $(seq 0 139); do
			printf '\n@test "compare: 1.%d.0 is older than 1.%d.1" {\n\trun semver compare 1.%d.0 1.%d.1\n\tassert_output -- "-1"\n}\n' "$i" "$i" "$i" "$i"
		done
		printf '\n@test "compare: equal versions, one with a v" {\n\trun semver compare 3.1.4 v3.1.4\n\tassert_output "0"\n}\n'
	} >> "$d/test/compare.bats"
	{
		for i in $(seq 0 139); do
			printf '\n@test "parse: 0.%d.%d-rc.1 has a prerelease" {\n\trun semver parse 0.%d.%d-rc.1\n\tassert_success\n\tassert_output "0 %d %d rc.1"\n}\n' "$i" $((i * 3)) "$i" $((i * 3)) "$i" $((i * 3))
		done
		printf '\n@test "parse: a version without a patch is rejected" {\n\trun semver parse 1.2\n\tassert_failure\n\tassert_output "semver: invalid version: 1.2"\n}\n'
	} >> "$d/test/parse.bats"
}

# bats with no option: its TAP output, what it prints off a terminal (CI).
case_bats() {
	semver_project "$WORK/bats" yes
	capture bats "$WORK/bats" bats test
}

case_bats-pass() {
	semver_project "$WORK/bats-pass" no
	ROOT=$out/../generic-passing capture bats "$WORK/bats-pass" bats test
}

# shunit2: a shell string library's four test files, each sourcing
# shunit2 at its end, run one after the other by the project's runner
# script (as shunit2's own test_runner does). Off a terminal without TERM
# (as on GitHub's runners) shunit2 still prints its colours.
case_shunit2() {
	local d=$WORK/shunit2 i
	mkdir -p "$d/lib" "$d/tests"
	cat > "$d/lib/strings.sh" <<'SH'
# strings.sh: string helpers for POSIX shells.

# str_pad_left WIDTH TEXT: TEXT right-aligned in WIDTH columns.
str_pad_left() { printf '%*s' "$1" "$2"; }

# str_repeat N TEXT: TEXT N times.
str_repeat() {
	_n=$1 _out=''
	while [ "$_n" -gt 0 ]; do _out="$_out$2"; _n=$((_n - 1)); done
	printf '%s' "$_out"
}

# str_trim TEXT: TEXT without leading and trailing blanks.
str_trim() {
	# injected regression: trailing tabs are kept ([ ] was [[:space:]])
	printf '%s' "$1" | sed -e 's/^[[:space:]]*//' -e 's/[ ]*$//'
}

# str_upper TEXT: TEXT in capitals.
str_upper() { printf '%s' "$1" | tr '[:lower:]' '[:upper:]'; }
SH
	for f in pad repeat trim upper; do
		printf '#!/bin/sh\n# %s_test.sh: unit tests of str_%s.\n\noneTimeSetUp() {\n\t. "${LIB_DIR:-lib}/strings.sh"\n}\n' "$f" "$f" > "$d/tests/${f}_test.sh"
	done
	for i in $(seq 1 300); do
		printf '\ntestPadLeftWidth%03d() {\n\tassertEquals "pads to %d columns" %d "$(str_pad_left %d ab | wc -c)"\n}\n' "$i" "$i" "$(( i < 2 ? 2 : i ))" "$i"
	done >> "$d/tests/pad_test.sh"
	for i in $(seq 0 259); do
		printf '\ntestRepeat%03dTimes() {\n\tassertEquals "repeats %d times" %d "$(str_repeat %d xy | wc -c)"\n}\n' "$i" "$i" $((i * 2)) "$i"
	done >> "$d/tests/repeat_test.sh"
	{
		cat <<'SH'

testTrimLeadingBlanks() {
	assertEquals "trims leading blanks" "abc" "$(str_trim '   abc')"
}

testTrimTrailingBlanks() {
	assertEquals "trims trailing blanks" "abc" "$(str_trim "abc $(printf '\t') ")"
}

testTrimKeepsInnerBlanks() {
	assertEquals "a b  c" "$(str_trim ' a b  c ')"
}
SH
		for i in $(seq 0 59); do
			printf '\ntestTrimIndent%02d() {\n\tassertEquals "x%d" "$(str_trim "$(str_pad_left %d x%d)")"\n}\n' "$i" "$i" $((i + 4)) "$i"
		done
	} >> "$d/tests/trim_test.sh"
	for i in $(seq 0 749); do
		printf '\ntestUpper%03d() {\n\tassertEquals "WORD%d" "$(str_upper word%d)"\n}\n' "$i" "$i" "$i"
	done >> "$d/tests/upper_test.sh"
	for f in pad repeat trim upper; do
		printf '\n# shellcheck disable=SC1090\n. shunit2\n' >> "$d/tests/${f}_test.sh"
	done
	cat > "$d/tests/run_tests.sh" <<'SH'
#!/bin/sh
# Runs every tests/*_test.sh; fails when one does.
rc=0
for t in tests/*_test.sh; do
	name=$(basename "$t" _test.sh)
	echo "--- Executing the '$name' test suite. ---"
	LIB_DIR=lib sh "$t" || rc=1
done
exit $rc
SH
	capture shunit2 "$d" env -u TERM sh tests/run_tests.sh
}

# lru_project DIR REGRESSION: a Lua LRU cache (src/lru.lua) with its
# busted specs (spec/*_spec.lua, a .busted file), as lua-rocks projects lay
# them out; table-driven `it`s in loops, the old constructor's deprecation
# warning on stderr. With REGRESSION=yes a hit does not refresh the key.
lru_project() {
	local d=$1 regression=$2
	mkdir -p "$d/src" "$d/spec"
	cat > "$d/.busted" <<'LUA'
return {
  default = {
    lpath = "src/?.lua",
  },
}
LUA
	cat > "$d/src/lru.lua" <<'LUA'
-- lru.lua: a least-recently-used cache.
local lru = {}
lru.__index = lru

function lru.create(capacity)
  assert(type(capacity) == "number" and capacity > 0, "capacity must be a positive number")
  return setmetatable({ capacity = capacity, order = {}, values = {}, hits = 0, misses = 0 }, lru)
end

-- lru.new is the 1.x name of lru.create.
function lru.new(capacity)
  io.stderr:write("lru: lru.new(" .. tostring(capacity) .. ") is deprecated, use lru.create (removed in 3.0)\n")
  return lru.create(capacity)
end

local function touch(self, key)
  for i, k in ipairs(self.order) do
    if k == key then
      table.remove(self.order, i)
      break
    end
  end
  table.insert(self.order, key)
end

function lru:set(key, value)
  if self.values[key] == nil and #self.order >= self.capacity then
    local oldest = table.remove(self.order, 1)
    self.values[oldest] = nil
  end
  self.values[key] = value
  touch(self, key)
end

function lru:get(key)
  local v = self.values[key]
  if v == nil then
    self.misses = self.misses + 1
    return nil
  end
  self.hits = self.hits + 1
  touch(self, key)
  return v
end

function lru:keys()
  local out = {}
  for i, k in ipairs(self.order) do out[i] = k end
  return out
end

return lru
LUA
	if [ "$regression" = yes ]; then
		# injected regression: a hit no longer makes its key the newest
		python3 - "$d/src/lru.lua" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = "  self.hits = self.hits + 1\n  touch(self, key)\n"
assert old in s
open(p, "w").write(s.replace(old, "  self.hits = self.hits + 1\n"))
PY
	fi
	cat > "$d/spec/create_spec.lua" <<'LUA'
local lru = require("lru")

describe("lru.create", function()
  for capacity = 1, 600 do
    it("holds " .. capacity .. " entries", function()
      local c = lru.create(capacity)
      for i = 1, capacity + 1 do c:set(i, i * i) end
      assert.are.equal(capacity, #c:keys())
    end)
  end

  it("rejects a capacity of 0", function()
    assert.has_error(function() lru.create(0) end)
  end)
end)

describe("lru.new (deprecated)", function()
  for capacity = 1, 320 do
    it("still makes a cache of " .. capacity, function()
      assert.are.equal(capacity, lru.new(capacity).capacity)
    end)
  end
end)
LUA
	cat > "$d/spec/get_spec.lua" <<'LUA'
local lru = require("lru")

describe("lru:get", function()
  local cache

  before_each(function()
    cache = lru.create(3)
    cache:set("a", 1)
    cache:set("b", 2)
    cache:set("c", 3)
  end)

  it("returns a stored value", function()
    assert.are.equal(2, cache:get("b"))
  end)

  it("counts a miss", function()
    assert.is_nil(cache:get("z"))
    assert.are.equal(1, cache.misses)
  end)

  it("makes a hit the newest key", function()
    cache:get("a")
    cache:set("d", 4)
    assert.are.same({ "c", "a", "d" }, cache:keys())
  end)

  for i = 1, 300 do
    it("keeps value " .. i .. " for its key", function()
      local c = lru.create(4)
      c:set("k" .. i, i)
      assert.are.equal(i, c:get("k" .. i))
    end)
  end
end)
LUA
	cat > "$d/spec/set_spec.lua" <<'LUA'
local lru = require("lru")

describe("lru:set", function()
  it("evicts the oldest key when full", function()
    local c = lru.create(2)
    c:set("x", 1)
    c:set("y", 2)
    c:set("z", 3)
    assert.are.same({ "y", "z" }, c:keys())
  end)

  for i = 1, 600 do
    it("overwrites key " .. i .. " in place", function()
      local c = lru.create(2)
      c:set(i, "old")
      c:set(i, "new")
      assert.are.equal("new", c.values[i])
    end)
  end
end)
LUA
}

# busted with no option: off a terminal, its plainTerminal output (`+` per
# success, `Failure -> file @ line` blocks after the run).
case_busted() {
	lru_project "$WORK/busted" yes
	capture busted "$WORK/busted" busted
}

case_busted-pass() {
	lru_project "$WORK/busted-pass" no
	ROOT=$out/../generic-passing capture busted "$WORK/busted-pass" busted
}

# testthat: an R package's tests/testthat (edition 3 from DESCRIPTION, a
# helper sourcing R/), run as `Rscript -e 'testthat::test_dir(...)'` with
# the default reporter. Off CRAN's check its skip_on_cran() tests skip, as
# under a plain Rscript, each with its Skip block.
case_testthat() {
	local d=$WORK/testthat f i
	mkdir -p "$d/R" "$d/tests/testthat"
	printf 'Package: textwrap\nTitle: Wrap and Pad Text\nVersion: 0.3.0\nConfig/testthat/edition: 3\n' > "$d/DESCRIPTION"
	cat > "$d/R/fill.R" <<'R'
#' Split text into lines of at most `width` characters.
fill_lines <- function(text, width) {
  words <- strsplit(text, " ", fixed = TRUE)[[1]]
  lines <- character()
  line <- ""
  for (w in words) {
    # injected regression: `>=` was `>`, a word that fits exactly wraps
    if (nchar(line) > 0 && nchar(line) + 1 + nchar(w) >= width) {
      lines <- c(lines, line)
      line <- w
    } else {
      line <- if (nchar(line) == 0) w else paste(line, w)
    }
  }
  c(lines, line)
}

pad_right <- function(x, width) formatC(x, width = -width)

count_words <- function(text) length(strsplit(text, "[[:space:]]+")[[1]])
R
	cat > "$d/tests/testthat/helper-source.R" <<'R'
for (f in list.files(testthat::test_path("..", "..", "R"), full.names = TRUE)) source(f)
R
	for f in $(seq -w 1 24); do
		{
			printf 'test_that("pad_right pads column %s", {\n' "$f"
			for i in $(seq 1 12); do
				printf '  expect_equal(nchar(pad_right("x%s", %d)), %d)\n' "$f" $((i + 3)) $((i + 3))
			done
			printf '})\n\ntest_that("pad_right keeps long text %s", {\n  expect_equal(pad_right("abcdef", 3), "abcdef")\n})\n' "$f"
			printf '\ntest_that("pad_right is fast on long vectors %s", {\n  skip_on_cran()\n  expect_length(pad_right(rep("x", 1e5), 4), 1e5)\n})\n' "$f"
		} > "$d/tests/testthat/test-align-$f.R"
		{
			printf 'test_that("count_words counts sample %s", {\n' "$f"
			for i in $(seq 1 8); do
				printf '  expect_equal(count_words(strrep("w ", %d)), %d)\n' "$i" "$i"
			done
			printf '})\n\ntest_that("count_words on the corpus %s", {\n  skip_on_cran()\n  skip_if_not(file.exists("corpus.txt"), "no corpus.txt")\n})\n' "$f"
		} > "$d/tests/testthat/test-words-$f.R"
	done
	cat > "$d/tests/testthat/test-fill.R" <<'R'
test_that("fill_lines keeps short text on one line", {
  expect_equal(fill_lines("a b c", 10), "a b c")
})

test_that("fill_lines fills lines up to the width", {
  expect_equal(fill_lines("the quick brown fox jumps", 9), c("the quick", "brown fox", "jumps"))
})

test_that("fill_lines puts a long word alone", {
  expect_equal(fill_lines("a supercalifragilistic b", 5), c("a", "supercalifragilistic", "b"))
})
R
	capture testthat "$d" Rscript -e 'testthat::test_dir("tests/testthat")'
}

# check (libcheck): a ring buffer's two suites in one runner, CK_VERBOSE
# (a line per test), loop tests over sizes, forked tests (check's default).
case_check() {
	local d=$WORK/check
	mkdir -p "$d/src" "$d/tests"
	cat > "$d/src/ring.h" <<'C'
#ifndef RING_H
#define RING_H
#include <stddef.h>
struct ring { int *buf; size_t cap, head, len; };
int ring_init(struct ring *r, size_t cap);
void ring_free(struct ring *r);
int ring_push(struct ring *r, int v);
int ring_pop(struct ring *r, int *v);
size_t ring_len(const struct ring *r);
#endif
C
	cat > "$d/src/ring.c" <<'C'
#include <stdlib.h>
#include "ring.h"

int ring_init(struct ring *r, size_t cap)
{
	r->buf = calloc(cap, sizeof *r->buf);
	r->cap = cap;
	r->head = r->len = 0;
	return r->buf ? 0 : -1;
}

void ring_free(struct ring *r) { free(r->buf); }

int ring_push(struct ring *r, int v)
{
	if (r->len == r->cap)
		return -1;
	r->buf[(r->head + r->len) % r->cap] = v;
	r->len++;
	return 0;
}

int ring_pop(struct ring *r, int *v)
{
	if (r->len == 0)
		return -1;
	*v = r->buf[r->head];
	r->head = (r->head + 1) % (r->cap - 1); /* injected regression: cap - 1 */
	r->len--;
	return 0;
}

size_t ring_len(const struct ring *r) { return r->len; }
C
	cat > "$d/tests/check_ring.c" <<'C'
#include <check.h>
#include <stdlib.h>
#include "../src/ring.h"

static struct ring r;

static void setup(void) { ck_assert_int_eq(ring_init(&r, 8), 0); }
static void teardown(void) { ring_free(&r); }

START_TEST(test_push_until_full)
{
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(ring_push(&r, i), 0);
	ck_assert_int_eq(ring_push(&r, 8), -1);
}
END_TEST

START_TEST(test_len_after_pushes)
{
	for (int i = 0; i < _i % 9; i++)
		ring_push(&r, i);
	ck_assert_uint_eq(ring_len(&r), (size_t)(_i % 9));
}
END_TEST

START_TEST(test_pop_empty)
{
	int v;
	ck_assert_int_eq(ring_pop(&r, &v), -1);
}
END_TEST

START_TEST(test_pop_wraps_around)
{
	int v;
	for (int i = 0; i < 8; i++)
		ring_push(&r, i);
	for (int i = 0; i < 7; i++)
		ring_pop(&r, &v);
	ring_push(&r, 8);
	ring_pop(&r, &v);
	ck_assert_int_eq(v, 7);
}
END_TEST

START_TEST(test_pop_in_order)
{
	int v;
	ring_push(&r, _i);
	ck_assert_int_eq(ring_pop(&r, &v), 0);
	ck_assert_int_eq(v, _i);
}
END_TEST

static Suite *push_suite(void)
{
	Suite *s = suite_create("push");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_push_until_full);
	tcase_add_loop_test(tc, test_len_after_pushes, 0, 300);
	suite_add_tcase(s, tc);
	return s;
}

static Suite *pop_suite(void)
{
	Suite *s = suite_create("pop");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pop_empty);
	tcase_add_test(tc, test_pop_wraps_around);
	tcase_add_loop_test(tc, test_pop_in_order, 0, 300);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(push_suite());
	srunner_add_suite(sr, pop_suite());
	srunner_run_all(sr, CK_VERBOSE);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
C
	# shellcheck disable=SC2046
	(cd "$d" && gcc -Wall -o tests/check_ring tests/check_ring.c src/ring.c $(pkg-config --cflags --libs check))
	capture check "$d" tests/check_ring
}

# test-unit: a Ruby library's test/test_*.rb, data-driven tests among
# plain ones, run as `ruby -Ilib -e 'Dir[...].each { require_relative }'`
# with test-unit's defaults (a mark per test, a failure's details at once).
case_test-unit() {
	local d=$WORK/test-unit
	mkdir -p "$d/lib" "$d/test"
	cat > "$d/lib/bytesize.rb" <<'RB'
# Bytesize formats and parses byte counts in binary units.
module Bytesize
  UNITS = %w[B KiB MiB GiB TiB].freeze

  def self.format(n)
    return "#{n} B" if n < 1024
    exp = [(Math.log(n) / Math.log(1024)).floor, UNITS.size - 1].min
    value = n.to_f / (1024**exp)
    "#{value.round(1).to_s.sub(/\.0\z/, '')} #{UNITS[exp]}"
  end

  def self.parse(text)
    m = /\A(\d+(?:\.\d+)?) ?([KMGT]i)?B\z/.match(text.strip) or
      raise ArgumentError, "not a byte size: #{text.inspect}"
    exp = m[2] ? UNITS.index("#{m[2]}B") : 0
    # injected regression: a fraction is truncated before scaling
    (m[1].to_i * (1024**exp)).round
  end
end
RB
	cat > "$d/test/test_format.rb" <<'RB'
require "test/unit"
require "bytesize"

class TestFormat < Test::Unit::TestCase
  data do
    (0...9000).to_h { |i| ["#{i} bytes", i] }
  end
  def test_small_counts(n)
    expected = n < 1024 ? "#{n} B" : "#{(n / 1024.0).round(1).to_s.sub(/\.0\z/, '')} KiB"
    assert_equal(expected, Bytesize.format(n))
  end

  def test_largest_unit
    assert_equal("2048 TiB", Bytesize.format(2 * 1024**5))
  end
end
RB
	cat > "$d/test/test_parse.rb" <<'RB'
require "test/unit"
require "bytesize"

class TestParse < Test::Unit::TestCase
  data do
    (0...4000).to_h { |i| ["#{i} KiB", i] }
  end
  def test_kibibytes(n)
    assert_equal(n * 1024, Bytesize.parse("#{n} KiB"))
  end

  def test_fraction_of_a_unit
    assert_equal([1536, 2_621_440], [Bytesize.parse("1.5 KiB"), Bytesize.parse("2.5 MiB")])
  end

  def test_rejects_garbage
    assert_raise(ArgumentError) { Bytesize.parse("lots") }
  end
end
RB
	cat > "$d/test/test_round_trip.rb" <<'RB'
require "test/unit"
require "bytesize"

class TestRoundTrip < Test::Unit::TestCase
  data do
    (0...6000).to_h { |i| ["#{i} MiB", i] }
  end
  def test_whole_mebibytes(n)
    assert_equal(n * 1024**2, Bytesize.parse("#{n} MiB"))
  end
end
RB
	capture test-unit "$d" ruby -Ilib -e 'Dir["test/**/test_*.rb"].sort.each { |f| require_relative f }'
}

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(perl-testmore yath tcltest cunit behave bats shunit2 busted testthat check test-unit bats-pass busted-pass)
bad=0
for c in "${cases[@]}"; do
	echo "== $c" >&2
	"case_$c"
	case $c in
	*-pass) passed "${c%-pass}" || bad=1 ;;
	*) check "$c" || bad=1 ;;
	esac
done
exit $bad
