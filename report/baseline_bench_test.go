package report

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/report/history"
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

// BenchmarkHistory100k is what the history adds to a report compared with
// its base (--baseline): the base's history of 100,000 tests over 30 runs
// read beside its index, carried forward by this run, each failure judged
// by it, and the run's own history written beside its index; against the
// same report without history, as before. Both write what they write (the
// index; the index and the history). The machine is shared: each
// iteration runs both, in turns, and the metric history/baseline is the
// ratio of their summed times; bytes/test/run is the history file's size.
func BenchmarkHistory100k(b *testing.B) {
	base := captured(b, goVerbose100k(b, map[int]bool{7: true, 50_000: true}))
	head := captured(b, goVerbose100k(b, map[int]bool{50_000: true, 99_999: true, 123: true}))
	benv, err := Build(base, Options{})
	if err != nil {
		b.Fatal(err)
	}
	SaveIndexes(base, benv)
	indexPath := benv.Runs[0].Tests.Path
	historyPath := filepath.Join(filepath.Dir(indexPath), history.FileName)
	past := pastOf(benv.Runs[0].Index(), 30)
	if _, err := history.WriteFile(historyPath, past, benv.Runs[0].Index(), benv.Runs[0].Tests.SHA256); err != nil {
		b.Fatal(err)
	}
	info, err := os.Stat(historyPath)
	if err != nil {
		b.Fatal(err)
	}
	withBaseline := func() {
		x, err := testindex.ReadFile(indexPath)
		if err != nil {
			b.Fatal(err)
		}
		env, err := Build(head, Options{Baseline: &Baselines{Runs: map[string]*testindex.Index{"unit": x}}})
		if err != nil || env.Regressions == nil || *env.Regressions != 2 {
			b.Fatalf("regressions %v, %v", env.Regressions, err)
		}
		SaveIndexes(head, env)
	}
	withHistory := func() {
		x, err := testindex.ReadFile(indexPath)
		if err != nil {
			b.Fatal(err)
		}
		h, err := history.ReadFile(historyPath, x, indexPath)
		if err != nil {
			b.Fatal(err)
		}
		env, err := Build(head, Options{History: 30, Baseline: &Baselines{Runs: map[string]*testindex.Index{"unit": x},
			History: map[string]Past{"unit": {History: h}}}})
		if err != nil || env.Regressions == nil {
			b.Fatalf("regressions %v, %v", env.Regressions, err)
		}
		if errs := SaveIndexes(head, env); len(errs) > 0 || env.Runs[0].History.Runs != 30 {
			b.Fatalf("history %+v, %v", env.Runs[0].History, errs)
		}
	}
	var spent [2]time.Duration
	n := 0
	for b.Loop() {
		for k := range 2 {
			which := (n + k) % 2 // alternate which goes first
			start := time.Now()
			[]func(){withBaseline, withHistory}[which]()
			spent[which] += time.Since(start)
		}
		n++
	}
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "history/baseline")
	b.ReportMetric(float64(info.Size())/float64(len(past.Rows))/30, "bytes/test/run")
	b.ReportMetric(float64(info.Size()), "history-bytes")
}

// pastOf is a history of x's tests over runs runs: every hundredth test
// fails one run in ten at random, the rest pass.
func pastOf(x *testindex.Index, runs int) *history.History {
	rng := rand.New(rand.NewPCG(3, 4))
	var h *history.History
	for r := range runs {
		cur := &testindex.Index{Header: x.Header, Entries: slices.Clone(x.Entries)}
		for i := range cur.Entries {
			cur.Entries[i].Outcome = testindex.Passed
			if i%100 == 0 && rng.IntN(10) == 0 {
				cur.Entries[i].Outcome = testindex.Failed
			}
		}
		h = history.Merge(h, cur, history.Column{Commit: fmt.Sprintf("%040x", r+1), WorkflowRunID: fmt.Sprint(9000 + r)}, runs, "main")
	}
	return h
}
