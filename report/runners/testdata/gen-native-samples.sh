#!/bin/sh
# Regenerates the samples of the runners declared in declare_ctest.go,
# declare_prove.go, … (see README.md): real output of real runs of small
# failing suites written here. Needs the runner (Debian: cmake, perl,
# phpunit, ruby-rspec, ruby-minitest); a runner not installed is skipped.
# Usage: sh testdata/gen-native-samples.sh [RUNNER...] (from report/runners;
# no RUNNER: all of them)
set -eu
only=" ${*:-ctest prove phpunit rspec minitest} "
# wanted NAME TOOL...: NAME was asked for and its tools are installed.
wanted() {
  case "$only" in *" $1 "*) ;; *) return 1 ;; esac
  shift
  for tool; do command -v "$tool" >/dev/null || return 1; done
}
out=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if wanted ctest cmake ctest; then
  mkdir -p "$work/ctest" && cd "$work/ctest"
  cat > CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.10)
project(geometry NONE)
enable_testing()
foreach(i RANGE 1 16)
  add_test(NAME area_${i} COMMAND sh -c "exit 0")
endforeach()
add_test(NAME perimeter COMMAND sh -c "echo 'perimeter of a 2x3 rectangle'; echo 'assertion failed: perimeter(2, 3) == 10 (got 12)' >&2; exit 1")
add_test(NAME volume COMMAND sh -c "echo 'Segmentation fault' >&2; kill -SEGV $$")
add_test(NAME net_fetch COMMAND sh -c "exit 77")
set_tests_properties(net_fetch PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME legacy COMMAND sh -c "exit 0")
set_tests_properties(legacy PROPERTIES DISABLED TRUE)
CMAKE
  cmake -S . -B build >/dev/null
  (cd build && ctest --output-on-failure > "$out/ctest-fail.log" 2>&1) || true
  cd "$work"
fi

if wanted prove prove; then
  mkdir -p "$work/prove/t" && cd "$work/prove"
  cat > t/cart.t <<'PERL'
use strict; use warnings;
use Test::More tests => 5;
sub total { my $s = 0; $s += $_ for @_; return sprintf('%.2f', $s) }
is(total(), '0.00', 'empty cart');
is(total(10, 20), '30.00', 'two items');
is(total(0.1, 0.2), '0.31', 'rounding');
SKIP: { skip 'needs the tax service', 1; ok(0, 'tax') }
is_deeply([sort 3, 1, 2], [1, 2, 3], 'sorted');
PERL
  cat > t/stock.t <<'PERL'
use strict; use warnings;
use Test::More tests => 4;
ok(1, 'reserve');
die "stock database unavailable\n";
PERL
  cat > t/price.t <<'PERL'
use strict; use warnings;
use Test::More;
is(sprintf('%d', 2.9), 2, "price $_") for 1 .. 12;
TODO: { local $TODO = 'currency conversion'; is(1, 2, 'EUR') }
done_testing();
PERL
  prove t/ > "$out/prove-fail.log" 2>&1 || true
  cd "$work"
fi

if wanted phpunit phpunit; then
  mkdir -p "$work/phpunit/tests" && cd "$work/phpunit"
  cat > tests/CartTest.php <<'PHP'
<?php
use PHPUnit\Framework\TestCase;

final class CartTest extends TestCase
{
    private static function total(array $prices, float $discount = 0): float
    {
        return round(array_sum($prices) * (1 - $discount), 2);
    }

    public function testEmpty(): void { $this->assertSame(0.0, self::total([])); }
    public function testDiscount(): void { $this->assertSame(25.0, self::total([10, 20], 0.15)); }
    public function testCurrency(): void { throw new InvalidArgumentException('unknown currency EUR'); }
    public function testTax(): void { $this->markTestSkipped('needs the tax service'); }
    public function testLabels(): void { $this->assertEquals(['a', 'b'], ['a', 'c']); }

    /** @dataProvider prices */
    public function testPrice(int $p): void { $this->assertSame((float) $p, self::total([$p])); }
    public static function prices(): array { return array_map(fn ($i) => [$i], range(1, 20)); }
}
PHP
  phpunit tests > "$out/phpunit-fail.log" 2>&1 || true
  cd "$work"
fi

if wanted rspec rspec; then
  mkdir -p "$work/rspec/spec" && cd "$work/rspec"
  cat > spec/cart_spec.rb <<'RUBY'
def total(prices, discount: 0)
  (prices.sum * (1 - discount)).round(2)
end

RSpec.describe "Cart" do
  it("is empty") { expect(total([])).to eq(0) }
  it("applies a discount") { expect(total([10, 20], discount: 0.15)).to eq(25.0) }
  it("knows its currency") { raise KeyError, "key not found: :EUR" }
  it("lists its labels") { expect(%w[a b]).to contain_exactly("a", "c") }
  it("adds tax") { pending "needs the tax service"; expect(total([10])).to eq(11) }
  (1..20).each { |i| it("prices item #{i}") { expect(total([i])).to eq(i) } }
end
RUBY
  rspec > "$out/rspec-fail.log" 2>&1 || true
  cd "$work"
fi

if wanted minitest ruby; then
  mkdir -p "$work/minitest" && cd "$work/minitest"
  cat > test_cart.rb <<'RUBY'
require "minitest/autorun"

def total(prices, discount: 0)
  (prices.sum * (1 - discount)).round(2)
end

class CartTest < Minitest::Test
  def test_empty; assert_equal 0, total([]); end
  def test_discount; assert_equal 25.0, total([10, 20], discount: 0.15); end
  def test_currency; raise KeyError, "key not found: :EUR"; end
  def test_tax; skip "needs the tax service"; end
  def test_labels; assert_includes %w[a b], "c"; end
  (1..20).each { |i| define_method("test_price_#{i}") { assert_equal i, total([i]) } }
end
RUBY
  ruby test_cart.rb --seed 4242 > "$out/minitest-fail.log" 2>&1 || true
  cd "$work"
fi
