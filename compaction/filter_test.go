package compaction

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; got:\n%s", path, got)
	}
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
// `runledger compact` does, and checks what it writes and stores.
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
	if err := Filter(bytes.NewReader(input), &out, Options{}, store); err != nil {
		t.Fatal(err)
	}
	golden(t, "filter.golden.json", out.Bytes())
	var res FilterResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	collapsed := 0
	for i, d := range res.Decisions {
		checkDecision(t, store, in[i], res.Outputs[i], d, Options{})
		if d.Decision == Collapsed {
			collapsed++
		}
	}
	if collapsed != 1 || strings.Contains(out.String(), `\u003c`) {
		t.Errorf("collapsed %d outputs (want 1), or markers were HTML-escaped", collapsed)
	}
}

func TestFilterRejects(t *testing.T) {
	store := &DirStore{Dir: t.TempDir()}
	for _, in := range []string{``, `null`, `{"id":"a"}`, `[{"id":"a","text":"x"}] []`, `[{"id":`} {
		var out bytes.Buffer
		if err := Filter(strings.NewReader(in), &out, Options{}, store); err == nil {
			t.Errorf("Filter(%q) accepted: %s", in, out.String())
		}
	}
	var out bytes.Buffer
	if err := Filter(strings.NewReader(`[]`), &out, Options{}, store); err != nil || !strings.Contains(out.String(), `"outputs": []`) {
		t.Errorf("Filter([]) = %q, %v", out.String(), err)
	}
}
