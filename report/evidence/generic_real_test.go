package evidence

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFailureShapesReal runs real frameworks no grammar knows (tcltest,
// CUnit, behave, yath, bats, shunit2, busted, testthat, libcheck,
// test-unit; each skips when not installed) on a suite with one
// failing test among hundreds of passing ones, and checks, at a budget far
// below the output's size, that the failure's reason is quoted and other
// tests' progress is not. testdata/generic's gen.sh makes the same kind of
// run for TestGenericRecall.
func TestFailureShapesReal(t *testing.T) {
	tests := []struct {
		name  string
		needs []string
		files map[string]string
		build []string // run first, when set
		run   []string
		want  []string
		not   []string
	}{
		{
			name:  "tcltest",
			needs: []string{"tclsh"},
			files: map[string]string{"all.tcl": "package require tcltest 2\nnamespace import ::tcltest::*\nconfigure -verbose {pass start error}\n" +
				"proc clamp {x lo hi} { if {$x < $lo} {return $lo}; if {$x > $hi} {return $lo}; return $x }\n" +
				"for {set i 0} {$i < 200} {incr i} { test keep-$i \"keeps $i\" -body { clamp $i 0 500 } -result $i }\n" +
				"test clamp-high \"caps at hi\" -body { clamp 750 0 500 } -result 500\n" +
				"for {set i 0} {$i < 200} {incr i} { test after-$i \"after $i\" -body { expr {$i} } -result $i }\ncleanupTests\n"},
			run:  []string{"tclsh", "all.tcl"},
			want: []string{"==== clamp-high caps at hi FAILED", "---- Result was:\n0\n", "---- Result should have been (exact matching):\n500\n", "==== clamp-high FAILED"},
			not:  []string{"++++ keep-199 PASSED", "---- after-0 start"},
		},
		{
			name:  "CUnit",
			needs: []string{"gcc", "/usr/include/CUnit/Basic.h"},
			files: map[string]string{"t.c": "#include <CUnit/Basic.h>\n#include <stdio.h>\nstatic int next(int i) { return (i + 1) % 7; }\n" +
				"static void ok(void) { CU_ASSERT_TRUE(1); }\nstatic void wraps(void) { CU_ASSERT_EQUAL(next(7), 0); }\nstatic char n[400][16];\n" +
				"int main(void) { CU_initialize_registry(); CU_pSuite s = CU_add_suite(\"ring\", NULL, NULL);\n" +
				"for (int k = 0; k < 400; k++) { snprintf(n[k], 16, \"ok_%03d\", k); CU_add_test(s, n[k], ok); if (k == 200) CU_add_test(s, \"wraps\", wraps); }\n" +
				"CU_basic_set_mode(CU_BRM_VERBOSE); CU_basic_run_tests(); int f = CU_get_number_of_failures(); CU_cleanup_registry(); return f != 0; }\n"},
			build: []string{"gcc", "-o", "t", "t.c", "-lcunit"},
			run:   []string{"./t"},
			want:  []string{"Test: wraps ...FAILED\n", "t.c:5  - CU_ASSERT_EQUAL(next(7),0)"},
			not:   []string{"Test: ok_200 ...passed", "Test: ok_201 ...passed"},
		},
		{
			// Criterion prints a test's reason above its verdict, under
			// dash tags; --verbose adds [RUN ] lines between tests.
			name:  "Criterion",
			needs: []string{"gcc", "/usr/include/criterion/criterion.h"},
			files: map[string]string{"t.c": criterionSuite},
			build: []string{"gcc", "-o", "t", "t.c", "-lcriterion"},
			run:   []string{"./t", "-j1"},
			want:  []string{"t.c:7: Assertion Failed\n", "add(101, 1) should be 102\n", "[FAIL] math::big", "t.c:8: Unexpected signal caught below this line!\n", "[FAIL] misc::crash: CRASH!"},
			not:   []string{"[PASS] keep::t"},
		},
		{
			name:  "Criterion --verbose",
			needs: []string{"gcc", "/usr/include/criterion/criterion.h"},
			files: map[string]string{"t.c": criterionSuite},
			build: []string{"gcc", "-o", "t", "t.c", "-lcriterion"},
			run:   []string{"./t", "-j1", "--verbose"},
			want:  []string{"t.c:7: Assertion Failed\n", "add(101, 1) should be 102\n", "[FAIL] math::big", "t.c:8: Unexpected signal caught below this line!\n", "[FAIL] misc::crash: CRASH!"},
			// its first lines, quoted as the log's head, are passing tests
		},
		{
			// common_test run by ct_run: the failed case between rules.
			name:  "common_test",
			needs: []string{"erlc", "ct_run"},
			files: map[string]string{"calc.erl": ctCalc, "calc_SUITE.erl": ctSuite},
			build: []string{"erlc", "calc.erl"},
			run:   []string{"ct_run", "-suite", "calc_SUITE", "-noshell", "-logdir", "."},
			want:  []string{"calc_SUITE:add_big failed on line 8\n", "Reason: {assertEqual,"},
			not:   []string{"keep_199"},
		},
		{
			// sharness -v (git's test-lib): the test_cmp diff above `not ok`.
			name:  "sharness -v",
			needs: []string{"sh", "/usr/share/sharness/sharness.sh"},
			files: map[string]string{"t0001-basic.t": "test_description=basic\n. /usr/share/sharness/sharness.sh\n" +
				"for i in $(seq 1 200); do test_expect_success \"keeps entry $i\" \"test $i -eq $i\"; done\n" +
				"test_expect_success sums '\n\techo 5 >expect &&\n\texpr 2 + 2 >actual &&\n\ttest_cmp expect actual\n'\n" +
				"for i in $(seq 1 200); do test_expect_success \"keeps log $i\" \"test $i -eq $i\"; done\ntest_done\n"},
			run:  []string{"sh", "t0001-basic.t", "-v"},
			want: []string{"@@ -1 +1 @@\n-5\n+4\nnot ok 201 - sums\n"},
			not:  []string{"ok 200 - keeps entry 200", "ok 202 - keeps log 1"},
		},
		{
			name:  "behave",
			needs: []string{"behave"},
			files: map[string]string{
				"features/a.feature": "Feature: cart\n\n  Scenario Outline: coupon <c>\n    Given a cart\n    When I apply \"<c>\"\n\n    Examples:\n      | c |\n" +
					repeatf(20, "      | C%02d |\n") + "\n  Scenario: tax\n    Given a cart\n    Then the total is 14.40\n\n  Scenario Outline: add <n>\n    Given a cart\n    Then it holds <n>\n\n    Examples:\n      | n |\n" + repeatf(80, "      | %d |\n"),
				"features/steps/s.py": "from behave import given, when, then\n\n@given('a cart')\ndef a(c):\n    pass\n\n@when('I apply \"{c}\"')\ndef ap(c, c2):\n    raise NotImplementedError(c2)\n\n" +
					"@then('the total is {t:f}')\ndef tot(c, t):\n    assert 36.0 == t, 'total 36.00, expected %.2f' % t\n\n@then('it holds {n:d}')\ndef h(c, n):\n    pass\n",
				"features/environment.py": "from behave.model_core import Status\n\ndef after_scenario(context, scenario):\n    if scenario.name.startswith('coupon') and scenario.status == Status.failed:\n" +
					"        print('    XFAIL: %s (expected to fail)' % scenario.name)\n",
			},
			run:  []string{"behave", "--no-color"},
			want: []string{"Assertion Failed: total 36.00, expected 14.40"},
		},
		{
			name:  "yath",
			needs: []string{"yath"},
			files: map[string]string{
				"t/a.t": "use Test::More;\nok(1, \"case $_\") for 1..200;\nis(7 - 10, 3, 'subtracts');\nok(1, \"peek $_\") for 1..200;\ndone_testing;\n",
			},
			run:  []string{"yath", "test", "-v", "t"},
			want: []string{"Failed test 'subtracts'", "got: '-3'", "expected: '3'"},
			not:  []string{"+ case 199", "+ peek 1"},
		},
		{
			name:  "bats",
			needs: []string{"bats", "/usr/lib/bats/bats-assert/load.bash"},
			files: batsSuite(40),
			run:   []string{"bats", "test"},
			want:  []string{"not ok 41 sums", "# (in test file test/a.bats, line 47)", "`assert_output 6' failed", "# expected : 6", "# actual   : 5"},
			not:   []string{"ok 40 keeps", "ok 42 keeps"},
		},
		{
			name:  "bats --formatter pretty",
			needs: []string{"bats", "/usr/lib/bats/bats-assert/load.bash"},
			files: batsSuite(25),
			run:   []string{"bats", "--formatter", "pretty", "test"},
			want:  []string{"✗ sums", "(in test file test/a.bats, line 32)", "`assert_output 6' failed", "expected : 6", "actual   : 5"},
			not:   []string{"keeps the 024-th entry of the index", "keeps the 001-th entry of the log"},
		},
		{
			name:  "shunit2",
			needs: []string{"shunit2"},
			files: map[string]string{"t_test.sh": repeatf(150, "testKeepsEntry%03dOfTheIndex() { assertEquals 1 1; }\n") +
				"testWidth() { assertEquals \"width\" 80 79; }\n" + repeatf(150, "testKeepsEntry%03dOfTheLog() { assertEquals 1 1; }\n") + ". shunit2\n"},
			run:  []string{"sh", "t_test.sh"},
			want: []string{"width expected:<80> but was:<79>", "testWidth() returned non-zero return code."},
			not:  []string{"testKeepsEntry100OfTheIndex", "testKeepsEntry060OfTheLog"},
		},
		{
			name:  "busted",
			needs: []string{"busted"},
			files: map[string]string{"spec/a_spec.lua": "describe(\"stack\", function()\n  for i = 1, 2000 do\n    it(\"pushes \" .. i, function() assert.are.equal(i, i) end)\n  end\n" +
				"  it(\"pops the last\", function()\n    assert.are.same({ 1, 2 }, { 1, 3 })\n  end)\nend)\n"},
			run:  []string{"busted"},
			want: []string{"Failure -> spec/a_spec.lua @ 5\nstack pops the last\nspec/a_spec.lua:6: Expected objects to be the same.\nPassed in:\n", "Expected:\n"},
		},
		{
			name:  "busted -o utfTerminal",
			needs: []string{"busted"},
			files: map[string]string{"spec/a_spec.lua": "describe(\"stack\", function()\n  for i = 1, 2000 do\n    it(\"pushes \" .. i, function() assert.are.equal(i, i) end)\n  end\n" +
				"  it(\"pops the last\", function()\n    assert.are.same({ 1, 2 }, { 1, 3 })\n  end)\nend)\n"},
			run:  []string{"busted", "-o", "utfTerminal"},
			want: []string{"Failure → spec/a_spec.lua @ 5\nstack pops the last\nspec/a_spec.lua:6: Expected objects to be the same.\nPassed in:\n", "Expected:\n"},
		},
		{
			name:  "testthat",
			needs: []string{"Rscript", "/usr/lib/R/site-library/testthat/DESCRIPTION"},
			files: func() map[string]string {
				m := map[string]string{"DESCRIPTION": "Package: t\nVersion: 0.1\nConfig/testthat/edition: 3\n",
					"tests/testthat/test-m.R": "test_that(\"splits\", {\n  expect_equal(strsplit(\"a b c\", \" \")[[1]], c(\"a\", \"b\"))\n})\n"}
				for i := range 30 {
					m[fmt.Sprintf("tests/testthat/test-a%02d.R", i)] = "test_that(\"adds\", {\n  expect_equal(1 + 1, 2)\n})\n"
					m[fmt.Sprintf("tests/testthat/test-z%02d.R", i)] = "test_that(\"adds\", {\n  expect_equal(1 + 1, 2)\n})\n"
				}
				return m
			}(),
			run:  []string{"Rscript", "-e", "testthat::test_dir('tests/testthat')"},
			want: []string{"Failure ('test-m.R:2'): splits", "(`actual`) not equal to", "`actual`", "`expected`"},
			not:  []string{"| a05", "| z05"},
		},
		{
			name:  "libcheck",
			needs: []string{"gcc", "pkg-config", "/usr/include/check.h"},
			files: map[string]string{"t.c": "#include <check.h>\n#include <stdlib.h>\nstatic int next(int i) { return (i + 1) % 7; }\n" +
				"START_TEST(t_ok) { ck_assert_int_ge(next(_i), 0); } END_TEST\nSTART_TEST(t_wraps) { ck_assert_int_eq(next(7), 0); } END_TEST\n" +
				"int main(void) { Suite *s = suite_create(\"ring\"); TCase *tc = tcase_create(\"core\");\n" +
				"tcase_add_loop_test(tc, t_ok, 0, 100); tcase_add_test(tc, t_wraps); tcase_add_loop_test(tc, t_ok, 100, 200);\n" +
				"suite_add_tcase(s, tc); SRunner *sr = srunner_create(s); srunner_run_all(sr, CK_VERBOSE);\n" +
				"int f = srunner_ntests_failed(sr); srunner_free(sr); return f ? EXIT_FAILURE : EXIT_SUCCESS; }\n"},
			build: []string{"sh", "-c", "gcc -o t t.c $(pkg-config --cflags --libs check)"},
			run:   []string{"./t"},
			want:  []string{"t.c:5:F:core:t_wraps:0: Assertion 'next(7) == 0' failed: next(7) == 1, 0 == 0"},
			not:   []string{":P:core:t_ok:99: Passed", ":P:core:t_ok:100: Passed"},
		},
		{
			name:  "test-unit",
			needs: []string{"ruby"},
			files: map[string]string{"test/test_sum.rb": "require \"test/unit\"\nclass TestSum < Test::Unit::TestCase\n  data do\n    (0...3000).to_h { |i| [\"case #{i}\", i] }\n  end\n" +
				"  def test_adds(i)\n    assert_equal(i + 1, 1 + i)\n  end\n\n  def test_b_sums\n    assert_equal(6, [2, 3].sum)\n  end\n\n  def test_c_keeps(i)\n    assert_equal(i, i)\n  end\n  data(\"one\", 1)\nend\n"},
			run:  []string{"ruby", "-Ilib", "-e", "Dir['test/**/test_*.rb'].each { |f| require_relative f }"},
			want: []string{"Failure: test_b_sums(TestSum)", "=> 11:     assert_equal(6, [2, 3].sum)", "<6> expected but was\n<5>\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, n := range tt.needs {
				if _, err := os.Stat(n); err != nil {
					if _, err := exec.LookPath(n); err != nil {
						t.Skipf("%s is not installed", n)
					}
				}
			}
			dir := t.TempDir()
			for name, text := range tt.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tt.build != nil {
				cmd := exec.Command(tt.build[0], tt.build[1:]...)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%v: %v\n%s", tt.build, err, out)
				}
			}
			cmd := exec.Command(tt.run[0], tt.run[1:]...)
			cmd.Dir = dir
			out, _ := cmd.CombinedOutput() // the suite fails: its output is what counts
			log := string(out)
			for _, w := range tt.want {
				if !strings.Contains(log, w) {
					t.Fatalf("the run did not print %q:\n%s", w, log)
				}
			}
			ps, _ := plan(t, log, Budget{Bytes: 2 << 10, Ended: true})
			q := quoted(log, ps)
			for _, w := range tt.want {
				if !strings.Contains(q, w) {
					t.Errorf("%q is not quoted:\n%s", w, q)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(q, n) {
					t.Errorf("%q is quoted:\n%s", n, q)
				}
			}
		})
	}
}

// batsSuite is a bats file of n passing tests, a failing one (`sums`, its
// assert_output at line n+7), and n passing tests again.
func batsSuite(n int) map[string]string {
	return map[string]string{"test/a.bats": "setup() {\n\tbats_load_library bats-support\n\tbats_load_library bats-assert\n}\n" +
		repeatf(n, "@test \"keeps the %03d-th entry of the index in place\" { run echo x; assert_output x; }\n") +
		"@test \"sums\" {\n\trun expr 2 + 3\n\tassert_output 6\n}\n" +
		repeatf(n, "@test \"keeps the %03d-th entry of the log in place\" { run echo y; assert_output y; }\n")}
}

func repeatf(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// criterionSuite: one failed assertion and one crash among 400 passing
// tests, in a suite of its own each.
const criterionSuite = `#include <criterion/criterion.h>
#include <criterion/parameterized.h>
static int add(int a, int b) { return a + b + (a > 100); }
ParameterizedTestParameters(keep, t) { static int v[400]; return cr_make_param_array(int, v, 400); }
ParameterizedTest(int *v, keep, t) { cr_assert_eq(add(*v, 1), *v + 1); }
Test(math, small) { cr_assert_eq(add(1, 2), 3); }
Test(math, big) { cr_assert_eq(add(101, 1), 102, "add(101, 1) should be 102"); }
Test(misc, crash) { int *volatile p = 0; *p = 1; }
`

// ctCalc and ctSuite: a common_test suite of 401 cases, one failing (the
// injected `+ 1` for A > 100).
const ctCalc = `-module(calc).
-export([add/2]).
add(A, B) when A > 100 -> A + B + 1;
add(A, B) -> A + B.
`

var ctSuite = `-module(calc_SUITE).
-include_lib("common_test/include/ct.hrl").
-include_lib("stdlib/include/assert.hrl").
-compile(export_all).
all() -> [add_big | [list_to_atom("keep_" ++ integer_to_list(I)) || I <- lists:seq(0, 399)]].
add_big(_) -> ok = ok,
    % the failing case
    ?assertEqual(102, calc:add(101, 1)).
` + keepCases(400)

// keepCases defines the passing cases keep_0 … keep_{n-1}.
func keepCases(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "keep_%d(_) -> ?assertEqual(%d, calc:add(%d, 1)).\n", i, i+1, i%100)
	}
	return b.String()
}
