#!/usr/bin/env bash
# Regenerates the `js` group of the runner-output corpus: real runs of real
# test runners (JavaScript ones, plus PHPUnit, RSpec, minitest and CTest) on
# small sample projects with injected failures, each captured by runledger.
#
#   report/testdata/corpus/gen/js.sh            # all cases
#   report/testdata/corpus/gen/js.sh jest-basic # only the named cases
#   report/testdata/corpus/gen/js.sh --check    # only check the stored cases
#
# Env: RUNLEDGER  a runledger binary (default: built from this checkout)
#      JS_WORK    where the sample projects go (default /tmp/runledger-corpus-js;
#                 fixed so that absolute paths in the logs stay the same
#                 from one regeneration to the next). It is wiped first.
#      JS_APT=0   do not apt-get install what is missing of phpunit, ruby,
#                 ruby-rspec, cmake, g++ (as root; Debian bookworm has phpunit
#                 9.6.7, ruby 3.1 with minitest 5.15, rspec 3.12, cmake 3.25)
#      JS_KEEP=1  keep the sample projects in JS_WORK afterwards
#
# Needs node 20 + npm (registry reachable) and, for the non-JS cases, Debian
# packages. Each case's want.json is written by hand; after generating, this
# script checks that every "must" string still occurs in the stored logs.
set -euo pipefail

GEN=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CORPUS=$(dirname "$GEN")
ROOT=$(cd "$CORPUS/../../.." && pwd)
WORK=${JS_WORK:-/tmp/runledger-corpus-js}
CHECK_ONLY=0
if [ "${1:-}" = --check ]; then
	CHECK_ONLY=1
	shift
fi

RL=${RUNLEDGER:-}
if [ -z "$RL" ] && [ $CHECK_ONLY = 0 ]; then
	RL=$(mktemp -d)/runledger
	(cd "$ROOT" && go build -o "$RL" ./cmd/runledger)
fi

export CI=1 FORCE_COLOR=0 NO_UPDATE_NOTIFIER=1 npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

# Pinned versions.
JEST=29.7.0
VITEST=3.2.4
MOCHA=10.8.2
TAP=21.1.0

ALL=(jest-basic jest-large vitest-basic vitest-color mocha-basic node-test-tap node-test-spec node-tap node-tap-base phpunit rspec minitest ctest npm-workspaces)
CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=("${ALL[@]}")

if [ $CHECK_ONLY = 0 ]; then
	rm -rf "$WORK"
	mkdir -p "$WORK"
	[ "${JS_KEEP:-0}" = 1 ] || trap 'rm -rf "$WORK"' EXIT
	missing=()
	for tool in phpunit:phpunit ruby:ruby rspec:ruby-rspec cmake:cmake g++:g++; do
		command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
	done
	if [ ${#missing[@]} -gt 0 ] && [ "${JS_APT:-1}" != 0 ]; then
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
	fi
fi

# capture NAME DIR COMMAND... runs COMMAND in DIR under runledger into
# $CORPUS/NAME/store (wiped first). The command is expected to fail.
capture() {
	local name=$1 dir=$2
	shift 2
	rm -rf "$CORPUS/$name/store"
	mkdir -p "$CORPUS/$name"
	(cd "$dir" && "$RL" run --dir "$CORPUS/$name/store" --name "$name" --quiet -- "$@") || true
	rm -f "$CORPUS/$name/store/.lock" # the store's lock file: not corpus data
}

# npm_init DIR PKG@VER... writes a package.json and installs exact versions.
npm_init() {
	local dir=$1
	shift
	mkdir -p "$dir"
	(cd "$dir" && printf '{\n  "name": "%s",\n  "version": "1.0.0",\n  "private": true\n}\n' "$(basename "$dir")" >package.json &&
		npm install --save-exact --no-audit --no-fund --loglevel=error "$@" >/dev/null)
}

# ---------------------------------------------------------------- jest

# jest_cache DIR keeps jest's cache inside the project: a cache left by an
# earlier run would reorder the test files (failed and slow ones first).
jest_cache() {
	(cd "$1" && npm pkg set jest.cacheDirectory=.jest-cache)
}

case_jest-basic() {
	local d=$WORK/jest-basic
	mkdir -p "$d/src" "$d/test"
	cat >"$d/src/sum.js" <<'EOF'
function sum(a, b) {
  // injected bug: off by one
  return a + b + 1;
}
module.exports = { sum };
EOF
	cat >"$d/src/user.js" <<'EOF'
function makeUser(name, age) {
  return { name: name.toUpperCase(), age, admin: false };
}
module.exports = { makeUser };
EOF
	cat >"$d/test/sum.test.js" <<'EOF'
const { sum } = require('../src/sum');

describe('sum', () => {
  test('adds two numbers', () => {
    console.log('computing sum(2, 2)');
    for (let i = 0; i < 5; i++) console.log(`debug line ${i}: state=ok`);
    expect(sum(2, 2)).toBe(4);
  });

  test('is a function', () => {
    console.log('checking typeof sum');
    expect(typeof sum).toBe('function');
  });
});
EOF
	cat >"$d/test/user.test.js" <<'EOF'
const { makeUser } = require('../src/user');

describe('makeUser', () => {
  test('keeps the name as given', () => {
    console.log('making user Ada');
    console.warn('deprecated option used');
    const u = makeUser('Ada', 36);
    expect(u).toEqual({ name: 'Ada', age: 36, admin: false });
  });

  test('sets admin to false', () => {
    console.log('making user Bob');
    expect(makeUser('Bob', 20).admin).toBe(false);
  });
});
EOF
	npm_init "$d" "jest@$JEST"
	jest_cache "$d"
	capture jest-basic "$d" npx jest
}

case_jest-large() {
	local d=$WORK/jest-large
	mkdir -p "$d/test"
	local f t
	for f in $(seq -w 1 15); do
		{
			# jest runs the larger files first: pad 01-07 so that batch 08,
			# the failing one, runs in the middle.
			if [ "$((10#$f))" -lt 8 ]; then
				printf '// %s\n' $(seq 1 $((400 - 10#$f * 10)))
			fi
			echo "describe('batch $f', () => {"
			for t in $(seq 1 100); do
				if [ "$f" = 08 ] && [ "$t" = 50 ]; then
					echo "  test('value $t is doubled', () => {"
					echo "    const got = { id: $t, doubled: $t * 2 + 1 };"
					echo "    expect(got.doubled).toBe($((t * 2)));"
					echo "  });"
				else
					echo "  test('value $t is doubled', () => { expect($t * 2).toBe($((t * 2))); });"
				fi
			done
			echo "});"
		} >"$d/test/batch$f.test.js"
	done
	npm_init "$d" "jest@$JEST"
	jest_cache "$d"
	capture jest-large "$d" npx jest --verbose
}

# ---------------------------------------------------------------- vitest

vitest_project() {
	local d=$1
	mkdir -p "$d/src" "$d/test"
	cat >"$d/src/math.js" <<'EOF'
export function sum(a, b) {
  return a + b + 1;
}

export function parseAge(s) {
  const n = Number(s);
  if (Number.isNaN(n)) {
    throw new Error(`invalid age: ${JSON.stringify(s)}`);
  }
  return n;
}
EOF
	cat >"$d/test/math.test.js" <<'EOF'
import { describe, test, expect } from 'vitest';
import { sum, parseAge } from '../src/math.js';

describe('sum', () => {
  test('adds two numbers', () => {
    expect(sum(2, 2)).toBe(4);
  });
});

describe('parseAge', () => {
  test('parses digits', () => {
    expect(parseAge('36')).toBe(36);
  });

  test('parses a word', () => {
    console.log('about to parse "forty"');
    expect(parseAge('forty')).toBe(40);
  });
});
EOF
	cat >"$d/test/ok.test.js" <<'EOF'
import { test, expect } from 'vitest';

test('passes', () => {
  expect([1, 2, 3]).toHaveLength(3);
});
EOF
	npm_init "$d" "vitest@$VITEST"
	(cd "$d" && npm pkg set type=module)
}

# vitest colours its output whenever CI is set, FORCE_COLOR=0 or not;
# NO_COLOR turns that off.
case_vitest-basic() {
	local d=$WORK/vitest-basic
	vitest_project "$d"
	NO_COLOR=1 capture vitest-basic "$d" npx vitest run
}

# vitest-color: the same run as CI sees it by default, with ANSI colours.
case_vitest-color() {
	local d=$WORK/vitest-color
	vitest_project "$d"
	capture vitest-color "$d" npx vitest run
}

# ---------------------------------------------------------------- mocha

case_mocha-basic() {
	local d=$WORK/mocha-basic
	mkdir -p "$d/lib" "$d/test"
	cat >"$d/lib/cart.js" <<'EOF'
function total(items) {
  // injected bug: ignores quantity
  return items.reduce((acc, it) => acc + it.price, 0);
}

function firstName(user) {
  return user.profile.name.split(' ')[0];
}

module.exports = { total, firstName };
EOF
	cat >"$d/test/cart.test.js" <<'EOF'
const assert = require('assert');
const { total, firstName } = require('../lib/cart');

describe('cart', function () {
  describe('total', function () {
    it('is zero for an empty cart', function () {
      assert.strictEqual(total([]), 0);
    });

    it('multiplies price by quantity', function () {
      const items = [{ price: 3, qty: 2 }, { price: 4, qty: 1 }];
      assert.strictEqual(total(items), 10);
    });
  });

  describe('firstName', function () {
    it('takes the first word', function () {
      assert.strictEqual(firstName({ profile: { name: 'Ada Lovelace' } }), 'Ada');
    });

    it('copes with a missing profile', function () {
      assert.strictEqual(firstName({}), '');
    });
  });
});
EOF
	npm_init "$d" "mocha@$MOCHA"
	capture mocha-basic "$d" npx mocha
}

# ---------------------------------------------------------------- node --test

node_test_project() {
	local d=$1
	mkdir -p "$d/test"
	cat >"$d/package.json" <<'EOF'
{
  "name": "node-test-sample",
  "version": "1.0.0",
  "private": true
}
EOF
	cat >"$d/slug.js" <<'EOF'
function slugify(s) {
  // injected bug: only the first space is replaced
  return s.toLowerCase().replace(' ', '-');
}
module.exports = { slugify };
EOF
	cat >"$d/test/slug.test.js" <<'EOF'
const test = require('node:test');
const assert = require('node:assert');
const { slugify } = require('../slug');

test('slugify lowercases', () => {
  assert.strictEqual(slugify('Hello'), 'hello');
});

test('slugify replaces every space', () => {
  assert.strictEqual(slugify('A Tale Of Two'), 'a-tale-of-two');
});

test.describe('edge cases', () => {
  test('empty string', () => {
    assert.strictEqual(slugify(''), '');
  });
  test('counts words', () => {
    const parts = slugify('one two three').split('-');
    assert.strictEqual(parts.length, 3);
  });
});
EOF
}

case_node-test-tap() {
	local d=$WORK/node-test-tap
	node_test_project "$d"
	capture node-test-tap "$d" node --test
}

case_node-test-spec() {
	local d=$WORK/node-test-spec
	node_test_project "$d"
	capture node-test-spec "$d" node --test --test-reporter=spec
}

# ---------------------------------------------------------------- tap

node_tap_project() {
	local d=$1
	mkdir -p "$d/test"
	cat >"$d/test/price.test.js" <<'EOF'
const t = require('tap');

function withTax(p) {
  return p * 1.25; // injected bug: 25% instead of 20%
}

t.test('withTax', async t => {
  t.equal(withTax(0), 0, 'zero stays zero');
  t.equal(withTax(10), 12, 'adds twenty percent');
});

t.test('passes', async t => {
  t.ok(true, 'truthy');
});
EOF
	npm_init "$d" "tap@$TAP"
}

# node-tap: tap's reporter when stdout is not a terminal, which is TAP.
case_node-tap() {
	local d=$WORK/node-tap
	node_tap_project "$d"
	capture node-tap "$d" npx tap --disable-coverage
}

# node-tap-base: tap's terminal reporter, asked for by name.
case_node-tap-base() {
	local d=$WORK/node-tap-base
	node_tap_project "$d"
	capture node-tap-base "$d" npx tap --disable-coverage --reporter=base
}

# ---------------------------------------------------------------- phpunit

case_phpunit() {
	local d=$WORK/phpunit
	mkdir -p "$d/src" "$d/tests"
	cat >"$d/src/Calculator.php" <<'EOF2'
<?php
class Calculator
{
    public function add(int $a, int $b): int
    {
        return $a + $b + 1; // injected bug
    }

    public function divide(int $a, int $b): float
    {
        if ($b === 0) {
            throw new InvalidArgumentException("cannot divide $a by zero");
        }
        return $a / $b;
    }
}
EOF2
	cat >"$d/tests/CalculatorTest.php" <<'EOF2'
<?php
use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/../src/Calculator.php';

final class CalculatorTest extends TestCase
{
    public function testAdd(): void
    {
        $c = new Calculator();
        $this->assertEquals(4, $c->add(2, 2));
    }

    public function testDivide(): void
    {
        $c = new Calculator();
        $this->assertSame(2.5, $c->divide(5, 2));
    }

    public function testAverage(): void
    {
        $c = new Calculator();
        $this->assertSame(0.0, $c->divide(0, count([])));
    }

    public function testList(): void
    {
        $this->assertEquals(['a', 'b', 'c'], ['a', 'x', 'c']);
    }
}
EOF2
	capture phpunit "$d" phpunit tests
}

# ---------------------------------------------------------------- rspec

case_rspec() {
	local d=$WORK/rspec
	mkdir -p "$d/lib" "$d/spec"
	cat >"$d/lib/counter.rb" <<'EOF2'
class Counter
  def initialize(words)
    @words = words
  end

  def count
    @words.size + 1 # injected bug
  end

  def longest
    @words.max_by(&:length).upcase
  end
end
EOF2
	cat >"$d/spec/counter_spec.rb" <<'EOF2'
require_relative '../lib/counter'

RSpec.describe Counter do
  describe '#count' do
    it 'counts the words' do
      expect(Counter.new(%w[a b c d]).count).to eq(4)
    end
  end

  describe '#longest' do
    it 'finds the longest word' do
      expect(Counter.new(%w[ab abc a]).longest).to eq('ABC')
    end

    it 'is nil for no words' do
      expect(Counter.new([]).longest).to be_nil
    end
  end
end
EOF2
	capture rspec "$d" rspec
}

# ---------------------------------------------------------------- minitest

case_minitest() {
	local d=$WORK/minitest
	mkdir -p "$d/lib" "$d/test"
	cat >"$d/lib/stack.rb" <<'EOF2'
class Stack
  def initialize
    @items = []
  end

  def push(x)
    @items.push(x)
    @items.push(x) if @items.size == 3 # injected bug
    self
  end

  def size
    @items.size
  end
end
EOF2
	cat >"$d/test/stack_test.rb" <<'EOF2'
require 'minitest/autorun'
require 'stack'

class StackTest < Minitest::Test
  def test_empty
    assert_equal 0, Stack.new.size
  end

  def test_push_four
    s = Stack.new
    4.times { |i| s.push(i) }
    assert_equal 4, s.size
  end

  def test_push_one
    assert_equal 1, Stack.new.push(:a).size
  end

  def test_pop
    s = Stack.new.push(:a)
    assert_equal :a, s.pop
  end
end
EOF2
	# a fixed seed keeps the order of the tests, and so of the failures, stable
	capture minitest "$d" ruby -Ilib test/stack_test.rb --seed 4242
}

# ---------------------------------------------------------------- ctest

case_ctest() {
	local d=$WORK/ctest
	mkdir -p "$d"
	cat >"$d/CMakeLists.txt" <<'EOF2'
cmake_minimum_required(VERSION 3.16)
project(ctest_sample CXX)
enable_testing()
add_executable(check_parse check_parse.cpp)
add_test(NAME parse_int COMMAND check_parse int)
add_test(NAME parse_float COMMAND check_parse float)
add_test(NAME parse_hex COMMAND check_parse hex)
EOF2
	cat >"$d/check_parse.cpp" <<'EOF2'
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char **argv) {
  std::string which = argc > 1 ? argv[1] : "";
  std::printf("running check %s\n", which.c_str());
  if (which == "int") {
    return std::atoi("42") == 42 ? 0 : 1;
  }
  if (which == "float") {
    return std::atof("2.5") == 2.5 ? 0 : 1;
  }
  if (which == "hex") {
    long got = std::strtol("ff", nullptr, 10); // injected bug: base 10
    if (got != 255) {
      std::fprintf(stderr, "check_parse.cpp:%d: parse_hex: expected 255, got %ld\n", __LINE__, got);
      return 1;
    }
    return 0;
  }
  std::fprintf(stderr, "unknown check %s\n", which.c_str());
  return 2;
}
EOF2
	(cd "$d" && cmake -S . -B build >/dev/null && cmake --build build >/dev/null)
	capture ctest "$d/build" ctest --output-on-failure
}

# ---------------------------------------------------------------- npm workspaces

case_npm-workspaces() {
	local d=$WORK/npm-workspaces
	mkdir -p "$d/packages/format/test" "$d/packages/parse/test"
	cat >"$d/package.json" <<'EOF2'
{
  "name": "npm-workspaces-sample",
  "version": "1.0.0",
  "private": true,
  "workspaces": ["packages/format", "packages/parse"]
}
EOF2
	cat >"$d/packages/format/package.json" <<'EOF2'
{
  "name": "@sample/format",
  "version": "1.0.0",
  "private": true,
  "scripts": { "test": "jest" }
}
EOF2
	cat >"$d/packages/format/index.js" <<'EOF2'
function money(cents) {
  // injected bug: no thousands separator
  return '$' + (cents / 100).toFixed(2);
}
module.exports = { money };
EOF2
	cat >"$d/packages/format/test/money.test.js" <<'EOF2'
const { money } = require('..');

test('formats cents', () => {
  expect(money(150)).toBe('$1.50');
});

test('groups thousands', () => {
  expect(money(123456789)).toBe('$1,234,567.89');
});
EOF2
	cat >"$d/packages/parse/package.json" <<'EOF2'
{
  "name": "@sample/parse",
  "version": "1.0.0",
  "private": true,
  "scripts": { "test": "jest" }
}
EOF2
	cat >"$d/packages/parse/index.js" <<'EOF2'
module.exports = { parseCents: s => Math.round(Number(s.replace(/[$,]/g, '')) * 100) };
EOF2
	cat >"$d/packages/parse/test/parse.test.js" <<'EOF2'
const { parseCents } = require('..');

test('parses dollars', () => {
  expect(parseCents('$1,234.50')).toBe(123450);
});
EOF2
	(cd "$d" && npm install --save-exact --no-audit --no-fund --loglevel=error -D "jest@$JEST" >/dev/null)
	capture npm-workspaces "$d" npm test --workspaces
}

# ---------------------------------------------------------------- main

# check NAME: every "must" of NAME/want.json occurs in stdout.log or stderr.log.
check() {
	local name=$1 want=$CORPUS/$1/want.json
	if [ ! -f "$want" ]; then
		echo "$name: no want.json yet" >&2
		return 0
	fi
	node -e '
		const fs = require("fs"), path = require("path");
		const [want, store] = process.argv.slice(1);
		const runs = fs.readdirSync(store).filter(n => fs.existsSync(path.join(store, n, "record.json")));
		if (runs.length !== 1) { console.error(`${store}: ${runs.length} runs, want 1`); process.exit(1); }
		const dir = path.join(store, runs[0]);
		const logs = ["stdout.log", "stderr.log"].map(f => fs.readFileSync(path.join(dir, f), "utf8"));
		let bad = 0;
		for (const m of JSON.parse(fs.readFileSync(want, "utf8")).must) {
			if (m.includes("\n") || !logs.some(l => l.includes(m))) { console.error(`${want}: missing ${JSON.stringify(m)}`); bad++; }
		}
		process.exit(bad ? 1 : 0);
	' "$want" "$CORPUS/$name/store"
}

fail=0
for c in "${CASES[@]}"; do
	echo "== $c" >&2
	[ $CHECK_ONLY = 1 ] || "case_$c"
	check "$c" || fail=1
done
exit $fail
