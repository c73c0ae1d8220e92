package publish

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
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
	data, err := os.ReadFile(path)
	if err != nil {
		return ev, fmt.Errorf("read event payload: %w", err)
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return ev, fmt.Errorf("parse event payload %s: %w", path, err)
	}
	return ev, nil
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
	prs, err := p.PullRequestsWithCommit(ctx, sha)
	if err != nil {
		return PRRef{Source: "none"}, err
	}
	full := p.Repo()
	for _, pr := range prs {
		// The endpoint also returns merged and closed pull requests that
		// merely contain the commit; only an open one headed by it is ours.
		if pr.State == "open" && pr.HeadSHA == sha && strings.EqualFold(pr.BaseRepo, full) {
			fork := !strings.EqualFold(pr.HeadRepo, full)
			return PRRef{Number: pr.Number, Source: "commit", Fork: fork}, nil
		}
	}
	return PRRef{Source: "none", Note: fmt.Sprintf("no open pull request has head %s", sha)}, nil
}
