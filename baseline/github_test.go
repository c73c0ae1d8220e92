package baseline

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/githubapi"
	"github.com/runledger/runledger/internal/artifacttest"
	"github.com/runledger/runledger/internal/fakegithub"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/store"
)

const (
	baseSHA  = "6113728f27ae82c7b1a177c8d03f9e96e0adf246"
	otherSHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	artName  = "runledger-test"
)

// goLog is go test -v's output of a package with one passing and one
// failing test, padded with t.Log lines so the artifact is much bigger
// than its index.
func goLog() string {
	var b strings.Builder
	b.WriteString("=== RUN   TestA\n")
	for i := range 20000 {
		b.WriteString("    a_test.go:9: step " + strings.Repeat("x", i%40) + "\n")
	}
	b.WriteString("--- PASS: TestA (0.00s)\n=== RUN   TestB\n    b_test.go:3: total = 3, want 4\n--- FAIL: TestB (0.00s)\nFAIL\nFAIL\texample.com/shop\t0.01s\nFAIL\n")
	return b.String()
}

// baseArtifact runs a real command in a store, builds its report and
// index as the Action does, and zips the run as the uploader lays it out.
func baseArtifact(t *testing.T, o artifacttest.Options) []byte {
	t.Helper()
	return artifactOf(t, o, report.Options{})
}

// artifactOf is baseArtifact's, reported with ropts.
func artifactOf(t *testing.T, o artifacttest.Options, ropts report.Options) []byte {
	t.Helper()
	logFile := t.TempDir() + "/log"
	if err := os.WriteFile(logFile, []byte(goLog()), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	recs, err := capture.Run(st, capture.Options{Name: "unit", Argv: []string{"sh", "-c", "cat " + logFile + "; exit 1"},
		CI: &record.CI{SHA: baseSHA}, Stdout: &strings.Builder{}, Stderr: &strings.Builder{}})
	if err != nil || len(recs) != 1 {
		t.Fatalf("capture: %v", err)
	}
	env, err := report.Build(st, ropts)
	if err != nil {
		t.Fatal(err)
	}
	if errs := report.SaveIndexes(st, env); len(errs) > 0 {
		t.Fatal(errs)
	}
	data, err := os.ReadFile(artifacttest.ZipRun(t, st.Dir+"/"+recs[0].ID, recs[0].ID, o))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func query() Query {
	return Query{Base: Base{SHA: baseSHA, Branch: "main"}, WorkflowRef: "Codertocat/Hello-World/.github/workflows/ci.yml@refs/pull/2/merge",
		RunID: 99, Artifact: artName, Runs: []string{"unit"}}
}

func publisher(t *testing.T, f *fakegithub.Server, token string) *githubapi.Client {
	t.Helper()
	p, err := githubapi.New(githubapi.Config{APIURL: f.APIURL(), ServerURL: f.ServerURL(), Repo: "Codertocat/Hello-World", Token: token})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGitHubFindsTheBaseIndex(t *testing.T) {
	for _, prefix := range []string{"", "/api/v3"} {
		f := fakegithub.New(t, prefix)
		zipped := baseArtifact(t, artifacttest.Options{})
		run := f.AddWorkflowRun(fakegithub.WorkflowRun{HeadSHA: baseSHA, HeadBranch: "main", Event: "push"})
		f.AddArtifactZip(run, artName, zipped, false)
		b := GitHub(context.Background(), publisher(t, f, fakegithub.TokenInstallation), query())
		x := b.Runs["unit"]
		if b.Reason != "" || x == nil {
			t.Fatalf("%q: no baseline: %s", prefix, b.Reason)
		}
		if x.Commit != baseSHA || x.Source != "go" || !x.Verified || len(x.Entries) != 3 {
			t.Errorf("%q: index %+v", prefix, x)
		}
		stats := f.BlobStats()
		if stats.Authorized != 0 {
			t.Errorf("%q: %d blob requests carried the token", prefix, stats.Authorized)
		}
		if stats.Bytes*10 > int64(len(zipped)) {
			t.Errorf("%q: read %d of the artifact's %d bytes to get its index", prefix, stats.Bytes, len(zipped))
		}
		if n := f.CallCount(fakegithub.RouteWorkflowRuns) + f.CallCount(fakegithub.RouteArtifacts) + f.CallCount(fakegithub.RouteArtifactZip); n > 4 {
			t.Errorf("%q: %d API calls, want at most 4", prefix, n)
		}
	}
}

// TestGitHubUnavailable: every failure of the lookup is a reason, never a
// baseline and never an error of the step.
func TestGitHubUnavailable(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *fakegithub.Server) Query
		token string
		want  string
	}{
		{"no base commit", func(*fakegithub.Server) Query {
			q := query()
			q.Base = Base{Note: "the push created its branch"}
			return q
		}, "", "no base commit: the push created its branch"},
		{"no run at all", func(f *fakegithub.Server) Query {
			f.AddWorkflowRun(fakegithub.WorkflowRun{HeadSHA: otherSHA, HeadBranch: "feature", Event: "pull_request"})
			return query()
		}, "", "no completed run of ci.yml on the base commit 6113728 nor on main"},
		{"expired artifact", func(f *fakegithub.Server) Query {
			run := f.AddWorkflowRun(fakegithub.WorkflowRun{HeadSHA: baseSHA, HeadBranch: "main"})
			f.AddArtifactZip(run, artName, []byte("PK"), true)
			return query()
		}, "", "has expired"},
		{"another step's artifact only", func(f *fakegithub.Server) Query {
			run := f.AddWorkflowRun(fakegithub.WorkflowRun{HeadSHA: baseSHA, HeadBranch: "main"})
			f.AddArtifactZip(run, "runledger-lint", []byte("PK"), false)
			return query()
		}, "", "has no artifact runledger-test"},
		{"matrix legs sharing one name", func(f *fakegithub.Server) Query {
			run := f.AddWorkflowRun(fakegithub.WorkflowRun{HeadSHA: baseSHA, HeadBranch: "main"})
			f.AddArtifactZip(run, artName, []byte("PK"), false)
			f.AddArtifactZip(run, artName+"-2", []byte("PK"), false)
			return query()
		}, "", "matrix legs need distinct `name` inputs"},
		{"token without actions: read", func(f *fakegithub.Server) Query {
			f.DenyActions(fakegithub.TokenReadOnly)
			return query()
		}, fakegithub.TokenReadOnly, "actions: read"},
		{"tampered index", func(f *fakegithub.Server) Query {
			run := f.AddWorkflowRun(fakegithub.WorkflowRun{HeadSHA: baseSHA, HeadBranch: "main"})
			f.AddArtifactZip(run, artName, baseArtifact(t, artifacttest.Options{WrongSHA256: "tests.tsv.gz"}), false)
			return query()
		}, "", "does not match its artifact's hashes"},
		{"rate limited", func(f *fakegithub.Server) Query {
			f.AddFault(fakegithub.RouteWorkflowRuns, fakegithub.Fault{Status: 403, Body: `{"message":"API rate limit exceeded for installation ID 1.","documentation_url":"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}`,
				Header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "4102444800"}})
			q := query()
			q.Budget = 2e9
			return q
		}, "", "base run"},
		{"a workflow ref that is not one", func(*fakegithub.Server) Query {
			q := query()
			q.WorkflowRef = "ci.yml"
			return q
		}, "", `GITHUB_WORKFLOW_REF "ci.yml"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakegithub.New(t, "")
			q := tt.setup(f)
			token := tt.token
			if token == "" {
				token = fakegithub.TokenInstallation
			}
			b := GitHub(context.Background(), publisher(t, f, token), q)
			if len(b.Runs) != 0 || !strings.Contains(b.Reason, tt.want) {
				t.Errorf("runs %v, reason %q; want none and %q", b.Runs, b.Reason, tt.want)
			}
			if strings.Contains(b.Reason, token) {
				t.Errorf("the reason prints the token: %s", b.Reason)
			}
		})
	}
}

// TestGitHubFallsBackToTheBranch: no run on the base commit itself (it was
// pushed with [skip ci], or its run is still going), so the newest push run
// on the base branch is taken, and the note says which commit.
func TestGitHubFallsBackToTheBranch(t *testing.T) {
	f := fakegithub.New(t, "")
	run := f.AddWorkflowRun(fakegithub.WorkflowRun{HeadSHA: otherSHA, HeadBranch: "main", Event: "push"})
	f.AddArtifactZip(run, artName+"-attempt2", baseArtifact(t, artifacttest.Options{}), false)
	b := GitHub(context.Background(), publisher(t, f, fakegithub.TokenInstallation), query())
	x := b.Runs["unit"]
	if x == nil || x.Commit != otherSHA {
		t.Fatalf("baseline %+v (%s), want the run on %s", x, b.Reason, otherSHA)
	}
	if !strings.Contains(b.Note, "the base commit 6113728 has no completed run of ci.yml; compared with ec26c3e, the newest on main") {
		t.Errorf("note %q", b.Note)
	}
}

// TestGitHubReadsTheBaseHistory: the base run's history comes in the same
// read as its index, with no call more; one whose hash is not the
// manifest's is unusable, and a base without one restarts the history.
func TestGitHubReadsTheBaseHistory(t *testing.T) {
	withHistory := report.Options{Baseline: &report.Baselines{Reason: "the first run"}, History: 30}
	tests := []struct {
		name     string
		zipped   []byte
		want     int // columns read
		unusable bool
		reason   string
	}{
		{"read", artifactOf(t, artifacttest.Options{}, withHistory), 1, false, ""},
		{"tampered", artifactOf(t, artifacttest.Options{WrongSHA256: "history.tsv.gz"}, withHistory), 0, true, "the manifest says"},
		{"older runledger", baseArtifact(t, artifacttest.Options{}), 0, false, "holds no history"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakegithub.New(t, "")
			run := f.AddWorkflowRun(fakegithub.WorkflowRun{HeadSHA: baseSHA, HeadBranch: "main", Event: "push"})
			f.AddArtifactZip(run, artName, tt.zipped, false)
			q := query()
			q.History = true
			b := GitHub(context.Background(), publisher(t, f, fakegithub.TokenInstallation), q)
			if b.Runs["unit"] == nil {
				t.Fatalf("no baseline: %s", b.Reason)
			}
			p := b.History["unit"]
			cols := 0
			if p.History != nil {
				cols = len(p.History.Columns)
			}
			if cols != tt.want || p.Unusable != tt.unusable || !strings.Contains(p.Reason, tt.reason) {
				t.Errorf("past: %d runs, unusable %v, reason %q; want %d, %v, %q", cols, p.Unusable, p.Reason, tt.want, tt.unusable, tt.reason)
			}
			if p.Commit != baseSHA || b.Branch != "main" {
				t.Errorf("past of %q on %q, want %s on main", p.Commit, b.Branch, baseSHA)
			}
			if n := f.CallCount(fakegithub.RouteWorkflowRuns) + f.CallCount(fakegithub.RouteArtifacts) + f.CallCount(fakegithub.RouteArtifactZip); n > 3 {
				t.Errorf("%d API calls, want the lookup's 3", n)
			}
		})
	}
}
