#!/bin/sh
# Regenerates the Python samples (see README.md):
#   unittest-verbose-fail.log  real `python3 -m unittest -v` output;
#   django-runtests-fail.log   real unittest output under a runtests.py that
#                              prints the framing lines Django's test runner
#                              prints (test database, "Testing against");
#   sympy-bin-test-fail.log    printed by sympy-style.py, which lays out a
#                              run as sympy's bin/test reporter does (sympy
#                              cannot be installed here).
# Needs python3. Usage: sh testdata/gen-python-samples.sh (from report/runners)
set -eu
out=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir shop
: > shop/__init__.py
cat > shop/test_cart.py <<'PY'
import unittest


def total(prices, discount=0):
    return round(sum(prices) * (1 - discount), 2)


class CartTest(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(total([]), 0)

    def test_discount(self):
        self.assertEqual(total([10, 20], discount=0.15), 25.0)

    def test_currency(self):
        raise KeyError("EUR")

    @unittest.skip("needs the tax service")
    def test_tax(self):
        pass

    @unittest.expectedFailure
    def test_rounding(self):
        self.assertEqual(total([0.1, 0.2]), 0.3000001)


class StockTest(unittest.TestCase):
    def test_reserve(self):
        for n in (1, 2, 3):
            with self.subTest(n=n):
                self.assertLess(n, 3)

    def test_release(self):
        """Releasing returns the items to the shelf."""
        assert [1, 2] == [1, 2, 3]


for i in range(40):
    setattr(CartTest, "test_price_%02d" % i, lambda self, i=i: self.assertEqual(total([i]), i))
PY
python3 -m unittest -v shop.test_cart > "$out/unittest-verbose-fail.log" 2>&1 || true

cat > runtests.py <<'PY'
"""Runs the suite as Django's tests/runtests.py frames it."""
import os
import sys
import unittest

print("Testing against Django installed in '%s' with up to 2 processes" % os.path.dirname(os.path.abspath(__file__)), file=sys.stderr)
print("Creating test database for alias 'default'...", file=sys.stderr)
suite = unittest.defaultTestLoader.loadTestsFromName("shop.test_cart")
result = unittest.TextTestRunner(verbosity=1).run(suite)
print("Destroying test database for alias 'default'...", file=sys.stderr)
sys.exit(not result.wasSuccessful())
PY
python3 runtests.py > "$out/django-runtests-fail.log" 2>&1 || true

python3 "$out/sympy-style.py" > "$out/sympy-bin-test-fail.log" || true
