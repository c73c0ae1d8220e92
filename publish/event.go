package publish

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v62/github"
)

// PRRef is the pull request a run reports to, and how it was found.
type PRRef struct {
	Number int
	// Source is "input", "event", "commit" or "none".
	Source string
	// Fork is true when the head repository differs from the base: expect a
	// read-only token and publish to the summary if the comment fails.
	Fork bool
	// Note says why no pull request was found, for the summary.
	Note string
}

// event holds the few payload fields FindPR reads.
type event struct {
	Number      int `json:"number"`
	PullRequest *struct {
		Number int `json:"number"`
		Head   struct {
			SHA  string `json:"sha"`
			Repo *struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"head"`
		Base struct {
			Repo struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"base"`
	} `json:"pull_request"`
	After       string             `json:"after"`
	Repository  struct{ ID int64 } `json:"repository"`
	WorkflowRun *struct {
		PullRequests []struct {
			Number int `json:"number"`
			Base   struct {
				Repo struct{ ID int64 } `json:"repo"`
			} `json:"base"`
		} `json:"pull_requests"`
	} `json:"workflow_run"`
}

func readEvent(path string) (event, error) {
	var ev event
	if path == "" {
		return ev, nil
	}
	return ev, readJSON(path, &ev)
}

// FindPR finds the pull request for this run: Config.PR if set; the payload of
// a pull_request or pull_request_target event; for push, the open pull
// requests whose head is the pushed commit; for workflow_run, the payload's
// pull requests into this repository (none for forks: pass Config.PR).
func (p *Publisher) FindPR(ctx context.Context) (PRRef, error) {
	if p.cfg.PR > 0 {
		return PRRef{Number: p.cfg.PR, Source: "input"}, nil
	}
	ev, err := readEvent(p.cfg.EventPath)
	if err != nil {
		return PRRef{Source: "none"}, err
	}
	switch p.cfg.EventName {
	case "pull_request", "pull_request_target", "pull_request_review", "pull_request_review_comment":
		return prFromPayload(ev), nil
	case "push":
		return p.prFromCommit(ctx, cmp.Or(p.cfg.SHA, ev.After))
	case "workflow_run":
		return prFromWorkflowRun(ev), nil
	}
	return PRRef{Source: "none", Note: fmt.Sprintf("event %q carries no pull request and none was given", p.cfg.EventName)}, nil
}

func prFromPayload(ev event) PRRef {
	if ev.PullRequest == nil || ev.PullRequest.Number == 0 {
		return PRRef{Source: "none", Note: "the event payload holds no pull request"}
	}
	pr := ev.PullRequest
	fork := pr.Head.Repo == nil || !strings.EqualFold(pr.Head.Repo.FullName, pr.Base.Repo.FullName)
	return PRRef{Number: pr.Number, Source: "event", Fork: fork}
}

func prFromWorkflowRun(ev event) PRRef {
	if ev.WorkflowRun != nil {
		for _, pr := range ev.WorkflowRun.PullRequests {
			// The list can name pull requests of other repositories that
			// share the head branch; only ours can take the comment.
			if pr.Base.Repo.ID == ev.Repository.ID && pr.Number > 0 {
				return PRRef{Number: pr.Number, Source: "event"}
			}
		}
	}
	return PRRef{Source: "none", Note: "workflow_run lists no pull request of this repository (always so for forks): pass the number the triggering run recorded"}
}

func (p *Publisher) prFromCommit(ctx context.Context, sha string) (PRRef, error) {
	if sha == "" {
		return PRRef{Source: "none", Note: "push without a commit sha"}, nil
	}
	prs, _, err := p.gh.PullRequests.ListPullRequestsWithCommit(ctx, p.owner, p.repo, sha, &github.ListOptions{PerPage: 100})
	if err != nil {
		return PRRef{Source: "none"}, fmt.Errorf("list pull requests of commit %s: %w", sha, p.redact(err))
	}
	full := p.owner + "/" + p.repo
	for _, pr := range prs {
		// The endpoint also returns merged and closed pull requests that
		// merely contain the commit; only an open one headed by it is ours.
		if pr.GetState() == "open" && pr.GetHead().GetSHA() == sha &&
			strings.EqualFold(pr.GetBase().GetRepo().GetFullName(), full) {
			fork := !strings.EqualFold(pr.GetHead().GetRepo().GetFullName(), full)
			return PRRef{Number: pr.GetNumber(), Source: "commit", Fork: fork}, nil
		}
	}
	return PRRef{Source: "none", Note: fmt.Sprintf("no open pull request has head %s", sha)}, nil
}
