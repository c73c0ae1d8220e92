package compaction

import (
	"math/rand"
	"path/filepath"
	"testing"
)

// sample is a real-shaped text with its ground truth: failed is true only
// for a test or build run whose process exited non-zero.
type sample struct {
	text   string
	failed bool
}

// samplePool takes every output of the recorded transcripts, labelled by
// exit status, plus the quoting shapes of TestClassify.
func samplePool(t *testing.T) []sample {
	t.Helper()
	files, err := filepath.Glob("testdata/transcripts/*.json")
	if err != nil || len(files) < 10 {
		t.Fatalf("transcripts: %v, %d files", err, len(files))
	}
	var pool []sample
	for _, f := range files {
		for _, o := range loadTranscript(t, f).Outputs {
			pool = append(pool, sample{o.Text, o.Run && o.ExitCode != 0})
		}
	}
	for _, s := range []string{pytestFailed, goFailed, bigFail} {
		pool = append(pool, sample{s, true})
	}
	for _, s := range []string{goPassed, "", "notes\n",
		"   42\tTraceback (most recent call last):\n   43\tFAILED x\n",
		"I got:\n\n    FAILED test_a.py::test_x\n    ===== 1 failed in 0.1s =====\n"} {
		pool = append(pool, sample{s, false})
	}
	return pool
}

// TestCompactProperty: over random sequences of real outputs, the last
// output and every output that is not a failed run stay byte-identical,
// and every collapsed output expands to its original.
func TestCompactProperty(t *testing.T) {
	pool := samplePool(t)
	rng := rand.New(rand.NewSource(20251129))
	modes := []MarkerMode{ModeFull, ModeFull, ModeSummary, ModeOff, ""}
	// Summary mode gets a store of its own, so that a text stored by an
	// earlier full-mode sequence cannot look like summary mode storing it.
	full, summary := &DirStore{Dir: t.TempDir()}, &DirStore{Dir: t.TempDir()}
	collapsed := 0
	for iter := 0; iter < 400; iter++ {
		n := rng.Intn(9)
		seq := make([]sample, n)
		texts := make([]string, n)
		for i := range seq {
			seq[i] = pool[rng.Intn(len(pool))]
			texts[i] = seq[i].text
		}
		opts := Options{MinTokens: rng.Intn(300) - 50, MarkerMode: modes[rng.Intn(len(modes))]}
		store := full
		if opts.MarkerMode != ModeFull && opts.MarkerMode != "" {
			store = summary
		}
		in := outputsOf(texts...)
		out, ds, err := Compact(in, opts, store)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != n || len(ds) != n {
			t.Fatalf("iter %d: %d outputs, %d decisions for %d inputs", iter, len(out), len(ds), n)
		}
		for i, d := range ds {
			checkDecision(t, store, in[i], out[i], d, opts)
			if d.Decision != Collapsed {
				continue
			}
			collapsed++
			if !seq[i].failed || i == n-1 {
				t.Fatalf("iter %d: output %d collapsed (failed=%v, last=%v): %q", iter, i, seq[i].failed, i == n-1, in[i].Text)
			}
		}
	}
	if collapsed < 50 {
		t.Fatalf("only %d collapses in 400 sequences: the property was barely exercised", collapsed)
	}
}
