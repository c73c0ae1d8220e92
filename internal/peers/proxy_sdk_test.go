package peers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/runledger/runledger/compaction"
	"github.com/runledger/runledger/proxy"
)

// recording is one request as the fake provider received it, and the
// bytes it answered with.
type recording struct {
	conv, fault, path string
	header            http.Header
	body              []byte
	sent              []byte
	cancelled         bool
}

// provider is a local stand-in for the Anthropic and OpenAI APIs: it
// answers each API's requests in its own documented shape (JSON or
// server-sent events), injects the faults a request's x-test-fault asks
// for, and records everything.
type provider struct {
	mu   sync.Mutex
	recs []*recording
	seq  atomic.Int64
	once sync.Map
}

func (p *provider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec := &recording{conv: r.Header.Get("x-conv"), fault: r.Header.Get("x-test-fault"), path: r.URL.Path, header: r.Header.Clone(), body: body}
	p.mu.Lock()
	p.recs = append(p.recs, rec)
	p.mu.Unlock()
	var out bytes.Buffer
	w = &teeWriter{ResponseWriter: w, tee: &out}
	defer func() {
		p.mu.Lock()
		rec.sent = out.Bytes()
		p.mu.Unlock()
	}()
	n := p.seq.Add(1)
	switch rec.fault {
	case "429once":
		if _, seen := p.once.LoadOrStore(rec.conv+rec.fault, true); !seen {
			p.rateLimited(w)
			return
		}
	case "429":
		p.rateLimited(w)
		return
	case "500":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(500)
		io.WriteString(w, `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`)
		return
	case "hang":
		<-r.Context().Done()
		p.markCancelled(rec)
		return
	}
	var req struct {
		Stream bool `json:"stream"`
	}
	json.Unmarshal(body, &req)
	tools := 1
	if r.Header.Get("x-test-tools") == "2" {
		tools = 2
	}
	switch {
	case r.URL.Path == "/v1/messages" && (req.Stream || rec.fault == "midstream"):
		p.stream(w, r, rec, anthropicEvents(n, tools))
	case r.URL.Path == "/v1/messages":
		writeJSON(w, anthropicMessage(n, tools))
	case r.URL.Path == "/v1/chat/completions" && req.Stream:
		p.stream(w, r, rec, chatChunks(n))
	case r.URL.Path == "/v1/chat/completions":
		writeJSON(w, chatCompletion(n))
	case r.URL.Path == "/v1/responses" && req.Stream:
		p.stream(w, r, rec, responseEvents(n))
	case r.URL.Path == "/v1/responses":
		writeJSON(w, response(n))
	default:
		http.NotFound(w, r)
	}
}

func (p *provider) markCancelled(rec *recording) {
	p.mu.Lock()
	rec.cancelled = true
	p.mu.Unlock()
}

func (p *provider) rateLimited(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "0")
	w.WriteHeader(429)
	io.WriteString(w, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`)
}

// stream sends events one by one, flushed, a little apart; "midstream"
// stops after the first and waits for the client to go away.
func (p *provider) stream(w http.ResponseWriter, r *http.Request, rec *recording, events []string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	w.(http.Flusher).Flush()
	for i, ev := range events {
		io.WriteString(w, ev)
		w.(http.Flusher).Flush()
		if rec.fault == "midstream" && i == 0 {
			select {
			case <-r.Context().Done():
				p.markCancelled(rec)
			case <-time.After(20 * time.Second):
			}
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func writeJSON(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", "req_fake")
	io.WriteString(w, body)
}

type teeWriter struct {
	http.ResponseWriter
	tee *bytes.Buffer
}

func (t *teeWriter) Write(b []byte) (int, error) {
	t.tee.Write(b)
	return t.ResponseWriter.Write(b)
}

func (t *teeWriter) Flush() { t.ResponseWriter.(http.Flusher).Flush() }

func toolUses(n int64, tools int) string {
	var parts []string
	for i := range tools {
		parts = append(parts, fmt.Sprintf(`{"type":"tool_use","id":"toolu_%d_%d","name":"bash","input":{"command":"pytest"}}`, n, i))
	}
	return strings.Join(parts, ",")
}

func anthropicMessage(n int64, tools int) string {
	return fmt.Sprintf(`{"id":"msg_%d","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Running the tests."},%s],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":120,"output_tokens":30}}`, n, toolUses(n, tools))
}

func anthropicEvents(n int64, tools int) []string {
	ev := func(name, data string) string { return "event: " + name + "\ndata: " + data + "\n\n" }
	out := []string{
		ev("message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_%d","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":120,"output_tokens":1}}}`, n)),
		ev("ping", `{"type": "ping"}`),
	}
	for i := range tools {
		out = append(out,
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"toolu_%d_%d","name":"bash","input":{}}}`, i, n, i)),
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":"{\"command\": \"py"}}`, i)),
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":"test\"}"}}`, i)),
			ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i)))
	}
	return append(out,
		ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":30}}`),
		ev("message_stop", `{"type":"message_stop"}`))
}

func chatCompletion(n int64) string {
	return fmt.Sprintf(`{"id":"chatcmpl-%d","object":"chat.completion","created":1733400000,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":"call_%d","type":"function","function":{"name":"bash","arguments":"{\"command\":\"pytest\"}"}}]},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`, n, n)
}

func chatChunks(n int64) []string {
	chunk := func(delta, finish string) string {
		return fmt.Sprintf(`data: {"id":"chatcmpl-%d","object":"chat.completion.chunk","created":1733400000,"model":"gpt-4.1","choices":[{"index":0,"delta":%s,"logprobs":null,"finish_reason":%s}]}`+"\n\n", n, delta, finish)
	}
	return []string{chunk(`{"role":"assistant","content":""}`, "null"), chunk(`{"content":"Hel"}`, "null"), chunk(`{"content":"lo"}`, "null"), chunk(`{}`, `"stop"`), "data: [DONE]\n\n"}
}

func response(n int64) string {
	return fmt.Sprintf(`{"id":"resp_%d","object":"response","created_at":1733400000,"status":"completed","model":"gpt-5","output":[{"type":"function_call","id":"fc_%d","call_id":"call_%d","name":"bash","arguments":"{\"command\":\"pytest\"}","status":"completed"}],"usage":{"input_tokens":100,"output_tokens":20,"total_tokens":120}}`, n, n, n)
}

func responseEvents(n int64) []string {
	resp := fmt.Sprintf(`{"id":"resp_%d","object":"response","created_at":1733400000,"status":"in_progress","model":"gpt-5","output":[]}`, n)
	done := strings.Replace(resp, `"in_progress","model":"gpt-5","output":[]`, `"completed","model":"gpt-5","output":[{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Hello","annotations":[]}]}]`, 1)
	ev := func(name, data string) string { return "event: " + name + "\ndata: " + data + "\n\n" }
	return []string{
		ev("response.created", `{"type":"response.created","sequence_number":0,"response":`+resp+`}`),
		ev("response.output_text.delta", `{"type":"response.output_text.delta","sequence_number":1,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hello"}`),
		ev("response.completed", `{"type":"response.completed","sequence_number":2,"response":`+done+`}`),
	}
}

func (p *provider) byConv() map[string][]*recording {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string][]*recording{}
	for _, r := range p.recs {
		out[r.conv] = append(out[r.conv], r)
	}
	return out
}

// sdkResult is one scenario's outcome as proxy_sdk.mjs reports it.
type sdkResult struct {
	OK         json.RawMessage `json:"ok"`
	Error      string          `json:"error"`
	Status     *int            `json:"status"`
	Message    string          `json:"message"`
	RetryAfter *string         `json:"retryAfter"`
}

// TestProxyWithOfficialSDKs drives runledger proxy with @anthropic-ai/sdk
// and openai in front of a recording provider: tool loops over the three
// APIs, streaming and not, concurrent conversations, a cold cache, a 10 MB
// body, 429/500/timeouts and a client that aborts mid-stream. The
// provider must see each conversation's earlier messages byte-identical
// on every turn and the superseded failures collapsed where they may be;
// the clients must get the provider's bytes unchanged.
//
// It needs node and `npm ci --prefix internal/peers/node`.
func TestProxyWithOfficialSDKs(t *testing.T) {
	script, _ := filepath.Abs(filepath.Join("node", "proxy_sdk.mjs"))
	requireNodeModules(t, "@anthropic-ai/sdk", "openai")
	prov := &provider{}
	up := httptest.NewServer(prov)
	defer up.Close()
	u, _ := url.Parse(up.URL)
	var log bytes.Buffer
	var logMu sync.Mutex
	store := &compaction.DirStore{Dir: t.TempDir()}
	// Long enough that no turn of a loop is taken as cold on a loaded machine.
	const ttl = 5 * time.Second
	srv := httptest.NewUnstartedServer(nil)
	srv.Config.Handler = proxy.New(proxy.Config{Anthropic: u, OpenAI: u, Store: store, TTL: ttl,
		Options: compaction.Options{MinTokens: -1, ExpandURL: "http://" + srv.Listener.Addr().String() + "/expand/"},
		Log:     slog.New(slog.NewJSONHandler(lockedWriter{&log, &logMu}, nil))})
	srv.Start()
	defer srv.Close()

	cmd := exec.Command("node", script)
	cmd.Env = append(os.Environ(), "ANTHROPIC_BASE_URL="+srv.URL, "OPENAI_BASE_URL="+srv.URL+"/v1",
		"TEST_ANTHROPIC_KEY=sk-ant-test-secret-0001", "TEST_OPENAI_KEY=sk-proj-test-secret-0002",
		fmt.Sprintf("TEST_COLD_PAUSE_MS=%d", (ttl+time.Second).Milliseconds()))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node output: %v\n%s", err, out)
	}
	result := func(name string) sdkResult {
		var r sdkResult
		if err := json.Unmarshal(res[name], &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return r
	}
	for _, name := range []string{"anthropic_loop", "anthropic_parallel", "anthropic_stream_loop", "anthropic_cold", "chat_loop", "responses_loop", "concurrent", "raw_anthropic", "raw_anthropic_stream", "raw_chat_stream", "raw_responses_stream", "retry_429", "ten_mb"} {
		if r := result(name); r.Error != "" || r.OK == nil {
			t.Errorf("%s: %s %s", name, r.Error, r.Message)
		}
	}
	convs := prov.byConv()

	// Every turn sends the conversation's earlier messages as before.
	for _, conv := range []string{"anthropic-loop", "anthropic-parallel", "anthropic-stream", "chat-loop", "responses-loop", "concurrent-0", "concurrent-1", "concurrent-2", "concurrent-3"} {
		recs := convs[conv]
		if len(recs) < 4 {
			t.Errorf("%s: %d requests", conv, len(recs))
			continue
		}
		for i := 1; i < len(recs); i++ {
			samePrefix(t, conv, i, recs[i-1].body, recs[i].body)
		}
		for _, r := range recs {
			if got := r.header.Get("X-Api-Key") + r.header.Get("Authorization"); !strings.Contains(got, "-test-secret-") {
				t.Errorf("%s: the provider got no key (%q)", conv, got)
			}
		}
	}
	// Superseded failures the provider never cached collapse: the one
	// sent beside its passing rerun; and, past the TTL, the first
	// failure, sent in full on two turns before, once a rerun failed.
	for conv, want := range map[string]int{"anthropic-parallel": 1, "anthropic-cold": 1} {
		recs := convs[conv]
		last := recs[len(recs)-1].body
		if got := strings.Count(string(last), "[superseded by a later run] <<cg:"); got != want {
			t.Errorf("%s: %d collapsed in the last request, want %d:\n%.2000s", conv, got, want, last)
		}
	}
	tenMB := convs["ten-mb"]
	if len(tenMB) != 2 || len(tenMB[1].body) > 1<<20 || !strings.Contains(string(tenMB[1].body), "<<cg:") {
		t.Errorf("10 MB body: %d requests, last %d bytes", len(tenMB), len(tenMB[len(tenMB)-1].body))
	}

	// The clients got the provider's bytes unchanged.
	var raws []string
	json.Unmarshal(res["raws"], &raws)
	sent := map[string]bool{}
	for _, r := range convs["raw"] {
		sent[string(r.sent)] = true
	}
	if len(raws) != 4 {
		t.Errorf("%d raw responses", len(raws))
	}
	for _, raw := range raws {
		if !sent[raw] {
			t.Errorf("a client got bytes the provider did not send:\n%.500s", raw)
		}
	}

	// Faults reach the client as the provider sent them.
	if r := result("retry_429"); len(convs["faults"]) < 2 || r.OK == nil {
		t.Errorf("429 then retry: %+v", r)
	}
	if r := result("error_429"); r.Status == nil || *r.Status != 429 || r.RetryAfter == nil || *r.RetryAfter != "0" || !strings.Contains(r.Message, "rate limit") {
		t.Errorf("429: %+v", r)
	}
	if r := result("error_500"); r.Status == nil || *r.Status != 500 || !strings.Contains(r.Message, "server had an error") {
		t.Errorf("500: %+v", r)
	}
	if r := result("timeout"); !strings.Contains(r.Error, "Timeout") {
		t.Errorf("client timeout: %+v", r)
	}
	waitCancelled(t, prov, "hang")
	waitCancelled(t, prov, "midstream")

	logMu.Lock()
	logText := log.String()
	logMu.Unlock()
	if strings.Contains(logText, "test-secret") || strings.Contains(logText, "t.py::test_a FAILED") {
		t.Error("the proxy's log holds a key or a body")
	}
	if n := strings.Count(logText, `"msg":"request"`); n < len(prov.recs) {
		t.Errorf("%d log lines for %d requests", n, len(prov.recs))
	}
}

// waitCancelled: the provider saw the request of that fault cancelled
// when the client went away.
func waitCancelled(t *testing.T, p *provider, fault string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		for _, r := range p.recs {
			if r.fault == fault && r.cancelled {
				p.mu.Unlock()
				return
			}
		}
		p.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("%s: the provider's request was not cancelled when the client went away", fault)
}

// samePrefix: every message the earlier request sent, but its last (the
// one that carried the moving breakpoint), is byte-identical in the next.
func samePrefix(t *testing.T, conv string, turn int, prev, next []byte) {
	t.Helper()
	split := func(body []byte) []json.RawMessage {
		var b struct {
			Messages []json.RawMessage `json:"messages"`
			Input    []json.RawMessage `json:"input"`
		}
		json.Unmarshal(body, &b)
		if b.Messages != nil {
			return b.Messages
		}
		return b.Input
	}
	p, n := split(prev), split(next)
	if len(n) < len(p) {
		t.Errorf("%s turn %d: %d messages after %d", conv, turn, len(n), len(p))
		return
	}
	for i := 0; i < len(p)-1; i++ {
		if !bytes.Equal(p[i], n[i]) {
			t.Errorf("%s turn %d: message %d changed:\nwas %.300s\nnow %.300s", conv, turn, i, p[i], n[i])
		}
	}
}

type lockedWriter struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// requireNodeModules skips (or fails under RUNLEDGER_PEERS_REQUIRED)
// unless node and the named modules are installed.
func requireNodeModules(t *testing.T, mods ...string) {
	t.Helper()
	var missing []string
	if _, err := exec.LookPath("node"); err != nil {
		missing = append(missing, "node")
	}
	for _, m := range mods {
		if _, err := os.Stat(filepath.Join("node", "node_modules", m, "package.json")); err != nil {
			missing = append(missing, m+" (npm ci --prefix internal/peers/node)")
		}
	}
	if len(missing) == 0 {
		return
	}
	msg := "needed: " + strings.Join(missing, ", ")
	if os.Getenv("RUNLEDGER_PEERS_REQUIRED") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}
