package githubapi

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/runledger/runledger/internal/fakegithub"
)

const (
	secondaryBody = `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits","status":"403"}`
	badGateway    = `{"message":"Server Error"}`
	notAccessible = `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest","status":"403"}`
)

func TestRetries(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) // the fake clock's start
	tests := []struct {
		name    string
		faults  []fault
		policy  RetryPolicy
		timeout time.Duration
		calls   int
		// sleeps checks the waits asked for; nil means none.
		sleeps  func(t *testing.T, d []time.Duration)
		wantErr string
	}{
		{
			name:   "502 twice then success",
			faults: []fault{{Status: 502, Body: badGateway}, {Status: 502, Body: badGateway}},
			calls:  3,
			sleeps: func(t *testing.T, d []time.Duration) {
				if len(d) != 2 || d[0] < time.Second || d[1] < 2*time.Second || d[1] > 3*time.Second {
					t.Errorf("backoff %v, want ~1s then ~2s", d)
				}
			},
		},
		{
			name:   "429 honours retry-after",
			faults: []fault{{Status: 429, Header: map[string]string{"Retry-After": "7"}, Body: `{"message":"API rate limit exceeded"}`}},
			calls:  2,
			sleeps: exactly(7 * time.Second),
		},
		{
			name:   "secondary limit 403 without headers waits at least a minute",
			faults: []fault{{Status: 403, Body: secondaryBody}},
			calls:  2,
			sleeps: func(t *testing.T, d []time.Duration) {
				if len(d) != 1 || d[0] < time.Minute {
					t.Errorf("waits %v, want one of at least 60s", d)
				}
			},
		},
		{
			name: "primary limit 403 waits until x-ratelimit-reset",
			faults: []fault{{Status: 403, Body: `{"message":"API rate limit exceeded for installation ID 1."}`, Header: map[string]string{
				"X-Ratelimit-Remaining": "0", "X-Ratelimit-Reset": strconv.FormatInt(start.Add(2*time.Minute).Unix(), 10),
			}}},
			calls:  2,
			sleeps: exactly(2*time.Minute + time.Second),
		},
		{
			name:    "permission 403 is not retried",
			faults:  []fault{{Status: 403, Body: notAccessible}},
			calls:   1,
			wantErr: "403 Resource not accessible by integration",
		},
		{
			name:    "404 is not retried",
			faults:  []fault{{Status: 404, Body: `{"message":"Not Found"}`}},
			calls:   1,
			wantErr: "404",
		},
		{
			name:    "422 is not retried",
			faults:  []fault{{Status: 422, Body: `{"message":"Validation Failed"}`}},
			calls:   1,
			wantErr: "422",
		},
		{
			name:    "attempts are bounded",
			faults:  repeat(fault{Status: 502, Body: badGateway}, 10),
			policy:  RetryPolicy{MaxAttempts: 3},
			calls:   3,
			sleeps:  count(2),
			wantErr: "502",
		},
		{
			name:    "total wait is bounded",
			faults:  repeat(fault{Status: 429, Body: `{"message":"slow down"}`}, 10),
			policy:  RetryPolicy{Budget: 3 * time.Minute, MaxAttempts: 10},
			calls:   3,
			sleeps:  exactly(time.Minute, 2*time.Minute),
			wantErr: "429",
		},
		{
			name:    "slow response times out and is retried",
			faults:  []fault{{Delay: 400 * time.Millisecond}},
			timeout: 100 * time.Millisecond,
			calls:   2,
			sleeps:  count(1),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakegithub.New(t, "")
			f.AddFault(routeUser, tt.faults...)
			p, clk := newTestClient(t, f, tokPersonal, func(c *Config) {
				c.Retry = tt.policy
				if tt.timeout > 0 {
					c.HTTPClient.Timeout = tt.timeout
				}
			})
			u, _, err := p.gh.Users.Get(context.Background(), "")
			switch {
			case tt.wantErr == "" && (err != nil || u.GetLogin() != "octocat"):
				t.Fatalf("want octocat, got %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("want error with %q, got %v", tt.wantErr, err)
			}
			if n := f.CallCount(routeUser); n != tt.calls {
				t.Errorf("%d calls, want %d", n, tt.calls)
			}
			if tt.sleeps == nil {
				tt.sleeps = count(0)
			}
			tt.sleeps(t, clk.Recorded())
		})
	}
}

func TestRetryStopsWhenContextEnds(t *testing.T) {
	f := fakegithub.New(t, "")
	f.AddFault(routeUser, fault{Status: 429, Body: `{"message":"slow down"}`})
	p, err := New(Config{APIURL: f.APIURL(), Repo: "o/r", Token: tokPersonal})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, _, err = p.gh.Users.Get(ctx, "")
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(began) > 5*time.Second {
		t.Fatalf("want deadline exceeded promptly, got %v after %v", err, time.Since(began))
	}
}

func exactly(want ...time.Duration) func(*testing.T, []time.Duration) {
	return func(t *testing.T, got []time.Duration) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("waits %v, want %v", got, want)
			return
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("waits %v, want %v", got, want)
			}
		}
	}
}

func count(n int) func(*testing.T, []time.Duration) {
	return func(t *testing.T, got []time.Duration) {
		t.Helper()
		if len(got) != n {
			t.Errorf("waits %v, want %d of them", got, n)
		}
	}
}

func repeat(f fault, n int) []fault {
	out := make([]fault, n)
	for i := range out {
		out[i] = f
	}
	return out
}

// TestNoHardCodedGitHub: every request goes to the configured API URL, and a
// missing one is an error rather than a silent github.com.
func TestNoHardCodedGitHub(t *testing.T) {
	if _, err := New(Config{Repo: "o/r"}); err == nil {
		t.Fatal("New without an API URL must fail")
	}
	for _, bad := range []string{"o", "/r", "o/", "o/r/x"} {
		if _, err := New(Config{APIURL: "https://ghes.example/api/v3", Repo: bad}); err == nil {
			t.Errorf("repository %q accepted", bad)
		}
	}
	f := fakegithub.New(t, "/api/v3")
	p, _ := newTestClient(t, f, tokPersonal, nil)
	if _, err := p.Login(context.Background()); err != nil {
		t.Fatal(err)
	}
	if f.CallCount(routeUser) != 1 {
		t.Fatal("request did not reach the GHES-style API URL")
	}
	if got := p.ArtifactURL(1, 42); got != "https://ghes.example.test/Codertocat/Hello-World/actions/runs/1/artifacts/42" {
		t.Errorf("artifact URL %q", got)
	}
}
