package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runledger/runledger/report"
)

// BenchmarkRenderMarkdown256 renders one store of 256 failing runs, each
// with an excerpt, as one body with a 60,000-byte budget: every status row
// stays, so the body goes over it (the Action fits each job's section
// instead; see publish's BenchmarkAggregate256Legs).
func BenchmarkRenderMarkdown256(b *testing.B) {
	env := &report.Envelope{Schema: report.Schema, Status: "failed", Superseded: []report.Superseded{}}
	one, failed := 1, 1
	for i := range 256 {
		env.Runs = append(env.Runs, report.Run{ID: fmt.Sprintf("run-%03d", i), Name: fmt.Sprintf("leg-%03d", i), Attempt: 1,
			Status: "failed", ExitCode: &one, Termination: "exited", Logs: map[string]report.Log{},
			Summary: report.Summary{Source: "go", Verified: true, Failed: &failed, Failures: []report.Failure{{Name: "TestX", Message: "boom"}}},
			Excerpts: []report.Excerpt{{Stream: "stdout", Start: 0, End: 200, FirstLine: 1, LastLine: 4, Reason: "failure",
				SHA256: strings.Repeat("ab", 32), Text: strings.Repeat("--- FAIL: TestX (0.00s)\n", 4)}}})
	}
	var size int
	for b.Loop() {
		body, err := Markdown(env, Options{Budget: MaxBudget})
		if err != nil {
			b.Fatal(err)
		}
		size = len(body)
		if rows := strings.Count(body, "\n| leg-"); rows != 256 {
			b.Fatalf("%d status rows, want all 256", rows)
		}
	}
	b.ReportMetric(float64(size), "body-bytes")
}
