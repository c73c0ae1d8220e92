package compaction

import (
	"fmt"
	"os"
	"strings"
)

func ExampleClassify() {
	v := Classify("=== RUN   TestAdd\n--- FAIL: TestAdd (0.00s)\nFAIL\nFAIL\texample.com/calc\t0.002s\n")
	fmt.Println(v.Outcome, v.Reason, v.Line, v.Evidence)
	v = Classify("   42\tTraceback (most recent call last):\n   43\tFAILED x\n")
	fmt.Println(v.Outcome, v.Reason)
	// Output:
	// failed failure_marker 2 --- FAIL: TestAdd (0.00s)
	// not_run numbered_source
}

// An earlier failed run collapses to a pointer line; the latest run and the
// earlier pass stay as they were, and the marker expands to the original.
func ExampleCompact() {
	dir, _ := os.MkdirTemp("", "cg-example")
	defer os.RemoveAll(dir)
	store := &DirStore{Dir: dir}
	failed := strings.Repeat("    calc_test.go:9: Add(1, 2) = -1, want 3\n", 10) +
		"--- FAIL: TestAdd (0.00s)\nFAIL\nFAIL\texample.com/calc\t0.002s\n"
	passed := "ok  \texample.com/calc\t0.002s\n"
	out, decisions, err := Compact([]Output{
		{ID: "1", Text: passed}, {ID: "2", Text: failed}, {ID: "3", Text: passed},
	}, Options{MinTokens: 10}, store)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, d := range decisions {
		fmt.Println(d.ID, d.Decision, d.Reason, d.BytesBefore, "→", d.BytesAfter)
		if d.Decision == Collapsed {
			fmt.Print(out[i].Text)
			original, err := Expand(store, out[i].Text)
			fmt.Println(string(original) == failed, err)
		}
	}
	// Output:
	// 1 kept earlier_run_passed 29 → 29
	// 2 collapsed collapsed 490 → 156
	// [superseded by a later run] <<cg:58e519c701328b51>> failed at line 11: "--- FAIL: TestAdd (0.00s)" (490 bytes, 13 lines; runledger expand 58e519c701328b51)
	// true <nil>
	// 3 kept latest 29 → 29
}
