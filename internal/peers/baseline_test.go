package peers

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/fakegithub"
	"github.com/runledger/runledger/report"
)

// The commits the event payloads name: the pull request's base (also the
// commit the base push ran on).
const (
	baseCommit  = "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"
	workflowRef = repo + "/.github/workflows/ci.yml@refs/heads/master"
)

// goVerbose is a command printing go test -v's shape: each test passes
// unless named in fail, then the package line and the exit status.
func goVerbose(tests []string, fail ...string) string {
	failing := map[string]bool{}
	for _, f := range fail {
		failing[f] = true
	}
	var b strings.Builder
	b.WriteString("cat <<'EOF'\n")
	for _, name := range tests {
		fmt.Fprintf(&b, "=== RUN   %s\n    cart_test.go:12: checking %s\n", name, name)
		if failing[name] {
			fmt.Fprintf(&b, "    cart_test.go:34: %s: total = 350000, want 297500\n--- FAIL: %s (0.00s)\n", name, name)
		} else {
			fmt.Fprintf(&b, "--- PASS: %s (0.00s)\n", name)
		}
	}
	if len(fail) > 0 {
		b.WriteString("FAIL\nFAIL\texample.com/shop\t0.02s\nEOF\nexit 1")
	} else {
		b.WriteString("PASS\nok  \texample.com/shop\t0.02s\nEOF\nexit 0")
	}
	return b.String()
}

// basePush runs the workflow's step on the base commit (a push to master),
// uploading to act, and lists its artifact as GitHub would: a completed
// run of ci.yml on that commit.
func basePush(t *testing.T, gh *fakegithub.Server, command string, expired bool) {
	t.Helper()
	act := actServer(t)
	s := newStep(t, gh, act, "push.json", fakegithub.TokenInstallation)
	s.env["GITHUB_EVENT_NAME"], s.env["GITHUB_SHA"], s.env["GITHUB_REF"] = "push", baseCommit, "refs/heads/master"
	s.env["GITHUB_WORKFLOW_REF"], s.env["INPUT_COMMAND"], s.env["INPUT_COMMENT"] = workflowRef, command, "false"
	r := s.run()
	name := artifactName(t, act, r.outputs["artifact-id"])
	zipped := download(t, act, s.env["ACTIONS_RUNTIME_TOKEN"], name)
	run := gh.AddWorkflowRun(fakegithub.WorkflowRun{HeadSHA: baseCommit, HeadBranch: "master", Event: "push"})
	gh.AddArtifactZip(run, name, zipped, expired)
}

func prStep(t *testing.T, gh *fakegithub.Server, command string, inputs map[string]string) (result, *report.Envelope) {
	t.Helper()
	s := newStep(t, gh, actServer(t), "pull_request.opened.json", fakegithub.TokenInstallation)
	s.env["GITHUB_WORKFLOW_REF"], s.env["INPUT_COMMAND"], s.env["RUNNER_NAME"] = workflowRef, command, "GitHub Actions 3"
	for k, v := range inputs {
		s.env["INPUT_"+strings.ToUpper(k)] = v
	}
	r := s.run()
	path := r.outputs["report-json"]
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.workspace, path)
	}
	env := &report.Envelope{}
	if err := json.Unmarshal([]byte(readText(t, path)), env); err != nil {
		t.Fatalf("report-json %s: %v\n%s", path, err, tail(r.stdout))
	}
	return r, env
}

// TestActionBaseline: a base push run uploads its artifact; a pull
// request's run then labels each failure against it, end to end through
// the binary, act's artifact server and the strict fake GitHub.
func TestActionBaseline(t *testing.T) {
	gh := fakegithub.New(t, "")
	basePush(t, gh, goVerbose([]string{"TestStays", "TestBreaks", "TestAlready", "TestGone", "TestFixed"}, "TestAlready", "TestFixed"), false)
	head := goVerbose([]string{"TestStays", "TestBreaks", "TestAlready", "TestFixed", "TestNew"}, "TestBreaks", "TestAlready", "TestNew")
	run7001, _ := strconv.ParseInt(runID, 10, 64)
	job := gh.AddJob(run7001, 1, fakegithub.Job{Name: "test", RunnerName: "GitHub Actions 3"})
	r, env := prStep(t, gh, head, map[string]string{"fail-on": "regression"})
	if r.code != 1 || r.outputs["status"] != "failed" || r.outputs["regressions"] != "2" {
		t.Errorf("exit %d, status %q, regressions %q; want 1, failed, 2\n%s", r.code, r.outputs["status"], r.outputs["regressions"], tail(r.stdout))
	}
	run := env.Runs[0]
	origins := map[string]string{}
	for _, f := range run.Summary.Failures {
		origins[f.Name] = f.Origin
	}
	want := map[string]string{"TestBreaks": "new", "TestAlready": "pre_existing", "TestNew": "new_test"}
	if fmt.Sprint(origins) != fmt.Sprint(want) {
		t.Errorf("origins %v, want %v", origins, want)
	}
	bl := run.Baseline
	if bl == nil || bl.State != "compared" || bl.Commit != baseCommit || bl.Missing != 1 || len(bl.Fixed) != 1 || bl.Fixed[0].Name != "TestFixed" {
		t.Fatalf("baseline %+v", bl)
	}
	if body := onlyComment(t, gh); !strings.Contains(body, "`TestAlready` _also fails on f95f852_") || !strings.Contains(body, "`TestBreaks` **new**") ||
		!strings.Contains(body, "Compared with `f95f852`") ||
		!strings.Contains(body, fmt.Sprintf("[job log](%s/%s/actions/runs/%s/job/%d)", gh.ServerURL(), repo, runID, job)) {
		t.Errorf("the comment does not say which commit it compared with:\n%s", body)
	}
	if stats := gh.BlobStats(); stats.Authorized != 0 {
		t.Errorf("%d blob requests carried the token", stats.Authorized)
	}
}

// TestActionBaselineGate: with fail-on: regression, failures the base has
// too pass the step while the status stays failed; when the comparison
// cannot be made, the step fails as with fail-on: failure.
func TestActionBaselineGate(t *testing.T) {
	tests := []string{"TestStays", "TestAlready"}
	for _, tt := range []struct {
		name        string
		expired     bool
		inputs      map[string]string
		code        int
		regressions string
		state       string
	}{
		{"pre-existing only", false, map[string]string{"fail-on": "regression"}, 0, "0", "compared"},
		{"expired base artifact", true, map[string]string{"fail-on": "regression"}, 1, "", "unavailable"},
		{"baseline off", false, map[string]string{"fail-on": "regression", "baseline": "off"}, 1, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			gh := fakegithub.New(t, "")
			basePush(t, gh, goVerbose(tests, "TestAlready"), tt.expired)
			calls := gh.CallCount(fakegithub.RouteWorkflowRuns)
			r, env := prStep(t, gh, goVerbose(tests, "TestAlready"), tt.inputs)
			if r.code != tt.code || r.outputs["status"] != "failed" || r.outputs["regressions"] != tt.regressions {
				t.Errorf("exit %d, status %q, regressions %q; want %d, failed, %q\n%s", r.code, r.outputs["status"], r.outputs["regressions"], tt.code, tt.regressions, tail(r.stdout))
			}
			state := ""
			if bl := env.Runs[0].Baseline; bl != nil {
				state = bl.State
			}
			if state != tt.state {
				t.Errorf("baseline state %q, want %q", state, tt.state)
			}
			if n := gh.CallCount(fakegithub.RouteWorkflowRuns) - calls; tt.state == "" && n != 0 {
				t.Errorf("baseline off listed workflow runs %d times", n)
			}
		})
	}
}

func onlyComment(t *testing.T, gh *fakegithub.Server) string {
	t.Helper()
	cs := gh.PRComments(prNumber)
	if len(cs) != 1 {
		t.Fatalf("%d comments on the pull request, want 1", len(cs))
	}
	return cs[0].Body
}
