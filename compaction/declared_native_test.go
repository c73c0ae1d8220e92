package compaction

import (
	"os"
	"testing"
)

// TestClassifyNativeRunners: a ctest, prove, PHPUnit, RSpec or minitest
// run is its runner's run, with its verdict, from the lines its
// declaration in report/runners gives: the real failing samples committed
// there, the real last lines of passing runs, and a file that only quotes
// a total, which is no run.
func TestClassifyNativeRunners(t *testing.T) {
	sample := func(name string) string {
		b, err := os.ReadFile("../report/runners/testdata/" + name)
		if err != nil {
			t.Fatalf("read sample: %v", err)
		}
		return string(b)
	}
	tests := []struct {
		name    string
		text    string
		outcome Outcome
		family  string
	}{
		{"ctest failed", sample("ctest-fail.log"), OutcomeFailed, "ctest"},
		{"prove failed", sample("prove-fail.log"), OutcomeFailed, "prove"},
		{"phpunit failed", sample("phpunit-fail.log"), OutcomeFailed, "phpunit"},
		{"rspec failed", sample("rspec-fail.log"), OutcomeFailed, "rspec"},
		{"minitest failed", sample("minitest-fail.log"), OutcomeFailed, "minitest"},
		{"ctest passed", "Test project /tmp/ct/b\n    Start 1: adds\n1/1 Test #1: adds .............................   Passed    0.00 sec\n\n100% tests passed, 0 tests failed out of 1\n\nTotal Test time (real) =   0.00 sec\n", OutcomePassed, "ctest"},
		{"prove passed", "t/str.t .. ok\nAll tests successful.\nFiles=1, Tests=2,  0 wallclock secs ( 0.01 usr  0.00 sys +  0.03 cusr  0.00 csys =  0.04 CPU)\nResult: PASS\n", OutcomePassed, "prove"},
		{"phpunit passed", "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\n..                                                                  2 / 2 (100%)\n\nTime: 00:00.003, Memory: 4.00 MB\n\nOK (2 tests, 2 assertions)\n", OutcomePassed, "phpunit"},
		{"rspec passed", "..\n\nFinished in 0.00219 seconds (files took 0.07 seconds to load)\n2 examples, 0 failures\n\n", OutcomePassed, "rspec"},
		{"minitest passed", "Run options: --seed 1\n\n# Running:\n\n..\n\nFinished in 0.000405s, 4938.2716 runs/s, 4938.2716 assertions/s.\n\n2 runs, 2 assertions, 0 failures, 0 errors, 0 skips\n", OutcomePassed, "minitest"},
		{"a Ruby test file quoting a total is no run", "require \"minitest/autorun\"\nclass T < Minitest::Test\n  def test_summary\n    assert_match(/2 runs, 2 assertions, 0 failures, 0 errors, 0 skips/, out)\n  end\nend\n", OutcomeNotRun, ""},
		{"a Ruby source file with a total in a heredoc is no run", "class ReporterTest < Minitest::Test\n  def test_total\n    assert_equal <<~OUT, report\n      Finished in 0.1s, 10.0 runs/s, 10.0 assertions/s.\n      2 runs, 2 assertions, 0 failures, 0 errors, 0 skips\n    OUT\n  end\nend\n", OutcomeNotRun, ""},
		{"gtest failed", gtestFailed, OutcomeFailed, "gtest"},
		{"gtest passed", "Running main() from ./googletest/src/gtest_main.cc\n[==========] Running 1 test from 1 test suite.\n[----------] Global test environment set-up.\n[----------] 1 test from A\n[ RUN      ] A.B\n[       OK ] A.B (0 ms)\n[----------] 1 test from A (0 ms total)\n\n[----------] Global test environment tear-down\n[==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.\n", OutcomePassed, "gtest"},
		// --gtest_brief prints "[  PASSED  ] 3 tests." under its failed
		// tests' verdicts: no total that passed.
		{"gtest --gtest_brief failed", "t.cc:5: Failure\nExpected equality of these values:\n  1\n  2\n[  FAILED  ] A.B (0 ms)\n[==========] 4 tests from 1 test suite ran. (0 ms total)\n[  PASSED  ] 3 tests.\n", OutcomeFailed, "gtest"},
		// A crash prints no verdict: the tests that passed before it make no pass.
		{"gtest crashed", "[==========] Running 2 tests from 1 test suite.\n[ RUN      ] A.B\n[       OK ] A.B (0 ms)\n[ RUN      ] A.C\nabout to crash\n", OutcomeUnknown, "gtest"},
		{"a PHP file echoing PHPUnit's verdict is no run", "<?php\nfunction report(): void {\n    echo 'FAILURES!';\n}\n", OutcomeNotRun, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Classify(tt.text)
			if v.Outcome != tt.outcome || v.Family != tt.family {
				t.Errorf("Classify = %s family %q (%s), want %s family %q", v.Outcome, v.Family, v.Reason, tt.outcome, tt.family)
			}
		})
	}
}

// gtestFailed is a gtest binary's real output, one test failed.
const gtestFailed = "Running main() from ./googletest/src/gtest_main.cc\n[==========] Running 2 tests from 1 test suite.\n[----------] Global test environment set-up.\n[----------] 2 tests from SumTest\n" +
	"[ RUN      ] SumTest.Three\nt.cc:5: Failure\nExpected equality of these values:\n  6\n  Sum({1,2,3})\n    Which is: 3\n[  FAILED  ] SumTest.Three (0 ms)\n" +
	"[ RUN      ] SumTest.Empty\n[       OK ] SumTest.Empty (0 ms)\n[----------] 2 tests from SumTest (0 ms total)\n\n[----------] Global test environment tear-down\n" +
	"[==========] 2 tests from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.\n[  FAILED  ] 1 test, listed below:\n[  FAILED  ] SumTest.Three\n\n 1 FAILED TEST\n"
