package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/report/testindex"
	"github.com/runledger/runledger/store"
)

// goVerbose100k writes the go test -v output of 100,000 tests in 200
// packages, each test logging a line with t.Log as real suites do, and the
// given tests failing.
func goVerbose100k(b *testing.B, failing map[int]bool) string {
	var sb strings.Builder
	for p := range 200 {
		bad := false
		for i := p * 500; i < (p+1)*500; i++ {
			fmt.Fprintf(&sb, "=== RUN   TestCheckout%05d\n    checkout_test.go:%d: cart of %d items\n", i, 20+i%50, i%97)
			if failing[i] {
				fmt.Fprintf(&sb, "    checkout_test.go:88: total = %d, want %d\n--- FAIL: TestCheckout%05d (0.00s)\n", i, i+1, i)
				bad = true
				continue
			}
			fmt.Fprintf(&sb, "--- PASS: TestCheckout%05d (0.00s)\n", i)
		}
		if bad {
			fmt.Fprintf(&sb, "FAIL\nFAIL\texample.com/shop/pkg%03d\t0.50s\n", p)
		} else {
			fmt.Fprintf(&sb, "PASS\nok  \texample.com/shop/pkg%03d\t0.50s\n", p)
		}
	}
	path := filepath.Join(b.TempDir(), "go.log")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

func captured(b *testing.B, log string) *store.Store {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	_, err = capture.Run(st, capture.Options{Name: "unit", Argv: []string{"sh", "-c", "cat " + log + "; exit 1"},
		Stdout: &strings.Builder{}, Stderr: &strings.Builder{}})
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkReport100k is the report of a 100,000-test go test -v run
// alone and compared with its base's index, read from its file as
// --baseline does: the comparison's share of a report.
func BenchmarkReport100k(b *testing.B) {
	base := captured(b, goVerbose100k(b, map[int]bool{7: true, 50_000: true}))
	head := captured(b, goVerbose100k(b, map[int]bool{50_000: true, 99_999: true, 123: true}))
	benv, err := Build(base, Options{})
	if err != nil {
		b.Fatal(err)
	}
	SaveIndexes(base, benv)
	indexPath := benv.Runs[0].Tests.Path
	b.Run("alone", func(b *testing.B) {
		for b.Loop() {
			if _, err := Build(head, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline", func(b *testing.B) {
		for b.Loop() {
			x, err := testindex.ReadFile(indexPath)
			if err != nil {
				b.Fatal(err)
			}
			env, err := Build(head, Options{Baseline: &Baselines{Runs: map[string]*testindex.Index{"unit": x}}})
			if err != nil || env.Regressions == nil || *env.Regressions != 2 {
				b.Fatalf("regressions %v, %v", env.Regressions, err)
			}
		}
	})
}
