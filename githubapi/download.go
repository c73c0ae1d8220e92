package githubapi

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/runledger/runledger/artifact"
)

// OpenArtifact opens artifact id for ranged, verified reads (see
// artifact.OpenRemote): only the entries asked for are downloaded. The
// download's redirect is asked for through the plain client, not
// go-github's, and never followed: go-github puts the token on every
// request, and the blob host it redirects to must never see it.
func (c *Client) OpenArtifact(ctx context.Context, id int64) (*artifact.Reader, error) {
	rest := noFollow(c.cfg.HTTPClient, c.cfg.Retry, c.cfg.Now, c.cfg.Sleep)
	r, err := openArtifact(ctx, c.cfg.HTTPClient, rest, c.cfg.APIURL, c.Repo(), id, c.cfg.Token)
	return r, c.redact(err)
}

// OpenArtifact opens artifact id of repo ("owner/name") through the REST
// API at apiURL (GITHUB_API_URL) with token, for a caller with no Client
// (the CLI's show and the MCP server, which read an artifact by id).
func OpenArtifact(ctx context.Context, client *http.Client, apiURL, repo string, id int64, token string) (*artifact.Reader, error) {
	if client == nil {
		client = http.DefaultClient
	}
	if _, _, err := splitRepo(repo); err != nil {
		return nil, err
	}
	rest := noFollow(client, RetryPolicy{}, time.Now, Sleep)
	return openArtifact(ctx, client, rest, apiURL, repo, id, token)
}

// openArtifact asks the API through rest, GitHub's retrying client, and
// reads the blob through client.
func openArtifact(ctx context.Context, client, rest *http.Client, apiURL, repo string, id int64, token string) (*artifact.Reader, error) {
	resolve := func(ctx context.Context) (*url.URL, error) {
		return downloadURL(ctx, rest, apiURL, repo, id, token)
	}
	return artifact.OpenRemote(ctx, client, fmt.Sprintf("artifact %d", id), resolve)
}

// OpenArtifactFromEnv is OpenArtifact with the API URL and token the way gh
// and the runner give them: GITHUB_API_URL (default
// https://api.github.com), and GITHUB_TOKEN, else GH_TOKEN.
func OpenArtifactFromEnv(ctx context.Context, client *http.Client, getenv func(string) string, repo string, id int64) (*artifact.Reader, error) {
	token := cmp.Or(getenv("GITHUB_TOKEN"), getenv("GH_TOKEN"))
	api := cmp.Or(getenv("GITHUB_API_URL"), "https://api.github.com")
	return OpenArtifact(ctx, client, api, repo, id, token)
}

// noFollow is GitHub's retrying client over base that hands back a
// redirect instead of following it, at both layers: retryablehttp's
// inner client and the outer one.
func noFollow(base *http.Client, pol RetryPolicy, now func() time.Time, sleep func(context.Context, time.Duration) error) *http.Client {
	stop := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	inner := *base
	inner.CheckRedirect = stop
	c := newHTTPClient(&inner, pol, now, sleep)
	c.CheckRedirect = stop
	return c
}

// maxRedirectBody bounds what is read of the API's answer to a download:
// a redirect has no body worth reading.
const maxRedirectBody = 1 << 20

// downloadURL asks the API, through client (noFollow's), for the artifact's zip and returns the
// redirect's target (a signed blob URL) without fetching it.
func downloadURL(ctx context.Context, client *http.Client, apiURL, repo string, id int64, token string) (*url.URL, error) {
	endpoint := fmt.Sprintf("%s/repos/%s/actions/artifacts/%d/zip", strings.TrimSuffix(apiURL, "/"), repo, id)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return nil, fmt.Errorf("download artifact %d: %w", id, err)
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("User-Agent", "runledger")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("download artifact %d: %w", id, err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxRedirectBody))
	return redirectTarget(resp, id, repo)
}

func redirectTarget(resp *http.Response, id int64, repo string) (*url.URL, error) {
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return nil, fmt.Errorf("download artifact %d of %s: HTTP %d: no such artifact (expired or deleted?)", id, repo, resp.StatusCode)
	case resp.StatusCode == http.StatusOK:
		return nil, fmt.Errorf("download artifact %d of %s: the API served the zip itself, not a redirect to its blob", id, repo)
	case resp.StatusCode/100 != 3:
		return nil, fmt.Errorf("download artifact %d of %s: HTTP %d", id, repo, resp.StatusCode)
	}
	loc, err := resp.Location()
	if err != nil || loc.Host == "" {
		return nil, fmt.Errorf("download artifact %d of %s: redirect without a usable Location", id, repo)
	}
	return loc, nil
}
