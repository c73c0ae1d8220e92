package runners

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// changing serves original bytes on the first read of each byte and
// edited ones after: a log rewritten between the scan and the re-read.
// The verifier only reads ranges the scan has already read.
type changing struct {
	mu       sync.Mutex
	orig     []byte
	edited   []byte
	readUpTo int64 // bytes before this offset have been read once
}

func (c *changing) ReadAt(p []byte, off int64) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	src := c.orig
	if off < c.readUpTo {
		src = c.edited
	}
	n, err := bytes.NewReader(src).ReadAt(p, off)
	c.readUpTo = max(c.readUpTo, off+int64(n))
	return n, err
}

func TestCheckRejectsChangedLog(t *testing.T) {
	log := "ok  \texample.com/a\t0.01s\n--- FAIL: TestB (0.00s)\nFAIL\texample.com/b\t0.01s\n"
	edits := map[string]string{
		"verdict changed":   strings.Replace(log, "--- FAIL", "--- PASS", 1),
		"counted line gone": strings.Replace(log, "--- FAIL: TestB (0.00s)", "  plain output  text   ", 1),
		"name changed":      strings.Replace(log, "TestB", "TestC", 1),
		"line moved":        strings.Replace(log, "ok  \texample.com/a\t0.01s\n", "ok  \texample.com/a\t0.1s\n", 1) + "x",
	}
	// An uncounted line split in two: every counted byte stays where it
	// was, only the line numbers after it move.
	noisy := "noise line\n" + log
	if got := checkChanged(t, []byte(noisy), []byte(strings.Replace(noisy, "noise line", "noise\nline", 1))); got.Unverified == nil {
		t.Errorf("line numbers moved under the check, and it verified: %+v", got.Spans)
	}
	if got := checkChanged(t, []byte(log), []byte(log)); got.Unverified != nil {
		t.Fatalf("unchanged log not verified: %v", got.Unverified)
	}
	for name, edited := range edits {
		t.Run(name, func(t *testing.T) {
			got := checkChanged(t, []byte(log), []byte(edited))
			if got.Unverified == nil {
				t.Fatalf("a log changed under the check was verified: %+v", got.Summary)
			}
			if num(got.Failed) != 1 {
				t.Errorf("the scan's own counts changed: failed %d", num(got.Failed))
			}
		})
	}
}

func checkChanged(t *testing.T, orig, edited []byte) Checked {
	t.Helper()
	c, err := Check(&changing{orig: orig, edited: edited}, int64(len(orig)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCheckManyRanges: more counted lines than one batch holds and than
// the summary cites, with uncounted lines between: Check hands every exact
// range over, reproduces Scan, and Verify accepts the covering ranges.
func TestCheckManyRanges(t *testing.T) {
	var b bytes.Buffer
	const tests = 3*tapBatch + 17
	for i := range tests {
		verdict := "PASS"
		if i%1000 == 0 {
			verdict = "FAIL"
		}
		fmt.Fprintf(&b, "noise %d\n--- %s: Test%d (0.00s)\n", i, verdict, i)
	}
	b.WriteString("FAIL\nFAIL\texample.com/x\t1.0s\n")
	log := b.Bytes()
	c, err := Check(bytes.NewReader(log), int64(len(log)))
	if err != nil || c.Unverified != nil {
		t.Fatalf("check: %v, unverified: %v", err, c.Unverified)
	}
	s, err := Scan(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(c.Summary, s) {
		t.Fatalf("Check and Scan disagree:\n%+v\n%+v", c.Summary, s)
	}
	if len(s.Spans) != spanCap || num(s.Failed) != (tests+999)/1000 {
		t.Errorf("%d spans, %d failed", len(s.Spans), num(s.Failed))
	}
	if err := Verify(bytes.NewReader(log), int64(len(log)), s); err != nil {
		t.Errorf("Verify rejects the covering ranges: %v", err)
	}
}

// TestCheckNoSummary: an unfamiliar log gives Source none and no error.
func TestCheckNoSummary(t *testing.T) {
	log := []byte("all green!\n✓ 12 tests\n")
	c, err := Check(bytes.NewReader(log), int64(len(log)))
	if err != nil || c.Source != SourceNone || c.Unverified != nil {
		t.Fatalf("got %+v, %v", c, err)
	}
}

// TestCheckReadError: a log that cannot be read is an error, not a summary.
func TestCheckReadError(t *testing.T) {
	log := []byte("--- FAIL: TestB (0.00s)\n")
	if _, err := Check(bytes.NewReader(log), int64(len(log))+100); err == nil {
		t.Fatal("no error for a log shorter than its size")
	}
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// TestGoOkPackageHasNoFailures: a package go test reports `ok` failed no
// test, whatever --- FAIL lines its tests printed (testify's suite runs
// suites it expects to fail); the package that did fail still counts.
func TestGoOkPackageHasNoFailures(t *testing.T) {
	log := "=== RUN   TestSuiteFails\n=== RUN   TestSuiteFails/Inner\n    suite_test.go:42: expected by the suite\n" +
		"--- FAIL: TestSuiteFails/Inner (0.00s)\n--- PASS: TestSuiteFails (0.00s)\nPASS\nok  \tex.com/suite\t0.1s\n" +
		"=== RUN   TestReal\n    real_test.go:7: got 3, want 2\n--- FAIL: TestReal (0.00s)\nFAIL\nFAIL\tex.com/real\t0.1s\nFAIL\n"
	c, err := Check(strings.NewReader(log), int64(len(log)))
	if err != nil || c.Unverified != nil {
		t.Fatalf("Check: %v, unverified %v", err, c.Unverified)
	}
	s := c.Summary
	if s.Failed == nil || *s.Failed != 1 || len(s.Failures) != 1 || s.Failures[0].Name != "TestReal" || len(s.Flaky) != 0 {
		t.Errorf("failed %v, failures %+v, flaky %+v; want only TestReal", fmtp(s.Failed), s.Failures, s.Flaky)
	}
}
