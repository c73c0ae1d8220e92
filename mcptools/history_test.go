//go:build unix

package mcptools

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReportHistory: the report tool carries the baseline's history
// forward, run to run, and each failure says what the branch's past says
// of it, in the envelope and in the text.
func TestReportHistory(t *testing.T) {
	const (
		fail = `printf -- '=== RUN   TestParse\n--- FAIL: TestParse (0.00s)\n    parse_test.go:42: got 1, want 2\nFAIL\nFAIL\texample.com/pkg\t0.01s\n'; exit 1`
		pass = `printf -- '=== RUN   TestParse\n--- PASS: TestParse (0.00s)\nPASS\nok  \texample.com/pkg\t0.01s\n'`
	)
	var prev string
	var rep ReportOutput
	for i, script := range []string{fail, fail, pass, fail} {
		dir := filepath.Join(t.TempDir(), "store")
		cs := session(t, Options{AllowRun: true, StoreDir: dir})
		if text, isErr := call(t, cs, "run", map[string]any{"command": script, "name": "unit"}, nil); isErr {
			t.Fatalf("run %d: %s", i, text)
		}
		args := map[string]any{}
		if prev != "" {
			args["baseline"] = prev
		}
		rep = ReportOutput{}
		text, isErr := call(t, cs, "report", args, &rep)
		if isErr {
			t.Fatalf("report %d: %s", i, text)
		}
		prev = dir
		if i < 3 {
			continue
		}
		run := rep.Runs[0]
		if h := run.History; h == nil || h.State != "read" || h.Runs != 3 {
			t.Fatalf("history %+v, want read, 3 runs (the first run had no baseline)", h)
		}
		f := run.Summary.Failures[0]
		if ev := f.History; f.Origin != "new" || ev == nil || ev.Runs != 2 || ev.Failed != 1 || ev.Streaks != 1 {
			t.Errorf("failure %s %+v, want new with 1 failure in 2 runs", f.Origin, ev)
		}
		if !strings.Contains(text, "history: read, 3 runs") || !strings.Contains(text, "[new; failed 1 of the last 2 runs in 1 streak]") {
			t.Errorf("text:\n%s", text)
		}
	}
}
