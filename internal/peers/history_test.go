package peers

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/fakegithub"
	"github.com/runledger/runledger/report"
)

// apiCalls counts the GitHub REST calls the baseline and history reads
// make: workflow runs, a run's artifacts, an artifact's download.
func apiCalls(gh *fakegithub.Server) int {
	return gh.CallCount(fakegithub.RouteWorkflowRuns) + gh.CallCount(fakegithub.RouteArtifacts) + gh.CallCount(fakegithub.RouteArtifactZip)
}

// branch plays push runs on master through the binary, each uploading to
// act's artifact server and listed by the strict fake as GitHub would list
// it once completed.
type branch struct {
	t      *testing.T
	gh     *fakegithub.Server
	before string
	calls  []int // API calls of each attempt, in order
}

// push runs attempts of one push of commit sha, each printing go test -v
// with the tests of its list failing, and returns the last one's report.
func (b *branch) push(sha string, tests []string, attempts ...[]string) *report.Envelope {
	b.t.Helper()
	event := filepath.Join(b.t.TempDir(), "push.json")
	payload, _ := json.Marshal(map[string]any{"ref": "refs/heads/master", "before": b.before, "after": sha,
		"repository": map[string]any{"full_name": repo}})
	if err := os.WriteFile(event, payload, 0o644); err != nil {
		b.t.Fatal(err)
	}
	id := b.gh.AddWorkflowRun(fakegithub.WorkflowRun{HeadSHA: sha, HeadBranch: "master", Event: "push", Status: "in_progress"})
	var env *report.Envelope
	for n, failing := range attempts {
		act := actServer(b.t)
		s := newStep(b.t, b.gh, act, "push.json", fakegithub.TokenInstallation)
		for k, v := range map[string]string{"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": event, "GITHUB_SHA": sha,
			"GITHUB_REF": "refs/heads/master", "GITHUB_WORKFLOW_REF": workflowRef, "GITHUB_RUN_ID": strconv.FormatInt(id, 10),
			"GITHUB_RUN_ATTEMPT": strconv.Itoa(n + 1), "INPUT_COMMAND": goVerbose(tests, failing...), "INPUT_COMMENT": "false"} {
			s.env[k] = v
		}
		before := apiCalls(b.gh)
		r := s.run()
		b.calls = append(b.calls, apiCalls(b.gh)-before)
		env = readEnvelope(b.t, s, r)
		name := artifactName(b.t, act, r.outputs["artifact-id"])
		b.gh.AddArtifactZip(id, name, download(b.t, act, s.env["ACTIONS_RUNTIME_TOKEN"], name), false)
	}
	b.gh.AddWorkflowRun(fakegithub.WorkflowRun{ID: id, HeadSHA: sha, HeadBranch: "master", Event: "push", RunAttempt: len(attempts)})
	b.before = sha
	return env
}

func readEnvelope(t *testing.T, s *step, r result) *report.Envelope {
	t.Helper()
	path := r.outputs["report-json"]
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.workspace, path)
	}
	env := &report.Envelope{}
	if err := json.Unmarshal([]byte(readText(t, path)), env); err != nil {
		t.Fatalf("report-json %s: %v\n%s", path, err, tail(r.stdout))
	}
	return env
}

// TestActionHistory plays ten pushes on master — a test that flakes in
// two separate streaks, one broken for three runs and then fixed, one
// that failed once, a re-run attempt whose test fails and then passes on
// one commit, one the last push breaks — and then pull requests whose
// failures the carried-forward history judges: flaky, new (saying its
// past), new_test and pre_existing, with fail-on: regression passing on
// flaky and pre-existing failures alone. Each run makes the API calls the
// baseline lookup made before history (three), a re-run attempt two more.
func TestActionHistory(t *testing.T) {
	gh := fakegithub.New(t, "")
	tests := []string{"TestStays", "TestFlaky", "TestBroken", "TestOnce", "TestRetry", "TestAlready"}
	fails := map[int][]string{1: {"TestFlaky"}, 3: {"TestBroken"}, 4: {"TestBroken"}, 5: {"TestBroken", "TestFlaky"}, 7: {"TestOnce"}, 9: {"TestAlready"}}
	b := &branch{t: t, gh: gh, before: strings.Repeat("0", 40)}
	var last *report.Envelope
	for i := range 10 {
		sha := commitOf(i)
		if i == 9 {
			sha = baseCommit // the pull request's base
		}
		if i == 8 { // fails, then passes when the job is re-run
			last = b.push(sha, tests, []string{"TestRetry"}, nil)
			continue
		}
		last = b.push(sha, tests, fails[i])
	}
	if h := last.Runs[0].History; h == nil || h.State != "read" || h.Runs != 10 || h.Branch != "master" {
		t.Fatalf("the last push's history %+v, want read with 10 runs on master", h)
	}
	// The first push has no base; every later one reads its predecessor's
	// artifact in the lookup's three calls; the re-run attempt two more.
	want := []int{0, 3, 3, 3, 3, 3, 3, 3, 3, 5, 3}
	if fmt.Sprint(b.calls) != fmt.Sprint(want) {
		t.Errorf("API calls per attempt %v, want %v", b.calls, want)
	}

	head := append(tests, "TestNew")
	t.Run("regression", func(t *testing.T) {
		before := apiCalls(gh)
		r, env := prStep(t, gh, goVerbose(head, head...), map[string]string{"fail-on": "regression"})
		if n := apiCalls(gh) - before; n != 3 {
			t.Errorf("%d API calls, want the baseline lookup's 3", n)
		}
		run := env.Runs[0]
		got := map[string]string{}
		for _, f := range run.Summary.Failures {
			got[f.Name] = f.Origin
			if f.History != nil {
				got[f.Name] += fmt.Sprintf(" %d/%d %d %v", f.History.Failed, f.History.Runs, f.History.Streaks, len(f.History.Flips))
			}
		}
		want := map[string]string{"TestStays": "new", "TestFlaky": "flaky 2/10 2 0", "TestBroken": "new 3/10 1 0",
			"TestOnce": "new 1/10 1 0", "TestRetry": "flaky 1/10 1 1", "TestAlready": "pre_existing 1/10 1 0", "TestNew": "new_test"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("origins\n%v\nwant\n%v", got, want)
		}
		if r.code != 1 || r.outputs["regressions"] != "4" || r.outputs["status"] != "failed" {
			t.Errorf("exit %d, regressions %q, status %q; want 1, 4, failed", r.code, r.outputs["regressions"], r.outputs["status"])
		}
		body := onlyComment(t, gh)
		for _, w := range []string{
			"`TestFlaky` _flaky_ — failed 2 of the last 10 runs on master, in 2 separate streaks",
			"`TestRetry` _flaky_ — failed 1 of the last 10 runs on master, passed and failed on `" + commitOf(8)[:7] + "`",
			"`TestOnce` **new** — also failed once in the last 10 runs (`" + commitOf(7)[:7] + "`)",
			"`TestBroken` **new** — also failed 3 times in the last 10 runs, last on `" + commitOf(5)[:7] + "`",
		} {
			if !strings.Contains(body, w) {
				t.Errorf("the comment does not say %q:\n%s", w, body)
			}
		}
		if strings.Index(body, "`TestStays` **new**") > strings.Index(body, "`TestFlaky` _flaky_") ||
			strings.Index(body, "`TestFlaky` _flaky_") > strings.Index(body, "`TestAlready`") {
			t.Errorf("failures not in the order new, flaky, pre-existing:\n%s", body)
		}
	})
	only := goVerbose(head, "TestFlaky", "TestRetry", "TestAlready")
	var withHistory int64
	t.Run("flaky and pre-existing only", func(t *testing.T) {
		before := gh.BlobStats().Bytes
		r, env := prStep(t, gh, only, map[string]string{"fail-on": "regression"})
		withHistory = gh.BlobStats().Bytes - before
		if r.code != 0 || r.outputs["regressions"] != "0" || r.outputs["status"] != "failed" || env.Status != "failed" {
			t.Errorf("exit %d, regressions %q, status %q; want 0, 0, failed: the gate passes, the status stays\n%s", r.code, r.outputs["regressions"], r.outputs["status"], tail(r.stdout))
		}
	})
	// history: 0 judges by the base run alone, as before: the flaky tests
	// are new again and the gate fails. The history's ranged reads are the
	// difference in bytes (none on an artifact this small: the reader's
	// first read of the zip's tail holds every small entry).
	t.Run("history off", func(t *testing.T) {
		before := gh.BlobStats().Bytes
		r, env := prStep(t, gh, only, map[string]string{"fail-on": "regression", "history": "0"})
		without := gh.BlobStats().Bytes - before
		if r.code != 1 || r.outputs["regressions"] != "2" || env.Runs[0].History != nil {
			t.Errorf("exit %d, regressions %q, history %+v; want 1, 2 (the flaky tests are new again), none", r.code, r.outputs["regressions"], env.Runs[0].History)
		}
		t.Logf("bytes read from the base artifact: %d with history, %d without", withHistory, without)
		if withHistory-without > 4096 {
			t.Errorf("the history cost %d bytes of reads more, want a few hundred", withHistory-without)
		}
	})
}

// commitOf is push i's commit.
func commitOf(i int) string { return fmt.Sprintf("c0ffe%02d", i) + strings.Repeat("e", 33) }
