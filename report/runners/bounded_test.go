package runners

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withCaps runs fn with spanCap and maxNamed lowered, so small logs take
// the paths that only huge ones take otherwise.
func withCaps(spans, named int, fn func()) {
	oldSpans, oldNamed := spanCap, maxNamed
	spanCap, maxNamed = spans, named
	defer func() { spanCap, maxNamed = oldSpans, oldNamed }()
	fn()
}

func scanMem(t testing.TB, log []byte) *Summary {
	t.Helper()
	s, err := Scan(bytes.NewReader(log))
	if err != nil {
		t.Fatalf("scan: %v", err)
	}
	return s
}

// checkCoalesced scans log exactly and with spans coalesced to a few
// ranges: the result must be the same apart from the ranges, the ranges must
// cover every exactly recorded line, and Verify must accept both.
func checkCoalesced(t *testing.T, log []byte) {
	t.Helper()
	exact := scanMem(t, log)
	var merged *Summary
	withCaps(2, maxNamed, func() {
		merged = scanMem(t, log)
		if merged.Source != SourceNone {
			if err := Verify(bytes.NewReader(log), int64(len(log)), merged); err != nil {
				t.Fatalf("Verify rejects coalesced spans %+v on %q: %v", merged.Spans, log, err)
			}
		}
	})
	if err := sameResult(exact, merged); err != nil {
		t.Fatalf("coalescing changed the result on %q: %v", log, err)
	}
	if len(merged.Spans) > 2 {
		t.Fatalf("%d spans over the cap of 2", len(merged.Spans))
	}
	for _, sp := range exact.Spans {
		if !covered(sp, merged.Spans) {
			t.Fatalf("span %+v is in no coalesced range %+v", sp, merged.Spans)
		}
	}
}

func covered(sp Span, in []Span) bool {
	for _, c := range in {
		if c.Start <= sp.Start && sp.End <= c.End && c.FirstLine <= sp.FirstLine && sp.LastLine <= c.LastLine {
			return true
		}
	}
	return false
}

// TestCoalescedSpans: re-parsing covering ranges, uncounted lines between
// counted ones included, reproduces the exact scan for every sample and for
// logs whose uncounted lines carry parser state (file:line output, === RUN
// markers, mocha titles, cargo panic messages, npm banners).
func TestCoalescedSpans(t *testing.T) {
	logs := map[string]string{
		"go -v": "=== RUN   TestA\n    a_test.go:3: hello\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n" +
			"    b_test.go:9: boom\n--- FAIL: TestB (0.00s)\nnoise\nFAIL\nFAIL\tex.com/a\t0.01s\n" +
			"=== RUN   TestC\n--- SKIP: TestC (0.00s)\nPASS\nok  \tex.com/c\t0.01s\n",
		"go plain retry": "--- FAIL: TestN (0.00s)\n    n_test.go:1: x\nFAIL\nFAIL\tex.com/n\t0.01s\nnoise\n" +
			"ok  \tex.com/n\t0.01s\n",
		"cargo": "     Running unittests src/lib.rs (x)\n\nrunning 2 tests\ntest a ... ok\ntest b ... FAILED\n\n" +
			"---- b stdout ----\nthread 'b' panicked at src/lib.rs:3:5:\nassertion failed\nnoise\n\nfailures:\n    b\n\n" +
			"test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
		"npm workspaces": "> a@1.0.0 test\nnoise\n# tests 2\n# pass 2\n# fail 0\n# duration_ms 3\n\n> b@1.0.0 test\n" +
			"not ok 1 - x\nnoise\n# tests 2\n# pass 1\n# fail 1\n# duration_ms 3\n",
	}
	paths, err := filepath.Glob("testdata/*.log")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		logs[filepath.Base(p)] = string(b)
	}
	for name, log := range logs {
		t.Run(name, func(t *testing.T) { checkCoalesced(t, []byte(log)) })
	}
}

// TestVerifyRejectsCoalesced: with covering ranges, a changed counted line,
// an uncounted line inside a range made to count, a dropped range and a
// changed count are all caught.
func TestVerifyRejectsCoalesced(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "=== RUN   Test%d\n--- PASS: Test%d (0.00s)\n", i, i)
	}
	b.WriteString("--- FAIL: TestLast (0.00s)\nFAIL\nFAIL\tex.com/p\t0.1s\n")
	log := []byte(b.String())
	withCaps(4, maxNamed, func() {
		s := scanMem(t, log)
		if len(s.Spans) > 4 || Verify(bytes.NewReader(log), int64(len(log)), s) != nil {
			t.Fatalf("coalesced scan: %d spans, verify %v", len(s.Spans), Verify(bytes.NewReader(log), int64(len(log)), s))
		}
		cases := map[string]func() ([]byte, *Summary){
			"counted line changed": func() ([]byte, *Summary) {
				return bytes.Replace(log, []byte("--- FAIL: TestLast"), []byte("--- PASS: TestLast"), 1), s
			},
			"uncounted line made to count": func() ([]byte, *Summary) {
				return bytes.Replace(log, []byte("=== RUN   Test20\n"), []byte("--- FAIL: T (0.00s)\n"), 1), s
			},
			"range dropped": func() ([]byte, *Summary) {
				c := *s
				c.Spans = s.Spans[1:]
				return log, &c
			},
			"count changed": func() ([]byte, *Summary) {
				c := *s
				c.Passed = intp(*s.Passed + 1)
				return log, &c
			},
		}
		for name, mk := range cases {
			b, sum := mk()
			if err := Verify(bytes.NewReader(b), int64(len(b)), sum); err == nil {
				t.Errorf("Verify accepted %s", name)
			}
		}
	})
}

// TestFailuresCapped: past maxNamed failing tests the counts stay exact,
// the missing names are counted and said, and a retry whose earlier
// attempt lost names claims no flaky test it cannot name.
func TestFailuresCapped(t *testing.T) {
	var b strings.Builder
	for i := range 5 {
		fmt.Fprintf(&b, "--- FAIL: Test%d (0.00s)\n", i)
	}
	b.WriteString("FAIL\nFAIL\tex.com/p\t0.1s\n")
	first := b.String()
	withCaps(spanCap, 3, func() {
		s := scanMem(t, []byte(first))
		if num(s.Failed) != 5 || len(s.Failures) != 3 || s.FailuresOmitted != 2 || !strings.Contains(s.Note, "not named") {
			t.Errorf("capped: failed %d, %d named, %d omitted, note %q", num(s.Failed), len(s.Failures), s.FailuresOmitted, s.Note)
		}
		if err := Verify(strings.NewReader(first), int64(len(first)), s); err != nil {
			t.Errorf("verify: %v", err)
		}
		retry := first + "--- PASS: Test0 (0.00s)\nPASS\nok  \tex.com/p\t0.1s\n"
		s = scanMem(t, []byte(retry))
		if num(s.Failed) != 0 || len(s.Flaky) != 3 || !strings.Contains(s.Note, "not listed") {
			t.Errorf("retry: failed %d, flaky %v, note %q", num(s.Failed), s.Flaky, s.Note)
		}
	})
}

// TestBoundedState: a log with many more counted lines and distinct test
// names than the caps keeps the spans, named failures and file:line
// output per test bounded, while every count stays exact.
func TestBoundedState(t *testing.T) {
	const tests = 20000
	var b bytes.Buffer
	for i := range tests {
		// Interleaved (parallel) output: each test logs before any result.
		fmt.Fprintf(&b, "=== CONT  Test%d\n    x_test.go:%d: log\n", i, i+1)
	}
	for i := range tests {
		verdict := "PASS"
		if i%2 == 0 {
			verdict = "FAIL"
		}
		fmt.Fprintf(&b, "noise %d\n--- %s: Test%d (0.00s)\n", i, verdict, i)
	}
	b.WriteString("FAIL\n")
	st := newState()
	s, err := scan(st, bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(st.golang.plain.decor); n > maxDecor {
		t.Errorf("%d file:line entries kept, over %d", n, maxDecor)
	}
	if num(s.Passed) != tests/2 || num(s.Failed) != tests/2 || len(s.Spans) > spanCap || len(s.Failures) > maxNamed {
		t.Errorf("passed %d failed %d, %d spans, %d failures", num(s.Passed), num(s.Failed), len(s.Spans), len(s.Failures))
	}
	if err := Verify(bytes.NewReader(b.Bytes()), int64(b.Len()), s); err != nil {
		t.Errorf("verify: %v", err)
	}
}
