package publish

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/fakegithub"
)

// The payloads under testdata/events are GitHub's webhook examples
// (@octokit/webhooks-examples), written by testdata/gen/gen-events.mjs.
const pushSHA = "6113728f27ae82c7b1a177c8d03f9e96e0adf246" // "after" of events/push.json

func TestFindPR(t *testing.T) {
	tests := []struct {
		name, event, payload string
		pr                   int
		pulls                []fakePull
		want                 PRRef
		listCalls            int
	}{
		{name: "pull_request opened, same repository", event: "pull_request", payload: "pull_request.opened.json",
			want: PRRef{Number: 2, Source: "event"}},
		{name: "pull_request synchronize", event: "pull_request", payload: "pull_request.synchronize.json",
			want: PRRef{Number: 2, Source: "event"}},
		{name: "pull_request from a fork", event: "pull_request", payload: "pull_request.opened.fork.json",
			want: PRRef{Number: 2, Source: "event", Fork: true}},
		{name: "pull_request_target from a fork", event: "pull_request_target", payload: "pull_request.opened.fork.json",
			want: PRRef{Number: 2, Source: "event", Fork: true}},
		{name: "push to a pull request's head", event: "push", payload: "push.json", listCalls: 1,
			pulls: []fakePull{
				{Number: 7, State: "closed", HeadSHA: pushSHA, Head: "Codertocat/Hello-World"},
				{Number: 8, State: "open", HeadSHA: "0000000000000000000000000000000000000001", Head: "Codertocat/Hello-World"},
				{Number: 9, State: "open", HeadSHA: pushSHA, Head: "Codertocat/Hello-World"},
			},
			want: PRRef{Number: 9, Source: "commit"}},
		{name: "push without a pull request", event: "push", payload: "push.json", listCalls: 1,
			want: PRRef{Source: "none"}},
		{name: "workflow_run whose pull request is another repository's", event: "workflow_run", payload: "workflow_run.completed.json",
			want: PRRef{Source: "none"}},
		{name: "workflow_run for a fork lists none", event: "workflow_run", payload: "workflow_run.completed.fork.json",
			want: PRRef{Source: "none"}},
		{name: "workflow_run with the recorded number", event: "workflow_run", payload: "workflow_run.completed.fork.json", pr: 5,
			want: PRRef{Number: 5, Source: "input"}},
		{name: "schedule", event: "schedule", want: PRRef{Source: "none"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakegithub.New(t, "")
			f.SetPulls(pushSHA, tt.pulls)
			path := ""
			if tt.payload != "" {
				path = filepath.Join("testdata", "events", tt.payload)
			}
			p, _ := newTestPublisher(t, f, tokInstallation, func(c *Config) {
				c.EventName, c.EventPath, c.PR = tt.event, path, tt.pr
			})
			got, err := p.FindPR(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got.Note == "" && got.Source == "none" {
				t.Errorf("no note says why no pull request was found")
			}
			got.Note = ""
			if got != tt.want {
				t.Errorf("FindPR = %+v, want %+v", got, tt.want)
			}
			if n := f.CallCount(routePulls); n != tt.listCalls {
				t.Errorf("%d commit-pulls calls, want %d", n, tt.listCalls)
			}
		})
	}
}

// TestFindPRWorkflowRunSameRepository edits the real workflow_run example so
// its pull request targets the repository the run belongs to.
func TestFindPRWorkflowRunSameRepository(t *testing.T) {
	var ev map[string]any
	if err := json.Unmarshal([]byte(readFile(t, "testdata/events/workflow_run.completed.json")), &ev); err != nil {
		t.Fatal(err)
	}
	repoID := ev["repository"].(map[string]any)["id"]
	pr := ev["workflow_run"].(map[string]any)["pull_requests"].([]any)[0].(map[string]any)
	pr["base"].(map[string]any)["repo"].(map[string]any)["id"] = repoID
	path := filepath.Join(t.TempDir(), "event.json")
	b, _ := json.Marshal(ev)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f := fakegithub.New(t, "")
	p, _ := newTestPublisher(t, f, tokInstallation, func(c *Config) { c.EventName, c.EventPath = "workflow_run", path })
	got, err := p.FindPR(context.Background())
	if err != nil || got.Number != 2 || got.Source != "event" {
		t.Fatalf("FindPR = %+v, %v; want #2 from the event", got, err)
	}
}

func TestFindPRBadPayload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "event.json")
	os.WriteFile(path, []byte("{not json"), 0o644)
	f := fakegithub.New(t, "")
	p, _ := newTestPublisher(t, f, tokInstallation, func(c *Config) { c.EventName, c.EventPath = "pull_request", path })
	if _, err := p.FindPR(context.Background()); err == nil || !strings.Contains(err.Error(), "parse event payload") {
		t.Fatalf("want a parse error, got %v", err)
	}
}

func TestConfigFromEnv(t *testing.T) {
	env := map[string]string{
		"GITHUB_API_URL": "https://ghes.example/api/v3", "GITHUB_SERVER_URL": "https://ghes.example",
		"GITHUB_REPOSITORY": "o/r", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": "/e.json", "GITHUB_SHA": "abc",
	}
	got := ConfigFromEnv(func(k string) string { return env[k] }, "tok")
	want := Config{APIURL: "https://ghes.example/api/v3", ServerURL: "https://ghes.example", Repo: "o/r", Token: "tok",
		EventName: "push", EventPath: "/e.json", SHA: "abc"}
	if got.APIURL != want.APIURL || got.ServerURL != want.ServerURL || got.Repo != want.Repo || got.Token != want.Token ||
		got.EventName != want.EventName || got.EventPath != want.EventPath || got.SHA != want.SHA {
		t.Errorf("ConfigFromEnv = %+v", got)
	}
}
