package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/store"
)

// TestSharedScanSameEnvelope: a failed run whose output.log is its
// stdout.log is read once for the summary and the excerpts; the envelope
// must be the one the two separate passes build when the files are apart.
func TestSharedScanSameEnvelope(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "go.log")
	if _, err := denseGoLog(log, 64<<10); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := capture.Run(st, capture.Options{Argv: []string{"sh", "-c", `cat "$1"; exit 1`, "sh", log}}); err != nil {
		t.Fatal(err)
	}
	recs, _, err := st.List()
	if err != nil || len(recs) != 1 {
		t.Fatalf("records %d, %v", len(recs), err)
	}
	run := filepath.Join(st.Dir, recs[0].ID)
	if scanShared(run, recs[0]) == nil {
		t.Fatal("output.log is stdout.log, but the shared pass was not taken")
	}
	linked := envelopeJSON(t, st)
	unlink(t, filepath.Join(run, "output.log"))
	if scanShared(run, recs[0]) != nil {
		t.Fatal("output.log is a copy, but the shared pass was taken")
	}
	if apart := envelopeJSON(t, st); apart != linked {
		t.Errorf("the shared pass changed the envelope:\n%s\nwant:\n%s", linked, apart)
	}
}

func envelopeJSON(t *testing.T, st *store.Store) string {
	t.Helper()
	env, err := Build(st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if env.Status != "failed" || !env.Runs[0].Summary.Verified {
		t.Fatalf("status %s, summary %+v", env.Status, env.Runs[0].Summary)
	}
	b, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// unlink replaces the hard link at path with a copy of its bytes.
func unlink(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
