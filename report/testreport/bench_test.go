package testreport

import (
	"fmt"
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

// BenchmarkJUnit100k reads junit100k with the streaming reader every
// format goes through; MiB-alloc/op is what that allocates in all.
func BenchmarkJUnit100k(b *testing.B) {
	path, size := junit100k(b)
	b.SetBytes(size)
	var most uint64
	for b.Loop() {
		most = max(most, allocated(func() {
			rr := Read([]string{path})
			s := rr.Counts
			if s.Tests != 100000 || s.Failed != 100 || len(rr.Warnings) > 0 {
				b.Fatalf("tests %d failed %d warnings %v", s.Tests, s.Failed, rr.Warnings)
			}
		}))
	}
	b.ReportMetric(float64(most)/(1<<20), "MiB-alloc/op")
}
