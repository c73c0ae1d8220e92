package publish

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/render"
)

// BenchmarkAggregate256Legs renders 256 matrix legs' reports (each a failing
// run with excerpts) and composes them into one comment body, the work of
// the aggregate job apart from its few API calls.
func BenchmarkAggregate256Legs(b *testing.B) {
	envs := make([]*report.Envelope, 256)
	one := 1
	for i := range envs {
		envs[i] = &report.Envelope{Schema: report.Schema, Status: "failed", Superseded: []report.Superseded{},
			Runs: []report.Run{{ID: fmt.Sprintf("run-%03d", i), Name: fmt.Sprintf("leg-%03d", i), Attempt: 1,
				Status: "failed", ExitCode: &one, Termination: "exited", Logs: map[string]report.Log{},
				Summary: report.Summary{Source: "go", Verified: true, Failed: &one, Failures: []report.Failure{{Name: "TestX", Message: "boom"}}},
				Excerpts: []report.Excerpt{{Stream: "stdout", Start: 0, End: 96, FirstLine: 1, LastLine: 4, Reason: "failure",
					SHA256: strings.Repeat("ab", 32), Text: strings.Repeat("--- FAIL: TestX (0.00s)\n", 4)}}}}}
	}
	var size int
	for b.Loop() {
		secs := make([]Section, len(envs))
		for i, env := range envs {
			full, _ := render.Markdown(env, render.Options{Budget: 8192, InSection: true})
			compact, _ := render.Markdown(env, render.Options{Budget: 2048, InSection: true})
			secs[i] = Section{Key: fmt.Sprintf("ci/test/%03d", i), Title: fmt.Sprintf("leg %03d", i), Status: render.Verdict(env), Full: full, Compact: compact}
		}
		body, err := compose(merge(nil, secs), commentBudget)
		if err != nil {
			b.Fatal(err)
		}
		size = len([]rune(body))
		if size > MaxCommentChars || strings.Count(body, "failed") < 256 {
			b.Fatalf("body %d chars, %d status words", size, strings.Count(body, "failed"))
		}
	}
	b.ReportMetric(float64(size), "body-chars")
}
