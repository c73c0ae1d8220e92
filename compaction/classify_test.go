package compaction

import (
	"strings"
	"testing"
)

// pytestFailed is the tail of a real pytest run (see testdata/transcripts).
const pytestFailed = `============================= test session starts ==============================
platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0+repack
rootdir: /work/py
collected 7 items

test_calc.py F....F.                                                     [100%]

=================================== FAILURES ===================================
______________________________ test_add[1-2-3] _______________________________

>       assert add(a, b) == want
E       assert -1 == 3

test_calc.py:8: AssertionError
=========================== short test summary info ============================
FAILED test_calc.py::test_add[1-2-3] - assert -1 == 3
========================= 1 failed, 6 passed in 0.03s ==========================
`

const goFailed = "=== RUN   TestMul\n=== RUN   TestMul/small\n    calc_test.go:21: Mul(2, 3) = 5, want 6\n" +
	"--- FAIL: TestMul (0.00s)\n    --- FAIL: TestMul/small (0.00s)\nFAIL\nFAIL\texample.com/calc\t0.005s\nFAIL\n"

const goPassed = "=== RUN   TestAdd\n--- PASS: TestAdd (0.00s)\nPASS\nok  \texample.com/calc\t0.003s\n"

func TestClassify(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		outcome Outcome
		reason  string
	}{
		{"pytest failed", pytestFailed, OutcomeFailed, "failure_marker"},
		{"pytest passed", "======= 7 passed in 0.01s =======\n", OutcomePassed, "pass_count"},
		{"pytest quiet passed", ".......\n7 passed in 0.01s\n", OutcomePassed, "pass_count"},
		{"pytest zero failed is a pass", "== 0 failed, 3 passed in 0.2s ==\n", OutcomePassed, "pass_count"},
		{"pytest errors", "==== 1 error in 0.05s ====\n", OutcomeFailed, "failure_count"},
		{"pytest xfailed is not failed", "== 3 passed, 1 xfailed in 0.1s ==\n", OutcomePassed, "pass_count"},
		{"go failed", goFailed, OutcomeFailed, "failure_marker"},
		{"go passed", goPassed, OutcomePassed, "pass_marker"},
		{"go build failed", "# example.com/calc\n./calc.go:4:42: syntax error\nFAIL\texample.com/calc [build failed]\nFAIL\n", OutcomeFailed, "failure_marker"},
		{"go run exit status", "--- PASS: TestA (0.00s)\nexit status 1\n", OutcomeFailed, "exit_status"},
		{"panic", "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\n", OutcomeFailed, "failure_marker"},
		{"traceback", "Traceback (most recent call last):\n  File \"tool.py\", line 11, in <module>\nKeyError: 'threshold'\n", OutcomeFailed, "failure_marker"},
		{"cargo failed", "running 2 tests\ntest a ... ok\ntest b ... FAILED\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n", OutcomeFailed, "failure_count"},
		{"cargo ok", "running 2 tests\ntest a ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n", OutcomePassed, "pass_count"},
		{"node tap failed", "TAP version 13\nnot ok 1 - adds\n1..1\n# tests 1\n# pass 0\n# fail 1\n", OutcomeFailed, "failure_marker"},
		{"node tap passed", "TAP version 13\nok 1 - adds\n1..1\n# tests 1\n# pass 1\n# fail 0\n", OutcomePassed, "pass_count"},
		{"node spec passed", "✔ adds (0.5ms)\nℹ tests 1\nℹ pass 1\nℹ fail 0\n", OutcomePassed, "pass_count"},
		{"jest failed", "Tests:       1 failed, 2 passed, 3 total\nSnapshots:   0 total\n", OutcomeFailed, "failure_count"},
		{"mocha passing", "  calc\n    ✓ adds\n\n  2 passing (5ms)\n", OutcomePassed, "pass_count"},
		{"npm err", "npm ERR! code ELIFECYCLE\nnpm ERR! errno 1\n", OutcomeFailed, "failure_marker"},
		{"maven success", "[INFO] Tests run: 3, Failures: 0\n[INFO] BUILD SUCCESS\n", OutcomePassed, "pass_marker"},
		{"gradle failed", "> Task :test FAILED\n\nBUILD FAILED in 2s\n", OutcomeFailed, "failure_marker"},
		{"session start only", "============================= test session starts ==============================\ncollected 3 items\n", OutcomeUnknown, "run_marker"},
		{"failure quoted in a fence of a passing run", goPassed + "```\n--- FAIL: TestOld (0.00s)\n```\n", OutcomeUnknown, "quoted_failure"},

		// Shapes that contain markers but are not runs.
		{"numbered source read", "   40\tdef test_x():\n   41\t    out = run()\n   42\tTraceback (most recent call last):\n   43\tFAILED x\n   44\t===== 1 failed, 2 passed in 0.1s =====\n", OutcomeNotRun, "numbered_source"},
		{"editor read", "    1→FAILED test_a.py::test_x\n    2→===== 1 failed in 0.1s =====\n", OutcomeNotRun, "numbered_source"},
		{"python test source", "import subprocess\n\n\ndef test_run():\n    out = subprocess.run(['pytest'], capture_output=True, text=True).stdout\n    assert \"FAILED\" in out\n\n\nSAMPLE = \"\"\"\nFAILED test_a.py::test_x\n===== 1 failed, 2 passed in 0.1s =====\n\"\"\"\n", OutcomeNotRun, "source_code"},
		{"go test source", "package calc\n\nimport \"testing\"\n\nconst sample = `--- FAIL: TestAdd (0.00s)\nFAIL\texample.com/calc\t0.002s\n`\n\nfunc TestX(t *testing.T) {\n\tt.Fatal(\"--- FAIL:\")\n}\n", OutcomeNotRun, "source_code"},
		{"code lines only", "    assert \"FAILED\" in out\n\tt.Fatal(\"--- FAIL:\")\n", OutcomeNotRun, "no_marker"},
		{"git diff", "diff --git a/NOTES.md b/NOTES.md\nindex 1111111..2222222 100644\n--- a/NOTES.md\n+++ b/NOTES.md\n@@ -1,4 +1,4 @@\n log:\n-FAILED test_a.py::test_x\n+ FAILED test_a.py::test_y\n ===== 1 failed, 2 passed in 0.1s =====\n", OutcomeNotRun, "diff"},
		{"git show", "commit 0123456789abcdef0123456789abcdef01234567\nAuthor: dev <dev@example.com>\nDate:   Sat Nov 29 22:41:00 2025 +0000\n\n    FAILED tests are fixed\n\ndiff --git a/x_test.go b/x_test.go\n--- a/x_test.go\n+++ b/x_test.go\n@@ -1,2 +1,2 @@\n-panic: boom\n+--- FAIL: TestX\n FAIL\tpkg\n", OutcomeNotRun, "diff"},
		{"markdown fence", "# Bug report\n\nI got:\n\n```\n===== FAILURES =====\nFAILED test_a.py::test_x\n===== 1 failed in 0.1s =====\n```\n\nPlease fix.\n", OutcomeNotRun, "no_marker"},
		{"markdown indented", "I got:\n\n    ===== FAILURES =====\n    FAILED test_a.py::test_x\n    ===== 1 failed in 0.1s =====\n\nPlease fix.\n", OutcomeNotRun, "indented_only"},
		{"prose with counts", "Yesterday 3 passed and then all of them failed.\n", OutcomeNotRun, "no_marker"},
		{"empty", "", OutcomeNotRun, "no_marker"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Classify(tt.text)
			if v.Outcome != tt.outcome || v.Reason != tt.reason {
				t.Fatalf("Classify = %s/%s (line %d %q), want %s/%s", v.Outcome, v.Reason, v.Line, v.Evidence, tt.outcome, tt.reason)
			}
			if v.RunLike != (tt.outcome != OutcomeNotRun) {
				t.Fatalf("RunLike = %v with outcome %s", v.RunLike, v.Outcome)
			}
		})
	}
}

// A test printing a small unified diff stays a run: only the hunk's own
// lines are set aside, counted from its header.
func TestClassifyRunWithDiff(t *testing.T) {
	text := "--- FAIL: TestGolden (0.00s)\n    golden_test.go:30: mismatch:\n--- want\n+++ got\n@@ -1 +1 @@\n-ok\n+FAILED\nFAIL\texample.com/g\t0.01s\n"
	v := Classify(text)
	if v.Outcome != OutcomeFailed || v.Line != 1 {
		t.Fatalf("Classify = %+v, want failed at line 1", v)
	}
}

func TestClassifyEvidenceOffset(t *testing.T) {
	v := Classify(goFailed)
	if got := goFailed[v.Offset : v.Offset+int64(len(v.Evidence))]; got != v.Evidence {
		t.Fatalf("offset %d holds %q, evidence %q", v.Offset, got, v.Evidence)
	}
}

// ClassifyReader holds at most maxLine bytes of a line: a text with a line
// far longer still classifies, and line numbers and offsets stay exact.
func TestClassifyReaderLongLine(t *testing.T) {
	long := strings.Repeat("x", 3*maxLine) + "\n"
	text := goPassed + long + goFailed
	v, err := ClassifyReader(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	wantOff := int64(len(goPassed) + len(long) + strings.Index(goFailed, "--- FAIL"))
	if v.Outcome != OutcomeFailed || v.Line != 9 || v.Offset != wantOff {
		t.Fatalf("ClassifyReader = %+v, want failed at line 9 offset %d", v, wantOff)
	}
}
