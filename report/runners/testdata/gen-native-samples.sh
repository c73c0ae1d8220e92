#!/bin/sh
# Regenerates the samples of the runners declared in declare_ctest.go,
# declare_prove.go, … (see README.md): real output of real runs of small
# failing suites written here. Needs the runner (Debian: cmake, perl,
# phpunit, ruby-rspec, ruby-minitest); a runner not installed is skipped.
# Usage: sh testdata/gen-native-samples.sh (from report/runners)
set -eu
out=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if command -v ctest >/dev/null && command -v cmake >/dev/null; then
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

if command -v prove >/dev/null; then
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
