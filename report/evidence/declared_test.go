package evidence

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestDeclaredGrammars: the runners that declare their evidence in
// report/runners (unittest, sympy's bin/test) get their failure blocks
// from the declaration, each heading one block of its own runner, and at a
// budget far below the log's size the block's assertion is quoted.
func TestDeclaredGrammars(t *testing.T) {
	sympy, err := os.ReadFile("../runners/testdata/sympy-bin-test-fail.log")
	if err != nil {
		t.Fatal(err)
	}
	unittest, err := os.ReadFile("../runners/testdata/unittest-verbose-fail.log")
	if err != nil {
		t.Fatal(err)
	}
	progress := strings.Repeat("sympy/core/tests/test_basic.py[16] ................                         [OK]\n", 60)
	tests := []struct {
		name   string
		log    string
		blocks []string // runner/test of every block, in order
		want   []string
		not    []string
	}{
		{
			name: "sympy: headed tracebacks and DO *NOT* COMMIT!",
			log:  progress + string(sympy),
			blocks: []string{
				"sympy-bin-test/sympy/geometry/tests/test_polygon.py:test_area",
				"sympy-bin-test/sympy/geometry/tests/test_polygon.py:test_perimeter",
				"sympy-bin-test/DO *NOT* COMMIT!",
			},
			want: []string{"GeometryError: polygon is not simple", "assert Triangle(a, b, c).perimeter == 3 + sqrt(5)", "\nAssertionError\n"},
			not:  []string{"test_basic.py[16]"},
		},
		{
			name: "unittest: FAIL and ERROR blocks, each from its heading",
			log:  strings.Repeat("test_ok (shop.T.test_ok) ... ok\n", 200) + string(unittest),
			blocks: []string{
				"unittest/test_currency (shop.test_cart.CartTest.test_currency)",
				"unittest/test_discount (shop.test_cart.CartTest.test_discount)",
				"unittest/test_release (shop.test_cart.StockTest.test_release)",
				"unittest/test_reserve (shop.test_cart.StockTest.test_reserve) (n=3)",
				"unittest/FAILED (failures=3, errors=1, skipped=1, expected failures=1)",
			},
			want: []string{"AssertionError: 25.5 != 25.0", "KeyError: 'EUR'", "AssertionError: 3 not less than 3"},
			not:  []string{"test_ok (shop.T.test_ok)"},
		},
		{
			// Catch2's blocks are read by a grammar of its own (catch2.go):
			// a header's name is wrapped over lines, and with -s the
			// passing assertions under it are no evidence.
			name: "catch2 -s: a failing test case's header and its FAILED assertion, not the passes",
			log: catch2Log(strings.Repeat(catch2Header("passes", "")+"t.cpp:9: PASSED:\n  CHECK( 1 == 1 )\n\n", 30)+
				catch2Header("a test case with a name long enough that the console reporter wraps it over\ntwo lines", "  by zero\n")+
				"t.cpp:16: PASSED:\n  CHECK( Div(6, 3) == 2 )\nwith expansion:\n  2 == 2\n\n"+
				"t.cpp:17: FAILED:\n  CHECK( Div(1, 0) == 0 )\ndue to unexpected exception with message:\n  division by zero\n\n"+
				catch2Header("sums", "")+"t.cpp:7: FAILED:\n  REQUIRE( Sum(v) == 6 )\nwith expansion:\n  5 == 6\n\n", "test cases: 32 | 30 passed | 2 failed"),
			blocks: []string{"catch2/a test case with a name long enough that the console reporter wraps it over two lines", "catch2/sums"},
			want:   []string{"  by zero", "t.cpp:17: FAILED:", "  division by zero", "REQUIRE( Sum(v) == 6 )", "  5 == 6"},
			not:    []string{"CHECK( 1 == 1 )", "CHECK( Div(6, 3) == 2 )"},
		},
		{
			name: "catch2 under ctest -V: each line's test number passed over",
			log: strings.Repeat("3: some other test's output line\n", 80) + "1: " + strings.ReplaceAll(strings.TrimSuffix(catch2Log(catch2Header("sums", "")+
				"t.cpp:7: FAILED:\n  REQUIRE( Sum(v) == 6 )\nwith expansion:\n  5 == 6\n\n", "test cases: 1 | 1 failed"), "\n"), "\n", "\n1: ") + "\n",
			blocks: []string{"catch2/sums"},
			want:   []string{"1:   5 == 6"},
		},
		{
			name: "exunit: each numbered failure from its heading to the next, --trace's lines and the dots outside",
			log: strings.Repeat("  * test passes (0.01ms) [L#3]\n", 60) + exunitBlock(1, "test adds", "MathTest", "Assertion with == failed\n     code:  assert Math.add(1, 2) == 4\n     left:  3\n     right: 4") +
				strings.Repeat(".", 40) + "\n" +
				"  * test raises (0.10ms) [L#20]\n\n" + exunitBlock(2, "test raises", "MathTest", "** (RuntimeError) boom\n     code: Math.boom()") +
				"  2) MathDbTest: failure on setup_all callback, all tests have been invalidated\n     ** (RuntimeError) no database\n     stacktrace:\n       test/db_test.exs:4: MathDbTest.__ex_unit_setup_all_0/1\n\n" +
				"Finished in 0.05 seconds (0.00s async, 0.05s sync)\n1 doctest, 62 tests, 2 failures, 1 invalid\n",
			blocks: []string{"exunit/test adds", "exunit/test raises", "exunit/failure on setup_all callback", "exunit/1 doctest, 62 tests, 2 failures, 1 invalid"},
			want:   []string{"left:  3", "right: 4", "** (RuntimeError) boom", "test/math_test.exs:13: (test)", "** (RuntimeError) no database"},
			not:    []string{"* test passes", "......"},
		},
		{
			name:   "a pytest heading is still pytest's",
			log:    "___________ test_parse ___________\n\n    def test_parse():\n>       assert parse('7') == 8\nE       assert 7 == 8\n\nt.py:3: AssertionError\n==== 1 failed in 0.1s ====\n",
			blocks: []string{"pytest/test_parse"},
			want:   []string{"E       assert 7 == 8"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, res := plan(t, tt.log, Budget{Bytes: 1500, Block: 1500, Ended: true})
			var got []string
			for _, b := range res.Blocks {
				if b.Runner != "generic" {
					got = append(got, b.Runner+"/"+b.Test)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.blocks, "\n") {
				t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.blocks, "\n"))
			}
			q := quoted(tt.log, ps)
			for _, w := range tt.want {
				if !strings.Contains(q, w) {
					t.Errorf("not quoted: %q\nquoted:\n%s", w, q)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(q, n) {
					t.Errorf("noise quoted: %q\nquoted:\n%s", n, q)
				}
			}
			checkPieces(t, tt.log, nil, ps)
		})
	}
}

// catch2Log is a Catch2 console run: its banner, body and totals.
func catch2Log(body, total string) string {
	return "\n" + strings.Repeat("~", 79) + "\nt is a Catch v2.13.10 host application.\nRun with -? for options\n\n" + body +
		strings.Repeat("=", 79) + "\n" + total + "\n\n"
}

// catch2Header is a test case's header: its name and sections between
// rules, its place and a rule of dots.
func catch2Header(name, sections string) string {
	rule := strings.Repeat("-", 79) + "\n"
	return rule + name + "\n" + sections + rule + "t.cpp:3\n" + strings.Repeat(".", 79) + "\n\n"
}

// exunitBlock is an ExUnit failure: its numbered heading, location,
// message and stacktrace.
func exunitBlock(n int, test, module, message string) string {
	return fmt.Sprintf("  %d) %s (%s)\n     test/math_test.exs:12\n     %s\n     stacktrace:\n       (math 0.1.0) lib/math.ex:3: Math.f/0\n       test/math_test.exs:13: (test)\n\n", n, test, module, message)
}
