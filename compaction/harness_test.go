package compaction

import (
	"strings"
	"testing"
)

// pthWarning is what every interpreter start prints in an environment
// with a broken .pth file (seen in real mini-swe-agent transcripts).
const pthWarning = "Error processing line 1 of /opt/conda/lib/python3.9/site-packages/distutils-precedence.pth:\n\n" +
	"  Traceback (most recent call last):\n    File \"/opt/conda/lib/python3.9/site.py\", line 177, in addpackage\n" +
	"      exec(line)\n    File \"<string>\", line 1, in <module>\n  ModuleNotFoundError: No module named '_distutils_hack'\n\n" +
	"Remainder of file ignored\n"

func mini(code, body string) string {
	return "<returncode>" + code + "</returncode>\n<output>\n" + body + "</output>"
}

func TestClassifyHarnessAndRunners(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		outcome Outcome
		family  string
	}{
		{"pth warning before a passing pytest", mini("0", pthWarning+"============ test session starts ============\ncollected 2 items\n\nt.py ..\n\n============ 2 passed in 0.03s ============\n"), OutcomePassed, "pytest"},
		{"pth warning alone is no run", mini("0", pthWarning+"['a', 'b']\n"), OutcomeNotRun, ""},
		{"summary passes despite a traceback", "======== test session starts ========\nTraceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nValueError: expected\n======== 3 passed in 0.1s ========\n", OutcomePassed, "pytest"},
		{"failure after the summary", "======== 3 passed in 0.1s ========\nTraceback (most recent call last):\n  File \"repro.py\", line 1, in <module>\nValueError: x\n", OutcomeFailed, "pytest"},
		{"exit 0 outranks a failure count", mini("0", "======== 1 failed, 2 passed in 0.1s ========\n"), OutcomeUnknown, "pytest"},
		{"exit 0 outranks a traceback", mini("0", "Traceback (most recent call last):\n  File \"repro.py\", line 3, in <module>\nKeyError: 'x'\n"), OutcomePassed, "python repro.py"},
		{"exit 1 makes an unknown run failed", mini("4", "============ test session starts ============\nERROR: file not found: t.py\n"), OutcomeFailed, "pytest"},
		{"exit 1 of a grep is no run", mini("1", ""), OutcomeNotRun, ""},
		{"ansi colours", mini("0", "\x1b[1m============ test session starts ============\x1b[0m\n\x1b[32m============ \x1b[1m8 passed\x1b[0m\x1b[32m in 0.07s ============\x1b[0m\n"), OutcomePassed, "pytest"},
		{"elided output", "<returncode>1</returncode>\n<warning>\nThe output of your last command was too long.\n</warning><output_head>\n============ test session starts ============\n</output_head>\n<elided_chars>\n2429 characters elided\n</elided_chars>\n<output_tail>\nFAILED t.py::test_a - x\n============ 1 failed in 0.1s ============\n</output_tail>", OutcomeFailed, "pytest"},
		{"openhands exit line", "Ran 3 tests in 0.01s\n\nOK\n[The command completed with exit code 0.]", OutcomePassed, "unittest"},
		{"openhands exit line quoted mid-text", "Ran 3 tests in 0.01s\n\nFAILED (failures=1)\n[The command completed with exit code 0.]\nmore output\n", OutcomeFailed, "unittest"},
		{"sympy bin/test failed", "============ test process starts ============\nsympy/core/tests/test_basic.py[3] .E.   [FAIL]\n\nTraceback (most recent call last):\n  File \"/testbed/sympy/core/tests/test_basic.py\", line 5, in test_x\nValueError: x\n= tests finished: 2 passed, 1 exceptions, in 0.10 seconds =\nDO *NOT* COMMIT!\n", OutcomeFailed, "sympy-bin-test"},
		{"sympy bin/test passed", "============ test process starts ============\n= tests finished: 90 passed, 2 expected to fail, in 4.17 seconds =\n", OutcomePassed, "sympy-bin-test"},
		{"sympy bin/test import error", mini("1", "Traceback (most recent call last):\n  File \"/testbed/bin/test\", line 105, in <module>\n    import sympy\n  File \"/testbed/sympy/core/numbers.py\", line 2111\nSyntaxError: invalid syntax\n"), OutcomeFailed, "sympy-bin-test"},
		{"django runtests failed", "Creating test database for alias 'default'...\nF\n======================================================================\nFAIL: test_x (app.tests.T)\n----------------------------------------------------------------------\nRan 12 tests in 0.3s\n\nFAILED (failures=1, errors=2)\nDestroying test database for alias 'default'...\n", OutcomeFailed, "django-runtests"},
		{"unittest passed", "....\n----------------------------------------------------------------------\nRan 4 tests in 0.002s\n\nOK\n", OutcomePassed, "unittest"},
		{"cmake failed", "-- The C compiler identification is GNU 11.4.0\nCMake Error at CMakeLists.txt:27 (find_package):\n  Could not find LLVM\n\n-- Configuring incomplete, errors occurred!\n", OutcomeFailed, "cmake"},
		{"cmake under make", "CMake Error at CMakeLists.txt:27 (find_package):\n-- Configuring incomplete, errors occurred!\nmake: *** [Makefile:192: configure] Error 1\n", OutcomeFailed, "cmake"},
		{"make build", "cc -c x.c\nx.c:3:1: error: expected ';'\nmake: *** [Makefile:12: x.o] Error 1\n", OutcomeFailed, "make"},
		{"npm test of jest", "Tests:       1 failed, 2 passed, 3 total\nnpm ERR! Test failed.\n", OutcomeFailed, "jest"},
		{"tox passed", "py39 run-test: commands[0] | pytest\n======== 3 passed in 0.1s ========\n___ summary ___\n  py39: commands succeeded\n  congratulations :)\n", OutcomePassed, "tox"},
		{"script traceback", mini("1", "Traceback (most recent call last):\n  File \"/testbed/repro.py\", line 3, in <module>\n    f()\nKeyError: 'x'\n"), OutcomeFailed, "python repro.py"},
		{"chained traceback names the script", "Traceback (most recent call last):\n  File \"/lib/db.py\", line 84, in _execute\nsqlite3.OperationalError: boom\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File \"repro.py\", line 36, in <module>\n  File \"/lib/db.py\", line 90, in execute\nOperationalError: boom\n", OutcomeFailed, "python repro.py"},
		{"python -m pytest crash", mini("1", "Traceback (most recent call last):\n  File \"/usr/lib/python3.9/runpy.py\", line 197, in _run_module_as_main\n  File \"/testbed/src/pytest.py\", line 29, in <module>\n  File \"/testbed/src/_pytest/python.py\", line 310\nSyntaxError: invalid syntax\n"), OutcomeFailed, "pytest"},
		{"script compile error", mini("1", "  File \"/testbed/repro.py\", line 7\n    x = (\n        ^\nSyntaxError: '(' was never closed\n"), OutcomeFailed, "python repro.py"},
		{"python -c has no family", mini("1", "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nModuleNotFoundError: No module named 'numpy'\n"), OutcomeFailed, ""},
		{"sphinx crash", mini("2", "Running Sphinx v4.1.0\n\nException occurred:\n  File \"/testbed/sphinx/ext/autodoc/__init__.py\", line 891\nSyntaxError: invalid syntax\n"), OutcomeFailed, "sphinx-build"},
		{"pytest repeats a test's captured database setup", mini("1", pytestOfBuild("app/tests/test_models.py", "---------- Captured stderr setup ----------\nCreating test database for alias 'default'...\n")), OutcomeFailed, "pytest"},
		{"pytest repeats a test's captured build banner", mini("1", pytestOfBuild("doc/tests/test_html.py", "---------- Captured stdout call ----------\nRunning Sphinx v7.0.0\nbuild succeeded.\n")), OutcomeFailed, "pytest"},
		{"pytest -s lets a build banner through", mini("1", "======== test session starts ========\ncollected 1 item\n\ndoc/tests/test_html.py # srcdir: /tmp/root\nRunning Sphinx v7.0.0\nF\n\n======== FAILURES ========\nE   assert 0\n======== short test summary info ========\nFAILED doc/tests/test_html.py::test_x - assert 0\n======== 1 failed in 0.3s ========\n"), OutcomeFailed, "pytest"},
		{"sphinx build under make", mini("2", "Running Sphinx v7.0.0\n\nException occurred:\n  File \"/testbed/sphinx/builders/html.py\", line 12\nKeyError: 'x'\nmake: *** [Makefile:20: html] Error 2\n"), OutcomeFailed, "sphinx-build"},
		{"cat of a saved sphinx crash report", mini("0", "# Sphinx version: 7.0.0\n# Python version: 3.11.4 (CPython)\n# Last messages:\n#   Running Sphinx v7.0.0\n#   reading sources... [100%] index\nTraceback (most recent call last):\n  File \"/testbed/sphinx/cmd/build.py\", line 280, in build_main\n    app.build(args.force_all, args.filenames)\nKeyError: 'x'\n"), OutcomeNotRun, ""},
		{"report header further down is no report", mini("2", "Running Sphinx v7.0.0\n# Sphinx version: 7.0.0\n\nException occurred:\nKeyError: 'x'\n"), OutcomeFailed, "sphinx-build"},
		{"numbered read of a test log", mini("0", "   1\t============ test session starts ============\n   2\tFAILED t.py::x\n   3\t=== 1 failed in 0.1s ===\n"), OutcomeNotRun, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Classify(tt.text)
			if v.Outcome != tt.outcome || v.Family != tt.family {
				t.Fatalf("Classify = %s family %q (%s, line %d %q), want %s family %q",
					v.Outcome, v.Family, v.Reason, v.Line, v.Evidence, tt.outcome, tt.family)
			}
		})
	}
}

// TestSupersededByFamily: only a later run of the same family supersedes
// a failed run.
func TestSupersededByFamily(t *testing.T) {
	big := strings.Repeat("x = 1\n", 100)
	pytestFail := mini("1", "============ test session starts ============\n"+big+"============ 1 failed in 0.1s ============\n")
	pytestPass := mini("0", "============ 3 passed in 0.1s ============\n")
	script := mini("1", "Traceback (most recent call last):\n  File \"repro.py\", line 3, in <module>\n"+big+"KeyError: 'x'\n")
	// As a harness that prints no exit status shows it (SWE-agent).
	crashReport := "# Sphinx version: 7.0.0\n# Last messages:\n#   Running Sphinx v7.0.0\nTraceback (most recent call last):\n  File \"/testbed/sphinx/cmd/build.py\", line 280, in build_main\n" + big + "KeyError: 'x'\n"
	pytestCrash := mini("1", "Traceback (most recent call last):\n  File \"/usr/lib/python3.9/runpy.py\", line 197, in _run_module_as_main\n  File \"/testbed/src/pytest.py\", line 29, in <module>\n  File \"/testbed/src/_pytest/python.py\", line 310\n"+big+"SyntaxError: invalid syntax\n")
	djangoPass := mini("0", "Creating test database for alias 'default'...\n....\n----------------------------------------------------------------------\nRan 4 tests in 0.1s\n\nOK\n")
	buildPass := mini("0", "Running Sphinx v7.0.0\nbuilding [html]: targets for 1 source files that are out of date\nbuild succeeded.\n")
	onFile := func(file, verdict string) string {
		return mini("1", "============ test session starts ============\n"+file+" F\n"+big+"FAILED "+file+"::test_x - assert 0\n============ 1 "+verdict+" in 0.1s ============\n")
	}
	gtestOther := mini("1", strings.ReplaceAll(gtestFailed, "SumTest", "JoinTest")+big)
	gtestSum := mini("1", gtestFailed+big)
	tests := []struct {
		name    string
		texts   []string
		reasons []string
	}{
		// A gtest run's targets are the suites it names: another binary's
		// run leaves it in place, a run of its suites again supersedes it.
		{"gtest of another binary", []string{gtestSum, gtestOther}, []string{ReasonLatest, ReasonLatest}},
		{"gtest of the same binary", []string{gtestSum, gtestOther, gtestSum}, []string{ReasonCollapsed, ReasonLatest, ReasonLatest}},
		{"pytest of another file", []string{onFile("tests/test_a.py", "failed"), onFile("tests/test_b.py", "failed")}, []string{ReasonLatest, ReasonLatest}},
		{"pytest of the same file", []string{onFile("tests/test_a.py", "failed"), onFile("tests/test_b.py", "failed"), onFile("./tests/test_a.py", "failed")}, []string{ReasonCollapsed, ReasonLatest, ReasonLatest}},
		{"pytest naming no file covers all", []string{onFile("tests/test_a.py", "failed"), pytestPass}, []string{ReasonCollapsed, ReasonLatest}},
		{"script after pytest", []string{pytestFail, script}, []string{ReasonLatest, ReasonLatest}},
		{"pytest after pytest", []string{pytestFail, script, pytestPass}, []string{ReasonCollapsed, ReasonLatest, ReasonLatest}},
		{"script after script", []string{script, pytestFail, script}, []string{ReasonCollapsed, ReasonLatest, ReasonLatest}},
		// Each crash of a build saves its own report; reading two of them
		// back is two reads, and a later build supersedes neither.
		{"reads of two crash reports", []string{crashReport, crashReport, mini("2", "Running Sphinx v7.0.0\n\nException occurred:\n"+big+"KeyError: 'x'\n")}, []string{ReasonNotRunLike, ReasonNotRunLike, ReasonLatest}},
		// python -m pytest that crashed on a syntax error in the code under
		// test names no file: it stands for no earlier run's files, though
		// a later run covers it.
		{"pytest crash after pytest of a file", []string{onFile("tests/test_a.py", "failed"), pytestCrash}, []string{ReasonLatest, ReasonLatest}},
		{"pytest of a file after a crash", []string{pytestCrash, onFile("tests/test_a.py", "failed")}, []string{ReasonCollapsed, ReasonLatest}},
		{"pytest crash after a crash", []string{pytestCrash, pytestCrash}, []string{ReasonCollapsed, ReasonLatest}},
		// A test suite that builds documents prints the build tool's
		// banner in its captured output; a later build of the docs is
		// another command and leaves the suite's failure in place.
		{"build after pytest of the build tool's tests", []string{mini("1", pytestOfBuild("doc/tests/test_html.py", "---------- Captured stdout call ----------\nRunning Sphinx v7.0.0\n"+big)), buildPass}, []string{ReasonLatest, ReasonLatest}},
		{"runtests after pytest of a Django app", []string{mini("1", pytestOfBuild("app/tests/test_models.py", "---------- Captured stderr setup ----------\nCreating test database for alias 'default'...\n"+big)), djangoPass}, []string{ReasonLatest, ReasonLatest}},
		{"pytest of the build tool's tests after pytest", []string{mini("1", pytestOfBuild("doc/tests/test_html.py", "---------- Captured stdout call ----------\nRunning Sphinx v7.0.0\n"+big)), buildPass, mini("0", pytestOfBuild("doc/tests/test_html.py", ""))}, []string{ReasonCollapsed, ReasonLatest, ReasonLatest}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds, err := Compact(outputsOf(tt.texts...), Options{}, &DirStore{Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			for i, d := range ds {
				if d.Reason != tt.reasons[i] {
					t.Errorf("output %d: %s (family %q), want %s", i, d.Reason, d.Family, tt.reasons[i])
				}
			}
		})
	}
}

// pytestOfBuild is a pytest run of one test file whose single test failed
// and printed captured, a captured-output section or "".
func pytestOfBuild(file, captured string) string {
	if captured == "" {
		return "======== test session starts ========\ncollected 1 item\n\n" + file + " .\n\n======== 1 passed in 0.3s ========\n"
	}
	return "======== test session starts ========\ncollected 1 item\n\n" + file + " F\n\n======== FAILURES ========\n________ test_x ________\n\nE   assert 0\n\n" +
		captured + "======== short test summary info ========\nFAILED " + file + "::test_x - assert 0\n======== 1 failed in 0.3s ========\n"
}
