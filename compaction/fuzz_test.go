package compaction

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// FuzzClassify: a text that carries a failure line on a line of its own
// is never classified as passed, unless the harness framing it printed
// exit status 0, which outranks every line.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{goPassed, goFailed, pytestFailed, "```\n", "@@ -1,3 +1,3 @@\n",
		"commit 0123456\n", "== 3 passed in 0.1s ==\n", "   1\tok  \tx\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, fail := range []string{"FAILED x", "--- FAIL: TestX (0.00s)", "== 1 failed in 0.1s =="} {
			if w := Classify(text + "\n" + fail + "\n"); w.Outcome == OutcomePassed && !harnessSaysZero(text) {
				t.Fatalf("passed with %q appended: %+v", fail, w)
			}
		}
	})
}

var harnessZeroRe = regexp.MustCompile(`(?m)^\s*(<returncode>0</returncode>\s*$|\[(The command completed|Command finished) with exit code 0\.?\]\s*$)`)

func harnessSaysZero(text string) bool { return harnessZeroRe.MatchString(stripANSI(text)) }

// FuzzCompact: whatever the texts, the last output is untouched, only a
// classified failure is collapsed, and every collapse expands exactly.
func FuzzCompact(f *testing.F) {
	f.Add(bigFail, goPassed, "notes", 0, byte(0))
	f.Add(goFailed, goFailed, goPassed, -1, byte(1))
	f.Add(pytestFailed, "", pytestFailed, 5, byte(2))
	full, summary := &DirStore{Dir: f.TempDir()}, &DirStore{Dir: f.TempDir()}
	f.Fuzz(func(t *testing.T, a, b, c string, minTokens int, mode byte) {
		opts := Options{MinTokens: minTokens, MarkerMode: []MarkerMode{ModeFull, ModeSummary, ModeOff}[mode%3]}
		store := full
		if opts.MarkerMode != ModeFull {
			store = summary
		}
		in := outputsOf(a, b, c, a)
		out, ds, err := Compact(in, opts, store)
		if err != nil {
			t.Fatal(err)
		}
		if out[3].Text != a {
			t.Fatal("last output changed")
		}
		for i, d := range ds {
			checkDecision(t, store, in[i], out[i], d, opts)
			if d.Decision == Collapsed && Classify(in[i].Text).Outcome != OutcomeFailed {
				t.Fatalf("output %d collapsed without a failure: %q", i, in[i].Text)
			}
		}
	})
}

// FuzzFilterRequest: whatever request body comes in, what goes out is
// JSON with the same tokens, except tool outputs' text.
func FuzzFilterRequest(f *testing.F) {
	f.Add(anthropicBody(""))
	f.Add(openAI())
	f.Add(`{"messages":[{"role":"tool","tool_call_id":"x","content":"a\u003cb"}]}`)
	store := &DirStore{Dir: f.TempDir()}
	f.Fuzz(func(t *testing.T, body string) {
		var out bytes.Buffer
		ds, err := Filter(strings.NewReader(body), &out, Options{MinTokens: -1}, store)
		if err != nil {
			return
		}
		if !json.Valid(out.Bytes()) {
			t.Fatalf("output is not JSON: %q", out.String())
		}
		collapsed := 0
		for _, d := range ds {
			if d.Decision == Collapsed {
				collapsed++
			}
		}
		if collapsed == 0 && out.String() != body {
			t.Fatalf("nothing collapsed but the body changed:\n%q\n%q", body, out.String())
		}
	})
}
