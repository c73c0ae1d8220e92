package publish

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/fakegithub"
)

// TestJobURL: the job in progress on this runner is this step's; none,
// or two on one runner, is no link rather than a guess.
func TestJobURL(t *testing.T) {
	f := fakegithub.New(t, "/api/v3")
	p, _ := newTestPublisher(t, f, fakegithub.TokenInstallation, nil)
	id := f.AddJob(41, 1, fakegithub.Job{Name: "test (ubuntu-latest)", RunnerName: "GitHub Actions 7"})
	f.AddJob(41, 1, fakegithub.Job{Name: "lint", RunnerName: "GitHub Actions 8"})
	f.AddJob(41, 1, fakegithub.Job{Name: "old", RunnerName: "GitHub Actions 9", Status: "completed"})
	f.AddJob(41, 1, fakegithub.Job{Name: "a", RunnerName: "shared"})
	f.AddJob(41, 1, fakegithub.Job{Name: "b", RunnerName: "shared"})
	tests := []struct {
		runner, want string
	}{
		{"GitHub Actions 7", f.ServerURL() + "/Codertocat/Hello-World/actions/runs/41/job/" + strconv.FormatInt(id, 10)},
		{"GitHub Actions 9", ""},
		{"shared", ""},
		{"elsewhere", ""},
	}
	for _, tt := range tests {
		got, err := p.JobURL(context.Background(), 41, 1, tt.runner)
		if err != nil || got != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.runner, got, err, tt.want)
		}
	}
	f.DenyActions(fakegithub.TokenReadOnly)
	ro, _ := newTestPublisher(t, f, fakegithub.TokenReadOnly, nil)
	if got, err := ro.JobURL(context.Background(), 41, 1, "GitHub Actions 7"); err == nil || got != "" {
		t.Errorf("a token without actions: read: %q, %v; want an error", got, err)
	}
}

// TestBaseOf reads the base commit from GitHub's real event payloads.
func TestBaseOf(t *testing.T) {
	ev := func(name string) string { return filepath.Join("testdata", "events", name) }
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
