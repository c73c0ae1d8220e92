package publish

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/google/go-github/v62/github"

	"github.com/runledger/runledger/artifact"
)

// Base is the commit a run's change is measured against, from the event:
// a pull request's base commit and branch, or for a push the commit
// before it on the pushed branch.
type Base struct {
	SHA, Branch string
	// Note says why there is none (an event without a base, a new branch).
	Note string
}

// BaseOf reads the event payload at path for event name.
func BaseOf(eventName, path string) Base {
	var ev struct {
		PullRequest *struct {
			Base struct {
				SHA string `json:"sha"`
				Ref string `json:"ref"`
			} `json:"base"`
		} `json:"pull_request"`
		Before string `json:"before"`
		Ref    string `json:"ref"`
	}
	if path == "" {
		return Base{Note: "no event payload (GITHUB_EVENT_PATH is unset)"}
	}
	if err := readJSON(path, &ev); err != nil {
		return Base{Note: err.Error()}
	}
	switch {
	case ev.PullRequest != nil && ev.PullRequest.Base.SHA != "":
		return Base{SHA: ev.PullRequest.Base.SHA, Branch: ev.PullRequest.Base.Ref}
	case eventName == "push" && strings.Trim(ev.Before, "0") == "":
		return Base{Note: "the push created its branch: there is no earlier commit on it"}
	case eventName == "push" && ev.Before != "":
		return Base{SHA: ev.Before, Branch: strings.TrimPrefix(ev.Ref, "refs/heads/")}
	}
	return Base{Note: fmt.Sprintf("a %s event names no base commit", eventName)}
}

// WorkflowRun is what the baseline lookup needs of a workflow run.
type WorkflowRun struct {
	ID         int64
	Attempt    int
	HeadSHA    string
	Branch     string
	Event      string
	Status     string
	Conclusion string
	URL        string
}

// RunQuery filters a workflow's runs as GitHub's API does.
type RunQuery struct {
	HeadSHA, Branch, Event string
	PerPage                int
}

// WorkflowRuns lists the completed runs of workflow file (its name under
// .github/workflows, e.g. ci.yml), newest first, one page.
func (p *Publisher) WorkflowRuns(ctx context.Context, file string, q RunQuery) ([]WorkflowRun, error) {
	opts := &github.ListWorkflowRunsOptions{HeadSHA: q.HeadSHA, Branch: q.Branch, Event: q.Event,
		Status: "completed", ListOptions: github.ListOptions{PerPage: max(q.PerPage, 1)}}
	list, _, err := p.gh.Actions.ListWorkflowRunsByFileName(ctx, p.owner, p.repo, file, opts)
	if err != nil {
		return nil, fmt.Errorf("list runs of workflow %s: %w", file, p.redact(err))
	}
	var out []WorkflowRun
	for _, r := range list.WorkflowRuns {
		out = append(out, WorkflowRun{ID: r.GetID(), Attempt: r.GetRunAttempt(), HeadSHA: r.GetHeadSHA(),
			Branch: r.GetHeadBranch(), Event: r.GetEvent(), Status: r.GetStatus(),
			Conclusion: r.GetConclusion(), URL: r.GetHTMLURL()})
	}
	return out, nil
}

// Artifact is one artifact of a workflow run.
type Artifact struct {
	ID      int64
	Name    string
	Expired bool
	Size    int64
}

// Artifacts lists the first 100 artifacts of a workflow run, expired ones
// included, so that a caller can say an artifact expired rather than that
// it was never there.
func (p *Publisher) Artifacts(ctx context.Context, runID int64) ([]Artifact, error) {
	list, _, err := p.gh.Actions.ListWorkflowRunArtifacts(ctx, p.owner, p.repo, runID, &github.ListOptions{PerPage: 100})
	if err != nil {
		return nil, fmt.Errorf("list artifacts of run %d: %w", runID, p.redact(err))
	}
	var out []Artifact
	for _, a := range list.Artifacts {
		out = append(out, Artifact{ID: a.GetID(), Name: a.GetName(), Expired: a.GetExpired(), Size: a.GetSizeInBytes()})
	}
	return out, nil
}

// OpenArtifact opens an artifact for ranged, verified reads (see
// artifact.Open): only the entries asked for are downloaded. It goes
// through the plain client, not go-github's: that one puts the token on
// every request, and the download is redirected to a blob host that must
// never see it.
func (p *Publisher) OpenArtifact(ctx context.Context, id int64) (*artifact.Reader, error) {
	r, err := artifact.Open(ctx, p.cfg.HTTPClient, p.cfg.APIURL, p.owner+"/"+p.repo, id, p.cfg.Token)
	return r, p.redact(err)
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read event payload: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("parse event payload %s: %w", path, err)
	}
	return nil
}

// JobURL is the page of the job running on runner (RUNNER_NAME) in the
// given attempt of workflow run runID: the job whose log a reader opens.
// The runner does not give a step its job's id, so the attempt's jobs are
// listed (one call) and the one in progress on this runner is taken; ""
// when there is not exactly one.
func (p *Publisher) JobURL(ctx context.Context, runID int64, attempt int, runner string) (string, error) {
	if runID <= 0 || attempt <= 0 || runner == "" {
		return "", nil
	}
	jobs, _, err := p.gh.Actions.ListWorkflowJobsAttempt(ctx, p.owner, p.repo, runID, int64(attempt), &github.ListOptions{PerPage: 100})
	if err != nil {
		return "", fmt.Errorf("list jobs of run %d attempt %d: %w", runID, attempt, p.redact(err))
	}
	url := ""
	for _, j := range jobs.Jobs {
		if j.GetRunnerName() != runner || j.GetStatus() != "in_progress" {
			continue
		}
		if url != "" {
			return "", nil // two jobs on one runner: which is this one cannot be told
		}
		url = j.GetHTMLURL()
	}
	return url, nil
}
