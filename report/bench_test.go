package report

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	junit "github.com/joshdk/go-junit"
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
			s, _, _, w := readJUnit([]string{path})
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
