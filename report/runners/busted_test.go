package runners

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBustedSamples reads the real busted runs in testdata/busted
// (gen-samples.sh), checks that each verifies, and compares each summary
// with its golden file.
func TestBustedSamples(t *testing.T) { checkGoldens(t, "testdata/busted/*.log", 10) }

// bustedMessages are the fixture's failures: place and message. An
// assertion in the test's own file is its place; an error raised
// elsewhere leaves the test's own line.
var bustedMessages = map[string]string{
	"calc add adds big numbers":        "spec/calc_spec.lua:13: spec/calc_spec.lua:13: Expected objects to be equal. Passed in: (number) 103 Expected: (number) 102",
	"calc divide divides by zero":      "spec/calc_spec.lua:22: src/calc.lua:12: division by zero",
	"spec/broken_spec.lua":             "spec/broken_spec.lua:5: spec/broken_spec.lua:5: ')' expected (to close '(' at line 2) near 'end'",
	"with a failing setup before_each": "spec/setup_spec.lua:3: spec/setup_spec.lua:3: database unavailable",
}

// TestBustedSummary states what the goldens hold: busted's counts, each
// failure and error named by its test with its place and message, under
// plainTerminal and utfTerminal; a spec that does not load and a failing
// before_each are errors; --repeat's runs are one unit; its TAP and gtest
// outputs are not read as busted's.
func TestBustedSummary(t *testing.T) {
	fails := []string{"calc add adds big numbers", "calc divide divides by zero"}
	broken := []string{"calc add adds big numbers", "spec/broken_spec.lua", "calc divide divides by zero", "with a failing setup before_each"}
	run := want{"busted", 10, 6, 1, 2, 1, fails, nil, 1}
	tests := []struct {
		sample string
		want   want
	}{
		{"plain-fail", run},
		{"plain-verbose-fail", run},
		{"utf-fail", run},
		{"utf-color-fail", run},
		{"plain-pass", want{"busted", 2, 2, 0, 0, 0, nil, nil, 1}},
		{"plain-broken", want{"busted", 12, 6, 1, 2, 3, broken, nil, 1}},
		{"utf-broken", want{"busted", 12, 6, 1, 2, 3, broken, nil, 1}},
		{"repeat-fail", want{"busted", 4, 2, 1, 0, 1, fails, nil, 2}},
		// TAP is TAP's grammar (whose plan and counts it lacks here), and
		// busted's gtest output imitates GoogleTest: neither is busted's.
		{"tap-fail", want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}},
		{"gtest-fail", want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}},
	}
	for _, c := range tests {
		t.Run(c.sample, func(t *testing.T) {
			path := filepath.Join("testdata", "busted", c.sample+".log")
			log, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s := scanFile(t, path)
			check(t, s, c.want, log)
			checkMessages(t, s, bustedMessages)
		})
	}
}

// TestBustedTotals: what makes a busted total and the failures it counts,
// and a total that does not agree with the failures it names is no
// verified count.
func TestBustedTotals(t *testing.T) {
	const (
		failure = "Failure -> spec/a_spec.lua @ 3\na adds\nspec/a_spec.lua:4: Expected objects to be equal.\n"
		errored = "Error → spec/a_spec.lua @ 7\na raises\nspec/a_spec.lua:8: boom\n"
	)
	tests := []struct {
		name string
		log  string
		want want
		note string
	}{
		{"one of each", "+-*\n1 success / 1 failure / 1 error / 0 pending : 0.01 seconds\n\n" + failure + "\n" + errored,
			want{"busted", 3, 1, 1, 0, 1, []string{"a adds", "a raises"}, nil, 1}, ""},
		{"no tests", "\n0 successes / 0 failures / 0 errors / 0 pending : 0.0 seconds\n", want{"busted", 0, 0, 0, 0, 0, nil, nil, 1}, ""},
		{"pending blocks are not failures", "+.\n1 success / 0 failures / 0 errors / 1 pending : 0.01 seconds\n\nPending -> spec/a_spec.lua @ 9\na later\n",
			want{"busted", 2, 1, 0, 1, 0, nil, nil, 1}, ""},
		{"a failure it counts and does not name", "-\n0 successes / 1 failure / 0 errors / 0 pending : 0.01 seconds\n",
			want{"busted", 1, -1, -1, -1, -1, nil, nil, 1}, "does not agree"},
		{"a failure heading before any total is nobody's", failure, want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"failures after the counted ones are not its", "-\n0 successes / 1 failure / 0 errors / 0 pending : 0.01 seconds\n\n" + failure + "\n" + errored,
			want{"busted", 1, 0, 1, 0, 0, []string{"a adds"}, nil, 1}, ""},
		{"a total with words around it is nobody's", "ran 1 success / 0 failures / 0 errors / 0 pending : 0.1 seconds\n", want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"two suites are summed", "+\n1 success / 0 failures / 0 errors / 0 pending : 0.1 seconds\n++\n2 successes / 0 failures / 0 errors / 0 pending : 0.1 seconds\n",
			want{"busted", 3, 3, 0, 0, 0, nil, nil, 2}, ""},
		{"a suite run again counts once", "-\n0 successes / 1 failure / 0 errors / 0 pending : 0.01 seconds\n\n" + failure + "\n+\n1 success / 0 failures / 0 errors / 0 pending : 0.1 seconds\n",
			want{"busted", 1, 1, 0, 0, 0, nil, []string{"a adds"}, 2}, ""},
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

// TestBustedReal runs testdata/busted/fixture with Debian's busted: its
// default output outside a terminal (plainTerminal) and utfTerminal.
func TestBustedReal(t *testing.T) {
	if _, err := exec.LookPath("busted"); err != nil {
		t.Skip("busted is not installed here (apt-get install lua-busted)")
	}
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-R", filepath.Join("testdata", "busted", "fixture")+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copy the fixture: %v\n%s", err, out)
	}
	for _, args := range [][]string{nil, {"-o", "utfTerminal"}} {
		t.Run(strings.Join(append([]string{"busted"}, args...), " "), func(t *testing.T) {
			log := runTool(t, dir, nil, "busted", args...)
			s := scanBytes(t, log)
			check(t, s, want{"busted", 10, 6, 1, 2, 1, []string{"calc add adds big numbers", "calc divide divides by zero"}, nil, 1}, log)
			checkMessages(t, s, bustedMessages)
		})
	}
}

// TestTestthatBustedLookAlikes: no other runner's sample (nor a stored
// stream of report's corpus of real runs) is read as testthat's or
// busted's, and theirs as no other runner's.
func TestTestthatBustedLookAlikes(t *testing.T) {
	var logs []string
	for _, pattern := range []string{"testdata/*.log", "testdata/*/*.log", "../testdata/corpus/*/store/*/std*.log", "../testdata/generic/*/*.log"} {
		more, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, more...)
	}
	if len(logs) < 200 {
		t.Fatalf("want the runners' samples, have %d", len(logs))
	}
	for _, path := range logs {
		s := scanFile(t, path)
		slashed := filepath.ToSlash(path) // Glob gives `\` on Windows
		ours := strings.HasPrefix(slashed, "testdata/testthat/") || strings.HasPrefix(slashed, "testdata/busted/")
		for _, src := range strings.Split(s.Source, "+") {
			switch {
			case !ours && (src == "testthat" || src == "busted"):
				t.Errorf("%s read as %s", path, s.Source)
			case ours && src != "testthat" && src != "busted" && src != SourceNone:
				t.Errorf("%s read as %s", path, s.Source)
			}
		}
	}
}

// FuzzBusted: a total whose failures are not all named under it gives
// only its number of tests, so, as for the declared runners, a failing
// run after any prefix leaves a failure or an unknown failure count, never
// a pass.
func FuzzBusted(f *testing.F) {
	fuzzDeclared(f, "+-\n1 success / 1 failure / 0 errors / 0 pending : 0.01 seconds\n\nFailure -> spec/a_spec.lua @ 3\na adds\nspec/a_spec.lua:4: Expected objects to be equal.\n",
		sample(f, "busted/plain-fail.log"), sample(f, "busted/utf-broken.log"), sample(f, "busted/repeat-fail.log"),
		"0 successes / 0 failures / 1 error / 0 pending : 0.0 seconds\n\nError -> spec/x_spec.lua:5: ')' expected\nspec/x_spec.lua\n")
}
