package githubapi

import (
	"net/http"
	"testing"
	"time"

	"github.com/runledger/runledger/internal/fakegithub"
)

// The tests run against internal/fakegithub, a fake GitHub that holds
// every request and answer to GitHub's OpenAPI description. These names
// keep the tests short.
const (
	tokInstallation = fakegithub.TokenInstallation
	tokPersonal     = fakegithub.TokenPersonal
	routeUser       = fakegithub.RouteUser
)

type fault = fakegithub.Fault

// newTestClient points a real Client (real go-github, real retryablehttp)
// at the fake.
func newTestClient(t testing.TB, f *fakegithub.Server, token string, mod func(*Config)) (*Client, *fakegithub.Clock) {
	t.Helper()
	clk := fakegithub.NewClock()
	cfg := Config{
		APIURL: f.APIURL(), ServerURL: f.ServerURL(), Repo: "Codertocat/Hello-World", Token: token,
		HTTPClient: &http.Client{Timeout: 5 * time.Second}, Now: clk.Now, Sleep: clk.Sleep,
	}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c, clk
}
