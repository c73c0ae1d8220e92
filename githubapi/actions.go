package githubapi

import (
	"context"
	"fmt"

	"github.com/google/go-github/v62/github"
)

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
func (c *Client) WorkflowRuns(ctx context.Context, file string, q RunQuery) ([]WorkflowRun, error) {
	opts := &github.ListWorkflowRunsOptions{HeadSHA: q.HeadSHA, Branch: q.Branch, Event: q.Event,
		Status: "completed", ListOptions: github.ListOptions{PerPage: max(q.PerPage, 1)}}
	list, _, err := c.gh.Actions.ListWorkflowRunsByFileName(ctx, c.owner, c.repo, file, opts)
	if err != nil {
		return nil, fmt.Errorf("list runs of workflow %s: %w", file, c.redact(err))
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
func (c *Client) Artifacts(ctx context.Context, runID int64) ([]Artifact, error) {
	list, _, err := c.gh.Actions.ListWorkflowRunArtifacts(ctx, c.owner, c.repo, runID, &github.ListOptions{PerPage: 100})
	if err != nil {
		return nil, fmt.Errorf("list artifacts of run %d: %w", runID, c.redact(err))
	}
	var out []Artifact
	for _, a := range list.Artifacts {
		out = append(out, Artifact{ID: a.GetID(), Name: a.GetName(), Expired: a.GetExpired(), Size: a.GetSizeInBytes()})
	}
	return out, nil
}

// maxArtifactPages bounds RunArtifacts: 1,000 artifacts, more than the 500
// legs a workflow run can have.
const maxArtifactPages = 10

// RunArtifacts maps the names of workflow run runID's unexpired artifacts
// to their ids, reading every page of the listing.
func (c *Client) RunArtifacts(ctx context.Context, runID int64) (map[string]int64, error) {
	ids := map[string]int64{}
	opt := &github.ListOptions{PerPage: 100}
	for range maxArtifactPages {
		list, resp, err := c.gh.Actions.ListWorkflowRunArtifacts(ctx, c.owner, c.repo, runID, opt)
		if err != nil {
			return nil, fmt.Errorf("list artifacts of run %d: %w", runID, c.redact(err))
		}
		for _, a := range list.Artifacts {
			if !a.GetExpired() {
				ids[a.GetName()] = a.GetID()
			}
		}
		if resp.NextPage == 0 {
			return ids, nil
		}
		opt.Page = resp.NextPage
	}
	return ids, fmt.Errorf("list artifacts of run %d: more than %d pages", runID, maxArtifactPages)
}

// JobURL is the page of the job running on runner (RUNNER_NAME) in the
// given attempt of workflow run runID: the job whose log a reader opens.
// The runner does not give a step its job's id, so the attempt's jobs are
// listed (one call) and the one in progress on this runner is taken; ""
// when there is not exactly one.
func (c *Client) JobURL(ctx context.Context, runID int64, attempt int, runner string) (string, error) {
	if runID <= 0 || attempt <= 0 || runner == "" {
		return "", nil
	}
	jobs, _, err := c.gh.Actions.ListWorkflowJobsAttempt(ctx, c.owner, c.repo, runID, int64(attempt), &github.ListOptions{PerPage: 100})
	if err != nil {
		return "", fmt.Errorf("list jobs of run %d attempt %d: %w", runID, attempt, c.redact(err))
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
