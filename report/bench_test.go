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

// junit100k writes a JUnit file of 100,000 test cases, 100 of them
// failing, for both JUnit readers to read.
func junit100k(b *testing.B) (string, int64) {
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
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path, int64(sb.Len())
}

// allocated runs f and returns the bytes it allocated in all (TotalAlloc,
// not the peak heap: what the collector had to deal with).
func allocated(f func()) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// BenchmarkJUnit100k reads junit100k with go-junit, which builds the whole
// XML tree in memory first; MiB-alloc/op is what that allocates.
func BenchmarkJUnit100k(b *testing.B) {
	path, size := junit100k(b)
	b.SetBytes(size)
	var most uint64
	for b.Loop() {
		most = max(most, allocated(func() {
			s, _, w := readJUnit([]string{path})
			if *s.Tests != 100000 || *s.Failed != 100 || len(w) > 0 {
				b.Fatalf("tests %d failed %d warnings %v", *s.Tests, *s.Failed, w)
			}
		}))
	}
	b.ReportMetric(float64(most)/(1<<20), "MiB-alloc/op")
}

// BenchmarkJUnitStream100k reads the same file with the streaming reader
// used past go-junit's size bound.
func BenchmarkJUnitStream100k(b *testing.B) {
	path, size := junit100k(b)
	b.SetBytes(size)
	var most uint64
	for b.Loop() {
		most = max(most, allocated(func() {
			n, failed := 0, 0
			err := streamJUnit(path, func(t junit.Test) {
				n++
				if t.Status == junit.StatusFailed {
					failed++
				}
			})
			if err != nil || n != 100000 || failed != 100 {
				b.Fatalf("%d tests, %d failed, %v", n, failed, err)
			}
		}))
	}
	b.ReportMetric(float64(most)/(1<<20), "MiB-alloc/op")
}

// BenchmarkRenderMarkdown256 renders one store of 256 failing runs, each
// with an excerpt, as one body with a 60,000-byte budget: every status row
// stays, so the body goes over it (the Action fits each job's section
// instead; see publish's BenchmarkAggregate256Legs).
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
		if rows := strings.Count(body, "| leg-"); rows != 256 {
			b.Fatalf("%d status rows, want all 256", rows)
		}
	}
	b.ReportMetric(float64(size), "body-bytes")
}
