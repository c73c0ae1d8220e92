package mcptools

import (
	"strconv"
	"strings"
	"testing"

	"github.com/runledger/runledger/report"
)

// FuzzFitEnvelope: whatever the texts and the bound, a cut result keeps the
// envelope's status and every run's status, never says passed for a run
// that did not pass, and stays within the bound.
func FuzzFitEnvelope(f *testing.F) {
	f.Add("failed", "--- FAIL: TestX\n    x_test.go:3: bad\n", "boom", uint8(3), uint16(1024))
	f.Add("timed_out", strings.Repeat("line\n", 500), strings.Repeat("é", 900), uint8(16), uint16(2000))
	f.Add("incomplete", "\x00\xff\n", "", uint8(0), uint16(5000))
	f.Fuzz(func(t *testing.T, status, text, message string, nx uint8, bound uint16) {
		// Statuses are short words from the record; a long one is a different test.
		if status == "passed" || len(status) > 20 {
			status = "failed"
		}
		budget := MinResultBytes + int(bound)%8192
		env := fuzzEnvelope(status, text, message, int(nx%20))
		out, rendered := fitEnvelope(env, budget, true, func(e *report.Envelope, leftOut []string) (RunOutput, string) {
			return runOutput(e, nil, leftOut)
		})
		if out.Status != env.Status || out.Run.Status != status || out.Run.ID != "run-1" {
			t.Fatalf("status %q run %q id %q, want %q", out.Status, out.Run.Status, out.Run.ID, env.Status)
		}
		if strings.Contains(rendered, "status: passed") || !strings.HasPrefix(rendered, "status: "+env.Status) {
			t.Fatalf("text begins %.80q", rendered)
		}
		if n := size(rendered, out); n > budget {
			t.Fatalf("result of %d bytes, bound %d", n, budget)
		}
	})
}

func fuzzEnvelope(status, text, message string, nx int) *report.Envelope {
	one := 1
	run := report.Run{ID: "run-1", Name: "unit", Attempt: 2, Status: status, ExitCode: &one,
		Termination: "exited", Logs: map[string]report.Log{"stdout": {Bytes: 99, SHA256: strings.Repeat("a", 64)}},
		Summary: report.Summary{Source: "go", Failed: &one, Failures: []report.Failure{{Name: "TestX", Message: message}}}}
	for i := range nx {
		run.Excerpts = append(run.Excerpts, report.Excerpt{Stream: "stdout", Start: int64(i), End: int64(i + 1),
			FirstLine: 1, LastLine: 1, Reason: "failure", SHA256: strings.Repeat("b", 64), Text: text})
	}
	return &report.Envelope{Schema: report.Schema, Status: status, Runs: []report.Run{run},
		Superseded: []report.Superseded{{ID: "run-0", Name: "unit", Attempt: 1, Status: "failed", Marker: "<<cg:0123456789abcdef>>"}}}
}

// TestReportBoundManyRuns: with every run left out, what stays (the
// status and the note naming the runs) fits even the least bound, however
// long the names.
func TestReportBoundManyRuns(t *testing.T) {
	for _, tc := range []struct{ nameLen, budget int }{{40, MinResultBytes}, {1000, MinResultBytes}, {1000, DefaultMaxResultBytes}} {
		env := &report.Envelope{Schema: report.Schema, Status: "failed", Superseded: []report.Superseded{}}
		for i := range 12 {
			r := fuzzEnvelope("failed", "--- FAIL: TestX\n", "boom", 2).Runs[0]
			r.Name = strings.Repeat("n", tc.nameLen) + strconv.Itoa(i)
			env.Runs = append(env.Runs, r)
		}
		out, text := fitEnvelope(env, tc.budget, false, func(e *report.Envelope, leftOut []string) (ReportOutput, string) {
			return ReportOutput{Envelope: *e, LeftOut: leftOut}, envText(e, leftOut)
		})
		if n := size(text, out); n > tc.budget {
			t.Errorf("12 runs with %d-byte names: result of %d bytes, bound %d", tc.nameLen, n, tc.budget)
		}
		if out.Status != "failed" || !strings.Contains(text, "12 runs left out") && len(out.Runs) == 0 {
			t.Errorf("12 runs with %d-byte names: status %q, text %.200q", tc.nameLen, out.Status, text)
		}
	}
}
