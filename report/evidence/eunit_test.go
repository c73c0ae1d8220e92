package evidence

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEUnitBlocks: on real EUnit runs (report/runners/testdata/eunit, made
// by its gen-samples.sh) each failed test's report is quoted, labelled
// EUnit's: under erl and `rebar3 eunit -v` the `...*failed*` (or `*timed
// out*`) line, its stack and its `**error:` term to the blank line under
// it; under rebar3's progress format the numbered block after
// `Failures:`, which RSpec's share and which the module:function/arity
// heading tells apart. A passing test's line and the total are in no
// block.
func TestEUnitBlocks(t *testing.T) {
	tests := []struct {
		sample string
		tests  []string // the blocks' tests, in order
		quoted []string // lines that must be quoted
	}{
		{"erl-fail", []string{"calc_tests:add_big_test", "calc_tests:divide_zero_test"},
			[]string{"in function calc_tests:add_big_test/0 (test/calc_tests.erl, line 4)", "              {value,103}]}", "**error:badarith"}},
		{"erl-verbose-fail", []string{"calc_tests:add_big_test", "calc_tests:divide_zero_test"},
			[]string{"calc_tests: add_big_test...", "{expected,102},", "**error:badarith"}},
		{"rebar3-verbose-fail", []string{"calc_tests:add_big_test", "calc_tests:divide_zero_test"},
			[]string{"calc_tests: add_big_test...*failed*", "**error:{assertEqual,[{module,calc_tests},", "**error:badarith"}},
		{"rebar3-fail", []string{"calc_tests:add_big_test/0", "calc_tests:divide_zero_test/0"},
			[]string{"Failure/Error: ?assertEqual(102, calc : add ( 101 , 1 ))", "got: 103", "{error,badarith,"}},
		{"erl-timeout", []string{"slow_tests:-slow_test_/0-fun-0-"},
			[]string{"slow_tests: -slow_test_/0-fun-0-...*timed out*", "in function timer:sleep/1 (timer.erl, line 219)"}},
	}
	for _, c := range tests {
		t.Run(c.sample, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "runners", "testdata", "eunit", c.sample+".log"))
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
				want = append(want, "eunit "+n)
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
			for _, pass := range []string{"...ok", "add_test", "Failed: "} {
				if strings.Contains(in, pass) {
					t.Errorf("a line of no failure is in the blocks (%q):\n%s", pass, in)
				}
			}
			checkPieces(t, log, nil, ps)
		})
	}
}

var escapes = regexp.MustCompile("\x1b\\[[0-9;]*m")

// stripEsc drops the terminal colours rebar3 prints.
func stripEsc(s string) string { return escapes.ReplaceAllString(s, "") }
