package render

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/testindex"
	"github.com/runledger/runledger/store"
)

// buildGtest compiles report/runners' gtest fixtures (calc, a, b) with g++
// and Debian's libgtest-dev and libgmock-dev; skipped where they are not
// installed.
func buildGtest(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("g++ is not installed here")
	}
	for _, h := range []string{"/usr/include/gtest/gtest.h", "/usr/include/gmock/gmock.h"} {
		if _, err := os.Stat(h); err != nil {
			t.Skipf("%s is not installed here (libgtest-dev, libgmock-dev)", h)
		}
	}
	dir := t.TempDir()
	for _, name := range []string{"calc", "a", "b"} {
		src, err := os.ReadFile(filepath.Join("..", "runners", "testdata", "gtest", name+"_test.cc"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+"_test.cc"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("g++", "-std=c++17", "-o", name, name+"_test.cc", "-lgmock", "-lgtest", "-lgtest_main", "-pthread")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("g++ %s: %v\n%s", name, err, out)
		}
	}
	return dir
}

// gtestRun captures argv, run in dir with env added, into a new store and
// builds its report against base (nil: none).
func gtestRun(t *testing.T, dir string, env []string, base *testindex.Index, argv ...string) *report.Envelope {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := capture.Run(st, capture.Options{Name: "calc", Argv: argv, Dir: dir, Env: append(os.Environ(), env...), KillAfter: time.Second}); err != nil {
		t.Fatal(err)
	}
	var opts report.Options
	if base != nil {
		opts.Baseline = &report.Baselines{Runs: map[string]*testindex.Index{"calc": base}}
	}
	env2, err := report.Build(st, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(env2.Runs) != 1 {
		t.Fatalf("%d runs", len(env2.Runs))
	}
	return env2
}

// TestGtestReal runs the fixture under runledger's capture as a user's CI
// step would, on the base branch (GTEST_FIXTURE_FIXED: every test passes)
// and with the regression, and reads the report end to end: the verified
// summary, each failure's name, place and assertion, the test index
// against the base's (every failure is new, the suite's set-up a new
// test), an excerpt per failure holding its failure block and none of a
// passing test's log, and the Markdown comment. Then a crash in a test,
// and two binaries in one step.
func TestGtestReal(t *testing.T) {
	dir := buildGtest(t)
	baseEnv := gtestRun(t, dir, []string{"GTEST_FIXTURE_FIXED=1"}, nil, "./calc")
	base := baseEnv.Runs[0]
	if base.Status != "passed" || base.Summary.Source != "gtest" || !base.Summary.Verified || derefGtest(base.Summary.Passed) != 13 {
		t.Fatalf("base run: %s, summary %+v", base.Status, base.Summary)
	}

	env := gtestRun(t, dir, nil, base.Index(), "./calc")
	run := env.Runs[0]
	s := run.Summary
	if run.Status != "failed" || s.Source != "gtest" || !s.Verified || derefGtest(s.Tests) != 14 || derefGtest(s.Passed) != 6 ||
		derefGtest(s.Failed) != 6 || derefGtest(s.Skipped) != 2 || derefGtest(s.Errors) != 1 {
		t.Fatalf("run %s, summary %+v", run.Status, s)
	}
	type place struct {
		line int
		msg  string
	}
	want := map[string]place{
		"Sum.Three":               {29, "Expected equality of these values: 6 / Sum({1, 2, 3}) Which is: 3 sum of 1..3"},
		"Sum.Single":              {35, "Value of: Sum({7}) == 7 Actual: false Expected: true one element"},
		"Match.Greeting":          {43, `Value of: greeting Expected: has substring "bye" Actual: "hello world"`},
		"Match.Throws":            {0, `C++ exception with description "boom" thrown in the test body.`},
		"Death.Exits":             {54, "Death test: std::exit(Fixed() ? 1 : 0) Result: died but not with expected exit code: Exited with exit status 0 Actual msg:"},
		"V/Positive.IsPositive/1": {57, "Expected: (Fixed() ? 1 : GetParam()) > (0), actual: -2 vs 0; where GetParam() = -2"},
		"Db: SetUpTestSuite or TearDownTestSuite": {63, "Failed no database"},
	}
	if len(s.Failures) != len(want) {
		t.Errorf("%d failures, want %d: %+v", len(s.Failures), len(want), s.Failures)
	}
	for _, f := range s.Failures {
		w, ok := want[f.Name]
		file := "calc_test.cc"
		if w.line == 0 {
			file = ""
		}
		if !ok || f.File != file || f.Line != w.line || f.Message != w.msg {
			t.Errorf("failure %+v, want %s:%d %q", f, file, w.line, w.msg)
		}
		origin := "new"
		if strings.Contains(f.Name, ":") {
			origin = "new_test" // the base ran no failing suite set-up
		}
		if f.Origin != origin {
			t.Errorf("%s: origin %q, want %q", f.Name, f.Origin, origin)
		}
	}
	if env.Regressions == nil || *env.Regressions != 7 {
		t.Errorf("regressions = %v, want 7", env.Regressions)
	}

	// The index names every test, the passing ones too.
	idx := run.Index()
	outcomes := map[string]testindex.Outcome{}
	for _, e := range idx.Entries {
		outcomes[e.Name] = e.Outcome
		if e.Kind != testindex.Test && e.Kind != testindex.NamedUnit {
			t.Errorf("index entry %+v: want tests and a unit that names all of them", e)
		}
	}
	for name, o := range map[string]testindex.Outcome{"Sum.Empty": testindex.Passed, "Sum.Logs": testindex.Passed,
		"Crash.After": testindex.Passed, "V/Positive.IsPositive/0": testindex.Passed, "Skip.Later": testindex.Skipped,
		"Sum.Three": testindex.Failed, "V/Positive.IsPositive/1": testindex.Failed} {
		if outcomes[name] != o {
			t.Errorf("index: %s is %q, want %q", name, outcomes[name], o)
		}
	}

	// Each failure's excerpt holds its failure block; no passing test's log.
	texts := map[string]string{}
	for _, x := range run.Excerpts {
		texts[x.Test] += x.Text
		if strings.Contains(x.Text, "ERROR-looking") {
			t.Errorf("excerpt %s %s quotes a passing test's log", x.Test, x.Role)
		}
	}
	for name, w := range want {
		head := "unknown file: Failure"
		if w.line > 0 {
			head = "calc_test.cc:" + strconv.Itoa(w.line) + ": Failure"
		}
		if !strings.Contains(texts[name], head) {
			t.Errorf("no excerpt of %s holds %q; excerpts: %v", name, head, texts)
		}
	}
	if !strings.Contains(texts["Sum.Three"], "  Sum({1, 2, 3})\n    Which is: 3\nsum of 1..3\n") {
		t.Errorf("Sum.Three's excerpt lacks its assertion: %q", texts["Sum.Three"])
	}

	md, err := Markdown(env, Options{Budget: 16384})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"**Failing tests (7: 6 new, 1 new test)**", "`Sum.Three`", "Which is: 3", "calc_test.cc:29: Failure",
		"`V/Positive.IsPositive/1`", "`Db: SetUpTestSuite or TearDownTestSuite` **new test**"} {
		if !strings.Contains(md, w) {
			t.Errorf("the comment lacks %q:\n%s", w, md)
		}
	}
	if strings.Contains(md, "ERROR-looking") {
		t.Errorf("the comment quotes a passing test's log:\n%s", md)
	}

	t.Run("crash", func(t *testing.T) {
		env := gtestRun(t, dir, []string{"GTEST_FIXTURE_CRASH=1"}, nil, "./calc")
		run := env.Runs[0]
		s := run.Summary
		if run.Status != "signaled" || s.Source != "gtest" || s.Verified || s.Tests != nil || derefGtest(s.Failed) != 6 {
			t.Fatalf("run %s, summary %+v", run.Status, s)
		}
		if f := s.Failures[len(s.Failures)-1]; f.Name != "Crash.Segv" || !strings.HasPrefix(f.Message, "no verdict") {
			t.Errorf("last failure %+v, want Crash.Segv without a verdict", f)
		}
		quoted := ""
		for _, x := range run.Excerpts {
			quoted += x.Text
		}
		if !strings.Contains(quoted, "Crash.Segv: about to dereference null") {
			t.Errorf("the excerpts lack the crashing test's last words: %+v", run.Excerpts)
		}
		md, err := Markdown(env, Options{Budget: 16384})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(md, "`Crash.Segv`") || !strings.Contains(md, "Crash.Segv: about to dereference null") {
			t.Errorf("the comment lacks the crash:\n%s", md)
		}
	})
	t.Run("two binaries", func(t *testing.T) {
		env := gtestRun(t, dir, nil, nil, "sh", "-c", "./a; ./b")
		s := env.Runs[0].Summary
		if s.Source != "gtest" || !s.Verified || derefGtest(s.Tests) != 4 || derefGtest(s.Failed) != 2 || len(s.Failures) != 2 ||
			s.Failures[0].Name != "Alpha.Fails" || s.Failures[1].Name != "Beta.Fails" {
			t.Fatalf("summary %+v", s)
		}
		md, err := Markdown(env, Options{Budget: 16384})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"`Alpha.Fails`", "`Beta.Fails`", "a_test.cc:6", "b_test.cc:5"} {
			if !strings.Contains(md, w) {
				t.Errorf("the comment lacks %q:\n%s", w, md)
			}
		}
	})
}

func derefGtest(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}
