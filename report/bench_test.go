package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/store"
)

// denseGoLog writes a `go test -v` log of about size bytes made of tiny
// tests, as bench/report.sh's dense kind does: `=== RUN`, one t.Log line
// and `--- PASS` each, one failing test in the middle. It returns the
// failure's message.
func denseGoLog(path string, size int) (string, error) {
	const per = 88 // bytes of one test, roughly
	n := size / per
	var sb strings.Builder
	sb.Grow(size + 1024)
	var want string
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, "=== RUN   TestDense%08d\n    dense_test.go:14: step %d ok\n", i, i)
		if i == n/2 {
			want = fmt.Sprintf("Sum(%d) = 41, want 42", i)
			fmt.Fprintf(&sb, "    dense_test.go:17: %s\n--- FAIL: TestDense%08d (0.00s)\n", want, i)
			continue
		}
		fmt.Fprintf(&sb, "--- PASS: TestDense%08d (0.00s)\n", i)
	}
	sb.WriteString("FAIL\nFAIL\texample.com/dense\t41.203s\n")
	return want, os.WriteFile(path, []byte(sb.String()), 0o644)
}

// BenchmarkBuildDense: the whole report (summary, its check, excerpts and
// test index, written as `runledger report` writes it) of a failed run
// whose 64 MiB log is a dense `go test -v` log, the shape where the
// per-line cost of `=== RUN` and `--- PASS` lines shows.
func BenchmarkBuildDense(b *testing.B) {
	dir := b.TempDir()
	log := filepath.Join(dir, "dense.log")
	want, err := denseGoLog(log, 64<<20)
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "store"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := capture.Run(st, capture.Options{Argv: []string{"sh", "-c", `cat "$1"; exit 1`, "sh", log}}); err != nil {
		b.Fatal(err)
	}
	if err := os.Remove(log); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(64 << 20)
	b.ReportAllocs()
	for b.Loop() {
		env, err := Build(st, Options{})
		if err != nil {
			b.Fatal(err)
		}
		s := env.Runs[0].Summary
		if env.Status != "failed" || s.Failed == nil || *s.Failed != 1 || !s.Verified || s.Failures[0].Message != want {
			b.Fatalf("status %s, summary %+v", env.Status, s)
		}
		if errs := SaveIndexes(st, env); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
