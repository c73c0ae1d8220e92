// Package proxy is `runledger proxy`: an HTTP reverse proxy in front of
// the Anthropic Messages API and the OpenAI Chat Completions and
// Responses APIs that compacts the tool outputs of each request body as
// `runledger compact` does, so that a harness gains compaction by pointing
// its base URL here and changing nothing else.
//
// The proxy is never the reason a request fails: a body it cannot read or
// compact goes upstream byte for byte, and the response comes back as the
// upstream sent it, streamed as it arrives.
package proxy

import (
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/runledger/runledger/compaction"
)

// API names the provider API a request is for.
type API string

const (
	Anthropic       API = "anthropic_messages"
	ChatCompletions API = "openai_chat_completions"
	Responses       API = "openai_responses"
	// Other is any other path or method, passed through untouched.
	Other API = "passthrough"
)

// DefaultMaxBody bounds the bodies the proxy reads to compact: Anthropic's
// own request limit. A larger body is forwarded as it came.
const DefaultMaxBody = 32 << 20

// Public endpoints, the default upstreams.
const (
	AnthropicURL = "https://api.anthropic.com"
	OpenAIURL    = "https://api.openai.com"
)

// Config is what a Server needs.
type Config struct {
	// Anthropic and OpenAI are the upstreams' base URLs; the request's
	// path is appended (a base ending in /v1 takes /v1/... without a
	// second /v1).
	Anthropic, OpenAI *url.URL
	// Store keeps collapsed texts and frozen decisions, as compact's.
	Store *compaction.DirStore
	// Options are compact's: MinTokens, MarkerMode, Expand, ExpandURL.
	// Cache is set per request.
	Options compaction.Options
	// TTL: a conversation idle longer has a cold prompt cache; 0 never.
	TTL time.Duration
	// MaxBody bounds the bodies read to compact (0: DefaultMaxBody).
	MaxBody int64
	// UpstreamTimeout bounds the wait for the upstream's response
	// headers; 0 waits as long as the client does.
	UpstreamTimeout time.Duration
	// Transport reaches the upstreams; nil is a clone of
	// http.DefaultTransport.
	Transport http.RoundTripper
	// Log gets one line per request; nil discards.
	Log *slog.Logger
}

// Server is the proxy's http.Handler.
type Server struct {
	cfg       Config
	anthropic *httputil.ReverseProxy
	openai    *httputil.ReverseProxy
	// compactMu serialises compaction: a conversation's frozen decisions
	// are read and written by one request at a time.
	compactMu sync.Mutex
	decisions *decisions
	verdicts  *compaction.Verdicts
	stats     stats
}

// New returns a Server for cfg.
func New(cfg Config) *Server {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// The client's Accept-Encoding goes upstream as it is, and the
		// response's bytes come back as they are, compressed or not.
		t.DisableCompression = true
		t.ResponseHeaderTimeout = cfg.UpstreamTimeout
		cfg.Transport = t
	}
	s := &Server{cfg: cfg, decisions: newDecisions(cfg.Store), verdicts: &compaction.Verdicts{}}
	s.stats.started = time.Now().UTC()
	s.anthropic = s.reverseProxy(cfg.Anthropic)
	s.openai = s.reverseProxy(cfg.OpenAI)
	return s
}

// route says which API a request is for and whether its body is
// compacted.
func route(r *http.Request) (API, bool) {
	if r.Method == http.MethodPost {
		switch r.URL.Path {
		case "/v1/messages":
			return Anthropic, true
		case "/v1/chat/completions":
			return ChatCompletions, true
		case "/v1/responses":
			return Responses, true
		}
	}
	return Other, false
}

// upstream picks the reverse proxy for a request: Anthropic's paths and
// the headers its SDK always sends go to Anthropic, the rest to OpenAI.
func (s *Server) upstream(api API, r *http.Request) *httputil.ReverseProxy {
	if api == Anthropic || api == Other && isAnthropic(r) {
		return s.anthropic
	}
	return s.openai
}

func isAnthropic(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/v1/messages") || r.Header.Get("anthropic-version") != "" ||
		r.Header.Get("x-api-key") != ""
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/expand/"):
		s.serveExpand(w, r)
		return
	case r.Method == http.MethodGet && r.URL.Path == "/stats":
		s.serveStats(w)
		return
	}
	s.forward(w, r)
}
