package proxy

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestProxyForwardsAsSent: every body the proxy cannot or should not
// compact reaches the upstream byte for byte, and the log says why.
func TestProxyForwardsAsSent(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(anthropicTurn([]string{failedRun("test_a"), passedRun}))
	zw.Close()
	big := anthropicTurn([]string{failedRun("test_a"), passedRun, strings.Repeat("x", 4096)})
	for _, tc := range []struct {
		name, path string
		body       []byte
		header     map[string]string
		kind       string
	}{
		{"not JSON", "/v1/messages", []byte(`{"model": "m", "messages": [`), nil, "unparseable"},
		{"messages not an array", "/v1/messages", []byte(`{"model":"m","messages":{"role":"user"}}`), nil, "unparseable"},
		{"no messages", "/v1/chat/completions", []byte(`{"model":"m","prompt":"hi"}`), nil, "unparseable"},
		{"a Responses body on the Messages path", "/v1/messages", []byte(`{"model":"m","input":[{"type":"function_call_output","call_id":"c","output":"x"}]}`), nil, "shape"},
		{"gzip-encoded", "/v1/messages", gz.Bytes(), map[string]string{"Content-Encoding": "gzip"}, "encoded"},
		{"over the bound", "/v1/messages", big, nil, "over_bound"},
		{"empty", "/v1/responses", nil, nil, "unparseable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := newUpstream(t, answerJSON(`{"ok":true}`))
			p := newTestProxy(t, up.URL, func(c *Config) { c.MaxBody = 4096 })
			resp, data := post(t, p.URL+tc.path, tc.body, tc.header)
			if resp.StatusCode != 200 || string(data) != `{"ok":true}` {
				t.Fatalf("client got %d %q", resp.StatusCode, data)
			}
			got := up.last(t)
			if !bytes.Equal(got.Body, tc.body) {
				t.Errorf("the upstream got other bytes than were sent:\n%q\nwant\n%q", got.Body, tc.body)
			}
			lines := p.log.wait(t, 1)
			if len(lines) != 1 || lines[0]["passed_as_sent"] != tc.kind || lines[0]["why"] == "" || lines[0]["level"] != "WARN" {
				t.Errorf("log %v, want one line saying %s and why", lines, tc.kind)
			}
		})
	}
}

// TestProxyOverBoundStreamsChunked: a chunked body over the bound goes on
// as it came, without being held whole.
func TestProxyOverBoundStreamsChunked(t *testing.T) {
	up := newUpstream(t, answerJSON(`{}`))
	p := newTestProxy(t, up.URL, func(c *Config) { c.MaxBody = 1024 })
	body := anthropicTurn([]string{strings.Repeat("y", 8192)})
	req, _ := http.NewRequest(http.MethodPost, p.URL+"/v1/messages", io.MultiReader(bytes.NewReader(body))) // no length: chunked
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := up.last(t).Body; !bytes.Equal(got, body) {
		t.Fatalf("upstream got %d bytes, want the %d sent", len(got), len(body))
	}
}

func TestProxyOtherPathsPassThrough(t *testing.T) {
	up := newUpstream(t, answerJSON(`{"data":[]}`))
	p := newTestProxy(t, up.URL, nil)
	resp, data := get(t, p.URL+"/v1/models?limit=2")
	if resp.StatusCode != 200 || string(data) != `{"data":[]}` {
		t.Fatalf("%d %s", resp.StatusCode, data)
	}
	body := []byte(`{"messages":[{"role":"user","content":"hi"}],"model":"m"}`)
	post(t, p.URL+"/v1/messages/count_tokens", body, nil)
	got := up.requests()
	if len(got) != 2 || got[0].Path != "/v1/models" || got[0].Query != "limit=2" || got[1].Path != "/v1/messages/count_tokens" || !bytes.Equal(got[1].Body, body) {
		t.Fatalf("upstream got %+v", got)
	}
}

// TestProxyUpstreamErrors: what the upstream answers, the client gets:
// status, headers and body; an unreachable upstream is a 502 naming it.
func TestProxyUpstreamErrors(t *testing.T) {
	for _, tc := range []struct {
		status int
		header map[string]string
		body   string
	}{
		{429, map[string]string{"Retry-After": "7", "anthropic-ratelimit-requests-remaining": "0"}, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`},
		{500, nil, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`},
		{529, nil, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
		{504, nil, "upstream request timeout"},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			up := newUpstream(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
				for k, v := range tc.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			})
			p := newTestProxy(t, up.URL, nil)
			resp, data := post(t, p.URL+"/v1/messages", anthropicTurn([]string{passedRun}), nil)
			if resp.StatusCode != tc.status || string(data) != tc.body {
				t.Errorf("client got %d %q", resp.StatusCode, data)
			}
			for k, v := range tc.header {
				if resp.Header.Get(k) != v {
					t.Errorf("header %s: %q, want %q", k, resp.Header.Get(k), v)
				}
			}
		})
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	p := newTestProxy(t, dead, nil)
	resp, data := post(t, p.URL+"/v1/chat/completions", []byte(`{"model":"m","messages":[]}`), nil)
	if resp.StatusCode != 502 || !strings.Contains(string(data), dead) || !strings.Contains(string(data), "refused") {
		t.Errorf("unreachable upstream: %d %s", resp.StatusCode, data)
	}
	if st := p.srv.Totals(); st.UpstreamErrors != 1 {
		t.Errorf("stats: %+v", st)
	}
}

func TestProxyUpstreamTimeout(t *testing.T) {
	release := make(chan struct{})
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	p := newTestProxy(t, up.URL, func(c *Config) { c.UpstreamTimeout = 200 * time.Millisecond })
	resp, data := post(t, p.URL+"/v1/messages", anthropicTurn([]string{passedRun}), nil)
	if resp.StatusCode != 504 || !strings.Contains(string(data), up.URL) || !strings.Contains(string(data), "timeout") {
		t.Errorf("%d %s", resp.StatusCode, data)
	}
}

// sseEvents is a Messages stream, as the API sends it.
var sseEvents = []string{
	"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"m\",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n",
	"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello\"}}\n\n",
	"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
	"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":2}}\n\n",
	"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
}

// TestProxyStreamsEventByEvent: each event reaches the client before the
// upstream sends the next; a client that goes away mid-stream cancels
// the upstream request.
func TestProxyStreamsEventByEvent(t *testing.T) {
	next := make(chan struct{})
	upstreamDone := make(chan error, 1)
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush() // as the API does: headers first
		for _, ev := range sseEvents {
			select {
			case <-next:
			case <-r.Context().Done():
				upstreamDone <- r.Context().Err()
				return
			}
			io.WriteString(w, ev)
			w.(http.Flusher).Flush()
		}
		upstreamDone <- nil
	})
	p := newTestProxy(t, up.URL, nil)
	req, _ := http.NewRequest(http.MethodPost, p.URL+"/v1/messages", bytes.NewReader(anthropicTurn([]string{passedRun})))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("content type %q", resp.Header.Get("Content-Type"))
	}
	br := bufio.NewReader(resp.Body)
	for _, ev := range sseEvents {
		next <- struct{}{} // the upstream may send one event
		got, err := readEvent(br)
		if err != nil || got != ev {
			t.Fatalf("got %q (%v), want %q", got, err, ev)
		}
	}
	resp.Body.Close()
	if err := <-upstreamDone; err != nil {
		t.Fatal(err)
	}

	// Now the client goes away after the first event.
	ctx, cancel := context.WithCancel(context.Background())
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, p.URL+"/v1/messages", bytes.NewReader(anthropicTurn([]string{passedRun})))
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	next <- struct{}{}
	if _, err := readEvent(bufio.NewReader(resp.Body)); err != nil {
		t.Fatal(err)
	}
	cancel()
	resp.Body.Close()
	select {
	case err := <-upstreamDone:
		if err == nil {
			t.Fatal("the upstream finished its stream; the client's cancel did not reach it")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the upstream request was not cancelled when the client went away")
	}
}

// readEvent reads one SSE event, through its blank line.
func readEvent(br *bufio.Reader) (string, error) {
	var ev strings.Builder
	for {
		line, err := br.ReadString('\n')
		ev.WriteString(line)
		if err != nil || line == "\n" {
			return ev.String(), err
		}
	}
}

// TestProxyConcurrentConversations: conversations interleaved from many
// clients each keep their own frozen prefix.
func TestProxyConcurrentConversations(t *testing.T) {
	up := newUpstream(t, answerJSON(`{}`))
	p := newTestProxy(t, up.URL, nil)
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs := []string{fmt.Sprintf("conversation %d\n", c)}
			for turn := range 6 {
				outs = append(outs, failedRun(fmt.Sprintf("test_%d_%d", c, turn%2)))
				resp, err := http.Post(p.URL+"/v1/messages", "application/json", bytes.NewReader(anthropicTurn(outs)))
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	// Per conversation, the upstream's bodies in order: each turn's
	// prefix as the turn before sent it.
	last := map[string][]byte{}
	for _, r := range up.requests() {
		key := string(messagesOf(t, r.Body)[2])
		if prev, ok := last[key]; ok && len(messagesOf(t, prev)) < len(messagesOf(t, r.Body)) {
			samePrefix(t, prev, r.Body)
		}
		last[key] = r.Body
	}
	if len(last) != 8 || len(up.requests()) != 48 {
		t.Fatalf("%d conversations, %d requests", len(last), len(up.requests()))
	}
}

// TestProxyTenMegabytes: a 10 MB body is compacted and forwarded whole.
func TestProxyTenMegabytes(t *testing.T) {
	up := newUpstream(t, answerJSON(`{}`))
	p := newTestProxy(t, up.URL, nil)
	huge := strings.Replace(failedRun("test_big"), "============ 40 failed",
		strings.Repeat("E   assert 1 == 2 and a long line of context\n", 10<<20/45)+"============ 40 failed", 1)
	body := anthropicTurn([]string{"ls\n", huge, passedRun})
	if len(body) < 10<<20 {
		t.Fatalf("body %d bytes", len(body))
	}
	post(t, p.URL+"/v1/messages", anthropicTurn([]string{"ls\n"}), nil) // the conversation's first turn
	resp, _ := post(t, p.URL+"/v1/messages", body, nil)
	got := up.last(t)
	if resp.StatusCode != 200 || len(got.Body) >= len(body)/100 {
		t.Fatalf("status %d, upstream got %d of %d bytes", resp.StatusCode, len(got.Body), len(body))
	}
	if got.Header.Get("Content-Length") != fmt.Sprint(len(got.Body)) {
		t.Errorf("Content-Length %s for %d bytes", got.Header.Get("Content-Length"), len(got.Body))
	}
	h := regexpHash(string(got.Body))
	if _, data := get(t, p.URL+"/expand/"+h); string(data) != huge {
		t.Errorf("expand gave %d bytes, want %d", len(data), len(huge))
	}
}

// TestProxyMisbehavingUpstream: an upstream that answers garbage is a
// 502 naming it; one that breaks off mid-stream cuts the client's
// response too, so the client never takes a truncated stream as whole.
func TestProxyMisbehavingUpstream(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		if r.URL.Path == "/v1/chat/completions" {
			buf.WriteString("this is not HTTP\r\n\r\n")
			buf.Flush()
			return
		}
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
		fmt.Fprintf(buf, "%x\r\n%s\r\n", len(sseEvents[0]), sseEvents[0])
		buf.Flush()
	})
	p := newTestProxy(t, up.URL, nil)
	resp, data := post(t, p.URL+"/v1/chat/completions", []byte(`{"model":"m","messages":[]}`), nil)
	if resp.StatusCode != 502 || !strings.Contains(string(data), up.URL) || !strings.Contains(string(data), "malformed HTTP") {
		t.Errorf("garbage from the upstream: %d %s", resp.StatusCode, data)
	}
	req, _ := http.NewRequest(http.MethodPost, p.URL+"/v1/messages", bytes.NewReader(anthropicTurn([]string{passedRun})))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err == nil {
		t.Errorf("a stream the upstream broke off reached the client as whole: %q", got)
	}
	if !strings.HasPrefix(string(got), sseEvents[0]) {
		t.Errorf("the client did not get the event sent before the break: %q", got)
	}
	lines := p.log.wait(t, 2)
	if len(lines) != 2 || !strings.Contains(toJSON(lines[1]), "broke off") {
		t.Errorf("log %v", lines)
	}
}
