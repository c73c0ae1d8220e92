package compaction

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/golden"
)

// compareGolden compares got with testdata/name (-update rewrites it).
func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func loadTranscript(t *testing.T, path string) transcript {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var tr transcript
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return tr
}

// TestFilterGolden feeds a real transcript through the JSON filter, as
// `runledger compact` does, and checks what it writes and stores: the
// input's own shape, an array of {"id","text"}, compacted.
func TestFilterGolden(t *testing.T) {
	tr := loadTranscript(t, "testdata/transcripts/go-add-fix.json")
	var in []Output
	for _, o := range tr.Outputs {
		in = append(in, Output{ID: o.ID, Text: o.Text})
	}
	input, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	store := &DirStore{Dir: t.TempDir()}
	var out bytes.Buffer
	decisions, err := Filter(bytes.NewReader(input), &out, Options{}, store)
	if err != nil {
		t.Fatal(err)
	}
	compareGolden(t, "filter.golden.json", out.Bytes())
	var res []Output
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || len(res) != len(in) {
		t.Fatalf("the output is not an array of the %d outputs: %v", len(in), err)
	}
	collapsed := 0
	for i, d := range decisions {
		if res[i].ID != in[i].ID {
			t.Errorf("output %d has id %q, want %q", i, res[i].ID, in[i].ID)
		}
		checkDecision(t, store, in[i], res[i], d, Options{})
		if d.Decision == Collapsed {
			collapsed++
		}
	}
	if collapsed != 1 || strings.Contains(out.String(), `\u003c`) {
		t.Errorf("collapsed %d outputs (want 1), or markers were HTML-escaped", collapsed)
	}
	// Idempotent: compacting the compacted array changes nothing.
	var again bytes.Buffer
	if _, err := Filter(bytes.NewReader(out.Bytes()), &again, Options{}, store); err != nil || again.String() != out.String() {
		t.Errorf("compacting twice changed the output (%v):\n%s", err, again.String())
	}
}

// TestFilterExpandHint: a pointer line names the store it was kept in, so
// that running the hint as it reads finds the text.
func TestFilterExpandHint(t *testing.T) {
	tr := loadTranscript(t, "testdata/transcripts/go-add-fix.json")
	var in []Output
	for _, o := range tr.Outputs {
		in = append(in, Output{ID: o.ID, Text: o.Text})
	}
	out, _, err := Compact(in, Options{Expand: "runledger expand --store /tmp/cg"}, &DirStore{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, o := range out {
		if strings.Contains(o.Text, "<<cg:") {
			n++
			if !strings.Contains(o.Text, "; runledger expand --store /tmp/cg ") {
				t.Errorf("the pointer does not name the store: %q", o.Text)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d pointers, want 1", n)
	}
}

func TestFilterRejects(t *testing.T) {
	store := &DirStore{Dir: t.TempDir()}
	for _, in := range []string{``, `null`, `{"id":"a"}`, `[{"id":"a","text":"x"}] []`, `[{"id":`} {
		var out bytes.Buffer
		if _, err := Filter(strings.NewReader(in), &out, Options{}, store); err == nil {
			t.Errorf("Filter(%q) accepted: %s", in, out.String())
		}
	}
	var out bytes.Buffer
	if _, err := Filter(strings.NewReader(`[]`), &out, Options{}, store); err != nil || strings.TrimSpace(out.String()) != `[]` {
		t.Errorf("Filter([]) = %q, %v", out.String(), err)
	}
}
