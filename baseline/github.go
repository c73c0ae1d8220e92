package baseline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/githubapi"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/history"
	"github.com/runledger/runledger/report/testindex"
)

// Actions is what the lookup asks of GitHub.
type Actions interface {
	WorkflowRuns(ctx context.Context, file string, q githubapi.RunQuery) ([]githubapi.WorkflowRun, error)
	Artifacts(ctx context.Context, runID int64) ([]githubapi.Artifact, error)
	OpenArtifact(ctx context.Context, id int64) (*artifact.Reader, error)
}

var _ Actions = (*githubapi.Client)(nil)

// DefaultBudget bounds the whole lookup: a slow or rate-limited API costs
// the step this much at most, and the report then says why it did not
// compare.
const DefaultBudget = 30 * time.Second

// Query is what to look for on GitHub.
type Query struct {
	Base Base
	// WorkflowRef is GITHUB_WORKFLOW_REF (owner/repo/.github/workflows/ci.yml@ref):
	// the base run is one of the same workflow.
	WorkflowRef string
	// RunID is this workflow run's id: never its own baseline.
	RunID int64
	// Artifact is the name this step's artifact has on a first attempt; a
	// re-run's carries -attemptN after it.
	Artifact string
	// Runs are the run names to find in it.
	Runs []string
	// History: read each run's history.tsv.gz too, in the same read.
	History bool
	Budget  time.Duration
}

// GitHub finds the base commit's run of the same workflow, its artifact
// for the same job and step, and reads only the test indexes out of it.
// It makes at most four API calls and ranged reads of a few entries.
func GitHub(ctx context.Context, gh Actions, q Query) *report.Baselines {
	if q.Base.SHA == "" {
		return &report.Baselines{Reason: "no base commit: " + q.Base.Note}
	}
	file, err := workflowFile(q.WorkflowRef)
	if err != nil {
		return &report.Baselines{Reason: err.Error()}
	}
	budget := q.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	b, err := lookup(ctx, gh, q, file)
	if err != nil {
		return &report.Baselines{Reason: explain(ctx, err, budget)}
	}
	return b
}

func lookup(ctx context.Context, gh Actions, q Query, file string) (*report.Baselines, error) {
	run, note, err := baseRun(ctx, gh, q, file)
	if err != nil {
		return nil, err
	}
	id, err := pickArtifact(ctx, gh, run, q.Artifact)
	if err != nil {
		return nil, err
	}
	r, err := gh.OpenArtifact(ctx, id)
	if err != nil {
		return nil, err
	}
	b, err := readIndexes(ctx, r, q.Runs, q.History)
	if err != nil {
		return nil, fmt.Errorf("artifact %d of run %d: %w", id, run.ID, err)
	}
	for name, x := range b.Runs {
		x.Commit, x.CIRunID, x.URL = run.HeadSHA, strconv.FormatInt(run.ID, 10), run.URL
		p := b.History[name]
		p.Commit, p.WorkflowRunID = x.Commit, x.CIRunID
		b.History[name] = p
	}
	b.Note, b.Branch = note, q.Base.Branch
	return b, nil
}

// workflowFile is the workflow's file name from GITHUB_WORKFLOW_REF, as the
// runs-by-workflow endpoint takes it.
func workflowFile(ref string) (string, error) {
	p, _, _ := strings.Cut(ref, "@")
	parts := strings.SplitN(p, "/", 3)
	if len(parts) != 3 || !strings.HasPrefix(parts[2], ".github/workflows/") {
		return "", fmt.Errorf("GITHUB_WORKFLOW_REF %q: want owner/repo/.github/workflows/FILE@ref", ref)
	}
	return path.Base(parts[2]), nil
}

// baseRun is the newest completed run of the workflow on the base commit,
// else the newest completed push run on the base branch, said in the note.
func baseRun(ctx context.Context, gh Actions, q Query, file string) (githubapi.WorkflowRun, string, error) {
	runs, err := gh.WorkflowRuns(ctx, file, githubapi.RunQuery{HeadSHA: q.Base.SHA, PerPage: 10})
	if err != nil {
		return githubapi.WorkflowRun{}, "", err
	}
	if r, ok := firstOther(runs, q.RunID); ok {
		return r, "", nil
	}
	if q.Base.Branch == "" {
		return githubapi.WorkflowRun{}, "", fmt.Errorf("no completed run of %s on the base commit %s", file, short(q.Base.SHA))
	}
	runs, err = gh.WorkflowRuns(ctx, file, githubapi.RunQuery{Branch: q.Base.Branch, Event: "push", PerPage: 5})
	if err != nil {
		return githubapi.WorkflowRun{}, "", err
	}
	r, ok := firstOther(runs, q.RunID)
	if !ok {
		return githubapi.WorkflowRun{}, "", fmt.Errorf("no completed run of %s on the base commit %s nor on %s", file, short(q.Base.SHA), q.Base.Branch)
	}
	return r, fmt.Sprintf("the base commit %s has no completed run of %s; compared with %s, the newest on %s",
		short(q.Base.SHA), file, short(r.HeadSHA), q.Base.Branch), nil
}

func firstOther(runs []githubapi.WorkflowRun, self int64) (githubapi.WorkflowRun, bool) {
	for _, r := range runs {
		if r.ID != self && r.Status == "completed" {
			return r, true
		}
	}
	return githubapi.WorkflowRun{}, false
}

// pickArtifact finds the step's artifact in the base run: the latest
// attempt's that has not expired.
func pickArtifact(ctx context.Context, gh Actions, run githubapi.WorkflowRun, name string) (int64, error) {
	arts, err := gh.Artifacts(ctx, run.ID)
	if err != nil {
		return 0, err
	}
	best, bestAttempt, expired := int64(0), 0, false
	for _, a := range arts {
		n, ok := attemptOf(a.Name, name)
		switch {
		case sharedName(a.Name, name):
			// The upload took a -2, -3 … suffix: several steps (matrix legs
			// without a name input) share the name, and which is this one's
			// cannot be told.
			return 0, fmt.Errorf("the base run %d has several artifacts named %s (%s): matrix legs need distinct `name` inputs to be compared", run.ID, name, a.Name)
		case !ok:
		case a.Expired:
			expired = true
		case n > bestAttempt:
			best, bestAttempt = a.ID, n
		}
	}
	switch {
	case best != 0:
		return best, nil
	case expired:
		return 0, fmt.Errorf("the base run %d's artifact %s has expired", run.ID, name)
	}
	return 0, fmt.Errorf("the base run %d has no artifact %s (the step did not run there, or not with runledger)", run.ID, name)
}

// sharedName reports got as name with the suffix a second upload of one
// name gets (-2, -3, …).
func sharedName(got, name string) bool {
	rest, ok := strings.CutPrefix(got, name+"-")
	n, err := strconv.Atoi(rest)
	return ok && err == nil && n > 1
}

// attemptOf reads "NAME" as attempt 1 and "NAME-attemptN" as attempt N.
func attemptOf(got, name string) (int, bool) {
	if got == name {
		return 1, true
	}
	rest, ok := strings.CutPrefix(got, name+"-attempt")
	n, err := strconv.Atoi(rest)
	return n, ok && err == nil && n > 1
}

// readIndexes reads, for each wanted run name, its latest attempt's test
// index out of the artifact, each checked against the artifact's manifest
// (and the zip's CRC): a tampered index is an error, never a baseline. The
// run's history (history.tsv.gz) comes in the same read, when it has one.
func readIndexes(ctx context.Context, r *artifact.Reader, names []string, withHistory bool) (*report.Baselines, error) {
	sums, err := manifestSums(ctx, r)
	if err != nil {
		return nil, err
	}
	latest, err := latestRuns(ctx, r, names)
	if err != nil {
		return nil, err
	}
	b := &report.Baselines{Runs: map[string]*testindex.Index{}, History: map[string]report.Past{}}
	for name, dir := range latest {
		entry := path.Join(dir, testindex.FileName)
		if _, ok := sums[entry]; !ok {
			return nil, fmt.Errorf("run %s holds no test index (%s): made by a runledger before test indexes", dir, entry)
		}
		data, err := readVerified(ctx, r, sums, entry)
		if err != nil {
			return nil, err
		}
		x, err := testindex.Read(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", entry, err)
		}
		b.Runs[name] = x
		if withHistory {
			b.History[name] = readPast(ctx, r, sums, dir, name, x)
		}
	}
	if len(b.Runs) == 0 {
		return nil, fmt.Errorf("no run named %s in it", strings.Join(quoted(names), " or "))
	}
	return b, nil
}

// manifestSums is the artifact manifest's sha256 of each entry.
func manifestSums(ctx context.Context, r *artifact.Reader) (map[string]string, error) {
	m, err := r.Manifest(ctx)
	if err != nil {
		return nil, fmt.Errorf("no manifest to check the test index against: %w", err)
	}
	sums := map[string]string{}
	for _, e := range m.Entries {
		sums[e.Name] = e.SHA256
	}
	return sums, nil
}

// readVerified reads an entry and checks it against the manifest.
func readVerified(ctx context.Context, r *artifact.Reader, sums map[string]string, entry string) ([]byte, error) {
	data, err := r.ReadFile(ctx, entry)
	if err != nil {
		return nil, err
	}
	if got := sha256Hex(data); got != sums[entry] {
		return nil, fmt.Errorf("%s: sha256 %s, the manifest says %s: %w", entry, got, sums[entry], artifact.ErrHashMismatch)
	}
	return data, nil
}

// readPast reads the history of run name in the artifact directory dir,
// beside its index x: none (an older runledger, history off there)
// restarts the history; one that fails its hash, is not of that index or
// cannot be parsed is unusable, with the reason.
func readPast(ctx context.Context, r *artifact.Reader, sums map[string]string, dir, name string, x *testindex.Index) report.Past {
	entry := path.Join(dir, history.FileName)
	if _, ok := sums[entry]; !ok {
		return report.Past{Reason: fmt.Sprintf("run %s holds no history (%s): made by a runledger before histories, or with history: 0", dir, entry)}
	}
	data, err := readVerified(ctx, r, sums, entry)
	if err != nil {
		return report.Past{Reason: err.Error(), Unusable: true}
	}
	h, err := history.Read(bytes.NewReader(data), x, sums[path.Join(dir, testindex.FileName)])
	switch {
	case err != nil:
		return report.Past{Reason: fmt.Sprintf("%s: %v", entry, err), Unusable: true}
	case h.Run != name:
		return report.Past{Reason: fmt.Sprintf("%s is the history of run %q, not %q", entry, h.Run, name), Unusable: true}
	}
	return report.Past{History: h}
}

// latestRuns maps each wanted run name to the artifact directory of its
// latest attempt, from the runs' records.
func latestRuns(ctx context.Context, r *artifact.Reader, names []string) (map[string]string, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	dirs, attempts := map[string]string{}, map[string]int{}
	for _, e := range r.Entries() {
		dir, file := path.Split(e.Name)
		if file != record.FileName || strings.Count(e.Name, "/") != 1 {
			continue
		}
		data, err := r.ReadFile(ctx, e.Name)
		if err != nil {
			return nil, err
		}
		rec, err := record.Parse(data, e.Name)
		if err != nil {
			return nil, err
		}
		if want[rec.Name] && rec.Attempt > attempts[rec.Name] {
			dirs[rec.Name], attempts[rec.Name] = strings.TrimSuffix(dir, "/"), rec.Attempt
		}
	}
	return dirs, nil
}

// explain turns a lookup failure into the reason the report gives.
func explain(ctx context.Context, err error, budget time.Duration) string {
	var er *github.ErrorResponse
	var rl *github.RateLimitError
	var abuse *github.AbuseRateLimitError
	switch {
	case ctx.Err() != nil:
		return fmt.Sprintf("the base run's lookup took longer than %s: %v", budget, err)
	case errors.As(err, &rl), errors.As(err, &abuse):
		return "GitHub's rate limit stopped the base run's lookup: " + err.Error()
	case errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusForbidden:
		return "GitHub refused to list the base run (403): the token needs `actions: read` (a fork's pull request may not have it): " + err.Error()
	case errors.Is(err, artifact.ErrHashMismatch):
		return "the base run's test index does not match its artifact's hashes, so it is not used: " + err.Error()
	}
	return err.Error()
}

func short(sha string) string { return sha[:min(len(sha), 7)] }

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(n)
	}
	return out
}
