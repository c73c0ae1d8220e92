package githubapi

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// RetryPolicy bounds how the client retries GitHub's transient answers.
type RetryPolicy struct {
	// MaxAttempts counts the first try; 0 means 6.
	MaxAttempts int
	// Budget bounds the total time one request may spend waiting between
	// attempts; a wait that would overrun it is not taken. 0 means 5 minutes.
	Budget time.Duration
	// Base is the first backoff for 5xx and network errors; 0 means 1 s.
	Base time.Duration
}

// rateLimitFloor is GitHub's advice for a rate-limited answer that names no
// wait: "wait for at least one minute before retrying".
const rateLimitFloor = time.Minute

func (r RetryPolicy) withDefaults() RetryPolicy {
	if r.MaxAttempts <= 0 {
		r.MaxAttempts = 6
	}
	if r.Budget <= 0 {
		r.Budget = 5 * time.Minute
	}
	if r.Base <= 0 {
		r.Base = time.Second
	}
	return r
}

// attemptState is per request; it rides in the request's context because
// retryablehttp's CheckRetry sees the context but not the attempt number.
type attemptState struct {
	attempts int
	waited   time.Duration
}

type attemptKey struct{}

// stateTransport gives every request a fresh attemptState before retryablehttp
// sees it, so one shared client can serve concurrent callers.
type stateTransport struct{ next http.RoundTripper }

func (t stateTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := context.WithValue(req.Context(), attemptKey{}, &attemptState{})
	return t.next.RoundTrip(req.WithContext(ctx))
}

var _ http.RoundTripper = stateTransport{}

// newHTTPClient builds the one client the run uses. retryablehttp's own timer
// cannot be replaced, so the waiting happens in CheckRetry through the
// injectable sleeper and Backoff returns zero.
func newHTTPClient(base *http.Client, pol RetryPolicy, now func() time.Time, sleep func(context.Context, time.Duration) error) *http.Client {
	pol = pol.withDefaults()
	rc := retryablehttp.NewClient()
	rc.HTTPClient = base
	rc.Logger = nil // its log lines would go to stderr unasked
	rc.RetryMax = 1 << 20
	rc.Backoff = func(time.Duration, time.Duration, int, *http.Response) time.Duration { return 0 }
	rc.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		return checkRetry(ctx, resp, err, pol, now, sleep)
	}
	// Give the caller GitHub's last answer rather than retryablehttp's
	// "giving up" error, so go-github can report status and message.
	rc.ErrorHandler = retryablehttp.PassthroughErrorHandler
	return &http.Client{Transport: stateTransport{next: &retryablehttp.RoundTripper{Client: rc}}}
}

func checkRetry(ctx context.Context, resp *http.Response, err error, pol RetryPolicy, now func() time.Time, sleep func(context.Context, time.Duration) error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	st, _ := ctx.Value(attemptKey{}).(*attemptState)
	if st == nil {
		st = &attemptState{}
	}
	st.attempts++
	wait, retry := retryWait(resp, err, st.attempts, pol, now)
	if !retry || st.attempts >= pol.MaxAttempts || st.waited+wait > pol.Budget {
		return false, nil
	}
	st.waited += wait
	if serr := sleep(ctx, wait); serr != nil {
		return false, serr
	}
	return true, nil
}

// retryWait says whether an answer is transient and how long to wait first.
func retryWait(resp *http.Response, err error, attempt int, pol RetryPolicy, now func() time.Time) (time.Duration, bool) {
	if err != nil {
		ok, _ := retryablehttp.DefaultRetryPolicy(context.Background(), resp, err)
		return backoff(pol.Base, attempt), ok
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return rateLimitWait(resp, attempt, now), true
	case resp.StatusCode == http.StatusForbidden && isRateLimited(resp):
		return rateLimitWait(resp, attempt, now), true
	case resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented:
		return backoff(pol.Base, attempt), true
	}
	return 0, false
}

// backoff doubles from base with up to 25 % jitter so concurrent matrix jobs
// do not retry in step.
func backoff(base time.Duration, attempt int) time.Duration {
	d := base << min(attempt-1, 8)
	return d + time.Duration(rand.Int64N(int64(d)/4+1))
}

// rateLimitWait honours retry-after, then x-ratelimit-reset when the quota is
// spent, else waits at least a minute, doubling per attempt.
func rateLimitWait(resp *http.Response, attempt int, now func() time.Time) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After"))); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if resp.Header.Get("X-Ratelimit-Remaining") == "0" {
		if reset, err := strconv.ParseInt(resp.Header.Get("X-Ratelimit-Reset"), 10, 64); err == nil {
			if d := time.Unix(reset, 0).Sub(now()); d > 0 {
				return d + time.Second
			}
			return time.Second
		}
	}
	return rateLimitFloor << min(attempt-1, 4)
}

// isRateLimited tells a rate-limited 403 from a permission 403 ("Resource not
// accessible by integration"), which must not be retried. It peeks at the body
// and puts it back for the caller.
func isRateLimited(resp *http.Response) bool {
	if resp.Header.Get("Retry-After") != "" || resp.Header.Get("X-Ratelimit-Remaining") == "0" {
		return true
	}
	if resp.Body == nil {
		return false
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return bytes.Contains(bytes.ToLower(body), []byte("rate limit"))
}

// Sleep is the real sleeper (Config.Sleep's default): a timer that gives up when ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
