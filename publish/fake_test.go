package publish

import (
	"net/http"
	"os"
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

// newTestPublisher points a real Publisher (real go-github, real
// retryablehttp) at the fake.
func newTestPublisher(t testing.TB, f *fakegithub.Server, token string, mod func(*Config)) (*Publisher, *fakegithub.Clock) {
	t.Helper()
	clk := fakegithub.NewClock()
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
