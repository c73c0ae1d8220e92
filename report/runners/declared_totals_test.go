package runners

import (
	"os/exec"
	"strings"
	"testing"
)

// unittestFixture is a test package with each outcome unittest knows.
var unittestFixture = map[string]string{
	"test_calc.py": `import unittest

def area(r):
    return round(3.14159 * r * r, 2)

class GeoTest(unittest.TestCase):
    def test_area(self):
        self.assertEqual(area(2), 12.56)
    def test_ok(self):
        self.assertTrue(True)
    def test_boom(self):
        raise ValueError("bad radius")
    @unittest.skip("later")
    def test_skip(self):
        pass
    @unittest.expectedFailure
    def test_xf(self):
        self.assertEqual(1, 2)
`,
	"test_cls.py": `import unittest

class C(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise RuntimeError("no database")
    def test_a(self):
        pass
`,
	"test_sub.py": `import unittest

class S(unittest.TestCase):
    def test_even(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertEqual(i % 2, 0)
    def test_plain(self):
        """Checks that plain asserts name their line."""
        assert 1 + 1 == 3
    @unittest.expectedFailure
    def test_us(self):
        pass
`,
	"test_green.py": `import unittest

class G(unittest.TestCase):
    def test_one(self):
        pass
    @unittest.skip("later")
    def test_two(self):
        pass
`,
}

// TestUnittestReal runs python3 -m unittest on each module, quiet and
// verbose: the counts come from "Ran N tests" and the verdict under it,
// the failing tests from the FAIL:/ERROR: headings, their messages from
// the exception lines of their tracebacks.
func TestUnittestReal(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed here")
	}
	dir := t.TempDir()
	writeFiles(t, dir, unittestFixture)
	cases := []struct {
		module   string
		want     want
		messages map[string]string
	}{
		{"test_calc", want{"unittest", 5, 1, 1, 2, 1, []string{"test_boom", "test_area"}, nil, 1},
			map[string]string{"test_area": "AssertionError: 12.57 != 12.56", "test_boom": "ValueError: bad radius"}},
		// setUpClass's error is outside Ran's count: passed is unknown.
		{"test_cls", want{"unittest", 0, -1, 0, 0, 1, []string{"setUpClass"}, nil, 1},
			map[string]string{"setUpClass": "RuntimeError: no database"}},
		// A failing subtest and an unexpected success (a failure since 3.11).
		{"test_sub", want{"unittest", 3, 0, 3, 0, 0, []string{"test_even", "test_plain", "test_us"}, nil, 1},
			map[string]string{"test_even": "AssertionError: 1 != 0", "test_plain": "AssertionError at: assert 1 + 1 == 3"}},
		{"test_green", want{"unittest", 2, 1, 0, 1, 0, nil, nil, 1}, nil},
	}
	for _, c := range cases {
		for _, verbose := range []bool{false, true} {
			args := []string{"-m", "unittest", c.module}
			if verbose {
				args = []string{"-m", "unittest", "-v", c.module}
			}
			t.Run(strings.Join(args[2:], " "), func(t *testing.T) {
				log := runTool(t, dir, nil, "python3", args...)
				s := checkVerifies(t, log)
				check(t, s, c.want, log)
				for name, msg := range c.messages {
					if f := findFailure(s, name); f == nil || f.Message != msg {
						t.Errorf("failure %s = %+v, want message %q", name, f, msg)
					}
				}
				if f := findFailure(s, "test_area"); f != nil && f.Classname != "test_calc.GeoTest" {
					t.Errorf("test_area's class = %q, want test_calc.GeoTest", f.Classname)
				}
			})
		}
	}
}

// TestDeclaredTotals: a total counts only in the shape its declaration
// gives, an unclosed one gives only what it printed, and every result
// re-reads from its cited lines (checkVerifies).
func TestDeclaredTotals(t *testing.T) {
	tests := []struct {
		name string
		log  string
		want want
		note string // a part of the summary's note
	}{
		{"unittest: OK and FAILED alone are no total",
			"OK\nFAILED (failures=1)\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"unittest: a verdict after other output is not Ran's",
			"Ran 3 tests in 0.100s\nTesting against Django installed in '/x'\nFAILED (failures=1)\n",
			want{"unittest", 3, -1, -1, -1, -1, nil, nil, 1}, "only the number of tests is known"},
		{"unittest: Ran at the end of the log",
			"Ran 2 tests in 0.100s\n\n", want{"unittest", 2, -1, -1, -1, -1, nil, nil, 1}, "no OK or FAILED line"},
		{"unittest: a rule between Ran and its verdict",
			"Ran 4 tests in 0.100s\n----------------------------------------------------------------------\n\nOK (skipped=1, expected failures=1)\n",
			want{"unittest", 4, 2, 0, 2, 0, nil, nil, 1}, "passed is Ran N minus"},
		{"unittest: a go-shaped FAIL line names no unittest test",
			"FAIL: TestX (0.00s)\nRan 1 test in 0.1s\n\nFAILED (failures=1)\n", want{"unittest", 1, 0, 1, 0, 0, nil, nil, 1}, ""},
		{"unittest: NO TESTS RAN",
			"\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n", want{"unittest", 0, 0, 0, 0, 0, nil, nil, 1}, ""},
		{"unittest: a FAIL heading's name, a retry that passed",
			"FAIL: test_x (pkg.mod.T.test_x)\n------\nTraceback (most recent call last):\nAssertionError: no\n\nRan 2 tests in 0.1s\n\nFAILED (failures=1)\n" +
				"Ran 2 tests in 0.1s\n\nOK\n",
			want{"unittest", 2, 2, 0, 0, 0, nil, []string{"test_x"}, 2}, ""},
		{"sympy: one line",
			"============================= test process starts ==============================\n" +
				"sympy/core/tests/test_a.py[3] ..F                                         [FAIL]\n\n" +
				"________________________________________________________________________________\n" +
				"____________________ sympy/core/tests/test_a.py:test_three ____________________\n" +
				"Traceback (most recent call last):\n  File \"/src/sympy/core/tests/test_a.py\", line 9, in test_three\n    assert f(3) == 4\nAssertionError\n\n" +
				"============= tests finished: 2 passed, 1 failed, in 0.05 seconds =============\nDO *NOT* COMMIT!\n",
			want{"sympy-bin-test", 3, 2, 1, 0, 0, []string{"test_three"}, nil, 1}, ""},
		{"sympy: a total too wide for its padding",
			"============================= test process starts ==============================\n" +
				" tests finished: 97 passed, 2 expected to fail, 1 expected to fail, but passed, 11 exceptions, in 1.41 seconds =\n",
			want{"sympy-bin-test", 111, 98, 0, 2, 11, nil, nil, 1}, ""},
		{"sympy: a total wrapped over two lines",
			"============================= test process starts ==============================\n" +
				" tests finished: 41 passed, 5 skipped, 2 expected to fail, 2 exceptions, \nin 0.21 seconds \nDO *NOT* COMMIT!\n",
			want{"sympy-bin-test", 50, 41, 0, 7, 2, nil, nil, 1}, ""},
		{"sympy: a wrapped total cut after its first line",
			"============================= test process starts ==============================\n" +
				" tests finished: 41 passed, 5 skipped, 2 expected to fail, 2 exceptions, \n",
			want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"sympy: an unpadded total is read only inside a run (bin/test | tail cut its banner)",
			" tests finished: 97 passed, 2 expected to fail, 1 expected to fail, but passed, 11 exceptions, in 1.41 seconds =\n",
			want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"sympy: a run ends maxRunLines after its banner",
			"============================= test process starts ==============================\n" + strings.Repeat(".\n", maxRunLines) +
				"____ sympy/core/tests/test_a.py:test_late ____\n" +
				"============= tests finished: 2 passed, 1 failed, in 0.05 seconds =============\n",
			want{"sympy-bin-test", 3, 2, 1, 0, 0, nil, nil, 1}, ""},
		{"sympy: a heading outside a run names nothing",
			"____ sympy/core/tests/test_a.py:test_quoted ____\n" +
				"============================= test process starts ==============================\n" +
				"================== tests finished: 16 passed, in 0.04 seconds ==================\n",
			want{"sympy-bin-test", 16, 16, 0, 0, 0, nil, nil, 1}, ""},
		// gtest's summary is read by a parser of its own (gtest.go), with
		// the same guarantee; its rows are here with the declared ones'.
		{"gtest: a total without its PASSED line gives only the number of tests",
			"[==========] 3 tests from 1 test suite ran. (0 ms total)\nSegmentation fault\n",
			want{"gtest", 3, -1, -1, -1, -1, nil, nil, 1}, "no [  PASSED  ] line"},
		{"gtest: --gtest_brief: failed is the tests that neither passed nor were skipped",
			"t.cc:5: Failure\nValue of: ok\n  Actual: false\nExpected: true\n[  FAILED  ] A.B (0 ms)\n" +
				"[==========] 4 tests from 1 test suite ran. (1 ms total)\n[  PASSED  ] 2 tests.\n[  SKIPPED ] 1 test.\n",
			want{"gtest", 4, 2, 1, 1, 0, []string{"A.B"}, nil, 1}, ""},
		{"gtest: without times, the list under the total names no test again",
			"[==========] Running 2 tests from 1 test suite.\n[ RUN      ] A.B\n[  FAILED  ] A.B\n[ RUN      ] A.C\n[       OK ] A.C\n" +
				"[==========] 2 tests from 1 test suite ran.\n[  PASSED  ] 1 test.\n[  FAILED  ] 1 test, listed below:\n[  FAILED  ] A.B\n\n 1 FAILED TEST\n" +
				"[==========] Running 1 test from 1 test suite.\n[ RUN      ] C.D\n[  FAILED  ] C.D\n" +
				"[==========] 1 test from 1 test suite ran.\n[  PASSED  ] 0 tests.\n[  FAILED  ] 1 test, listed below:\n[  FAILED  ] C.D\n",
			want{"gtest", 3, 1, 2, 0, 0, []string{"A.B", "C.D"}, nil, 2}, ""},
		{"gtest: a failure list outside a total names nothing",
			"[  FAILED  ] 3 tests, listed below:\n[  FAILED  ] Db: SetUpTestSuite or TearDownTestSuite\n 3 FAILED TESTS\n",
			want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"gtest: a total that does not add up gives only the number of tests",
			"[==========] 3 tests from 1 test suite ran. (0 ms total)\n[  PASSED  ] 2 tests.\n[  FAILED  ] 2 tests, listed below:\n",
			want{"gtest", 3, -1, -1, -1, -1, nil, nil, 1}, "does not add up"},
		{"gtest: a test whose [ RUN ] has no verdict when the log ends stopped there",
			"[==========] Running 3 tests from 1 test suite.\n[ RUN      ] A.B\n[       OK ] A.B (0 ms)\n[ RUN      ] A.C\nabout to crash\n",
			want{"gtest", -1, 1, 1, 0, 0, []string{"A.C"}, nil, 1}, "ended without its total"},
		{"gtest: a banner alone is no run",
			"[==========] Running 3 tests from 1 test suite.\n[----------] Global test environment set-up.\n",
			want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"gtest: two binaries of the same size are summed",
			"[==========] Running 1 test from 1 test suite.\n[ RUN      ] A.B\n[       OK ] A.B (0 ms)\n[==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.\n" +
				"[==========] Running 1 test from 1 test suite.\n[ RUN      ] C.D\n[       OK ] C.D (0 ms)\n[==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.\n",
			want{"gtest", 2, 2, 0, 0, 0, nil, nil, 2}, ""},
		{"gtest: the same tests again are a retry (--gtest_repeat): a test that failed only before is flaky",
			"[==========] Running 1 test from 1 test suite.\n[ RUN      ] A.B\n[  FAILED  ] A.B (0 ms)\n[==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 0 tests.\n[  FAILED  ] 1 test, listed below:\n[  FAILED  ] A.B\n\n 1 FAILED TEST\n" +
				"\nRepeating all tests (iteration 2) . . .\n\n" +
				"[==========] Running 1 test from 1 test suite.\n[ RUN      ] A.B\n[       OK ] A.B (0 ms)\n[==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.\n",
			want{"gtest", 1, 1, 0, 0, 0, nil, []string{"A.B"}, 2}, ""},
		{"gtest: a run that failed with no failed test: its global test environment",
			"[==========] Running 1 test from 1 test suite.\n[----------] Global test environment set-up.\n[----------] 1 test from E\n[ RUN      ] E.Ok\n[       OK ] E.Ok (0 ms)\n" +
				"[----------] 1 test from E (0 ms total)\n\n[----------] Global test environment tear-down\nenv.cc:3: Failure\nFailed\nenv teardown failed\n" +
				"[==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.\n[  FAILED  ] 0 tests, listed below:\n\n 0 FAILED TESTS\n",
			want{"gtest", 1, 1, 0, 0, 1, []string{"Global test environment"}, nil, 1}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := checkVerifies(t, []byte(tt.log))
			check(t, s, tt.want, []byte(tt.log))
			if !strings.Contains(s.Note, tt.note) {
				t.Errorf("note = %q, want it to say %q", s.Note, tt.note)
			}
		})
	}
}

// fuzzDeclared is fuzzParser for a runner whose total may be left
// unclosed: a prefix ending in an open total ("Ran 2 tests" cut before its
// verdict) makes the failure count of the whole log unknown, which is
// honest, so the failing block after it must leave a failure or no
// failure count, never a pass.
func fuzzDeclared(f *testing.F, failing string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(failing))
	f.Fuzz(func(t *testing.T, prefix []byte) {
		checkVerifies(t, prefix)
		log := append(append(append([]byte{}, prefix...), "\n\n"...), failing...)
		s := checkVerifies(t, log)
		if s.Source == SourceNone || s.Failed != nil && s.Errors != nil && *s.Failed+*s.Errors == 0 {
			t.Fatalf("failing block after %q read as a pass: %+v", prefix, s)
		}
	})
}

func FuzzUnittest(f *testing.F) {
	fuzzDeclared(f, "FAIL: test_x (m.T.test_x)\n---\nAssertionError: 1 != 2\n\nRan 1 test in 0.001s\n\nFAILED (failures=1)\n",
		"Ran 2 tests in 0.1s\n\nOK\n", "Ran 2 tests in 0.1s\n-----\nOK (skipped=1)\nOK\n", "ERROR: setUpClass (m.T)\nRan 0 tests in 0.0s\n")
}

func FuzzSympy(f *testing.F) {
	fuzzDeclared(f, "= test process starts =\n___ a/t.py:test_x ___\nValueError: x\n= tests finished: 1 passed, 1 exceptions, in 0.1 seconds =\n",
		"= test process starts =\n tests finished: 1 passed, 1 failed, \nin 0.1 seconds\n", "tests finished: 2 passed, in 0.0 seconds =\n")
}

// TestPrefixTable: the word compare agrees with a plain prefix test on
// lines shorter and longer than eight bytes and prefixes of every length.
func TestPrefixTable(t *testing.T) {
	var pt prefixTable
	(&Totals{Prefixes: []string{"Ran ", "tests finished: ", "_", "FAIL: ", "ERROR: "}}).index(&pt)
	for line, want := range map[string]bool{
		"Ran 3 tests in 0.1s": true, "Ran ": true, "Ran": false, "Rank 1": false,
		"tests finished: 1 passed, in 0.1 seconds =": true, "tests finished:": false, "tests/test_a.py::t PASSED": false,
		"test_price (m.C.test_price) ... ok": false, "_": true, "____ a.py:t ____": true,
		"FAIL: t (m.C)": true, "FAIL:": false, "FAILED (failures=1)": false, "ERROR: t (m.C)": true, "ERRORS": false,
	} {
		if got := pt.match([]byte(line)); got != want {
			t.Errorf("match(%q) = %v, want %v", line, got, want)
		}
	}
}
