package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bigUnittest is a unittest module with 600 passing tests around one
// failure and one error, so its log is far larger than the report's
// excerpt budget.
func bigUnittest() string {
	var b strings.Builder
	b.WriteString("import unittest\n\n\ndef area(r):\n    return round(3.14159 * r * r, 2)\n\n\nclass GeoTest(unittest.TestCase):\n")
	b.WriteString("    def test_area(self):\n        self.assertEqual(area(2), 12.56)\n\n")
	b.WriteString("    def test_boom(self):\n        raise ValueError(\"bad radius\")\n\n")
	b.WriteString("    @unittest.skip(\"later\")\n    def test_skip(self):\n        pass\n\n")
	for i := range 600 {
		fmt.Fprintf(&b, "    def test_pass_%03d(self):\n        self.assertEqual(area(0), 0)\n\n", i)
	}
	return b.String()
}

// reportRun is what the checks read of `runledger report --format json`.
type reportRun struct {
	Summary struct {
		Source   string `json:"source"`
		Verified bool   `json:"verified"`
		Tests    *int   `json:"tests"`
		Passed   *int   `json:"passed"`
		Failed   *int   `json:"failed"`
		Skipped  *int   `json:"skipped"`
		Errors   *int   `json:"errors"`
		Note     string `json:"note"`
		Failures []struct {
			Name, Classname, Message string
		} `json:"failures"`
		Spans []struct {
			Stream     string
			Start, End int64
		} `json:"spans"`
	} `json:"summary"`
	Excerpts []struct {
		Reason, Text string
	} `json:"excerpts"`
	Logs map[string]struct {
		Path string `json:"path"`
	} `json:"logs"`
}

// TestDeclaredRunnersEndToEnd runs real processes under the real binary —
// python3 -m unittest on a failing module, and a process printing sympy's
// bin/test output — then reads the report: the summary comes from the
// runner's declaration, its counts sit at the byte offsets it cites, it
// agrees with the exit status, and the failing test's excerpt holds its
// assertion.
func TestDeclaredRunnersEndToEnd(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed here")
	}
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "test_geo.py"), []byte(bigUnittest()), 0o644); err != nil {
		t.Fatal(err)
	}
	sympyLog, err := filepath.Abs("../../report/runners/testdata/sympy-bin-test-fail.log")
	if err != nil {
		t.Fatal(err)
	}
	djangoLog, err := filepath.Abs("../../report/runners/testdata/django-runtests-fail.log")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		argv     []string
		source   string
		verified bool
		counts   [5]int // tests, passed, failed, skipped, errors
		failures map[string]string
		cited    []string // lines the cited spans must hold
		excerpt  []string // lines some excerpt must quote
	}{
		{"python3 -m unittest -v", []string{py, "-m", "unittest", "-v", "test_geo"}, "unittest", true,
			[5]int{603, 600, 1, 1, 1},
			map[string]string{"test_area": "AssertionError: 12.57 != 12.56", "test_boom": "ValueError: bad radius"},
			[]string{"Ran 603 tests in ", "FAILED (failures=1, errors=1, skipped=1)", "FAIL: test_area (test_geo.GeoTest.test_area)"},
			[]string{"AssertionError: 12.57 != 12.56", "ValueError: bad radius"}},
		{"sympy's bin/test output", []string{"sh", "-c", "cat '" + sympyLog + "'; exit 1"}, "sympy-bin-test", true,
			[5]int{30, 23, 1, 5, 1},
			map[string]string{"test_area": "sympy.geometry.exceptions.GeometryError: polygon is not simple",
				"test_perimeter": "AssertionError at: assert Triangle(a, b, c).perimeter == 3 + sqrt(5)"},
			[]string{"tests finished: 13 passed, 1 failed, 1 expected to fail, 1 exceptions,", "in 0.42 seconds"},
			[]string{"GeometryError: polygon is not simple"}},
		{"Django's runtests.py output, on stderr", []string{"sh", "-c", "cat '" + djangoLog + "' >&2; exit 1"}, "unittest", true,
			[5]int{47, 41, 3, 2, 1},
			map[string]string{"test_discount": "AssertionError: 25.5 != 25.0", "test_currency": "KeyError: 'EUR'"},
			[]string{"Ran 47 tests in ", "FAILED (failures=3, errors=1, skipped=1, expected failures=1)"},
			[]string{"AssertionError: 25.5 != 25.0"}},
		// The same output from a command that exited 0: the counts say it
		// failed, so they are not verified.
		{"bin/test failures with exit 0", []string{"sh", "-c", "cat '" + sympyLog + "'"}, "sympy-bin-test", false,
			[5]int{30, 23, 1, 5, 1}, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// These runners exit 0 or 1, and so does runledger after them.
			r, store := runAndReport(t, binary, work, tt.argv, func(code int) bool { return code <= 1 })
			checkDeclaredRun(t, r, store, tt.source, tt.verified, tt.counts, tt.failures, tt.cited, tt.excerpt)
		})
	}
}

// runAndReport runs argv in dir under runledger, then reads the report of
// the store it wrote as JSON: the one run it holds, and the store. okExit
// says which exit statuses of runledger run the case allows (it passes
// the runner's own through); any other, or a report that fails, fails the
// test.
func runAndReport(t *testing.T, binary, dir string, argv []string, okExit func(int) bool) (reportRun, string) {
	t.Helper()
	store := t.TempDir()
	run := exec.Command(binary, append([]string{"run", "--quiet", "--dir", store, "--"}, argv...)...)
	run.Dir = dir
	if out, err := run.CombinedOutput(); err != nil && (run.ProcessState == nil || !okExit(run.ProcessState.ExitCode())) {
		t.Fatalf("runledger run: %v\n%s", err, out)
	}
	rep := exec.Command(binary, "report", "--dir", store, "--format", "json")
	out, err := rep.Output()
	if err != nil && rep.ProcessState.ExitCode() > 1 {
		t.Fatalf("runledger report: %v", err)
	}
	var env struct{ Runs []reportRun }
	if err := json.Unmarshal(out, &env); err != nil || len(env.Runs) != 1 {
		t.Fatalf("report: %v, %d runs\n%s", err, len(env.Runs), out)
	}
	return env.Runs[0], store
}

func checkDeclaredRun(t *testing.T, r reportRun, store, source string, verified bool, counts [5]int,
	failures map[string]string, cited, excerpt []string) {
	t.Helper()
	s := r.Summary
	got := [5]int{deref(s.Tests), deref(s.Passed), deref(s.Failed), deref(s.Skipped), deref(s.Errors)}
	if s.Source != source || s.Verified != verified || got != counts {
		t.Errorf("summary %s verified %v counts %v (%s), want %s %v %v", s.Source, s.Verified, got, s.Note, source, verified, counts)
	}
	for name, msg := range failures {
		found := false
		for _, f := range s.Failures {
			found = found || f.Name == name && f.Message == msg
		}
		if !found {
			t.Errorf("no failure %s with message %q in %+v", name, msg, s.Failures)
		}
	}
	log, err := os.ReadFile(logPath(store, r.Logs["output"].Path))
	if err != nil {
		t.Fatal(err)
	}
	var at strings.Builder
	for _, sp := range s.Spans {
		at.Write(log[sp.Start:sp.End])
	}
	for _, c := range cited {
		if !strings.Contains(at.String(), c) {
			t.Errorf("the cited spans do not hold %q; they hold:\n%s", c, at.String())
		}
	}
	var quoted strings.Builder
	for _, e := range r.Excerpts {
		if e.Reason == "whole" && len(log) > 16<<10 { // past the report's default budget
			t.Errorf("a %d-byte log was quoted whole", len(log))
		}
		quoted.WriteString(e.Text)
	}
	for _, e := range excerpt {
		if !strings.Contains(quoted.String(), e) {
			t.Errorf("no excerpt quotes %q; they quote:\n%s", e, quoted.String())
		}
	}
	if t.Failed() {
		// The run's own log, to tell a runner's changed output from a misreading.
		t.Logf("the combined log (%d bytes, first 4 KiB):\n%q", len(log), log[:min(len(log), 4<<10)])
	}
}

// logPath resolves a report's log path, relative to the working directory
// or to the store.
func logPath(store, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return filepath.Join(store, strings.TrimPrefix(p, filepath.Base(store)+"/"))
}

func deref(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}
