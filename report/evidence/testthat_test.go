package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestthatBusted: on real testthat and busted runs
// (report/runners/testdata/testthat and busted, made by their
// gen-samples.sh) each failure's and error's report is quoted, labelled by
// its runner: testthat's heading with its message and actual/expected
// lines or its error and backtrace, under the progress, check and summary
// reporters and R CMD check's last lines; busted's heading, test name and
// message (with --verbose's traceback), and under its gtest output the
// gtest grammar's blocks, labelled busted's. A skip, a warning, a pending test,
// the total and the progress lines are in no block.
func TestTestthatBusted(t *testing.T) {
	testthatNot := []string{"Skip (", "Reason: no network", "[ FAIL ", "| math", "deprecated input"}
	bustedNot := []string{"Pending", "shout handles unicode", "successes /"}
	tests := []struct {
		runner, sample string
		tests          []string // the blocks' tests, in order
		quoted, not    []string
	}{
		{"testthat", "progress-fail", []string{"addition works", "by zero: returns Inf"},
			[]string{"Failure ('test-math.R:3'): addition works", "`actual`: 103", "`expected`: 102", "Error in `divide(1, 0)`: division by zero", "at test-math.R:17:6"}, testthatNot},
		{"testthat", "progress-color-fail", []string{"addition works", "by zero: returns Inf"},
			[]string{"Failure (test-math.R:3): addition works", "`actual`: 103"}, testthatNot},
		{"testthat", "check-outside", []string{"addition works", "by zero: returns Inf", "(code run outside of `test_that()`)"},
			[]string{"── Failure ('test-math.R:3'): addition works", "`expected`: 102", "Error in `gzfile(file, \"rb\")`: cannot open the connection"}, testthatNot},
		{"testthat", "summary-fail", []string{"addition works", "by zero: returns Inf"},
			[]string{"── 1. Failure ('test-math.R:3'): addition works", "`actual`: 103", "division by zero"}, []string{"══ DONE", "network lookups ("}},
		{"testthat", "rcmdcheck-fail", []string{"by zero: returns Inf"},
			[]string{"── Error ('test-math.R:17'): by zero: returns Inf", "4. └─calc::divide(1, 0)"}, []string{"[ FAIL "}},
		{"testthat", "file-fail", []string{"addition works", "by zero: returns Inf"},
			[]string{"── Failure ('test-math.R:3'): addition works", "`actual`: 103", "Error in `divide(1, 0)`: division by zero"}, testthatNot},
		// R CMD check's last lines, then the whole output again.
		{"testthat", "rcmdcheck-pkg-fail", []string{"by zero: returns Inf", "addition works", "by zero: returns Inf"},
			[]string{"`expected`: 102", "4. └─calc::divide(1, 0)"}, []string{"[ FAIL ", "> test_check(\"calc\")"}},
		{"busted", "plain-fail", []string{"calc add adds big numbers", "calc divide divides by zero"},
			[]string{"Failure -> spec/calc_spec.lua @ 11", "spec/calc_spec.lua:13: Expected objects to be equal.", "(number) 102", "src/calc.lua:12: division by zero"}, bustedNot},
		{"busted", "utf-color-fail", []string{"calc add adds big numbers", "calc divide divides by zero"},
			[]string{"Failure → spec/calc_spec.lua @ 11", "(number) 103", "Error → spec/calc_spec.lua @ 22"}, bustedNot},
		{"busted", "plain-verbose-fail", []string{"calc add adds big numbers", "calc divide divides by zero"},
			[]string{"stack traceback:", "spec/calc_spec.lua:23: in function <spec/calc_spec.lua:22>"}, bustedNot},
		// busted's gtest output: GoogleTest's markers with two of its own
		// ([ SKIPPED  ], [  ERROR   ]), read by the gtest grammar as busted's.
		{"busted", "gtest-fail", []string{"spec/calc_spec.lua @ 11: calc add adds big numbers", "spec/calc_spec.lua @ 22: calc divide divides by zero"},
			[]string{"(number) 102", "[  ERROR   ] spec/calc_spec.lua @ 22: calc divide divides by zero", "src/calc.lua:12: division by zero"},
			[]string{"shout handles unicode", "[       OK ]", "1 error, listed below"}},
		{"busted", "plain-broken", []string{"calc add adds big numbers", "spec/broken_spec.lua", "calc divide divides by zero", "with a failing setup before_each"},
			[]string{"Error -> spec/broken_spec.lua:5: ')' expected (to close '(' at line 2) near 'end'", "spec/setup_spec.lua:3: database unavailable"}, bustedNot},
	}
	for _, c := range tests {
		t.Run(c.runner+"/"+c.sample, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "runners", "testdata", c.runner, c.sample+".log"))
			if err != nil {
				t.Fatal(err)
			}
			log := string(b)
			ps, res := plan(t, log, Budget{Bytes: 8000, Block: 3000, Ended: true})
			var got []string
			var text strings.Builder
			for _, b := range res.Blocks {
				if b.Kind == KindTest {
					got = append(got, b.Runner+" "+b.Test)
					for _, sp := range b.Spans {
						text.WriteString(log[sp.Start:sp.End])
					}
				}
			}
			var want []string
			for _, n := range c.tests {
				want = append(want, c.runner+" "+n)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("test blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			in := stripEsc(text.String())
			for _, w := range c.quoted {
				if !strings.Contains(in, w) {
					t.Errorf("not in the blocks: %q\nblocks:\n%s", w, in)
				}
			}
			for _, n := range c.not {
				if strings.Contains(in, n) {
					t.Errorf("a line of no failure is in the blocks (%q):\n%s", n, in)
				}
			}
			checkPieces(t, log, nil, ps)
		})
	}
}
