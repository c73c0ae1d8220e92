package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runledger/runledger/compaction"
)

// received is one request as the upstream got it.
type received struct {
	Method, Path, Query string
	Header              http.Header
	Body                []byte
}

// upstream is a local stand-in for a provider that records exactly what
// it received and answers with what answer says.
type upstream struct {
	*httptest.Server
	mu     sync.Mutex
	got    []received
	answer func(w http.ResponseWriter, r *http.Request, body []byte)
}

func newUpstream(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, body []byte)) *upstream {
	t.Helper()
	u := &upstream{answer: answer}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("upstream: read body: %v", err)
		}
		u.mu.Lock()
		u.got = append(u.got, received{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body})
		u.mu.Unlock()
		u.answer(w, r, body)
	}))
	t.Cleanup(u.Close)
	return u
}

func (u *upstream) requests() []received {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]received(nil), u.got...)
}

func (u *upstream) last(t *testing.T) received {
	t.Helper()
	got := u.requests()
	if len(got) == 0 {
		t.Fatal("the upstream received nothing")
	}
	return got[len(got)-1]
}

// answerJSON answers 200 with a fixed JSON body.
func answerJSON(body string) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_upstream_1")
		io.WriteString(w, body)
	}
}

// testProxy is a Server in front of up (for both APIs) with its log
// captured.
type testProxy struct {
	*httptest.Server
	srv   *Server
	store *compaction.DirStore
	log   *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s.b.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// wait returns the log's lines once there are n: a request's line is
// written after its response went out.
func (s *syncBuffer) wait(t *testing.T, n int) []map[string]any {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(s.lines(t)) < n && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	return s.lines(t)
}

func newTestProxy(t testing.TB, up string, tune func(*Config)) *testProxy {
	t.Helper()
	u, err := url.Parse(up)
	if err != nil {
		t.Fatal(err)
	}
	p := &testProxy{store: &compaction.DirStore{Dir: t.TempDir()}, log: &syncBuffer{}}
	cfg := Config{Anthropic: u, OpenAI: u, Store: p.store, Options: compaction.Options{MinTokens: -1},
		Log: slog.New(slog.NewJSONHandler(p.log, nil))}
	p.Server = httptest.NewUnstartedServer(nil)
	cfg.Options.ExpandURL = "http://" + p.Listener.Addr().String() + "/expand/"
	if tune != nil {
		tune(&cfg)
	}
	p.srv = New(cfg)
	p.Config.Handler = p.srv
	p.Start()
	t.Cleanup(p.Close)
	return p
}

func post(t *testing.T, url string, body []byte, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, data
}

// failedRun is a failed pytest run big enough to collapse; passedRun the
// run that supersedes it.
func failedRun(test string) string {
	return "============ test session starts ============\n" +
		strings.Repeat("t.py::"+test+" FAILED\n", 40) + "============ 40 failed in 0.1s ============\n"
}

const passedRun = "============ 40 passed in 0.1s ============\n"

// anthropicTurn is a Messages body holding outputs as tool results, with
// a cache breakpoint on the last one, as Claude Code marks its requests.
func anthropicTurn(outputs []string) []byte {
	msgs := []any{map[string]any{"role": "user", "content": "Fix the tests."}}
	for i, o := range outputs {
		id := toolID(i)
		result := map[string]any{"type": "tool_result", "tool_use_id": id, "content": o}
		if i == len(outputs)-1 {
			result["cache_control"] = map[string]any{"type": "ephemeral"}
		}
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": "bash", "input": map[string]any{"command": "pytest"}}}},
			map[string]any{"role": "user", "content": []any{result}})
	}
	b, _ := json.Marshal(map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 1024, "stream": false, "messages": msgs})
	return b
}

func toolID(i int) string { return fmt.Sprintf("toolu_%04d", i) }

// messagesOf splits a body's messages into their raw bytes.
func messagesOf(t testing.TB, body []byte) []json.RawMessage {
	t.Helper()
	var b struct {
		Messages []json.RawMessage `json:"messages"`
		Input    []json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatalf("body: %v", err)
	}
	if b.Messages == nil {
		return b.Input
	}
	return b.Messages
}

// samePrefix fails unless every message of prev but its last (which
// carried the moving breakpoint) is byte-identical in next.
func samePrefix(t testing.TB, prev, next []byte) int {
	t.Helper()
	p, n := messagesOf(t, prev), messagesOf(t, next)
	changed := 0
	for i := 0; i < len(p)-1 && i < len(n); i++ {
		if !bytes.Equal(p[i], n[i]) {
			changed++
			t.Errorf("message %d changed between turns:\nwas  %.300s\nnow  %.300s", i, p[i], n[i])
		}
	}
	return changed
}

func TestProxyToolLoopFreezesPrefix(t *testing.T) {
	up := newUpstream(t, answerJSON(`{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"ok"}],"model":"m","stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`))
	p := newTestProxy(t, up.URL, nil)
	turns := [][]string{
		{failedRun("test_a")},
		{failedRun("test_a"), "def test_a(): ...\n"},
		{failedRun("test_a"), "def test_a(): ...\n", failedRun("test_a")},
		{failedRun("test_a"), "def test_a(): ...\n", failedRun("test_a"), passedRun},
	}
	var prev []byte
	for i, outs := range turns {
		body := anthropicTurn(outs)
		resp, data := post(t, p.URL+"/v1/messages?beta=true", body, map[string]string{
			"x-api-key": "sk-ant-secret-key", "anthropic-version": "2023-06-01", "content-type": "application/json"})
		if resp.StatusCode != 200 || resp.Header.Get("Request-Id") != "req_upstream_1" || !bytes.HasPrefix(data, []byte(`{"id":"msg_1"`)) {
			t.Fatalf("turn %d: %d %v %s", i, resp.StatusCode, resp.Header, data)
		}
		got := up.last(t)
		if got.Path != "/v1/messages" || got.Query != "beta=true" || got.Header.Get("X-Api-Key") != "sk-ant-secret-key" {
			t.Fatalf("turn %d: upstream got %s?%s key %q", i, got.Path, got.Query, got.Header.Get("X-Api-Key"))
		}
		if prev != nil {
			samePrefix(t, prev, got.Body)
		}
		prev = got.Body
	}
	last := up.last(t).Body
	msgs := messagesOf(t, last)
	// Both failures were sent in full before the run that supersedes
	// them came: the provider caches them, so they stay in full.
	for _, i := range []int{2, 6} {
		if strings.Contains(string(msgs[i]), "<<cg:") {
			t.Errorf("an output sent in full before was collapsed later: %s", msgs[i])
		}
	}
	// A conversation restarting cold collapses both failures.
	cold := newTestProxy(t, up.URL, func(c *Config) { c.TTL = time.Nanosecond })
	for _, outs := range turns {
		post(t, cold.URL+"/v1/messages", anthropicTurn(outs), nil)
		time.Sleep(time.Millisecond)
	}
	msgs = messagesOf(t, up.last(t).Body)
	for _, i := range []int{2, 6} {
		if !strings.Contains(string(msgs[i]), "<<cg:") {
			t.Errorf("cold cache: message %d not collapsed: %.200s", i, msgs[i])
		}
	}
	for _, l := range p.log.lines(t) {
		if strings.Contains(toJSON(l), "sk-ant-secret-key") {
			t.Errorf("the log holds the key: %v", l)
		}
	}
}

// TestProxyCollapsesWhatWasNeverSent: outputs the conversation has never
// sent are decided afresh, even under this request's own breakpoint.
func TestProxyCollapsesWhatWasNeverSent(t *testing.T) {
	up := newUpstream(t, answerJSON(`{}`))
	p := newTestProxy(t, up.URL, nil)
	post(t, p.URL+"/v1/messages", anthropicTurn([]string{"ls\nsetup.py\n"}), nil)
	// Two runs arrive at once (a harness that batched them): the first
	// was never sent, so it collapses though the breakpoint is after it.
	post(t, p.URL+"/v1/messages", anthropicTurn([]string{"ls\nsetup.py\n", failedRun("test_a"), passedRun}), nil)
	msgs := messagesOf(t, up.last(t).Body)
	if !strings.Contains(string(msgs[4]), "<<cg:") {
		t.Fatalf("a never-sent superseded failure was kept: %.300s", msgs[4])
	}
	hint := regexpHash(string(msgs[4]))
	if !strings.Contains(string(msgs[4]), "runledger expand "+hint) || !strings.Contains(string(msgs[4]), p.URL+"/expand/"+hint) {
		t.Errorf("the pointer names neither way back: %s", msgs[4])
	}
	resp, data := get(t, p.URL+"/expand/"+hint)
	if resp.StatusCode != 200 || string(data) != failedRun("test_a") {
		t.Errorf("GET /expand: %d %q", resp.StatusCode, data)
	}
	resp, data = get(t, p.URL+"/expand/0123456789abcdef")
	if resp.StatusCode != 404 || !strings.Contains(string(data), "no collapsed text") {
		t.Errorf("GET /expand of an unknown hash: %d %q", resp.StatusCode, data)
	}
	resp, data = get(t, p.URL+"/stats")
	var st Totals
	if err := json.Unmarshal(data, &st); err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /stats: %d %s", resp.StatusCode, data)
	}
	if st.Requests != 2 || st.Collapsed != 1 || st.ToolOutputs != 4 || st.BytesSaved <= 0 || st.Compacted != 2 {
		t.Errorf("stats %+v", st)
	}
	lines := p.log.wait(t, 2)
	if len(lines) != 2 || lines[1]["collapsed"] != 1.0 || lines[1]["tool_outputs"] != 3.0 || lines[1]["conversation"] == "" {
		t.Errorf("log lines %v", lines)
	}
}

func regexpHash(s string) string {
	i := strings.Index(s, "<<cg:")
	return s[i+5 : i+21]
}

func get(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, data
}

func toJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestProxyHourCache: a body that asks for Anthropic's one-hour cache is
// judged warm past a shorter --cache-ttl.
func TestProxyHourCache(t *testing.T) {
	up := newUpstream(t, answerJSON(`{}`))
	p := newTestProxy(t, up.URL, func(c *Config) { c.TTL = time.Nanosecond })
	hour := func(outs []string) []byte {
		return bytes.Replace(anthropicTurn(outs), []byte(`"cache_control":{"type":"ephemeral"}`), []byte(`"cache_control":{"type":"ephemeral","ttl":"1h"}`), 1)
	}
	turns := [][]string{{failedRun("test_a")}, {failedRun("test_a"), failedRun("test_a")}, {failedRun("test_a"), failedRun("test_a"), passedRun}}
	for _, outs := range turns {
		post(t, p.URL+"/v1/messages", hour(outs), nil)
		time.Sleep(time.Millisecond)
	}
	if strings.Contains(string(up.last(t).Body), "<<cg:") {
		t.Fatal("a one-hour cache was taken as cold after a millisecond")
	}
	if p.srv.ttl(anthropicTurn(turns[0])) != time.Nanosecond {
		t.Fatal("a five-minute body was given the hour")
	}
}
