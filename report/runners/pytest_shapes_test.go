package runners

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pytestShapesFixture has one test of each outcome pytest reports: passes,
// an assertion, an exception raised in a helper, a list diff, a broken
// fixture (an error at setup), a strict xfail that passed, a skip.
var pytestShapesFixture = map[string]string{
	"test_a.py": `import pytest

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
`,
	"test_b.py": `def helper(v):
    raise ValueError("bad value %r" % v)

def test_b_ok():
    assert True

def test_b_raises():
    helper(7)

def test_b_eq():
    assert [1, 2, 3] == [1, 2, 4]

def test_b_ok2():
    assert "a" in "abc"
`,
}

// pytestFail is one failure as the report should give it: line 0 where
// the output names no place of the test's own.
type pytestFail struct {
	line int
	msg  string
}

// needPytest skips unless Debian's pytest (and, if asked, one of its
// plugins) is installed for /usr/bin/python3; .ci/run installs them.
func needPytest(t *testing.T, modules ...string) string {
	t.Helper()
	py := "/usr/bin/python3"
	for _, m := range append([]string{"pytest"}, modules...) {
		if err := exec.Command(py, "-c", "import "+m).Run(); err != nil {
			t.Skipf("%s is not installed for %s: %v", m, py, err)
		}
	}
	return py
}

// checkPytestFails compares the failures by name, whatever order xdist's
// workers finished them in, with their line and message.
func checkPytestFails(t *testing.T, s *Summary, want map[string]pytestFail, log []byte) {
	t.Helper()
	got := map[string]pytestFail{}
	for _, f := range s.Failures {
		got[f.Name] = pytestFail{f.Line, f.Message}
		if want, ok := want[f.Name]; ok && !strings.HasPrefix(f.Name, f.File+"::") {
			t.Errorf("%s: file %q, want its node id's file (%+v)", f.Name, f.File, want)
		}
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || g != w {
			t.Errorf("%s = %+v (named %v), want %+v", name, g, ok, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d failures %v, want %d\nlog:\n%s", len(got), got, len(want), log)
	}
}

// indexNames is the tests the index names with their outcome, sorted.
func indexNames(s *Summary) []string {
	var out []string
	for _, e := range s.Index.Entries {
		if e.Name != "" {
			flaky := ""
			if e.Flaky {
				flaky = "~"
			}
			out = append(out, string(e.Outcome)+flaky+" "+e.Name)
		}
	}
	slices.Sort(out)
	return out
}

// TestPytestShapes runs the fixture under the output shapes CI logs use:
// xdist's workers, each --tb style, -q, -rA, -x. Counts, failure names,
// messages (the assertion, never pytest's own frame) and places must hold
// in each, and with -v every test must be in the index by its node id.
func TestPytestShapes(t *testing.T) {
	py := needPytest(t)
	dir := t.TempDir()
	writeFiles(t, dir, pytestShapesFixture)
	full := map[string]pytestFail{
		"test_a.py::test_bad":          {8, "assert 2 == 1"},
		"test_a.py::test_xpass_strict": {0, "[XPASS(strict)]"},
		"test_b.py::test_b_raises":     {8, "ValueError: bad value 7"},
		"test_b.py::test_b_eq":         {11, "assert [1, 2, 3] == [1, 2, 4]"},
		"test_a.py::test_uses_broken":  {0, "RuntimeError: fixture broke"},
	}
	// --tb=line and --tb=no print no test's own place; the message is
	// then the short summary's.
	noPlace := map[string]pytestFail{}
	for k, v := range full {
		noPlace[k] = pytestFail{0, v.msg}
	}
	noPlace["test_a.py::test_xpass_strict"] = pytestFail{} // only its section says XPASS(strict)
	indexed := []string{"F test_a.py::test_bad", "F test_a.py::test_uses_broken", "F test_a.py::test_xpass_strict",
		"F test_b.py::test_b_eq", "F test_b.py::test_b_raises", "P test_a.py::test_ok1", "P test_a.py::test_ok2",
		"P test_b.py::test_b_ok", "P test_b.py::test_b_ok2", "S test_a.py::test_skipped"}
	for _, c := range []struct {
		name   string
		args   []string
		xdist  bool
		fails  map[string]pytestFail
		counts want
		index  []string // nil: only the failures are named
	}{
		{"default", nil, false, full, want{"pytest", 10, 4, 4, 1, 1, nil, nil, 1}, nil},
		{"verbose", []string{"-v"}, false, full, want{"pytest", 10, 4, 4, 1, 1, nil, nil, 1}, indexed},
		{"xdist", []string{"-n", "2"}, true, full, want{"pytest", 10, 4, 4, 1, 1, nil, nil, 1}, nil},
		{"xdist verbose", []string{"-n", "2", "-v"}, true, full, want{"pytest", 10, 4, 4, 1, 1, nil, nil, 1}, indexed},
		{"tb short", []string{"--tb=short"}, false, full, want{"pytest", 10, 4, 4, 1, 1, nil, nil, 1}, nil},
		{"tb native", []string{"--tb=native"}, false, full, want{"pytest", 10, 4, 4, 1, 1, nil, nil, 1}, nil},
		{"xdist tb native", []string{"-n", "2", "--tb=native"}, true, full, want{"pytest", 10, 4, 4, 1, 1, nil, nil, 1}, nil},
		{"tb line", []string{"--tb=line"}, false, noPlace, want{"pytest", 10, 4, 4, 1, 1, nil, nil, 1}, nil},
		{"tb no rA", []string{"--tb=no", "-rA"}, false, noPlace, want{"pytest", 10, 4, 4, 1, 1, nil, nil, 1}, nil},
		{"quiet", []string{"-q"}, false, full, want{"pytest", 10, 4, 4, 1, 1, nil, nil, 1}, nil},
		{"rA", []string{"-rA"}, false, full, want{"pytest", 10, 4, 4, 1, 1, nil, nil, 1}, nil},
		{"exitfirst", []string{"-x"}, false, map[string]pytestFail{"test_a.py::test_bad": {8, "assert 2 == 1"}},
			want{"pytest", 2, 1, 1, 0, 0, nil, nil, 1}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.xdist {
				needPytest(t, "xdist")
			}
			args := append([]string{"-m", "pytest", "-p", "no:cacheprovider"}, c.args...)
			log := runTool(t, dir, nil, py, args...)
			s := scanBytes(t, log)
			c.counts.failures = s.failureNames() // the order is xdist's; checkPytestFails checks the names
			check(t, s, c.counts, log)
			checkPytestFails(t, s, c.fails, log)
			if c.index != nil {
				if got := indexNames(s); !slices.Equal(got, c.index) {
					t.Errorf("index = %q, want %q", got, c.index)
				}
			}
		})
	}
}

// failureNames is the names of s's failures, in its order.
func (s *Summary) failureNames() []string {
	var out []string
	for _, f := range s.Failures {
		out = append(out, f.Name)
	}
	return out
}

// TestPytestPlugins runs the plugins whose output CI logs carry:
// pytest-timeout's failure, pytest-rerunfailures' RERUN (a test that
// passes on its rerun is flaky, one that fails every time failed),
// hypothesis' falsifying example, and an xdist worker that dies.
func TestPytestPlugins(t *testing.T) {
	py := needPytest(t, "xdist", "pytest_timeout", "pytest_rerunfailures", "hypothesis")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"test_p.py": `import os, time
import pytest
from hypothesis import given, settings, strategies as st

@pytest.mark.timeout(1, method="signal")
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

# No deadline: on a loaded machine hypothesis would report slow examples
# (Flaky, DeadlineExceeded) instead of the falsifying one.
@settings(deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=10))
def test_reciprocal(n):
    assert 1 / (n + 1) <= 1 and n != 0

def test_fine():
    pass
`, "crash/test_crash.py": `import os

def test_crash():
    os._exit(3)

def test_after():
    pass
`})
	fails := map[string]pytestFail{
		"test_p.py::test_hangs":        {7, "Failed: Timeout >1.0s"},
		"test_p.py::test_always_fails": {18, "assert 1 == 2"},
		"test_p.py::test_reciprocal":   {23, "assert ((1 / (0 + 1)) <= 1 and 0 != 0)"},
	}
	for _, c := range []struct {
		name  string
		args  []string
		flaky []string // a rerun is named only by -v
	}{
		{"default", nil, nil},
		{"verbose", []string{"-v"}, []string{"test_p.py::test_flaky_then_passes"}},
		{"xdist verbose", []string{"-n", "2", "-v"}, []string{"test_p.py::test_flaky_then_passes"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := []string{"FLAKY_MARKER=" + filepath.Join(t.TempDir(), "marker")}
			args := append([]string{"-m", "pytest", "-p", "no:cacheprovider"}, c.args...)
			log := runTool(t, dir, env, py, append(args, "test_p.py")...)
			s := scanBytes(t, log)
			check(t, s, want{"pytest", 5, 2, 3, 0, 0, s.failureNames(), c.flaky, 1}, log)
			checkPytestFails(t, s, fails, log)
			if c.flaky != nil && !slices.Contains(indexNames(s), "P~ test_p.py::test_flaky_then_passes") {
				t.Errorf("index %q does not hold the rerun test as flaky", indexNames(s))
			}
			if !strings.Contains(string(log), "Falsifying example: test_reciprocal(") {
				t.Errorf("hypothesis printed no falsifying example:\n%s", log)
			}
		})
	}
	t.Run("worker crash", func(t *testing.T) {
		log := runTool(t, dir, nil, py, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "crash")
		s := scanBytes(t, log)
		check(t, s, want{"pytest", 2, 1, 1, 0, 0, []string{"crash/test_crash.py::test_crash"}, nil, 1}, log)
		f := findFailure(s, "crash/test_crash.py::test_crash")
		if f == nil || !strings.HasPrefix(f.Message, "worker 'gw") || !strings.HasSuffix(f.Message, "' crashed while running 'crash/test_crash.py::test_crash'") {
			t.Errorf("crashed test = %+v, want the worker's crash line as its message", f)
		}
	})
}
