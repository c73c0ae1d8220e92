package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os/signal"
	"syscall"
	"time"

	"github.com/runledger/runledger/compaction"
	"github.com/runledger/runledger/proxy"
)

type proxyOptions struct {
	listen              string
	allowRemote         bool
	anthropic, openai   string
	minTokens           int
	mode                string
	store, defStore     string
	ttl                 time.Duration
	maxBody             int64
	upstreamTimeout     time.Duration
	anthropicU, openaiU *url.URL
}

func parseProxyFlags(args []string, getenv func(string) string, stderr io.Writer) (*proxyOptions, error) {
	o := &proxyOptions{}
	fs := proxyFlagSet(o, getenv, stderr)
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, &usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	return o, o.check()
}

func proxyFlagSet(o *proxyOptions, getenv func(string) string, stderr io.Writer) *flag.FlagSet {
	fs := newFlagSet("proxy", "[flags]   (then ANTHROPIC_BASE_URL=http://ADDR, OPENAI_BASE_URL=http://ADDR/v1)", stderr)
	fs.StringVar(&o.listen, "listen", "127.0.0.1:8787", "`address` to listen on (host:port; loopback unless --allow-remote)")
	fs.BoolVar(&o.allowRemote, "allow-remote", false, "allow a --listen address other hosts can reach: requests carry API keys")
	fs.StringVar(&o.anthropic, "anthropic-upstream", proxy.AnthropicURL, "the Anthropic API's base `URL` (POST /v1/messages goes to URL/v1/messages)")
	fs.StringVar(&o.openai, "openai-upstream", proxy.OpenAIURL, "the OpenAI API's base `URL` (POST /v1/chat/completions and /v1/responses; a trailing /v1 is fine)")
	o.defStore = compactStore(getenv)
	compactionFlags(fs, &o.minTokens, &o.mode, &o.store, o.defStore)
	fs.DurationVar(&o.ttl, "cache-ttl", 5*time.Minute, cacheTTLUsage+" (the providers' default cache lifetime is 5m)")
	fs.Int64Var(&o.maxBody, "max-body", proxy.DefaultMaxBody, "compact request bodies up to this many `bytes`; larger ones go upstream as they came")
	fs.DurationVar(&o.upstreamTimeout, "upstream-timeout", 0, "answer 504 when the upstream sends no response headers within this `duration`; 0: wait as long as the client does")
	return fs
}

func (o *proxyOptions) check() error {
	if err := checkCompactionFlags(o.minTokens, o.mode, o.ttl); err != nil {
		return err
	}
	if o.maxBody <= 0 {
		return &usageError{fmt.Sprintf("--max-body %d: want a positive number of bytes", o.maxBody)}
	}
	if o.upstreamTimeout < 0 {
		return &usageError{fmt.Sprintf("--upstream-timeout %s: want a positive duration or 0", o.upstreamTimeout)}
	}
	var err error
	if o.anthropicU, err = upstreamURL("--anthropic-upstream", o.anthropic); err != nil {
		return err
	}
	if o.openaiU, err = upstreamURL("--openai-upstream", o.openai); err != nil {
		return err
	}
	return checkListen(o.listen, o.allowRemote)
}

func upstreamURL(flag, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &usageError{fmt.Sprintf("%s %q: want an http or https URL such as %s", flag, raw, proxy.AnthropicURL)}
	}
	return u, nil
}

// checkListen refuses an address other hosts can reach unless told.
func checkListen(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return &usageError{fmt.Sprintf("--listen %q: want host:port: %v", addr, err)}
	}
	if !isLoopback(host) && !allowRemote {
		return &usageError{fmt.Sprintf("--listen %q: not a loopback address; requests carry API keys, so pass --allow-remote to listen where other hosts can connect", addr)}
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// cmdProxy serves until SIGINT or SIGTERM.
func cmdProxy(a *app, args []string) error {
	o, err := parseProxyFlags(args, a.getenv, a.stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return runProxy(ctx, o, a.stderr, nil)
}

// runProxy listens, says where, and serves until ctx ends; ready, when
// set, is told the address.
func runProxy(ctx context.Context, o *proxyOptions, stderr io.Writer, ready func(addr string)) error {
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return fmt.Errorf("proxy: listen on %s: %w", o.listen, err)
	}
	addr := ln.Addr().String()
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		fmt.Fprintf(stderr, "runledger proxy: WARNING: listening on %s, reachable from other hosts: anyone who can connect can spend the API keys sent through it and read the collapsed tool outputs at /expand\n", addr)
	}
	host, port, _ := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	base := "http://" + net.JoinHostPort(host, port)
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	opts := compaction.Options{MinTokens: o.minTokens, MarkerMode: compaction.MarkerMode(o.mode),
		Expand: expandCommand(o.store, o.defStore), ExpandURL: base + "/expand/"}
	srv := proxy.New(proxy.Config{Anthropic: o.anthropicU, OpenAI: o.openaiU, Store: &compaction.DirStore{Dir: o.store},
		Options: opts, TTL: o.ttl, MaxBody: o.maxBody, UpstreamTimeout: o.upstreamTimeout, Log: logger})
	fmt.Fprintf(stderr, "runledger proxy: listening on %s; ANTHROPIC_BASE_URL=%s OPENAI_BASE_URL=%s/v1; upstreams %s and %s; collapsed texts in %s\n",
		base, base, base, o.anthropic, o.openai, o.store)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 30 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	if ready != nil {
		ready(addr)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("proxy: %w", err)
	case <-ctx.Done():
	}
	// Streams in flight get a moment to finish; then they are cut.
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("proxy: shut down: %w", err)
	}
	hs.Close()
	fmt.Fprintln(stderr, "runledger proxy: stopped")
	return nil
}
