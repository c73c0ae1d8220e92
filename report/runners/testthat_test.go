package runners

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestthatSamples reads the real testthat runs in testdata/testthat
// (gen-samples.sh), checks that each verifies, and compares each summary
// with its golden file.
func TestTestthatSamples(t *testing.T) { checkGoldens(t, "testdata/testthat/*.log", 15) }

// testthatMessages are the fixture's failures: place and message.
var testthatMessages = map[string]string{
	"addition works":                      "test-math.R:3: add(101, 1) (`actual`) not equal to 102 (`expected`). `actual`: 103 `expected`: 102",
	"by zero: returns Inf":                "test-math.R:17: Error in `divide(1, 0)`: division by zero",
	"(code run outside of `test_that()`)": "test-setup.R:2: Error in `gzfile(file, \"rb\")`: cannot open the connection",
}

// TestTestthatSummary states what the goldens hold: testthat's counts
// (of expectations: one failure, one error, two skips, ten passes; the
// warnings in none), every failure and error named with its place and
// message, under every reporter, once.
func TestTestthatSummary(t *testing.T) {
	fails := []string{"addition works", "by zero: returns Inf"}
	outside := append(fails[:2:2], "(code run outside of `test_that()`)")
	run := want{"testthat", 14, 10, 1, 2, 1, fails, nil, 1}
	tests := []struct {
		sample string
		want   want
		note   string
	}{
		{"progress-fail", run, "counts expectations"},
		{"progress-color-fail", run, "counts expectations"},
		{"check-fail", run, "counts expectations"}, // its total twice, one run
		{"progress-pass", want{"testthat", 4, 4, 0, 0, 0, nil, nil, 1}, "counts expectations"},
		{"check-pass", want{"testthat", 4, 4, 0, 0, 0, nil, nil, 1}, "counts expectations"},
		// The compact reporter's status after each expectation is one run.
		{"file-fail", want{"testthat", 6, 4, 1, 0, 1, fails, nil, 1}, "counts expectations"},
		{"file-pass", want{"testthat", 4, 4, 0, 0, 0, nil, nil, 1}, "counts expectations"},
		// Stopped at its maximum of failures: what ran is counted.
		{"progress-maxfails", want{"testthat", 6, 4, 1, 0, 1, fails, nil, 1}, "stopped at its maximum number of failures"},
		// An error outside a test is one of FAIL's.
		{"progress-outside", want{"testthat", 15, 10, 1, 2, 2, outside, nil, 1}, "counts expectations"},
		{"check-outside", want{"testthat", 15, 10, 1, 2, 2, outside, nil, 1}, "counts expectations"},
		// R CMD check shows the last 13 lines: one of the two is named.
		{"rcmdcheck-fail", want{"testthat", 14, -1, -1, -1, -1, fails[1:], nil, 1}, "not the number of failures and errors"},
		// rcmdcheck prints R CMD check's last 13 lines, then the tests'
		// whole output: the same suite again, whose run counts.
		{"rcmdcheck-pkg-fail", want{"testthat", 14, 10, 1, 2, 1, fails, nil, 2}, "counts expectations"},
		// The summary reporter prints no total; a file that does not parse
		// stops the run before its total.
		{"summary-fail", want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"progress-broken", want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"check-broken", want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}, ""},
	}
	for _, c := range tests {
		t.Run(c.sample, func(t *testing.T) {
			path := filepath.Join("testdata", "testthat", c.sample+".log")
			log, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s := scanFile(t, path)
			check(t, s, c.want, log)
			if !strings.Contains(s.Note, c.note) {
				t.Errorf("note = %q, want one saying %q", s.Note, c.note)
			}
			checkMessages(t, s, testthatMessages)
		})
	}
}

// checkMessages compares each failure named in messages with its
// "file:line: message".
func checkMessages(t *testing.T, s *Summary, messages map[string]string) {
	t.Helper()
	for _, f := range s.Failures {
		if m, ok := messages[f.Name]; ok {
			if got := fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Message); got != m {
				t.Errorf("failure %s = %s, want %s", f.Name, got, m)
			}
		}
	}
}

// TestTestthatTotals: what makes a testthat total, the shapes of its
// headings across versions and reporters, and a total that does not agree
// with the failures it names is no verified count.
func TestTestthatTotals(t *testing.T) {
	const (
		rule    = "────────────────────────────────────────────────────────────\n"
		failure = "Failure ('test-a.R:3'): adds\n1 not equal to 2.\n\n"
		newer   = "Failure ('test-a.R:3:3'): adds\nExpected `1` to equal 2.\n\n"
	)
	tests := []struct {
		name string
		log  string
		want want
		note string
	}{
		{"progress", rule + failure + rule + "\n══ Results ═══\n[ FAIL 1 | WARN 0 | SKIP 0 | PASS 2 ]\n", want{"testthat", 3, 2, 1, 0, 0, []string{"adds"}, nil, 1}, ""},
		{"newer testthat repeats its failures under the results", rule + newer + rule + "\n══ Results ═══\n── Failed tests ──\n" + newer + "[ FAIL 1 | WARN 0 | SKIP 0 | PASS 2 ]\n",
			want{"testthat", 3, 2, 1, 0, 0, []string{"adds"}, nil, 1}, ""},
		{"two failed expectations of one test", rule + failure + "Failure ('test-a.R:4'): adds\n3 not equal to 4.\n" + rule + "[ FAIL 2 | WARN 0 | SKIP 0 | PASS 0 ]\n",
			want{"testthat", 2, 0, 2, 0, 0, []string{"adds"}, nil, 1}, ""},
		{"colours leave the place unquoted", "Error (test-a.R:3): adds\nError in `f()`: boom\n[ FAIL 1 | WARN 0 | SKIP 1 | PASS 0 ]\n", want{"testthat", 2, 0, 0, 1, 1, []string{"adds"}, nil, 1}, ""},
		{"check reporter, newer", "[ FAIL 1 | WARN 0 | SKIP 0 | PASS 2 ]\n\n══ Failed tests ═══\n── Error ('test-a.R:3:5'): adds ───\nError in `f()`: boom\n\n[ FAIL 1 | WARN 0 | SKIP 0 | PASS 2 ]\n",
			want{"testthat", 3, 2, 0, 0, 1, []string{"adds"}, nil, 1}, ""},
		{"two suites are summed", "[ FAIL 0 | WARN 0 | SKIP 0 | PASS 2 ]\n[ FAIL 0 | WARN 0 | SKIP 1 | PASS 2 ]\n", want{"testthat", 5, 4, 0, 1, 0, nil, nil, 2}, ""},
		{"a suite run again counts once", rule + failure + rule + "[ FAIL 1 | WARN 0 | SKIP 0 | PASS 2 ]\n[ FAIL 0 | WARN 0 | SKIP 0 | PASS 3 ]\n",
			want{"testthat", 3, 3, 0, 0, 0, nil, []string{"adds"}, 2}, ""},
		{"the compact reporter's status lines", "\n══ Testing test-a.R ═══\n\n[ FAIL 0 | WARN 0 | SKIP 0 | PASS 0 ]\n[ FAIL 1 | WARN 0 | SKIP 0 | PASS 0 ]\n[ FAIL 1 | WARN 0 | SKIP 0 | PASS 1 ]\n\n" +
			"── " + strings.TrimSuffix(failure, "\n") + "\n[ FAIL 1 | WARN 0 | SKIP 0 | PASS 1 ]\n",
			want{"testthat", 2, 1, 1, 0, 0, []string{"adds"}, nil, 1}, ""},
		{"the compact reporter's status ends at the progress reporter's header", "══ Testing test-a.R ═══\n[ FAIL 0 | WARN 0 | SKIP 0 | PASS 1 ] Done!\n✔ | F W S  OK | Context\n[ FAIL 0 | WARN 0 | SKIP 0 | PASS 3 ]\n",
			want{"testthat", 4, 4, 0, 0, 0, nil, nil, 2}, ""},
		{"a FAIL count that names no failure", "[ FAIL 1 | WARN 0 | SKIP 0 | PASS 2 ]\n", want{"testthat", 3, -1, -1, -1, -1, nil, nil, 1}, "not the number of failures"},
		{"a heading with no total is nobody's", rule + failure + rule, want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"a total with words around it is nobody's", "status: [ FAIL 1 | WARN 0 | SKIP 0 | PASS 2 ]\n⠏ [ FAIL 0 | WARN 0 | SKIP 0 | PASS 3 ] @ math\n", want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"the summary reporter's failures are no later run's", "══ Failed ═══\n── 1. Failure ('test-a.R:3'): adds ───\n1 not equal to 2.\n\n══ DONE ═══\n[ FAIL 0 | WARN 0 | SKIP 0 | PASS 2 ]\n",
			want{"testthat", 2, 2, 0, 0, 0, nil, nil, 1}, ""},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			s := scanBytes(t, []byte(c.log))
			check(t, s, c.want, []byte(c.log))
			if !strings.Contains(s.Note, c.note) {
				t.Errorf("note = %q, want one saying %q", s.Note, c.note)
			}
		})
	}
}

// TestTestthatReal runs testdata/testthat/fixture with Debian's R and
// testthat: test_local() (the progress reporter) and the check reporter
// test_check() uses.
func TestTestthatReal(t *testing.T) {
	if _, err := exec.LookPath("Rscript"); err != nil {
		t.Skip("Rscript is not installed here (apt-get install r-base-core r-cran-testthat)")
	}
	if out, err := exec.Command("Rscript", "-e", "library(testthat); library(pkgload)").CombinedOutput(); err != nil {
		t.Skipf("testthat or pkgload is not installed here (apt-get install r-cran-testthat r-cran-pkgload): %s", out)
	}
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-R", filepath.Join("testdata", "testthat", "fixture")+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copy the fixture: %v\n%s", err, out)
	}
	env := []string{"R_LIBS_USER=" + t.TempDir(), "LANG=C.UTF-8"}
	for _, reporter := range []string{"progress", "check"} {
		t.Run(reporter, func(t *testing.T) {
			log := runTool(t, dir, env, "Rscript", "-e", `testthat::test_local(reporter = "`+reporter+`")`)
			s := scanBytes(t, log)
			check(t, s, want{"testthat", 14, 10, 1, 2, 1, []string{"addition works", "by zero: returns Inf"}, nil, 1}, log)
			checkMessages(t, s, testthatMessages)
		})
	}
}

// FuzzTestthat: a total whose FAIL count the headings do not name gives
// only its number of expectations, so, as for the declared runners, a
// failing run after any prefix leaves a failure or an unknown failure
// count, never a pass.
func FuzzTestthat(f *testing.F) {
	fuzzDeclared(f, "Failure ('test-a.R:3'): adds\n1 not equal to 2.\n\n══ Results ═══\n[ FAIL 1 | WARN 0 | SKIP 0 | PASS 2 ]\n",
		sample(f, "testthat/progress-fail.log"), sample(f, "testthat/check-outside.log"), sample(f, "testthat/rcmdcheck-fail.log"),
		"[ FAIL 1 | WARN 0 | SKIP 0 | PASS 2 ]\n\n══ Failed tests ═══\n── Error ('test-a.R:3:5'): adds ───\nError in `f()`: boom\n\n[ FAIL 1 | WARN 0 | SKIP 0 | PASS 2 ]\n")
}
