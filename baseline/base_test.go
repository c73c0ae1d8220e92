package baseline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The payloads are GitHub's webhook examples, kept with publish's tests.

// TestBaseOf reads the base commit from GitHub's real event payloads.
func TestBaseOf(t *testing.T) {
	ev := func(name string) string { return filepath.Join("..", "publish", "testdata", "events", name) }
	tests := []struct {
		event, file, sha, branch, note string
	}{
		{"pull_request", "pull_request.opened.json", "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", "master", ""},
		{"pull_request", "pull_request.opened.fork.json", "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", "master", ""},
		{"push", "push.json", "", "", "the push created its branch"},
		{"workflow_run", "workflow_run.completed.json", "", "", "a workflow_run event names no base commit"},
	}
	for _, tt := range tests {
		b := BaseOf(tt.event, ev(tt.file))
		if b.SHA != tt.sha || b.Branch != tt.branch || !strings.Contains(b.Note, tt.note) {
			t.Errorf("%s: %+v, want %s on %s (%q)", tt.file, b, tt.sha, tt.branch, tt.note)
		}
	}
	push := filepath.Join(t.TempDir(), "push.json")
	os.WriteFile(push, []byte(`{"ref":"refs/heads/main","before":"6113728f27ae82c7b1a177c8d03f9e96e0adf246","after":"abc"}`), 0o644)
	if b := BaseOf("push", push); b.SHA != "6113728f27ae82c7b1a177c8d03f9e96e0adf246" || b.Branch != "main" {
		t.Errorf("push to main: %+v", b)
	}
}
