package compaction

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reqFail is a failed pytest run big enough to collapse.
var reqFail = "<returncode>1</returncode>\n<output>\n============ test session starts ============\n" +
	strings.Repeat("t.py::test_x FAILED\n", 40) + "============ 40 failed in 0.1s ============\n</output>"

const reqPass = "============ 40 passed in 0.1s ============\n"

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// anthropicBody is a Messages request as @anthropic-ai/sdk types it:
// system blocks, tools, tool_use/tool_result pairs, cache_control.
func anthropicBody(cacheAt string) string {
	return `{
  "model": "claude-sonnet-4-5",
  "max_tokens": 1024,
  "system": [{"type": "text", "text": "You fix tests.", "cache_control": {"type": "ephemeral"}}],
  "tools": [{"name": "bash", "description": "run a command", "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}}}],
  "messages": [
    {"role": "user", "content": "Make the tests pass."},
    {"role": "assistant", "content": [{"type": "text", "text": "Running them."}, {"type": "tool_use", "id": "toolu_01", "name": "bash", "input": {"command": "pytest"}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": ` + jsonString(reqFail) + `, "is_error": true` + cacheAt + `}]},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_02", "name": "bash", "input": {"command": "cat t.py"}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_02", "content": [{"type": "text", "text": "def test_x():\n    assert f() == 1\n"}]}]},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_03", "name": "bash", "input": {"command": "pytest"}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_03", "content": [{"type": "text", "text": ` + jsonString(reqPass) + `}]}, {"type": "text", "text": "Next?"}]}
  ]
}`
}

// openAIBody is a Chat Completions request as the openai SDK types it.
const openAIBody = `{"model":"gpt-4.1","messages":[{"role":"system","content":"You fix tests."},` +
	`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"pytest\"}"}}]},` +
	`{"role":"tool","tool_call_id":"call_1","content":REQFAIL},` +
	`{"role":"assistant","content":null,"tool_calls":[{"id":"call_2","type":"function","function":{"name":"bash","arguments":"{\"command\":\"pytest\"}"}}]},` +
	`{"role":"tool","tool_call_id":"call_2","content":[{"type":"text","text":REQPASS}]}],"tools":[{"type":"function","function":{"name":"bash","parameters":{"type":"object"}}}],"temperature":0}`

func openAI() string {
	return strings.NewReplacer("REQFAIL", jsonString(reqFail), "REQPASS", jsonString(reqPass)).Replace(openAIBody)
}

// tokens is a document's JSON token stream: keys, their order and values.
func tokens(t *testing.T, data []byte) []any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out []any
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, data)
		}
		out = append(out, tok)
	}
}

func TestFilterRequestBodies(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		ids     []string
		changed string // the id whose text collapses
	}{
		{"anthropic", anthropicBody(""), []string{"toolu_01", "toolu_02", "toolu_03"}, "toolu_01"},
		{"openai", openAI(), []string{"call_1", "call_2"}, "call_1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := &DirStore{Dir: t.TempDir()}
			var out bytes.Buffer
			ds, err := Filter(strings.NewReader(tt.body), &out, Options{}, store)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, d := range ds {
				ids = append(ids, d.ID)
				if (d.Decision == Collapsed) != (d.ID == tt.changed) {
					t.Errorf("%s: %s (%s)", d.ID, d.Decision, d.Reason)
				}
			}
			if strings.Join(ids, ",") != strings.Join(tt.ids, ",") {
				t.Fatalf("tool outputs %v, want %v", ids, tt.ids)
			}
			in, got := tokens(t, []byte(tt.body)), tokens(t, out.Bytes())
			if len(in) != len(got) {
				t.Fatalf("%d tokens, want %d", len(got), len(in))
			}
			diffs := 0
			for i := range in {
				if in[i] == got[i] {
					continue
				}
				diffs++
				if in[i] != reqFail {
					t.Errorf("token %d changed: %v → %v", i, in[i], got[i])
				}
				if text, err := Expand(store, got[i].(string)); err != nil || string(text) != reqFail {
					t.Errorf("the collapsed output does not expand to its text: %v", err)
				}
			}
			if diffs != 1 {
				t.Errorf("%d values changed, want 1", diffs)
			}
			// Only the rewritten string's bytes differ: spacing stays.
			if !strings.HasPrefix(out.String(), tt.body[:strings.Index(tt.body, jsonString(reqFail))]) {
				t.Error("bytes before the rewritten text changed")
			}
		})
	}
}

func TestFilterRequestUnchangedIsIdentical(t *testing.T) {
	body := strings.Replace(anthropicBody(""), jsonString(reqFail), jsonString("<returncode>0</returncode>\n<output>\nok\n</output>"), 1)
	var out bytes.Buffer
	if _, err := Filter(strings.NewReader(body), &out, Options{}, &DirStore{Dir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if out.String() != body {
		t.Fatalf("a body with nothing to collapse was rewritten:\n%s", out.String())
	}
}

// TestFilterRequestCacheControl: a cache_control breakpoint on the first
// tool result puts it in the cached prefix, so a warm call may not touch
// it even when a later run supersedes it.
func TestFilterRequestCacheControl(t *testing.T) {
	rq, err := parseRequest([]byte(anthropicBody(`, "cache_control": {"type": "ephemeral"}`)))
	if err != nil {
		t.Fatal(err)
	}
	if got := rq.cachedPrefix(); got != 1 {
		t.Fatalf("cached prefix %d, want 1", got)
	}
	if rq, _ := parseRequest([]byte(anthropicBody(""))); rq.cachedPrefix() != -1 {
		t.Fatalf("a body with a breakpoint in system only: prefix %d, want -1 (messages carry none)", rq.cachedPrefix())
	}
	store := &DirStore{Dir: t.TempDir()}
	body := anthropicBody(`, "cache_control": {"type": "ephemeral"}`)
	var out bytes.Buffer
	ds, err := Filter(strings.NewReader(body), &out, Options{Cache: &Cache{Store: store, Prefix: -1}}, store)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != body || ds[0].Reason != ReasonCached {
		t.Fatalf("the cached tool result changed: %+v", ds[0])
	}
	out.Reset()
	ds, err = Filter(strings.NewReader(body), &out, Options{Cache: &Cache{Store: store, Prefix: -1, Cold: true}}, store)
	if err != nil {
		t.Fatal(err)
	}
	if ds[0].Decision != Collapsed || !ds[0].Cold {
		t.Fatalf("a cold call did not collapse the superseded run: %+v", ds[0])
	}
}

// TestRequestBodiesOfAgentTranscripts wraps each real agent transcript in
// an Anthropic and an OpenAI request body: compacting the body decides
// exactly what compacting the plain outputs decides, output by output,
// every collapsed text in the body expands from the body's store to its
// original, and no other token changes.
func TestRequestBodiesOfAgentTranscripts(t *testing.T) {
	dir := agentTranscriptsDir(t)
	for _, name := range []string{"05-mini-django-django-11138", "10-mini-sympy-sympy-13091", "19-mini-sphinx-doc-sphinx-8595", "33-openhands-ponylang-ponyc-4588"} {
		data, err := os.ReadFile(filepath.Join(dir, name, "input.json"))
		if err != nil {
			t.Fatal(err)
		}
		var in []Output
		if err := json.Unmarshal(data, &in); err != nil {
			t.Fatal(err)
		}
		want, wds, err := Compact(in, Options{}, &DirStore{Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		collapsed := 0
		for _, d := range wds {
			if d.Decision == Collapsed {
				collapsed++
			}
		}
		// Each of these transcripts has superseded runs: a body check
		// where nothing collapses would pass without testing a rewrite.
		if collapsed == 0 {
			t.Fatalf("%s: nothing collapsed", name)
		}
		for format, body := range map[string][]byte{"anthropic": anthropicOf(in), "openai": openAIOf(in)} {
			var out bytes.Buffer
			store := &DirStore{Dir: t.TempDir()}
			ds, err := Filter(bytes.NewReader(body), &out, Options{}, store)
			if err != nil {
				t.Fatalf("%s %s: %v", name, format, err)
			}
			if len(ds) != len(wds) {
				t.Fatalf("%s %s: %d decisions, want %d", name, format, len(ds), len(wds))
			}
			for i, d := range ds {
				if d.ID != wds[i].ID || d.Decision != wds[i].Decision || d.Reason != wds[i].Reason {
					t.Errorf("%s %s: output %d is %s %s (%s), as plain outputs %s %s (%s)", name, format, i, d.ID, d.Decision, d.Reason, wds[i].ID, wds[i].Decision, wds[i].Reason)
				}
			}
			got, orig := tokens(t, out.Bytes()), tokens(t, body)
			if len(got) != len(orig) {
				t.Fatalf("%s %s: %d tokens, want %d", name, format, len(got), len(orig))
			}
			k := 0
			for i := range orig {
				s, ok := orig[i].(string)
				if !ok || k >= len(in) || s != in[k].Text {
					if got[i] != orig[i] {
						t.Fatalf("%s %s: token %d changed: %v", name, format, i, orig[i])
					}
					continue
				}
				if got[i] != want[k].Text {
					t.Fatalf("%s %s: %s decided otherwise than as plain outputs", name, format, in[k].ID)
				}
				if got[i] != orig[i] {
					if text, err := Expand(store, got[i].(string)); err != nil || string(text) != in[k].Text {
						t.Errorf("%s %s: %s does not expand to its text from the body's store: %v", name, format, in[k].ID, err)
					}
				}
				k++
			}
			if k != len(in) {
				t.Fatalf("%s %s: found %d of %d tool outputs", name, format, k, len(in))
			}
		}
	}
}

func anthropicOf(in []Output) []byte {
	msgs := []any{map[string]any{"role": "user", "content": "Fix the issue."}}
	for _, o := range in {
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": o.ID, "name": "bash", "input": map[string]any{"command": "x"}}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": o.ID, "content": o.Text}}})
	}
	b, _ := json.Marshal(map[string]any{"model": "m", "max_tokens": 1024, "messages": msgs})
	return b
}

func openAIOf(in []Output) []byte {
	msgs := []any{map[string]any{"role": "user", "content": "Fix the issue."}}
	for _, o := range in {
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": o.ID, "type": "function", "function": map[string]any{"name": "bash", "arguments": "{}"}}}},
			map[string]any{"role": "tool", "tool_call_id": o.ID, "content": []any{map[string]any{"type": "text", "text": o.Text}}})
	}
	b, _ := json.MarshalIndent(map[string]any{"model": "m", "messages": msgs}, "", " ")
	return b
}
