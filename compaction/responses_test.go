package compaction

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// responsesBody is a Responses request as the openai SDK types it:
// function_call items and their function_call_output items in input.
func responsesBody(second string) string {
	return `{"model":"gpt-5","input":[{"role":"user","content":"Make the tests pass."},` +
		`{"type":"function_call","call_id":"call_1","name":"bash","arguments":"{\"command\":\"pytest\"}"},` +
		`{"type":"function_call_output","call_id":"call_1","output":` + jsonString(reqFail) + `},` +
		`{"type":"function_call","call_id":"call_2","name":"bash","arguments":"{\"command\":\"pytest\"}"},` +
		`{"type":"function_call_output","call_id":"call_2","output":` + second + `}],"store":false}`
}

func TestCompactRequestResponses(t *testing.T) {
	for _, tc := range []struct{ name, second string }{
		{"string output", jsonString(reqPass)},
		{"input_text parts", `[{"type":"input_text","text":` + jsonString(reqPass) + `}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := responsesBody(tc.second)
			store := &DirStore{Dir: t.TempDir()}
			res, err := CompactRequest([]byte(body), Options{MinTokens: -1, ExpandURL: "http://127.0.0.1:8787/expand/"}, store)
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != FormatResponses || len(res.Decisions) != 2 || res.Transcript == "" {
				t.Fatalf("format %s, %d decisions, transcript %q", res.Format, len(res.Decisions), res.Transcript)
			}
			d := res.Decisions[0]
			if d.Decision != Collapsed || res.Decisions[1].Decision != Kept {
				t.Fatalf("decisions %+v", res.Decisions)
			}
			hash := strings.TrimSuffix(strings.TrimPrefix(d.Marker, "<<cg:"), ">>")
			hint := "runledger expand " + hash + " or GET http://127.0.0.1:8787/expand/" + hash
			if !strings.Contains(string(res.Body), hint) {
				t.Errorf("the pointer line does not name both ways back (%q):\n%s", hint, res.Body)
			}
			if strings.Contains(string(res.Body), "t.py::test_x FAILED") || !strings.Contains(string(res.Body), `"store":false`) {
				t.Errorf("body not compacted in place:\n%s", res.Body)
			}
			text, err := Expand(store, d.Marker)
			if err != nil || string(text) != reqFail {
				t.Errorf("expand: %v", err)
			}
		})
	}
}

func TestCompactRequestResponsesStringInput(t *testing.T) {
	body := `{"model":"gpt-5","input":"hello"}`
	res, err := CompactRequest([]byte(body), Options{}, &DirStore{Dir: t.TempDir()})
	if err != nil || string(res.Body) != body || len(res.Decisions) != 0 || res.Transcript != "" {
		t.Fatalf("%v %+v", err, res)
	}
	if _, err := CompactRequest([]byte(`{"input":42}`), Options{}, &DirStore{Dir: t.TempDir()}); err == nil {
		t.Fatal("a numeric input was taken")
	}
}

// TestCacheSent: with Sent, the breakpoint of a conversation's first
// request bounds what is cached; later, only what earlier requests sent
// is, whatever breakpoint the request marks.
func TestCacheSent(t *testing.T) {
	store := &DirStore{Dir: t.TempDir()}
	opts := func() Options {
		return Options{MinTokens: -1, Cache: &Cache{Store: store, Prefix: -1, Sent: true}}
	}
	pass := "============ 40 passed in 0.1s ============\n"
	fail2 := strings.Replace(reqFail, "t.py::test_x", "t.py::test_y", -1)
	// First request: a failure and a later failure of the same family,
	// the breakpoint on the last message: taken as cached up to it.
	first := anthropicOf([]Output{{ID: "a", Text: reqFail}, {ID: "b", Text: fail2}})
	first = []byte(strings.Replace(string(first), `"content":`+jsonString(fail2), `"content":`+jsonString(fail2)+`,"cache_control":{"type":"ephemeral"}`, 1))
	res, err := CompactRequest(first, opts(), store)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Body) != string(first) {
		t.Fatalf("a first request's cached prefix changed:\n%s", res.Body)
	}
	// Second request: a new output "c" and a breakpoint on it; "b" was
	// sent before (frozen as kept), "a" too. Nothing collapses.
	second := anthropicOf([]Output{{ID: "a", Text: reqFail}, {ID: "b", Text: fail2}, {ID: "c", Text: pass}})
	res2, err := CompactRequest(second, opts(), store)
	if err != nil {
		t.Fatal(err)
	}
	if string(res2.Body) != string(second) {
		t.Fatalf("an output sent before changed:\n%s", res2.Body)
	}
	// A fresh conversation whose breakpoint sits after outputs it has
	// never sent: first seen, so they are cached; then a new failure
	// after a breakpoint in a seen conversation is decided afresh.
	store2 := &DirStore{Dir: t.TempDir()}
	o2 := Options{MinTokens: -1, Cache: &Cache{Store: store2, Prefix: -1, Sent: true}}
	one := anthropicOf([]Output{{ID: "x", Text: "ls\nfile\n"}})
	if _, err := CompactRequest(one, o2, store2); err != nil {
		t.Fatal(err)
	}
	three := anthropicOf([]Output{{ID: "x", Text: "ls\nfile\n"}, {ID: "y", Text: reqFail}, {ID: "z", Text: fail2}})
	three = []byte(strings.Replace(string(three), `"content":`+jsonString(fail2), `"content":`+jsonString(fail2)+`,"cache_control":{"type":"ephemeral"}`, 1))
	res3, err := CompactRequest(three, o2, store2)
	if err != nil {
		t.Fatal(err)
	}
	if res3.Decisions[1].Decision != Collapsed {
		t.Fatalf("an output never sent before, under this request's own breakpoint, was not decided afresh: %+v", res3.Decisions[1])
	}
}

// TestCompactRequestErrors: a caller tells an unreadable body from one of
// a shape it did not ask for, and nothing is decided for either.
func TestCompactRequestErrors(t *testing.T) {
	store := &DirStore{Dir: t.TempDir()}
	cache := &Cache{Store: store, Prefix: -1, Sent: true}
	body := anthropicOf([]Output{{ID: "a", Text: reqFail}, {ID: "b", Text: reqPass}})
	_, err := CompactRequest(body, Options{Formats: []Format{FormatResponses}, Cache: cache}, store)
	if !errors.Is(err, ErrFormat) || errors.Is(err, ErrUnreadable) {
		t.Errorf("another shape: %v", err)
	}
	if _, err := os.Stat(filepath.Join(store.Dir, "calls")); err == nil {
		t.Error("a body of another shape had its decisions frozen")
	}
	_, err = CompactRequest([]byte(`{"messages": 3}`), Options{}, store)
	if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), "compact: decode request body") {
		t.Errorf("unreadable: %v", err)
	}
}

// TestVerdictsRemember: a remembered verdict is Classify's.
func TestVerdictsRemember(t *testing.T) {
	m := &Verdicts{Max: 2}
	for _, text := range []string{reqFail, reqPass, reqFail, "ls\n", reqFail} {
		got, want := m.classify(text), Classify(text)
		if got.Outcome != want.Outcome || got.Family != want.Family || got.RunLike != want.RunLike {
			t.Errorf("%.40q: %+v, want %+v", text, got, want)
		}
	}
	if len(m.seen) > 2 {
		t.Errorf("%d remembered, bound 2", len(m.seen))
	}
}
