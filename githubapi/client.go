// Package githubapi is runledger's one client for GitHub's REST API: the
// pull request's comments, the commit's pull requests, the token's user,
// workflow runs, their jobs and artifacts, and the redirect an artifact's
// download answers with. Every call goes through one retrying http.Client
// (retry.go) and go-github, at the API base the runner names
// (GITHUB_API_URL, which on GitHub Enterprise Server is not github.com),
// and no error it returns carries the token.
//
// It renders nothing and decides nothing: publish composes and posts the
// comment through it, baseline and the show/MCP commands read artifacts
// through it.
package githubapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"
	"github.com/hashicorp/go-cleanhttp"
)

// Config says which API to call and as whom. Zero values fall back to safe
// defaults; the caller fills it from the runner's environment (FromEnv).
type Config struct {
	APIURL    string // GITHUB_API_URL, e.g. https://api.github.com or https://HOST/api/v3
	ServerURL string // GITHUB_SERVER_URL, for links
	Repo      string // owner/name (GITHUB_REPOSITORY)
	Token     string // never printed, never in an error
	// HTTPClient is the base client; the client wraps it with retries.
	HTTPClient *http.Client
	Retry      RetryPolicy
	// Now and Sleep are injectable so tests do not wait; Sleep must return
	// ctx.Err() when ctx ends first.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// FromEnv fills a Config from the variables the runner sets. The token is
// not among them in a Docker action: pass it from the action's input.
func FromEnv(getenv func(string) string, token string) Config {
	return Config{
		APIURL:    getenv("GITHUB_API_URL"),
		ServerURL: getenv("GITHUB_SERVER_URL"),
		Repo:      getenv("GITHUB_REPOSITORY"),
		Token:     token,
	}
}

// Client calls one repository's REST API. It is safe for concurrent use.
type Client struct {
	cfg   Config
	owner string
	repo  string
	gh    *github.Client
}

// New checks cfg and builds the client's single HTTP client.
func New(cfg Config) (*Client, error) {
	owner, repo, err := splitRepo(cfg.Repo)
	if err != nil {
		return nil, err
	}
	if cfg.APIURL == "" {
		return nil, errors.New("no API URL: GITHUB_API_URL is unset")
	}
	base, err := url.Parse(strings.TrimSuffix(cfg.APIURL, "/") + "/")
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("API URL %q: not an absolute URL", cfg.APIURL)
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = cleanhttp.DefaultPooledClient()
		cfg.HTTPClient.Timeout = 60 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = Sleep
	}
	gh := github.NewClient(newHTTPClient(cfg.HTTPClient, cfg.Retry, cfg.Now, cfg.Sleep))
	if cfg.Token != "" {
		gh = gh.WithAuthToken(cfg.Token)
	}
	// Set directly: WithEnterpriseURLs would append /api/v3 to a URL that
	// already has it.
	gh.BaseURL = base
	return &Client{cfg: cfg, owner: owner, repo: repo, gh: gh}, nil
}

func splitRepo(full string) (owner, repo string, err error) {
	owner, repo, ok := strings.Cut(full, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		return "", "", fmt.Errorf("repository %q: want owner/name", full)
	}
	return owner, repo, nil
}

// Repo is the repository the client calls, owner/name.
func (c *Client) Repo() string { return c.owner + "/" + c.repo }

// redact keeps the token out of any error text that reaches a log.
func (c *Client) redact(err error) error {
	if err == nil || c.cfg.Token == "" || !strings.Contains(err.Error(), c.cfg.Token) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), c.cfg.Token, "***"))
}

// link builds a URL on the web host (GITHUB_SERVER_URL), which on GitHub
// Enterprise Server is not github.com.
func (c *Client) link(path string) string {
	return strings.TrimSuffix(c.cfg.ServerURL, "/") + "/" + strings.TrimPrefix(path, "/")
}

// ArtifactURL links an uploaded artifact on the run's page.
func (c *Client) ArtifactURL(runID, artifactID int64) string {
	return c.link(fmt.Sprintf("%s/%s/actions/runs/%d/artifacts/%d", c.owner, c.repo, runID, artifactID))
}

// IsPermission reports a 403 or 404 answer: a read-only token, a missing
// scope, or a pull request the token cannot see.
func IsPermission(err error) bool {
	s := status(err)
	return s == http.StatusForbidden || s == http.StatusNotFound
}

// IsNotFound reports a 404 answer.
func IsNotFound(err error) bool { return status(err) == http.StatusNotFound }

// status is the HTTP status of a REST answer that was an error, else 0.
func status(err error) int {
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	return 0
}
