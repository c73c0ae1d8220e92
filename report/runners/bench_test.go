package runners

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// benchLogSize is the size of the generated `go test -v` log the throughput
// benchmarks read.
const benchLogSize = 64 << 20

var benchLog struct {
	once sync.Once
	path string
	err  error
}

// goVerboseLog writes a `go test -v`-shaped log of about size bytes to dir:
// passing tests, with one failing test in the middle.
func goVerboseLog(dir string, size int64) (string, error) {
	path := filepath.Join(dir, "output.log")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	block := strings.Repeat("=== RUN   TestMany\n--- PASS: TestMany (0.00s)\n", 4096)
	for n := int64(0); n < size; n += int64(len(block)) {
		if n <= size/2 && n+int64(len(block)) > size/2 {
			w.WriteString("--- FAIL: TestMiddle (0.01s)\n    middle_test.go:42: want 2, got 3\n")
		}
		w.WriteString(block)
	}
	w.WriteString("FAIL\nFAIL\texample.com/pkg\t12.345s\n")
	if err := w.Flush(); err != nil {
		return "", err
	}
	return path, f.Close()
}

// sharedBenchLog generates the benchmark log once per test binary.
func sharedBenchLog(b *testing.B) (*os.File, int64) {
	b.Helper()
	benchLog.once.Do(func() {
		dir, err := os.MkdirTemp("", "runners-bench")
		if err != nil {
			benchLog.err = err
			return
		}
		benchLog.path, benchLog.err = goVerboseLog(dir, benchLogSize)
	})
	if benchLog.err != nil {
		b.Fatal(benchLog.err)
	}
	f, err := os.Open(benchLog.path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	return f, st.Size()
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchLog.path != "" {
		os.RemoveAll(filepath.Dir(benchLog.path))
	}
	os.Exit(code)
}

// BenchmarkScanGoVerbose: Scan over a 64 MiB `go test -v` log, from a file.
func BenchmarkScanGoVerbose(b *testing.B) {
	f, size := sharedBenchLog(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Seek(0, 0); err != nil {
			b.Fatal(err)
		}
		s, err := Scan(f)
		if err != nil || s.Failed == nil || *s.Failed != 1 {
			b.Fatalf("scan: %+v %v", s, err)
		}
	}
}

// BenchmarkVerifyGoVerbose: Verify of Scan's result over the same log.
func BenchmarkVerifyGoVerbose(b *testing.B) {
	f, size := sharedBenchLog(b)
	s, err := Scan(f)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if err := Verify(f, size, s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckGoVerbose: Scan and its verification together, as the
// report runs them; compare with BenchmarkScanGoVerbose.
func BenchmarkCheckGoVerbose(b *testing.B) {
	f, size := sharedBenchLog(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		c, err := Check(f, size)
		if err != nil || c.Unverified != nil || c.Failed == nil || *c.Failed != 1 {
			b.Fatalf("check: %+v %v", c, err)
		}
	}
}
