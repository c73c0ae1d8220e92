package runners

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/runledger/runledger/report/testindex"
)

// buildGtest compiles the fixtures in testdata/gtest with g++ and Debian's
// libgtest-dev and libgmock-dev into dir, as binaries calc, a and b;
// skipped where they are not installed.
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
		src, err := os.ReadFile(filepath.Join("testdata", "gtest", name+"_test.cc"))
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

// gtestCalcFailures are the fixture's failing tests, in the order it runs
// them, and its failed SetUpTestSuite.
var gtestCalcFailures = []string{"Sum.Three", "Sum.Single", "Match.Greeting", "Match.Throws", "Death.Exits",
	"V/Positive.IsPositive/1", "Db: SetUpTestSuite or TearDownTestSuite"}

// gtestCalcMessages are what each failure's message and place are.
var gtestCalcMessages = map[string]struct {
	message string
	line    int
}{
	"Sum.Three":               {"Expected equality of these values: 6 / Sum({1, 2, 3}) Which is: 3 sum of 1..3", 29},
	"Sum.Single":              {"Value of: Sum({7}) == 7 Actual: false Expected: true one element", 35},
	"Match.Greeting":          {`Value of: greeting Expected: has substring "bye" Actual: "hello world"`, 43},
	"Match.Throws":            {`C++ exception with description "boom" thrown in the test body.`, 0},
	"Death.Exits":             {"Death test: std::exit(Fixed() ? 1 : 0) Result: died but not with expected exit code: Exited with exit status 0 Actual msg:", 54},
	"V/Positive.IsPositive/1": {"Expected: (Fixed() ? 1 : GetParam()) > (0), actual: -2 vs 0; where GetParam() = -2", 57},
	"Db: SetUpTestSuite or TearDownTestSuite": {"Failed no database", 63},
}

// TestGtestReal builds the fixture and runs it as gtest's users do: plain,
// --gtest_brief, without times, repeated and shuffled, crashing in a
// test, two binaries of the same size one after the other, and under
// ctest --output-on-failure. The counts come from the total, the failures
// from the verdicts, their messages and places from the failure blocks
// above them, every test's outcome from its verdict.
func TestGtestReal(t *testing.T) {
	dir := buildGtest(t)
	calc := filepath.Join(dir, "calc")
	// 14 tests: 6 passed, 6 failed, 2 skipped (one by its suite's failed
	// set-up), one disabled; the set-up is an error.
	whole := want{"gtest", 14, 6, 6, 2, 1, gtestCalcFailures, nil, 1}
	passes := []string{"Sum.Empty", "Sum.Logs", "Crash.Segv", "Crash.After", "V/Positive.IsPositive/0", "V/Positive.IsPositive/2"}
	skips := []string{"Skip.Later", "Db.Query"}

	t.Run("plain", func(t *testing.T) {
		log := runTool(t, dir, nil, calc)
		s := checkVerifies(t, log)
		check(t, s, whole, log)
		checkGtestMessages(t, s, gtestCalcFailures)
		checkGtestIndex(t, s, passes, skips, true)
	})
	t.Run("brief", func(t *testing.T) {
		log := runTool(t, dir, nil, calc, "--gtest_brief=1")
		s := checkVerifies(t, log)
		// No list of failures: the failed suite is not named, nor counted.
		w := whole
		w.errors, w.failures = 0, gtestCalcFailures[:6]
		check(t, s, w, log)
		// The suite's failure, printed outside any test, reads as the next
		// failed test's: --gtest_brief does not say where tests begin.
		checkGtestMessages(t, s, gtestCalcFailures[:5])
		checkGtestIndex(t, s, nil, nil, false)
	})
	t.Run("no times", func(t *testing.T) {
		log := runTool(t, dir, nil, calc, "--gtest_print_time=0")
		s := checkVerifies(t, log)
		check(t, s, whole, log)
		checkGtestMessages(t, s, gtestCalcFailures)
	})
	t.Run("repeat shuffle", func(t *testing.T) {
		log := runTool(t, dir, nil, calc, "--gtest_repeat=2", "--gtest_shuffle", "--gtest_random_seed=7")
		s := checkVerifies(t, log)
		sortNames(s)
		w := whole
		w.failures = slices.Sorted(slices.Values(gtestCalcFailures))
		w.runs = 2
		check(t, s, w, log)
		if s.Superseded != 1 {
			t.Errorf("superseded = %d, want 1: the second iteration replaces the first", s.Superseded)
		}
	})
	t.Run("crash", func(t *testing.T) {
		log := runTool(t, dir, []string{"GTEST_FIXTURE_CRASH=1"}, calc)
		s := checkVerifies(t, log)
		// Up to the crash: 5 failed and the crashing test, 2 passed, 2
		// skipped; how many tests there were is not known.
		w := want{"gtest", -1, 2, 6, 2, 0, []string{"Sum.Three", "Sum.Single", "Match.Greeting", "Match.Throws", "Death.Exits", "Crash.Segv"}, nil, 1}
		check(t, s, w, log)
		if f := findFailure(s, "Crash.Segv"); f == nil || f.Message != gtestNoVerdict {
			t.Errorf("Crash.Segv = %+v, want message %q", f, gtestNoVerdict)
		}
		if !strings.Contains(s.Note, "ended without its total") {
			t.Errorf("note = %q", s.Note)
		}
		checkGtestIndex(t, s, []string{"Sum.Empty", "Sum.Logs"}, skips, false)
	})
	t.Run("two binaries of one size", func(t *testing.T) {
		log := runTool(t, dir, nil, "sh", "-c", "./a; ./b")
		s := checkVerifies(t, log)
		check(t, s, want{"gtest", 4, 2, 2, 0, 0, []string{"Alpha.Fails", "Beta.Fails"}, nil, 2}, log)
		if f := findFailure(s, "Beta.Fails"); f == nil || f.File != "b_test.cc" || f.Line != 5 ||
			f.Message != "Expected: (3) != (1 + 2), actual: 3 vs 3 beta" {
			t.Errorf("Beta.Fails = %+v", f)
		}
		checkGtestIndex(t, s, []string{"Alpha.Passes", "Beta.Passes"}, nil, true)
	})
	t.Run("a crash, then another binary", func(t *testing.T) {
		log := runTool(t, dir, []string{"GTEST_FIXTURE_CRASH=1"}, "sh", "-c", "./calc; ./a")
		s := checkVerifies(t, log)
		w := want{"gtest", -1, 3, 7, 2, 0, []string{"Sum.Three", "Sum.Single", "Match.Greeting", "Match.Throws", "Death.Exits", "Crash.Segv", "Alpha.Fails"}, nil, 2}
		check(t, s, w, log)
	})
	t.Run("ctest --output-on-failure", func(t *testing.T) {
		for _, tool := range []string{"cmake", "ctest"} {
			if _, err := exec.LookPath(tool); err != nil {
				t.Skipf("%s is not installed here", tool)
			}
		}
		cmakeLists := "cmake_minimum_required(VERSION 3.10)\nproject(calc NONE)\nenable_testing()\n" +
			"add_test(NAME calc COMMAND " + calc + ")\n" +
			"add_test(NAME alpha COMMAND " + filepath.Join(dir, "a") + ")\n" +
			"add_test(NAME beta_passes COMMAND " + filepath.Join(dir, "b") + " --gtest_filter=Beta.Passes)\n" +
			"add_test(NAME beta_fails COMMAND " + filepath.Join(dir, "b") + " --gtest_filter=Beta.Fails)\n" +
			"add_test(NAME plain COMMAND sh -c \"echo 'expected 3, got 4'; exit 1\")\n"
		proj := filepath.Join(dir, "proj")
		writeFiles(t, proj, map[string]string{"CMakeLists.txt": cmakeLists})
		build := filepath.Join(proj, "build")
		if out, err := exec.Command("cmake", "-S", proj, "-B", build).CombinedOutput(); err != nil {
			t.Fatalf("cmake: %v\n%s", err, out)
		}
		log := runTool(t, build, nil, "ctest", "--output-on-failure")
		s := checkVerifies(t, log)
		// ctest: 5 tests, 4 failed; calc, alpha and beta_fails are counted
		// by their gtest tests (14, 2 and 1), beta_passes (it passed: no
		// output) and plain (no gtest in it) by ctest.
		w := want{"gtest+ctest", 2 + 14 + 2 + 1, 1 + 6 + 1, 1 + 6 + 1 + 1, -1, 1,
			append(append(slices.Clone(gtestCalcFailures), "Alpha.Fails", "Beta.Fails"), "plain"), nil, 4}
		check(t, s, w, log)
		checkGtestMessages(t, s, gtestCalcFailures)
		if !strings.Contains(s.Note, ctestNested) {
			t.Errorf("note = %q, want it to say %q", s.Note, ctestNested)
		}
	})
}

// checkGtestMessages: each named failure has the fixture's message and
// place.
func checkGtestMessages(t *testing.T, s *Summary, names []string) {
	t.Helper()
	for _, name := range names {
		want := gtestCalcMessages[name]
		f := findFailure(s, name)
		switch {
		case f == nil:
			t.Errorf("no failure %s", name)
		case f.Message != want.message:
			t.Errorf("%s: message %q, want %q", name, f.Message, want.message)
		case want.line == 0 && (f.File != "" || f.Line != 0):
			t.Errorf("%s: at %s:%d, want no place (gtest says unknown file)", name, f.File, f.Line)
		case want.line > 0 && (f.File != "calc_test.cc" || f.Line != want.line):
			t.Errorf("%s: at %s:%d, want calc_test.cc:%d", name, f.File, f.Line, want.line)
		}
	}
}

// checkGtestIndex: the index names each passing and skipped test, each
// failure, and the whole run, whose tests are all named when named.
func checkGtestIndex(t *testing.T, s *Summary, passes, skips []string, named bool) {
	t.Helper()
	got := map[string]testindex.Outcome{}
	var whole *IndexEntry
	for i, e := range s.Index.Entries {
		if e.Name == "" {
			whole = &s.Index.Entries[i]
			continue
		}
		got[e.Name] = e.Outcome
	}
	for _, n := range passes {
		if got[n] != OutcomePassed {
			t.Errorf("index: %s is %q, want passed", n, got[n])
		}
	}
	for _, n := range skips {
		if got[n] != OutcomeSkipped {
			t.Errorf("index: %s is %q, want skipped", n, got[n])
		}
	}
	for _, f := range s.Failures {
		if got[f.Name] != OutcomeFailed {
			t.Errorf("index: %s is %q, want failed", f.Name, got[f.Name])
		}
	}
	if whole == nil || whole.Named != named || whole.Outcome != OutcomeFailed {
		t.Errorf("index: the whole run is %+v, want failed, named %v", whole, named)
	}
}

// FuzzGtest: a total may give only its number of tests (no PASSED line
// under it, or counts that do not add up), so, as for the declared
// runners, a failing run after any prefix leaves a failure or an unknown
// failure count, never a pass.
func FuzzGtest(f *testing.F) {
	fuzzDeclared(f, "[==========] Running 2 tests from 1 test suite.\n[ RUN      ] A.B\nt.cc:5: Failure\nExpected equality of these values:\n  1\n  2\n[  FAILED  ] A.B (0 ms)\n"+
		"[ RUN      ] A.C\n[       OK ] A.C (0 ms)\n[==========] 2 tests from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.\n[  FAILED  ] 1 test, listed below:\n[  FAILED  ] A.B\n\n 1 FAILED TEST\n",
		"[==========] Running 1 test from 1 test suite.\n[ RUN      ] A.C\n[       OK ] A.C (0 ms)\n[==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.\n",
		"[ RUN      ] A.B\n", "[==========] 2 tests from 1 test suite ran.\n[  PASSED  ] 2 tests.\n[  SKIPPED ] 1 test, listed below:\n",
		"t.cc:5: Failure\n[  FAILED  ] X.Y\n[==========] 1 test from 1 test suite ran.\n[  PASSED  ] 0 tests.\n",
		"[  FAILED  ] 0 tests, listed below:\n[  FAILED  ] D: SetUpTestSuite or TearDownTestSuite\n",
		"t.cc(5): error: Value of: x\n[  FAILED  ] A.B (0 ms)\n")
}

// TestGtestMessages: a failure's message and place, for the shapes of
// assertion gtest and gMock print (from real runs, yaml-cpp's under ctest
// among them), and MSVC's `file(line): error: message`, which gtest's
// FormatFileLocation and TestPartResultTypeToString print when built with
// _MSC_VER (not run here: no MSVC).
func TestGtestMessages(t *testing.T) {
	run := func(body, verdict string) string {
		return "[==========] Running 1 test from 1 test suite.\n[ RUN      ] " + verdict + "\n" + body + "[  FAILED  ] " + verdict + " (0 ms)\n" +
			"[==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 0 tests.\n[  FAILED  ] 1 test, listed below:\n[  FAILED  ] " + verdict + "\n"
	}
	for _, c := range []struct {
		name, log, file string
		line            int
		message         string
	}{
		{"MSVC", run("C:\\src\\calc_test.cc(29): error: Expected equality of these values:\n  6\n  Sum({1, 2, 3})\n    Which is: 3\nsum of 1..3\n", "Sum.Three"),
			`C:\src\calc_test.cc`, 29, "Expected equality of these values: 6 / Sum({1, 2, 3}) Which is: 3 sum of 1..3"},
		{"a string diff", run("/y/test/integration/emitter_test.cpp:30: Failure\nExpected equality of these values:\n  expected\n    Which is: \"\\\"Hello\\\\nWorld\\\"\"\n  out.c_str()\n    Which is: \"\\\"Hello\\\\rWorld\\\"\"\nWith diff:\n@@ -1 +1 @@\n-\\\"Hello\\\\nWorld\\\"\n+\\\"Hello\\\\rWorld\\\"\n", "EmitterTest.ForceSingleQuotedToDouble"),
			"/y/test/integration/emitter_test.cpp", 30, `Expected equality of these values: expected Which is: "\"Hello\\nWorld\"" / out.c_str() Which is: "\"Hello\\rWorld\"" With diff: @@ -1 +1 @@ -\"Hello\\nWorld\" +\"Hello\\rWorld\"`},
		{"gMock's unexpected call", run("unknown file: Failure\n\nUnexpected mock function call - returning directly.\n    Function call: OnDocumentEnd()\nGoogle Mock tried the following 1 expectation, but it didn't match:\n\n"+
			"/y/test/integration/gen_emitter_test.cpp:122: EXPECT_CALL(handler, OnDocumentEnd())...\n         Expected: all pre-requisites are satisfied\n", "GenEmitterTest.test718fa11b9bfa9dfc6632"),
			"", 0, "Unexpected mock function call - returning directly. Function call: OnDocumentEnd() Google Mock tried the following 1 expectation, but it didn't match: /y/test/integration/gen_emitter_test.cpp:122: EXPECT_CALL(handler, OnDocumentEnd())... Expected: all pre-requisites are satisfied"},
		{"gMock's unsatisfied expectation", run("/y/gen_emitter_test.cpp:121: Failure\nActual function call count doesn't match EXPECT_CALL(handler, OnScalar(_, \"!\", 0, \"foo\\n\"))...\n         Expected: to be called once\n           Actual: never called - unsatisfied and active\nprinted by the test afterwards\n", "GenEmitterTest.testx"),
			"/y/gen_emitter_test.cpp", 121, `Actual function call count doesn't match EXPECT_CALL(handler, OnScalar(_, "!", 0, "foo\n"))... Expected: to be called once Actual: never called - unsatisfied and active printed by the test afterwards`},
		{"what the test prints after its assertion", run("t.cc:8: Failure\nValue of: ok\n  Actual: false\nExpected: true\ncleanup 1\ncleanup 2\n", "A.B"),
			"t.cc", 8, "Value of: ok Actual: false Expected: true cleanup 1"},
		{"a second failure is not the first's message", run("t.cc:8: Failure\nExpected: (a) < (b), actual: 2 vs 1\nt.cc:9: Failure\nFailed\n", "A.B"),
			"t.cc", 8, "Expected: (a) < (b), actual: 2 vs 1"},
		{"a suite's set-up, before its first test", "[==========] Running 1 test from 1 test suite.\n[----------] 1 test from Db\nt.cc:63: Failure\nFailed\nno database\n" +
			"[ RUN      ] Db.Query\nt.cc:66: Skipped\n\n[  SKIPPED ] Db.Query (0 ms)\n[----------] 1 test from Db (0 ms total)\n\n" +
			"[==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 0 tests.\n[  SKIPPED ] 1 test, listed below:\n[  SKIPPED ] Db.Query\n" +
			"[  FAILED  ] 0 tests, listed below:\n\n 0 FAILED TESTS\n[  FAILED  ] Db: SetUpTestSuite or TearDownTestSuite\n\n 1 FAILED TEST SUITE\n",
			"t.cc", 63, "Failed no database"},
		{"a death test's child's stderr", run("t.cc:54: Failure\nDeath test: f()\n    Result: died but not with expected exit code:\n            Exited with exit status 0\nActual msg:\n[  DEATH   ] dying\n[  DEATH   ] \n", "Death.Exits"),
			"t.cc", 54, "Death test: f() Result: died but not with expected exit code: Exited with exit status 0 Actual msg: dying"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := checkVerifies(t, []byte(c.log))
			if len(s.Failures) != 1 {
				t.Fatalf("failures %+v", s.Failures)
			}
			if f := s.Failures[0]; f.File != c.file || f.Line != c.line || f.Message != c.message {
				t.Errorf("failure at %s:%d %q\nwant %s:%d %q", f.File, f.Line, f.Message, c.file, c.line, c.message)
			}
		})
	}
}

// TestGtestCountsAgree: a total whose failed count is not the number of
// tests that failed by their verdicts is no verified count, and a run with
// neither gtest's banner nor its total is no gtest run at all.
func TestGtestCountsAgree(t *testing.T) {
	const (
		banner = "[==========] Running 2 tests from 1 test suite.\n"
		tests  = "[ RUN      ] S.A\n[       OK ] S.A (0 ms)\n[ RUN      ] S.B\n[  FAILED  ] S.B (0 ms)\n"
		ran    = "[==========] 2 tests from 1 test suite ran. (0 ms total)\n"
	)
	for _, c := range []struct {
		name string
		log  string
		want want
		note string
	}{
		{"agree", banner + tests + ran + "[  PASSED  ] 1 test.\n[  FAILED  ] 1 test, listed below:\n[  FAILED  ] S.B\n",
			want{"gtest", 2, 1, 1, 0, 0, []string{"S.B"}, nil, 1}, ""},
		{"two passed by the total, one by the verdicts", banner + tests + ran + "[  PASSED  ] 2 tests.\n",
			want{"gtest", 2, -1, -1, -1, -1, []string{"S.B"}, nil, 1}, "not the number of tests it failed by name"},
		{"verdicts alone", tests, want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := scanBytes(t, []byte(c.log))
			check(t, s, c.want, []byte(c.log))
			if !strings.Contains(s.Note, c.note) {
				t.Errorf("note = %q, want one saying %q", s.Note, c.note)
			}
		})
	}
}
