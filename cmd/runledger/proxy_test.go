package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseProxyFlags(t *testing.T) {
	getenv := func(string) string { return "" }
	for _, tc := range []struct {
		args []string
		want string // "" for no error, else a part of it
	}{
		{nil, ""},
		{[]string{"--listen", "localhost:0", "--cache-ttl", "1h", "--marker-mode", "summary"}, ""},
		{[]string{"--listen", "[::1]:9000"}, ""},
		{[]string{"--listen", "0.0.0.0:8787"}, "--allow-remote"},
		{[]string{"--listen", "0.0.0.0:8787", "--allow-remote"}, ""},
		{[]string{"--listen", "8787"}, "want host:port"},
		{[]string{"--anthropic-upstream", "api.anthropic.com"}, "want an http or https URL"},
		{[]string{"--openai-upstream", "ftp://x"}, "want an http or https URL"},
		{[]string{"--max-body", "0"}, "--max-body 0"},
		{[]string{"--marker-mode", "loud"}, "--marker-mode"},
		{[]string{"--min-tokens", "0"}, "--min-tokens 0"},
		{[]string{"--cache-ttl", "-1s"}, "--cache-ttl"},
		{[]string{"--upstream-timeout", "-1s"}, "--upstream-timeout"},
		{[]string{"extra"}, "unexpected argument"},
	} {
		_, err := parseProxyFlags(tc.args, getenv, io.Discard)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v", tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: error %v, want one saying %q", tc.args, err, tc.want)
		}
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRunProxyServes: the command listens, says where and how to point
// the SDKs at it, serves /stats and stops on its context.
func TestRunProxyServes(t *testing.T) {
	for _, args := range [][]string{{"--listen", "127.0.0.1:0"}, {"--listen", "0.0.0.0:0", "--allow-remote"}} {
		o, err := parseProxyFlags(append(args, "--store", t.TempDir()), func(string) string { return "" }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var stderr lockedBuffer
		addr := make(chan string, 1)
		done := make(chan error, 1)
		go func() { done <- runProxy(ctx, o, &stderr, func(a string) { addr <- a }) }()
		var base string
		select {
		case a := <-addr:
			base = "http://" + strings.Replace(a, "0.0.0.0", "127.0.0.1", 1)
			base = strings.Replace(base, "[::]", "127.0.0.1", 1)
		case err := <-done:
			t.Fatal(err)
		}
		resp, err := http.Get(base + "/stats")
		if err != nil {
			t.Fatal(err)
		}
		var st map[string]any
		json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if resp.StatusCode != 200 || st["requests"] != 0.0 {
			t.Errorf("GET /stats: %d %v", resp.StatusCode, st)
		}
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the proxy did not stop")
		}
		out := stderr.String()
		if !strings.Contains(out, "ANTHROPIC_BASE_URL=http://127.0.0.1:") || !strings.Contains(out, "/v1;") {
			t.Errorf("%v: stderr does not say how to point the SDKs here:\n%s", args, out)
		}
		if remote := args[1] != "127.0.0.1:0"; remote != strings.Contains(out, "WARNING") {
			t.Errorf("%v: warning %v, want %v:\n%s", args, !remote, remote, out)
		}
	}
}

// TestProxyDocsListEveryFlag: docs/proxy.md's flag table names every
// flag with its default, so the reference cannot drift from the code.
func TestProxyDocsListEveryFlag(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "proxy.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) > 3 && strings.HasPrefix(strings.TrimSpace(cells[1]), "`--") {
			rows[strings.Trim(strings.TrimSpace(cells[1]), "`-")] = strings.TrimSpace(cells[2])
		}
	}
	fs := proxyFlagSet(&proxyOptions{}, func(string) string { return "" }, io.Discard)
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		n++
		def, ok := rows[f.Name]
		switch {
		case !ok:
			t.Errorf("docs/proxy.md has no row for --%s", f.Name)
		case f.DefValue != "false" && f.DefValue != "0s" && !strings.Contains(def, f.DefValue) && !strings.Contains(def, strings.TrimSuffix(f.DefValue, "0s")):
			t.Errorf("docs/proxy.md: --%s default %q, the flag's is %q", f.Name, def, f.DefValue)
		}
	})
	if n != len(rows) || n < 10 {
		t.Errorf("%d flags, %d rows in docs/proxy.md", n, len(rows))
	}
}
