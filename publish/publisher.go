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
//	res, err := p.Upsert(ctx, ref.Number, publish.Section{Key: workflow+"/"+job+"/"+matrix, ...})
//	// res.Warnings (read-only token, 403/404) go to the summary; err fails the step
//	omitted := step.Annotate(failures)    // ≤ 10 ::error lines; count the rest in the summary
//	step.WriteSummary(markdown)           // cut to stay under 1 MiB
//	step.WriteOutputs(publish.Outputs{...})
//
// A job after the matrix can instead collect every leg's section and call
// Aggregate once.
//
// It calls GitHub only through githubapi's one retrying client, which
// never hard-codes github.com: the API base comes from GITHUB_API_URL and
// links from GITHUB_SERVER_URL.
//
// Permission failures on the comment (a fork pull request's read-only token,
// a 403 or 404) are returned as warnings, never as errors, so a report that
// cannot be posted does not fail the step; the summary and outputs still say
// what happened.
package publish

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/runledger/runledger/githubapi"
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
	Retry      githubapi.RetryPolicy
	// Now and Sleep are injectable so tests do not wait; Sleep must return
	// ctx.Err() when ctx ends first.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// MaxTries bounds Upsert's write-verify-repair rounds; 0 means 8.
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

// Publisher posts to one repository through its GitHub client, which also
// serves the step's reads (workflow runs, jobs, artifacts). It is safe for
// concurrent use.
type Publisher struct {
	*githubapi.Client
	cfg Config

	authorOnce sync.Once
	author     string
	authorErr  error
}

// New checks cfg and builds the publisher's GitHub client.
func New(cfg Config) (*Publisher, error) {
	api, err := githubapi.New(githubapi.Config{APIURL: cfg.APIURL, ServerURL: cfg.ServerURL, Repo: cfg.Repo, Token: cfg.Token,
		HTTPClient: cfg.HTTPClient, Retry: cfg.Retry, Now: cfg.Now, Sleep: cfg.Sleep})
	if err != nil {
		return nil, err
	}
	if cfg.Sleep == nil {
		cfg.Sleep = githubapi.Sleep
	}
	if cfg.MaxTries <= 0 {
		cfg.MaxTries = 8
	}
	if cfg.Settle <= 0 {
		cfg.Settle = 2 * time.Second
	}
	return &Publisher{Client: api, cfg: cfg}, nil
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
		p.author, p.authorErr = p.Login(ctx)
		if errors.Is(p.authorErr, githubapi.ErrNoUser) {
			p.author, p.authorErr = ActionsBot, nil
		}
	})
	return p.author, p.authorErr
}
