package report

import (
	"fmt"
	junit "github.com/joshdk/go-junit"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkJUnit100k reads a JUnit file of 100,000 test cases, 100 of them
// failing. go-junit builds the whole XML tree in memory first; peak-heap
// reports what that costs.
func BenchmarkJUnit100k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.xml")
	var sb strings.Builder
	sb.WriteString(`<testsuites><testsuite name="big">`)
	for i := range 100000 {
		if i%1000 == 0 {
			fmt.Fprintf(&sb, `<testcase name="T%d" classname="pkg" time="0.001"><failure message="boom">trace</failure></testcase>`, i)
			continue
		}
		fmt.Fprintf(&sb, `<testcase name="T%d" classname="pkg" time="0.001"/>`, i)
	}
	sb.WriteString(`</testsuite></testsuites>`)
	os.WriteFile(path, []byte(sb.String()), 0o644)
	b.SetBytes(int64(sb.Len()))
	var peak uint64
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		s, _, w := readJUnit([]string{path})
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		peak = max(peak, after.TotalAlloc-before.TotalAlloc)
		if *s.Tests != 100000 || *s.Failed != 100 || len(w) > 0 {
			b.Fatalf("tests %d failed %d warnings %v", *s.Tests, *s.Failed, w)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "MiB-alloc/op")
}

// BenchmarkJUnitStream100k reads the same kind of file with the streaming
// reader used past go-junit's size bound.
func BenchmarkJUnitStream100k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.xml")
	var sb strings.Builder
	sb.WriteString(`<testsuites><testsuite name="big">`)
	for i := range 100000 {
		fmt.Fprintf(&sb, `<testcase name="T%d" classname="pkg" time="0.001"/>`, i)
	}
	sb.WriteString(`</testsuite></testsuites>`)
	os.WriteFile(path, []byte(sb.String()), 0o644)
	b.SetBytes(int64(sb.Len()))
	var peak uint64
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		n := 0
		if err := streamJUnit(path, func(junit.Test) { n++ }); err != nil || n != 100000 {
			b.Fatalf("%d tests, %v", n, err)
		}
		runtime.ReadMemStats(&after)
		peak = max(peak, after.TotalAlloc-before.TotalAlloc)
	}
	b.ReportMetric(float64(peak)/(1<<20), "MiB-alloc/op")
}

// BenchmarkRenderMarkdown256 renders the comment for 256 matrix legs, each
// a failing run with an excerpt, within GitHub's limit.
func BenchmarkRenderMarkdown256(b *testing.B) {
	env := &Envelope{Schema: Schema, Status: "failed", Superseded: []Superseded{}}
	one, failed := 1, 1
	for i := range 256 {
		env.Runs = append(env.Runs, Run{ID: fmt.Sprintf("run-%03d", i), Name: fmt.Sprintf("leg-%03d", i), Attempt: 1,
			Status: "failed", ExitCode: &one, Termination: "exited", Logs: map[string]Log{},
			Summary: Summary{Source: "go", Verified: true, Failed: &failed, Failures: []Failure{{Name: "TestX", Message: "boom"}}},
			Excerpts: []Excerpt{{Stream: "stdout", Start: 0, End: 200, FirstLine: 1, LastLine: 4, Reason: "failure",
				SHA256: strings.Repeat("ab", 32), Text: strings.Repeat("--- FAIL: TestX (0.00s)\n", 4)}}})
	}
	var size int
	for b.Loop() {
		body, err := RenderMarkdown(env, MarkdownOptions{MaxBytes: 60000})
		if err != nil {
			b.Fatal(err)
		}
		size = len(body)
	}
	b.ReportMetric(float64(size), "body-bytes")
}
