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
		// gtest's grammar is hand-written (gtest.go), its blocks tested here
		// with the declared ones'.
		{
			name: "gtest: a failed test from its failure line to its verdict, its logging before apart, a passing test's none",
			log: "Running main() from ./googletest/src/gtest_main.cc\n[==========] Running 3 tests from 1 test suite.\n[----------] 3 tests from Sum\n" +
				gtestPassing("Sum.Logs", 60) +
				"[ RUN      ] Sum.Three\n" + strings.Repeat("Sum.Three: loading row of the reference table\n", 40) +
				"calc_test.cc:29: Failure\nExpected equality of these values:\n  6\n  Sum({1, 2, 3})\n    Which is: 3\nsum of 1..3\nSum.Three: done\n" +
				"[  FAILED  ] Sum.Three (0 ms)\n" + gtestPassing("Sum.Empty", 0) +
				"[----------] 3 tests from Sum (0 ms total)\n\n[==========] 3 tests from 1 test suite ran. (0 ms total)\n[  PASSED  ] 2 tests.\n" +
				"[  FAILED  ] 1 test, listed below:\n[  FAILED  ] Sum.Three\n\n 1 FAILED TEST\n",
			blocks: []string{"gtest/Sum.Three", "gtest/Sum.Three", "gtest/[  FAILED  ] 1 test, listed below:"},
			want:   []string{"calc_test.cc:29: Failure", "  Sum({1, 2, 3})\n    Which is: 3\nsum of 1..3\n", "[  FAILED  ] Sum.Three (0 ms)"},
			not:    []string{"ERROR-looking", "1 FAILED TEST"},
		},
		{
			name: "gtest --gtest_brief: a block from its failure line, named by the verdict under it",
			log: "Running main() from ./googletest/src/gtest_main.cc\n" + strings.Repeat("passing test's log line\n", 80) +
				"t.cc:8: Failure\nValue of: greeting\nExpected: has substring \"bye\"\n  Actual: \"hello world\"\n[  FAILED  ] Match.Greeting (0 ms)\n" +
				"[==========] 9 tests from 2 test suites ran. (3 ms total)\n[  PASSED  ] 8 tests.\n",
			blocks: []string{"gtest/Match.Greeting"},
			want:   []string{"t.cc:8: Failure\nValue of: greeting\nExpected: has substring \"bye\"\n  Actual: \"hello world\"\n[  FAILED  ] Match.Greeting"},
			not:    []string{"passing test's log line"},
		},
		{
			name: "gtest: a suite's failed set-up, outside any test, named as the summary names it",
			log: "[==========] Running 2 tests from 2 test suites.\n[----------] 1 test from Db\nt.cc:63: Failure\nFailed\nno database\n" +
				"[ RUN      ] Db.Query\nt.cc:66: Skipped\n\n[  SKIPPED ] Db.Query (0 ms)\n[----------] 1 test from Db (0 ms total)\n\n" +
				"[----------] 1 test from Other\n" + gtestPassing("Other.Logs", 80) + "[----------] 1 test from Other (0 ms total)\n\n" +
				"[==========] 2 tests from 2 test suites ran. (0 ms total)\n[  PASSED  ] 1 test.\n[  SKIPPED ] 1 test, listed below:\n[  SKIPPED ] Db.Query\n" +
				"[  FAILED  ] 0 tests, listed below:\n\n 0 FAILED TESTS\n[  FAILED  ] Db: SetUpTestSuite or TearDownTestSuite\n\n 1 FAILED TEST SUITE\n",
			blocks: []string{"gtest/Db: SetUpTestSuite or TearDownTestSuite", "gtest/[  FAILED  ] 0 tests, listed below:"},
			want:   []string{"t.cc:63: Failure\nFailed\nno database\n"},
			not:    []string{"ERROR-looking"},
		},
		{
			name: "gtest under ctest: a test with no verdict stopped at ctest's next test, which ctest's block leaves to gtest's",
			log: "Test project /src/build\n    Start 1: calc\n1/2 Test #1: calc .............***Exception: SegFault  0.01 sec\n" +
				"Running main() from ./googletest/src/gtest_main.cc\n[==========] Running 2 tests from 1 test suite.\n[----------] 2 tests from Crash\n" +
				gtestPassing("Crash.Before", 60) + "[ RUN      ] Crash.Segv\nCrash.Segv: about to dereference null\n" +
				"    Start 2: other\n2/2 Test #2: other ............   Passed    0.01 sec\n" + strings.Repeat("ctest's own line after the crash\n", 40) +
				"\n50% tests passed, 1 tests failed out of 2\n\nThe following tests FAILED:\n\t  1 - calc (SEGFAULT)\n",
			blocks: []string{"ctest/calc", "gtest/Crash.Segv"},
			want:   []string{"[ RUN      ] Crash.Segv\nCrash.Segv: about to dereference null\n"},
			not:    []string{"ERROR-looking", "ctest's own line after the crash"},
		},
		{
			name:   "a date-stamped log line is no gtest marker: the generic matcher finds its error",
			log:    strings.Repeat("[2024-01-02] INFO: request served\n", 100) + "[2024-01-02] ERROR: connection refused by db:5432\n" + strings.Repeat("[2024-01-02] INFO: retrying\n", 20),
			blocks: nil,
			want:   []string{"[2024-01-02] ERROR: connection refused by db:5432"},
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

// gtestPassing is a passing gtest test that logs n lines that read like
// errors.
func gtestPassing(name string, n int) string {
	return "[ RUN      ] " + name + "\n" + strings.Repeat(name+": ERROR-looking log line that passes anyway\n", n) + "[       OK ] " + name + " (0 ms)\n"
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
