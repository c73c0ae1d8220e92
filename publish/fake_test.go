package publish

import (
	"context"
	"net/http"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/runledger/runledger/internal/fakegithub"
)

// The publish tests run against internal/fakegithub, a fake GitHub that
// holds every request and answer to GitHub's OpenAPI description. These
// names keep the tests short.
const (
	tokInstallation = fakegithub.TokenInstallation
	tokReadOnly     = fakegithub.TokenReadOnly
	tokPersonal     = fakegithub.TokenPersonal
)

type (
	fault    = fakegithub.Fault
	fakePull = fakegithub.Pull
)

// fakeClock records the sleeps the publisher asks for, advancing a virtual
// clock instead of waiting (optionally with a small real pause, scaled, so
// concurrent writers still spread out).
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
	scale  time.Duration // real time per virtual second; 0 = none
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	scale := c.scale
	c.mu.Unlock()
	if scale > 0 {
		return sleepCtx(ctx, time.Duration(float64(d)/float64(time.Second)*float64(scale)))
	}
	return ctx.Err()
}

func (c *fakeClock) recorded() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.sleeps)
}

// newTestPublisher points a real Publisher (real go-github, real
// retryablehttp) at the fake.
func newTestPublisher(t testing.TB, f *fakegithub.Server, token string, mod func(*Config)) (*Publisher, *fakeClock) {
	t.Helper()
	clk := &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	cfg := Config{
		APIURL: f.APIURL(), ServerURL: f.ServerURL(), Repo: "Codertocat/Hello-World", Token: token,
		HTTPClient: &http.Client{Timeout: 5 * time.Second}, Now: clk.Now, Sleep: clk.Sleep,
	}
	if mod != nil {
		mod(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p, clk
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
