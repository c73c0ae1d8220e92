package runners

import "testing"

func TestMatchLine(t *testing.T) {
	tests := []struct {
		line    string
		runner  string
		verdict Verdict
		total   bool
	}{
		{"= tests finished: 90 passed, 2 expected to fail, 2 exceptions, in 4.17 seconds =", "sympy-bin-test", Failed, true},
		{"================== tests finished: 16 passed, in 0.04 seconds ==================", "sympy-bin-test", Passed, true},
		{"DO *NOT* COMMIT!", "sympy-bin-test", Failed, false},
		{"Ran 12 tests in 0.3s", "unittest", Ran, false},
		{"OK", "unittest", Passed, true},
		{"OK (skipped=8)", "unittest", Passed, true},
		{"FAILED (failures=1, errors=2)", "unittest", Failed, true},
		{"Creating test database for alias 'default'...", "django-runtests", Ran, false},
		{"CMake Error at CMakeLists.txt:27 (find_package):", "cmake", Failed, false},
		{"-- Configuring incomplete, errors occurred!", "cmake", Failed, true},
		{"make: *** [Makefile:192: build] Error 2", "make", Failed, false},
		{"gmake[1]: *** No rule to make target 'Makefile'.  Stop.", "make", Failed, false},
		{"congratulations :)", "tox", Passed, true},
		{"ERROR:   py39: commands failed", "tox", Failed, true},
		{"=========== 1 failed, 186 passed, 6 skipped in 1.25s ===========", "pytest", Failed, true},
		{"===== 3 passed, 1 xfailed in 0.1s =====", "pytest", Passed, true},
		{"Running Sphinx v4.1.0", "sphinx-build", Ran, false},
		{"7 passed in 0.01s", "pytest", Passed, true},
		{"FAILED t.py::test_x - assert 1 == 2", "pytest", Failed, false},
		{"Tests:       1 failed, 2 passed, 3 total", "jest", Failed, true},
		{"2 passing (5ms)", "mocha", Passed, true},
		{"1 failing", "mocha", Failed, true},
		{"# fail 0", "node", Passed, true},
		{"not ok 1 - adds", "node", Failed, false},
		{"npm ERR! code ELIFECYCLE", "npm", Failed, false},
		{"BUILD FAILURE", "jvm", Failed, true},
		{"panic: boom", "go", Failed, false},
		{"[==========] Running 6 tests from 2 test suites.", "gtest", Ran, false},
		{"[==========] 6 tests from 2 test suites ran. (0 ms total)", "gtest", Ran, false},
		{"[ RUN      ] V/P.Pos/1", "gtest", Ran, false},
		{"[       OK ] V/P.Pos/2 (0 ms)", "gtest", Ran, false},
		{"[  PASSED  ] 3 tests.", "gtest", Passed, false},
		{"[  FAILED  ] 3 tests, listed below:", "gtest", Failed, true},
		{"[  FAILED  ] V/P.Pos/1, where GetParam() = -2 (0 ms)", "gtest", Failed, false},
		{"[  FAILED  ] SumTest.Three", "gtest", Failed, false},
		{"3 FAILED TESTS", "gtest", Failed, false},
		{"test cases: 4 | 1 passed | 3 failed", "catch2", Failed, true},
		{"All tests passed (12 assertions in 5 test cases)", "catch2", Passed, true},
		{"test_calc.cpp:7: FAILED:", "catch2", Failed, false},
		{"Finished in 3.3 seconds (3.1s on load, 0.2s async, 0.00s sync)", "exunit", Ran, false},
		{"7 doctests, 101 tests, 6 failures", "exunit", Failed, true},
		{"5 tests, 0 failures, 1 excluded", "exunit", Passed, true},
	}
	for _, tt := range tests {
		m, ok := MatchLine(tt.line)
		if !ok || m.Runner != tt.runner || m.Verdict != tt.verdict || m.Total != tt.total {
			t.Errorf("MatchLine(%q) = %+v %v, want %s verdict %d total %v", tt.line, m, ok, tt.runner, tt.verdict, tt.total)
		}
	}
	for _, line := range []string{"OK then", "tests finished", "Ran the tests", "Error 2", "make: done",
		"[ RUN      ] two words", "[  PASSED  ] all of them", "[----------] 3 tests from SumTest"} {
		if m, ok := MatchLine(line); ok {
			t.Errorf("MatchLine(%q) = %+v, want no match", line, m)
		}
	}
}

func TestScriptRunner(t *testing.T) {
	for path, want := range map[string]string{
		"/testbed/bin/test":          "sympy-bin-test",
		"./tests/runtests.py":        "django-runtests",
		"/testbed/src/pytest.py":     "pytest",
		"/testbed/reproduce.py":      "",
		"/testbed/tests/test_bin.py": "unittest", // a test module run as a script
		"/testbed/bin/test_helper":   "",
		"/testbed/contest_x.py":      "",
	} {
		if got := ScriptRunner(path); got != want {
			t.Errorf("ScriptRunner(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestCapturedSection: pytest's captured-output rules open a stretch that
// is a test's own output, which the next test's header, the next section
// or the next captured stream ends; nothing else opens one.
func TestCapturedSection(t *testing.T) {
	tests := []struct {
		open string
		ok   bool
		ends []string // lines that end the stretch
		not  []string // lines inside it
	}{
		{"------------ Captured stdout call ------------", true,
			[]string{"_______ test_other _______", "====== short test summary info ======", "------ Captured stderr call ------"},
			[]string{"Running Sphinx v7.0.0", "build succeeded.", "FAILED (failures=1)", "-----"}},
		{"- Captured log teardown -", true, []string{"= 1 failed in 0.1s ="}, []string{"ERROR    root:x.py:3 boom"}},
		{"---- Captured stderr ----", true, []string{"___ test_y ___", "_ TestLong.test_with_a_long_name[a-b] _"}, nil},
		{"Captured stdout call", false, nil, nil},
		{"------------ live log call ------------", false, nil, nil},
	}
	for _, tt := range tests {
		end, ok := CapturedSection(tt.open)
		if ok != tt.ok {
			t.Errorf("CapturedSection(%q) opens %v, want %v", tt.open, ok, tt.ok)
			continue
		}
		for _, l := range tt.ends {
			if !end.MatchString(l) {
				t.Errorf("after %q, %q does not end the stretch", tt.open, l)
			}
		}
		for _, l := range tt.not {
			if end.MatchString(l) {
				t.Errorf("after %q, %q ends the stretch, want it inside", tt.open, l)
			}
		}
	}
}

func TestReportHeader(t *testing.T) {
	for line, want := range map[string]bool{
		"# Sphinx version: 7.0.0":              true,
		"# Sphinx version:":                    false,
		"Running Sphinx v7.0.0":                false,
		"# Python version: 3.11.4 (CPython)":   false,
		"The full traceback has been saved in": false,
	} {
		if got := ReportHeader(line); got != want {
			t.Errorf("ReportHeader(%q) = %v, want %v", line, got, want)
		}
	}
}
