// Package publish is runledger's GitHub-facing side: it finds the pull request
// a run belongs to, keeps one sticky comment per pull request in which every
// job (matrix leg) owns a section, and writes the step's job summary, outputs
// and annotations.
//
// A step uses it in this order:
//
//	step := publish.NewStep(os.Stdout, os.Getenv)
//	step.Mask(token)                      // before anything can print it
//	p, err := publish.New(publish.ConfigFromEnv(os.Getenv, token))
//	ref, err := p.FindPR(ctx)             // ref.Source "none": summary and outputs only, say ref.Note
//	res, err := p.Aggregate(ctx, ref.Number, []publish.Section{{Key: workflow+"/"+job+"/"+matrix, ...}})
//	// res.Warnings (read-only token, 403/404) go to the summary; err fails the step
//	omitted := step.Annotate(failures)    // ≤ 10 ::error lines; count the rest in the summary
//	step.WriteSummary(markdown)           // cut to stay under 1 MiB
//	step.WriteOutputs(publish.Outputs{...})
//
// A job after the matrix can instead collect every leg's section and call
// Aggregate once.
//
// It talks to GitHub's REST API through go-github over one retrying
// http.Client, and never hard-codes github.com: the API base comes from
// GITHUB_API_URL and links from GITHUB_SERVER_URL.
//
// Permission failures on the comment (a fork pull request's read-only token,
// a 403 or 404) are returned as warnings, never as errors, so a report that
// cannot be posted does not fail the step; the summary and outputs still say
// what happened.
package publish

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/google/go-github/v62/github"
	"github.com/hashicorp/go-cleanhttp"
)

// ActionsBot is the login that authors comments made with the default
// GITHUB_TOKEN, for which GET /user answers 403.
const ActionsBot = "github-actions[bot]"

// Config says where and as whom to publish. Zero values fall back to the
// environment the runner sets (see ConfigFromEnv) and safe defaults.
type Config struct {
	APIURL    string // GITHUB_API_URL, e.g. https://api.github.com or https://HOST/api/v3
	ServerURL string // GITHUB_SERVER_URL, for links
	Repo      string // owner/name (GITHUB_REPOSITORY)
	Token     string // never printed; masked by Step.Mask
	EventName string // GITHUB_EVENT_NAME
	EventPath string // GITHUB_EVENT_PATH
	SHA       string // GITHUB_SHA
	// PR, when positive, is used as is. For workflow_run the caller passes the
	// number the triggering run recorded, since workflow_run.pull_requests is
	// empty for forks.
	PR int
	// Author overrides own-comment detection (e.g. "my-app[bot]").
	Author string
	// UpdateOnly edits an existing comment but never creates one (the
	// action's `comment: update-only`).
	UpdateOnly bool
	// HTTPClient is the base client; the publisher wraps it with retries.
	HTTPClient *http.Client
	Retry      RetryPolicy
	// Now and Sleep are injectable so tests do not wait; Sleep must return
	// ctx.Err() when ctx ends first.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// MaxTries bounds Aggregate's write-verify-repair rounds; 0 means 8.
	MaxTries int
	// Settle is the base pause before re-reading after a write, jittered
	// up to twice; 0 means 2 s.
	Settle time.Duration
}

// ConfigFromEnv fills a Config from the variables the runner sets. The token
// is not among them in a Docker action: pass it from the action's input.
func ConfigFromEnv(getenv func(string) string, token string) Config {
	return Config{
		APIURL:    getenv("GITHUB_API_URL"),
		ServerURL: getenv("GITHUB_SERVER_URL"),
		Repo:      getenv("GITHUB_REPOSITORY"),
		Token:     token,
		EventName: getenv("GITHUB_EVENT_NAME"),
		EventPath: getenv("GITHUB_EVENT_PATH"),
		SHA:       getenv("GITHUB_SHA"),
	}
}

// Publisher posts to one repository. It is safe for concurrent use.
type Publisher struct {
	cfg   Config
	owner string
	repo  string
	gh    *github.Client

	authorOnce sync.Once
	author     string
	authorErr  error
}

// New checks cfg and builds the publisher's single HTTP client.
func New(cfg Config) (*Publisher, error) {
	owner, repo, ok := strings.Cut(cfg.Repo, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		return nil, fmt.Errorf("repository %q: want owner/name", cfg.Repo)
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
		cfg.Sleep = sleepCtx
	}
	if cfg.MaxTries <= 0 {
		cfg.MaxTries = 8
	}
	if cfg.Settle <= 0 {
		cfg.Settle = 2 * time.Second
	}
	client := newHTTPClient(cfg.HTTPClient, cfg.Retry, cfg.Now, cfg.Sleep)
	gh := github.NewClient(client)
	if cfg.Token != "" {
		gh = gh.WithAuthToken(cfg.Token)
	}
	// Set directly: WithEnterpriseURLs would append /api/v3 to a URL that
	// already has it.
	gh.BaseURL = base
	return &Publisher{cfg: cfg, owner: owner, repo: repo, gh: gh}, nil
}

// Author is the login whose comments the publisher may edit: Config.Author,
// else GET /user, else ActionsBot when GitHub answers 403 (an installation
// token such as the default GITHUB_TOKEN).
func (p *Publisher) Author(ctx context.Context) (string, error) {
	p.authorOnce.Do(func() {
		if p.cfg.Author != "" {
			p.author = p.cfg.Author
			return
		}
		u, resp, err := p.gh.Users.Get(ctx, "")
		switch {
		case err == nil && u.GetLogin() != "":
			p.author = u.GetLogin()
		case resp != nil && resp.StatusCode == http.StatusForbidden:
			p.author = ActionsBot
		case err == nil:
			p.authorErr = errors.New("GET /user: no login in the answer")
		default:
			p.authorErr = fmt.Errorf("GET /user: %w", p.redact(err))
		}
	})
	return p.author, p.authorErr
}

// redact keeps the token out of any error text that reaches a log.
func (p *Publisher) redact(err error) error {
	if err == nil || p.cfg.Token == "" || !strings.Contains(err.Error(), p.cfg.Token) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), p.cfg.Token, "***"))
}

// link builds a URL on the web host (GITHUB_SERVER_URL), which on GitHub
// Enterprise Server is not github.com.
func (p *Publisher) link(path string) string {
	return strings.TrimSuffix(p.cfg.ServerURL, "/") + "/" + strings.TrimPrefix(path, "/")
}

// ArtifactURL links an uploaded artifact on the run's page.
func (p *Publisher) ArtifactURL(runID, artifactID int64) string {
	return p.link(fmt.Sprintf("%s/%s/actions/runs/%d/artifacts/%d", p.owner, p.repo, runID, artifactID))
}

// maxArtifactPages bounds RunArtifacts: 1,000 artifacts, more than the 500
// legs a workflow run can have.
const maxArtifactPages = 10

// RunArtifacts maps the names of workflow run runID's unexpired artifacts
// to their ids, reading every page of the listing.
func (p *Publisher) RunArtifacts(ctx context.Context, runID int64) (map[string]int64, error) {
	ids := map[string]int64{}
	opt := &github.ListOptions{PerPage: 100}
	for range maxArtifactPages {
		list, resp, err := p.gh.Actions.ListWorkflowRunArtifacts(ctx, p.owner, p.repo, runID, opt)
		if err != nil {
			return nil, fmt.Errorf("list artifacts of run %d: %w", runID, p.redact(err))
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

// isPermission reports a 403 or 404 answer: a read-only token, a missing
// scope, or a pull request the token cannot see.
func isPermission(err error) bool {
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode == http.StatusForbidden || er.Response.StatusCode == http.StatusNotFound
	}
	return false
}
