package githubapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/go-github/v62/github"
)

// ErrNoUser is Login's answer when GitHub refuses GET /user with 403, as it
// does for an installation token such as the default GITHUB_TOKEN.
var ErrNoUser = errors.New("GET /user: 403: the token is not a user's")

// Login is the login of the token's user (GET /user).
func (c *Client) Login(ctx context.Context) (string, error) {
	u, resp, err := c.gh.Users.Get(ctx, "")
	switch {
	case err == nil && u.GetLogin() != "":
		return u.GetLogin(), nil
	case resp != nil && resp.StatusCode == http.StatusForbidden:
		return "", ErrNoUser
	case err == nil:
		return "", errors.New("GET /user: no login in the answer")
	}
	return "", fmt.Errorf("GET /user: %w", c.redact(err))
}

// Comment is one pull request comment.
type Comment struct {
	ID     int64
	Body   string
	Author string // the login of its user
	URL    string // its page
}

func commentOf(ic *github.IssueComment) Comment {
	return Comment{ID: ic.GetID(), Body: ic.GetBody(), Author: ic.GetUser().GetLogin(), URL: ic.GetHTMLURL()}
}

// Comments lists every comment of pull request pr, page by page, handing
// each page to each: a long thread is never held whole.
func (c *Client) Comments(ctx context.Context, pr int, each func(Comment)) error {
	opt := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := c.gh.Issues.ListComments(ctx, c.owner, c.repo, pr, opt)
		if err != nil {
			return c.redact(err)
		}
		for _, ic := range cs {
			each(commentOf(ic))
		}
		if resp.NextPage == 0 {
			return nil
		}
		opt.Page = resp.NextPage
	}
}

// CreateComment posts a comment on pull request pr.
func (c *Client) CreateComment(ctx context.Context, pr int, body string) (Comment, error) {
	ic, _, err := c.gh.Issues.CreateComment(ctx, c.owner, c.repo, pr, &github.IssueComment{Body: &body})
	if err != nil {
		return Comment{}, fmt.Errorf("create comment on pull request #%d: %w", pr, c.redact(err))
	}
	return commentOf(ic), nil
}

// EditComment replaces comment id's body.
func (c *Client) EditComment(ctx context.Context, id int64, body string) error {
	if _, _, err := c.gh.Issues.EditComment(ctx, c.owner, c.repo, id, &github.IssueComment{Body: &body}); err != nil {
		return fmt.Errorf("edit comment %d: %w", id, c.redact(err))
	}
	return nil
}

// DeleteComment deletes comment id.
func (c *Client) DeleteComment(ctx context.Context, id int64) error {
	if _, err := c.gh.Issues.DeleteComment(ctx, c.owner, c.repo, id); err != nil {
		return fmt.Errorf("delete comment %d: %w", id, c.redact(err))
	}
	return nil
}

// PullRequest is what finding a commit's pull request needs of one.
type PullRequest struct {
	Number   int
	State    string
	HeadSHA  string
	HeadRepo string // owner/name of the head's repository
	BaseRepo string
}

// PullRequestsWithCommit lists the pull requests that contain commit sha
// (one page of 100): open, closed and merged alike.
func (c *Client) PullRequestsWithCommit(ctx context.Context, sha string) ([]PullRequest, error) {
	prs, _, err := c.gh.PullRequests.ListPullRequestsWithCommit(ctx, c.owner, c.repo, sha, &github.ListOptions{PerPage: 100})
	if err != nil {
		return nil, fmt.Errorf("list pull requests of commit %s: %w", sha, c.redact(err))
	}
	out := make([]PullRequest, 0, len(prs))
	for _, pr := range prs {
		out = append(out, PullRequest{Number: pr.GetNumber(), State: pr.GetState(), HeadSHA: pr.GetHead().GetSHA(),
			HeadRepo: pr.GetHead().GetRepo().GetFullName(), BaseRepo: pr.GetBase().GetRepo().GetFullName()})
	}
	return out, nil
}
