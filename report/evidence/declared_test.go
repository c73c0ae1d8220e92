package evidence

import (
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
