package githubapi

import (
	"context"
	"strconv"
	"testing"

	"github.com/runledger/runledger/internal/fakegithub"
)

// TestJobURL: the job in progress on this runner is this step's; none,
// or two on one runner, is no link rather than a guess.
func TestJobURL(t *testing.T) {
	f := fakegithub.New(t, "/api/v3")
	p, _ := newTestClient(t, f, fakegithub.TokenInstallation, nil)
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
	ro, _ := newTestClient(t, f, fakegithub.TokenReadOnly, nil)
	if got, err := ro.JobURL(context.Background(), 41, 1, "GitHub Actions 7"); err == nil || got != "" {
		t.Errorf("a token without actions: read: %q, %v; want an error", got, err)
	}
}
