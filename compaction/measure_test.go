package compaction

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// row is one line of the measurement table.
type row struct {
	name                    string
	outputs, runs           int
	before, after           int
	collapsed, falseCollaps int
}

// TestTranscriptTable measures compaction with default options on the
// recorded transcripts. A false collapse is a collapsed output that was
// not a test or build run, exited 0, or was the transcript's last run; the
// ground truth is what was executed and its exit status, not the text.
//
//	go test ./compaction -run TestTranscriptTable -v
func TestTranscriptTable(t *testing.T) {
	files, err := filepath.Glob("testdata/transcripts/*.json")
	if err != nil || len(files) < 10 {
		t.Fatalf("transcripts: %v, %d files (want ≥ 10)", err, len(files))
	}
	var rows []row
	total := row{name: "**total**"}
	for _, f := range files {
		r := measure(t, loadTranscript(t, f))
		rows = append(rows, r)
		total.outputs += r.outputs
		total.runs += r.runs
		total.before += r.before
		total.after += r.after
		total.collapsed += r.collapsed
		total.falseCollaps += r.falseCollaps
	}
	if total.falseCollaps != 0 {
		t.Errorf("%d false collapses", total.falseCollaps)
	}
	if total.collapsed == 0 || total.after >= total.before {
		t.Errorf("no saving at all: %d collapsed, %d → %d bytes", total.collapsed, total.before, total.after)
	}
	table := renderTable(append(rows, total))
	t.Log("\n" + table)
	compareGolden(t, "transcripts.golden.md", []byte(table))
}

func measure(t *testing.T, tr transcript) row {
	t.Helper()
	r := row{name: tr.Name, outputs: len(tr.Outputs)}
	lastRun := -1
	in := make([]Output, len(tr.Outputs))
	for i, o := range tr.Outputs {
		in[i] = Output{ID: o.ID, Text: o.Text}
		r.before += len(o.Text)
		if o.Run {
			r.runs++
			lastRun = i
		}
	}
	store := &DirStore{Dir: t.TempDir()}
	out, ds, err := Compact(in, Options{}, store)
	if err != nil {
		t.Fatalf("%s: %v", tr.Name, err)
	}
	for i, d := range ds {
		checkDecision(t, store, in[i], out[i], d, Options{})
		r.after += len(out[i].Text)
		if d.Decision != Collapsed {
			continue
		}
		r.collapsed++
		if o := tr.Outputs[i]; !o.Run || o.ExitCode == 0 || i >= lastRun {
			r.falseCollaps++
			t.Errorf("%s: false collapse of %s (%s, exit %d)", tr.Name, o.ID, o.Command, o.ExitCode)
		}
	}
	return r
}

func renderTable(rows []row) string {
	var b strings.Builder
	b.WriteString("| transcript | outputs | runs | bytes before | bytes after | saved | runs collapsed | false collapses |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rows {
		saved := 0.0
		if r.before > 0 {
			saved = 100 * float64(r.before-r.after) / float64(r.before)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %.0f%% | %d | %d |\n",
			r.name, r.outputs, r.runs, r.before, r.after, saved, r.collapsed, r.falseCollaps)
	}
	return b.String()
}
