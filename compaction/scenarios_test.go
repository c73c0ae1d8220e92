package compaction

// The scenarios behind testdata/transcripts: small real projects taken
// through fix → re-run loops, with the reads, diffs and notes a coding
// agent produces in between, which must never be collapsed.

const goMod = "module example.com/calc\n\ngo 1.26\n"

const calcGoBuggy = `package calc

// Add returns a+b.
func Add(a, b int) int { return a - b }

// Mul returns a*b.
func Mul(a, b int) int { return a + b }

// Mean returns the average of xs.
func Mean(xs []int) int {
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return sum / len(xs)
}
`

const calcGoHalf = `package calc

// Add returns a+b.
func Add(a, b int) int { return a + b }

// Mul returns a*b.
func Mul(a, b int) int { return a + b }

// Mean returns the average of xs.
func Mean(xs []int) int {
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return sum / len(xs)
}
`

const calcGoFixed = `package calc

// Add returns a+b.
func Add(a, b int) int { return a + b }

// Mul returns a*b.
func Mul(a, b int) int { return a * b }

// Mean returns the average of xs, 0 for none.
func Mean(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return sum / len(xs)
}
`

const calcGoBroken = `package calc

// Add returns a+b.
func Add(a, b int) int { return a + b

// Mul returns a*b.
func Mul(a, b int) int { return a * b }
`

const calcTestGo = `package calc

import "testing"

func TestAdd(t *testing.T) {
	cases := []struct{ a, b, want int }{{1, 2, 3}, {0, 0, 0}, {-1, 1, 0}, {40, 2, 42}}
	for _, c := range cases {
		if got := Add(c.a, c.b); got != c.want {
			t.Errorf("Add(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestMul(t *testing.T) {
	for _, c := range []struct {
		name       string
		a, b, want int
	}{{"small", 2, 3, 6}, {"zero", 0, 5, 0}, {"neg", -2, 4, -8}} {
		t.Run(c.name, func(t *testing.T) {
			if got := Mul(c.a, c.b); got != c.want {
				t.Fatalf("Mul(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
			}
		})
	}
}

func TestMean(t *testing.T) {
	if got := Mean([]int{2, 4, 6}); got != 4 {
		t.Errorf("Mean = %d, want 4", got)
	}
	if got := Mean(nil); got != 0 {
		t.Errorf("Mean(nil) = %d, want 0", got)
	}
}
`

// reportTestGo is a test whose source quotes go test output, the shape a
// marker-matching compactor mistakes for a run when the file is read.
const reportTestGo = "package calc\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\n" +
	"const sample = `=== RUN   TestAdd\n--- FAIL: TestAdd (0.00s)\n    calc_test.go:9: Add(1, 2) = -1, want 3\nFAIL\nFAIL\texample.com/calc\t0.002s\n`\n\n" +
	"func TestSampleIsFailure(t *testing.T) {\n\tif !strings.Contains(sample, \"--- FAIL:\") {\n\t\tt.Fatal(\"--- FAIL: missing from sample\")\n\t}\n" +
	"\tif Add(2, 2) != 4 {\n\t\tt.Fatal(\"FAILED: Add(2, 2) != 4\")\n\t}\n}\n"

const statsGoBuggy = `package stats

// Max returns the largest of xs.
func Max(xs []int) int {
	m := xs[0]
	for i := 0; i <= len(xs); i++ {
		if xs[i] > m {
			m = xs[i]
		}
	}
	return m
}
`

const statsGoFixed = `package stats

// Max returns the largest of xs.
func Max(xs []int) int {
	m := xs[0]
	for _, x := range xs[1:] {
		if x > m {
			m = x
		}
	}
	return m
}
`

const statsTestGo = `package stats

import "testing"

func TestMax(t *testing.T) {
	if got := Max([]int{3, 9, 2}); got != 9 {
		t.Fatalf("Max = %d, want 9", got)
	}
}

func TestMaxOne(t *testing.T) {
	if got := Max([]int{7}); got != 7 {
		t.Fatalf("Max = %d, want 7", got)
	}
}
`

const calcPyBuggy = `def add(a, b):
    return a - b


def mean(xs):
    return sum(xs) / len(xs)


def parse(s):
    return [int(x) for x in s.split(",")]
`

const calcPyHalf = `def add(a, b):
    return a + b


def mean(xs):
    return sum(xs) / len(xs)


def parse(s):
    return [int(x) for x in s.split(",")]
`

const calcPyFixed = `def add(a, b):
    return a + b


def mean(xs):
    if not xs:
        return 0
    return sum(xs) / len(xs)


def parse(s):
    return [int(x) for x in s.split(",") if x.strip()]
`

const testCalcPy = `import pytest

from calc import add, mean, parse


@pytest.mark.parametrize("a,b,want", [(1, 2, 3), (0, 0, 0), (-1, 1, 0)])
def test_add(a, b, want):
    assert add(a, b) == want


def test_mean():
    assert mean([2, 4, 6]) == 4


def test_mean_empty():
    assert mean([]) == 0


def test_parse():
    assert parse("1,2,3") == [1, 2, 3]


def test_parse_trailing_comma():
    assert parse("1,2,") == [1, 2]
`

// testReportPy quotes pytest output in code: in a string compared against,
// and in a triple-quoted sample whose lines start at column 0.
const testReportPy = `from calc import add

SAMPLE = """
=================================== FAILURES ===================================
FAILED test_calc.py::test_add[1-2-3] - assert -1 == 3
========================= 1 failed, 4 passed in 0.03s ==========================
"""


def summarize(out):
    return "FAILED" if "FAILED" in out else "ok"


def test_summarize_failed():
    out = SAMPLE
    assert "FAILED" in out
    assert summarize(out) == "FAILED"


def test_add_again():
    assert add(2, 2) == 4
`

const notesMd = "# Notes on the calc failures\n\nThe first run failed like this:\n\n" +
	"```\n============================= test session starts ==============================\n" +
	"FAILED test_calc.py::test_add[1-2-3] - assert -1 == 3\n" +
	"========================= 3 failed, 4 passed in 0.05s ==========================\n```\n\n" +
	"And CI printed, indented in the log:\n\n" +
	"    =================================== FAILURES ===================================\n" +
	"    FAILED test_calc.py::test_mean_empty - ZeroDivisionError: division by zero\n" +
	"    ========================= 1 failed, 6 passed in 0.04s ==========================\n\n" +
	"Plan: fix add first, then mean, then parse. Expect `0 failed` at the end.\n"

const toolPy = `import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


if __name__ == "__main__":
    cfg = load(sys.argv[1])
    print("threshold", cfg["threshold"])
`

const testImportPy = `from calc import add
from helpers import double


def test_double_add():
    assert double(add(1, 2)) == 6
`

const helpersPy = `def double(x):
    return x * 2
`

const (
	goTest   = "go test ./..."
	goTestV  = "go test -v ./..."
	pytest   = "python3 -m pytest -p no:cacheprovider"
	pytestQ  = "python3 -m pytest -q -p no:cacheprovider"
	initRepo = "git add -A && git commit -qm init"
)

func scenarios() []scenario {
	goBase := map[string]string{"go.mod": goMod, "calc.go": calcGoBuggy, "calc_test.go": calcTestGo}
	pyBase := map[string]string{"calc.py": calcPyBuggy, "test_calc.py": testCalcPy}
	return []scenario{
		{"go-add-fix", "read the test, go test fails, fix, diff, go test passes", []step{
			{write: goBase, cmd: initRepo + " && cat -n calc_test.go"},
			{cmd: goTest, run: true},
			{write: map[string]string{"calc.go": calcGoFixed}, cmd: "git diff"},
			{cmd: goTest, run: true},
		}},
		{"go-verbose-three-attempts", "go test -v fails, half fix still fails, full fix passes", []step{
			{write: goBase, cmd: goTestV, run: true},
			{write: map[string]string{"calc.go": calcGoHalf}, cmd: goTestV, run: true},
			{write: map[string]string{"calc.go": calcGoFixed}, cmd: goTestV, run: true},
		}},
		{"go-build-error", "build failure, then test failure, then pass", []step{
			{write: map[string]string{"go.mod": goMod, "calc.go": calcGoBroken, "calc_test.go": calcTestGo}, cmd: goTestV, run: true},
			{write: map[string]string{"calc.go": calcGoBuggy}, cmd: goTestV, run: true},
			{write: map[string]string{"calc.go": calcGoFixed}, cmd: goTestV, run: true},
		}},
		{"go-panic", "index out of range panic, fix, pass", []step{
			{write: map[string]string{"go.mod": "module example.com/stats\n\ngo 1.26\n", "stats.go": statsGoBuggy, "stats_test.go": statsTestGo},
				cmd: initRepo + " && cat stats.go", run: false},
			{cmd: goTestV, run: true},
			{write: map[string]string{"stats.go": statsGoFixed}, cmd: "git diff", run: false},
			{cmd: goTestV, run: true},
		}},
		{"go-regression", "passes, an edit breaks it, the latest run fails", []step{
			{write: map[string]string{"go.mod": goMod, "calc.go": calcGoFixed, "calc_test.go": calcTestGo}, cmd: initRepo + " && " + goTestV, run: true},
			{write: map[string]string{"calc.go": calcGoHalf}, cmd: "git diff", run: false},
			{cmd: goTestV, run: true},
		}},
		{"go-test-source-reads", "a test file quoting go test output is read plain, numbered and in git show", []step{
			{write: map[string]string{"go.mod": goMod, "calc.go": calcGoBuggy, "calc_test.go": calcTestGo, "report_test.go": reportTestGo},
				cmd: initRepo + " && cat report_test.go"},
			{cmd: "cat -n report_test.go"},
			{cmd: goTestV, run: true},
			{write: map[string]string{"calc.go": calcGoFixed}, cmd: "git commit -qam fix && git show HEAD"},
			{cmd: "git show HEAD~1 -- report_test.go"},
			{cmd: goTestV, run: true},
		}},
		{"go-multi-package", "go test ./... over two packages, one failing, then all ok", []step{
			{write: map[string]string{"go.mod": goMod, "calc.go": calcGoFixed, "calc_test.go": calcTestGo,
				"stats/stats.go": statsGoBuggy, "stats/stats_test.go": statsTestGo}, cmd: goTest, run: true},
			{write: map[string]string{"stats/stats.go": statsGoFixed}, cmd: goTest, run: true},
			{cmd: "go vet ./... && " + goTest, run: true},
		}},
		{"py-assert-fix", "read the test numbered, pytest fails, fix, diff, pytest passes", []step{
			{write: pyBase, cmd: initRepo + " && cat -n test_calc.py"},
			{cmd: pytest, run: true},
			{write: map[string]string{"calc.py": calcPyFixed}, cmd: "git diff"},
			{cmd: pytest, run: true},
		}},
		{"py-three-attempts", "pytest fails, half fix fails, full fix passes", []step{
			{write: pyBase, cmd: pytest, run: true},
			{write: map[string]string{"calc.py": calcPyHalf}, cmd: pytest, run: true},
			{write: map[string]string{"calc.py": calcPyFixed}, cmd: pytestQ, run: true},
		}},
		{"py-traceback-script", "a script crashes with a traceback, then tests fail and pass", []step{
			{write: map[string]string{"tool.py": toolPy, "cfg.json": "{\"limit\": 3}\n", "calc.py": calcPyBuggy, "test_calc.py": testCalcPy},
				cmd: "python3 tool.py cfg.json", run: true},
			{write: map[string]string{"cfg.json": "{\"threshold\": 3}\n"}, cmd: "python3 tool.py cfg.json", run: true},
			{cmd: pytest, run: true},
			{write: map[string]string{"calc.py": calcPyFixed}, cmd: pytest, run: true},
		}},
		{"go-stdlib-source-traps", "after a failing go test: Go's own testing/sub_test.go read with sed (its expected outputs hold `--- FAIL: x (N.NNs)` at line starts), grep hits, a JSON body and Markdown notes quoting runs; then a half fix still fails", []step{
			{write: goBase, cmd: initRepo + " && " + goTest, run: true},
			{cmd: `sed -n '120,260p' "$(go env GOROOT)/src/testing/sub_test.go"`},
			{cmd: `grep -rn -- '--- FAIL' "$(go env GOROOT)/src/testing/sub_test.go" | head -20`},
			{write: map[string]string{"result.json": resultJSON}, cmd: "cat result.json"},
			{write: map[string]string{"NOTES.md": goNotesMd}, cmd: "cat NOTES.md"},
			{write: map[string]string{"calc.go": calcGoHalf}, cmd: goTest, run: true},
			{cmd: `sed -n '160,180p' "$(go env GOROOT)/src/testing/sub_test.go"`},
		}},
		{"py-markdown-notes", "notes quoting pytest output in a fence and indented are read between runs", []step{
			{write: map[string]string{"calc.py": calcPyBuggy, "test_calc.py": testCalcPy, "NOTES.md": notesMd}, cmd: "cat NOTES.md"},
			{cmd: pytest, run: true},
			{write: map[string]string{"calc.py": calcPyHalf}, cmd: pytest + " -v", run: true},
			{cmd: "cat NOTES.md"},
			{write: map[string]string{"calc.py": calcPyFixed}, cmd: pytest, run: true},
		}},
		{"py-collection-error", "an import error stops collection, then a failure, then a pass", []step{
			{write: map[string]string{"calc.py": calcPyBuggy, "test_import.py": testImportPy}, cmd: pytest, run: true},
			{write: map[string]string{"helpers.py": helpersPy}, cmd: pytest, run: true},
			{write: map[string]string{"calc.py": calcPyFixed}, cmd: pytest, run: true},
		}},
		{"py-test-source-strings", "a test file quoting pytest output is read, shown in git show, and run", []step{
			{write: map[string]string{"calc.py": calcPyBuggy, "test_report.py": testReportPy}, cmd: initRepo + " && cat test_report.py"},
			{cmd: pytest, run: true},
			{write: map[string]string{"calc.py": calcPyFixed}, cmd: "git commit -qam fix && git show HEAD~1"},
			{cmd: pytest, run: true},
		}},
		{"mixed-go-and-pytest", "a Go and a Python suite fail, are fixed one after the other, both pass", []step{
			{write: map[string]string{"go.mod": goMod, "calc.go": calcGoBuggy, "calc_test.go": calcTestGo,
				"py/calc.py": calcPyBuggy, "py/test_calc.py": testCalcPy}, cmd: goTest, run: true},
			{cmd: "cd py && " + pytest, run: true},
			{write: map[string]string{"calc.go": calcGoFixed}, cmd: goTest, run: true},
			{write: map[string]string{"py/calc.py": calcPyFixed}, cmd: "cd py && " + pytest, run: true},
		}},
	}
}

// resultJSON is a JSON body carrying run output in its strings, as an API
// or a CI tool returns it.
const resultJSON = `{
  "status": "failed",
  "output": "--- FAIL: TestAdd (0.00s)\n    calc_test.go:9: Add(1, 2) = -1, want 3\nFAIL\nFAIL\texample.com/calc\t0.002s\n",
  "lines": [
    "--- FAIL: TestMul (0.00s)",
    "FAIL\texample.com/calc\t0.002s"
  ]
}
`

// goNotesMd quotes an earlier run in a fence and indented.
const goNotesMd = "# Notes\n\nThe first run said:\n\n```text\n--- FAIL: TestAdd (0.00s)\n" +
	"    calc_test.go:9: Add(1, 2) = -1, want 3\nFAIL\nFAIL\texample.com/calc\t0.002s\n```\n\n" +
	"and later, indented:\n\n    --- FAIL: TestMul (0.00s)\n    FAIL\texample.com/calc\t0.003s\n"
