#!/bin/sh
# Regenerates the pytest samples (see README.md): real output of Debian's
# pytest 7.2 and its plugins (python3-pytest, -pytest-xdist, -pytest-timeout,
# -pytest-rerunfailures, -hypothesis) on a made-up suite with one test of
# each outcome, in the shapes CI logs use:
#   pytest-xdist-verbose-fail.log  -n 2 -v: `[gw0] [ 40%] PASSED x::y` lines
#   pytest-native-fail.log         --tb=native: Python's own tracebacks
#   pytest-tbline-fail.log         --tb=line: one `/abs/x.py:8: message` line each
#   pytest-tbno-fail.log           --tb=no -rA: only the short summary
#   pytest-plugins-fail.log        -v: a timeout, RERUN then PASSED, RERUN
#                                  then FAILED, a hypothesis falsifying example
# Usage: sh testdata/gen-pytest-samples.sh (from report/runners)
set -eu
out=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > test_a.py <<'PY'
import pytest

def test_ok1():
    assert 1 + 1 == 2

def test_bad():
    x = 3 - 1
    assert x == 1

def test_ok2():
    pass

@pytest.fixture
def broken():
    raise RuntimeError("fixture broke")

def test_uses_broken(broken):
    pass

@pytest.mark.xfail(strict=True)
def test_xpass_strict():
    pass

@pytest.mark.skip(reason="later")
def test_skipped():
    pass
PY
cat > test_b.py <<'PY'
def helper(v):
    raise ValueError("bad value %r" % v)

def test_b_ok():
    assert True

def test_b_raises():
    helper(7)

def test_b_eq():
    assert [1, 2, 3] == [1, 2, 4]

def test_b_ok2():
    assert "a" in "abc"
PY
mkdir plugins
cat > plugins/test_p.py <<'PY'
import os, time
import pytest
from hypothesis import given, strategies as st

@pytest.mark.timeout(1)
def test_hangs():
    time.sleep(5)

@pytest.mark.flaky(reruns=2)
def test_flaky_then_passes():
    marker = os.environ["FLAKY_MARKER"]
    if not os.path.exists(marker):
        open(marker, "w").close()
        assert False, "first attempt fails"

@pytest.mark.flaky(reruns=1)
def test_always_fails():
    assert 1 == 2

@given(st.integers(min_value=0, max_value=10))
def test_reciprocal(n):
    assert 1 / (n + 1) <= 1 and n != 0

def test_fine():
    pass
PY
pt() { /usr/bin/python3 -m pytest -p no:cacheprovider "$@" test_a.py test_b.py 2>&1 || true; }
pt -n 2 -v > "$out/pytest-xdist-verbose-fail.log"
pt --tb=native > "$out/pytest-native-fail.log"
pt --tb=line > "$out/pytest-tbline-fail.log"
pt --tb=no -rA > "$out/pytest-tbno-fail.log"
FLAKY_MARKER=$work/marker /usr/bin/python3 -m pytest -p no:cacheprovider -v plugins > "$out/pytest-plugins-fail.log" 2>&1 || true
