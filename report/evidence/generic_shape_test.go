package evidence

import (
	"strings"
	"testing"
)

// TestFailureShapes: in a log no grammar knows, a line that says a test
// failed opens a block of the lines that carry its reason, quoted before
// progress, tables and the log's ends; lines other programs print that
// look alike open none; an expected failure is quoted after the real one.
func TestFailureShapes(t *testing.T) {
	progress := repeatf
	tests := []struct {
		name, log string
		want      []string // quoted, in this order among the pieces
		not       []string // not quoted
	}{
		{
			name: "tcltest: the block to its closing line, blank lines within",
			log: progress(300, "++++ ok-%d PASSED\n") + "==== parse-3 parses a list FAILED\n==== Contents of test case:\n\n    parse {a b}\n\n---- Result was:\na\n---- Result should have been (exact matching):\na b\n==== parse-3 FAILED\n\n" +
				progress(300, "++++ later-%d PASSED\n"),
			want: []string{"==== parse-3 parses a list FAILED", "---- Result was:", "---- Result should have been (exact matching):", "==== parse-3 FAILED"},
			not:  []string{"++++ ok-299 PASSED", "++++ later-0 PASSED"},
		},
		{
			name: "CUnit: the assertion under ...FAILED, no ...passed around it",
			log:  progress(300, "  Test: t%d ...passed\n") + "  Test: wraps ...FAILED\n    1. ring.c:9  - CU_ASSERT_EQUAL(next(7),0)\n" + progress(300, "  Test: u%d ...passed\n"),
			want: []string{"Test: wraps ...FAILED\n    1. ring.c:9  - CU_ASSERT_EQUAL(next(7),0)\n"},
			not:  []string{"Test: t299 ...passed", "Test: u0 ...passed"},
		},
		{
			name: "a bracketed FAIL tag with its diagnostics, up to the next PASS",
			log: progress(300, "[  PASS  ]  job  1  + case %d\n") + "[  FAIL  ]  job  1  + drains\n(  DIAG  )  job  1      Failed test 'drains'\n(  DIAG  )  job  1             got: '2'\n(  DIAG  )  job  1        expected: '3'\n" +
				progress(300, "[  PASS  ]  job  1  + peek %d\n"),
			want: []string{"[  FAIL  ]  job  1  + drains\n(  DIAG  )  job  1      Failed test 'drains'\n(  DIAG  )  job  1             got: '2'\n(  DIAG  )  job  1        expected: '3'\n"},
			not:  []string{"+ peek 0", "+ case 299"},
		},
		{
			name: "a ✗ mark before a real error line's context",
			log:  progress(300, "  ✓ case %d\n") + "Error: the cache is cold\n" + progress(10, "info %d\n") + "✗ checkout keeps the basket\n  expected 3 items, got 2\n  at basket.lua:14\n" + progress(300, "  ✓ later %d\n"),
			want: []string{"✗ checkout keeps the basket\n  expected 3 items, got 2\n  at basket.lua:14\n", "Error: the cache is cold"},
		},
		{
			name: "an expected failure's traceback is quoted after the real failure",
			log: "Traceback (most recent call last):\n  File \"steps.py\", line 13, in coupon\n    raise NotImplementedError(code)\nNotImplementedError: C00\n\n    XFAIL: coupon C00 (expected to fail)\n" +
				progress(300, "    Given step %d passed\n") + "    Then the total is 14.40 # steps.py:29\n      Assertion Failed: total 36.00, expected 14.40\n" + progress(300, "    When step %d passed\n"),
			want: []string{"Assertion Failed: total 36.00, expected 14.40", "NotImplementedError: C00"},
		},
		{
			name: "a failure line that says it was expected is quoted after the real one",
			log: repeatf(300, "  ✓ case %d\n") + "FAIL: parses dates (expected to fail)\n  got 1970-01-01\n\n" + repeatf(10, "info %d\n") +
				"FAIL: parses times\n  expected 12:00, got 00:00\n\n" + repeatf(300, "  ✓ later %d\n"),
			want: []string{"FAIL: parses times\n  expected 12:00, got 00:00\n", "FAIL: parses dates (expected to fail)"},
		},
		{
			name: "look-alikes open nothing: cargo's `... FAILED`, prose, a PASS tag",
			log: progress(300, "test t%d ... ok\n") + "the report said FAILED\nsummary: 3 ... FAILED\n[  PASS  ]  job  1  + FAILED is a word\n  ==== not a tcltest heading\n" +
				progress(300, "test u%d ... ok\n"),
			not: []string{"the report said FAILED", "[  PASS  ]  job  1  + FAILED is a word"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, _ := plan(t, tt.log, Budget{Bytes: 2 << 10, Ended: true})
			q := quoted(tt.log, ps)
			at := 0
			for _, w := range tt.want {
				i := strings.Index(q[at:], w)
				if i < 0 {
					t.Fatalf("%q is not quoted after byte %d of:\n%s", w, at, q)
				}
				at += i + len(w)
			}
			for _, n := range tt.not {
				if strings.Contains(q, n) {
					t.Errorf("%q is quoted:\n%s", n, q)
				}
			}
		})
	}
}
