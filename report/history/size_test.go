package history

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/runledger/runledger/report/testindex"
)

func zipText(buf *bytes.Buffer, text string) {
	zw := gzip.NewWriter(buf)
	zw.Write([]byte(text))
	zw.Close()
}

// bigIndex is 100,000 tests shaped like a Go monorepo's (packages of
// tests with subtests), as the index's own size test; rate of them fail,
// at random.
func bigIndex(rng *rand.Rand, n int, rate float64) *testindex.Index {
	x := idx()
	x.Entries = make([]testindex.Entry, 0, n)
	for i := range n {
		o := testindex.Passed
		if rng.Float64() < rate {
			o = testindex.Failed
		}
		x.Entries = append(x.Entries, testindex.Entry{Kind: testindex.Test, Outcome: o, Key: testindex.Key{
			Suite: fmt.Sprintf("github.com/acme/shop/internal/pkg%03d", i/500),
			Name:  fmt.Sprintf("TestCheckout%03d/case_%d_with_discount", i/20%25, i%20)}})
	}
	return x
}

// bigHistory plays runs runs of n tests; every every-th test flakes at
// 10%, the rest pass.
func bigHistory(n, runs, every int) (*History, *testindex.Index) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h *History
	var x *testindex.Index
	for r := range runs {
		x = bigIndex(rng, n, 0)
		for i := 0; i < n; i += every {
			if rng.Float64() < 0.1 {
				x.Entries[i].Outcome = testindex.Failed
			}
		}
		h = Merge(h, x, Column{Commit: fmt.Sprintf("%040x", r), WorkflowRunID: fmt.Sprint(9000000 + r)}, runs, "main")
	}
	return h, x
}

// TestSize: 100,000 tests × 30 runs stay under 2 MiB gzip'd, when one
// test in a hundred flakes at 10% and when every one does (rows all
// different: the worst a real suite comes to).
func TestSize(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 30 runs of 100,000 tests")
	}
	for _, every := range []int{100, 1} {
		h, x := bigHistory(100_000, 30, every)
		var buf bytes.Buffer
		if err := Write(&buf, h, x, "sha"); err != nil {
			t.Fatal(err)
		}
		if buf.Len() >= 2<<20 {
			t.Errorf("one test in %d flaky: %d bytes for 100,000 tests × 30 runs, want under 2 MiB", every, buf.Len())
		}
		t.Logf("one test in %d flaky: %d bytes for 100,000 tests × 30 runs: %.3f a test a run",
			every, buf.Len(), float64(buf.Len())/3e6)
	}
}
