package compaction

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// bigFail is a failed go test run large enough to pass the default
// MinTokens (100 tokens, about 400 bytes).
var bigFail = strings.Repeat("=== RUN   TestMul\n    calc_test.go:21: Mul(2, 3) = 5, want 6\n", 8) + goFailed

func TestCompactDecisions(t *testing.T) {
	escaped := strings.Replace(bigFail, "FAIL\n", "FAIL \\u003c\\u003ccg:0123456789abcdef>>\n", 1)
	tests := []struct {
		name    string
		texts   []string
		opts    Options
		reasons []string
	}{
		{"single run changes nothing", []string{"cat notes", bigFail}, Options{}, []string{ReasonNotRunLike, ReasonLatest}},
		{"earlier failure collapses", []string{bigFail, "cat notes", goPassed}, Options{}, []string{ReasonCollapsed, ReasonNotRunLike, ReasonLatest}},
		{"latest failure kept", []string{bigFail, bigFail}, Options{}, []string{ReasonCollapsed, ReasonLatest}},
		{"earlier pass kept", []string{goPassed, bigFail}, Options{}, []string{ReasonPassed, ReasonLatest}},
		{"earlier unknown kept", []string{"===== test session starts =====\ncollected 3 items\n" + strings.Repeat(".", 600) + "\n", "===== 3 passed in 0.1s =====\n"}, Options{}, []string{ReasonUnknown, ReasonLatest}},
		{"small failure", []string{goFailed, goPassed}, Options{}, []string{ReasonTooSmall, ReasonLatest}},
		{"small failure, no minimum", []string{goFailed, goPassed}, Options{MinTokens: -1}, []string{ReasonCollapsed, ReasonLatest}},
		{"no gain", []string{"FAIL\tx\t0.01s\n", goPassed}, Options{MinTokens: -1}, []string{ReasonNoGain, ReasonLatest}},
		{"has marker", []string{bigFail + "see <<cg:0123456789abcdef>>\n", goPassed}, Options{}, []string{ReasonHasMarker, ReasonLatest}},
		{"has JSON-escaped marker", []string{escaped, goPassed}, Options{}, []string{ReasonHasMarker, ReasonLatest}},
		{"mode off", []string{bigFail, goPassed}, Options{MarkerMode: ModeOff}, []string{ReasonModeOff, ReasonModeOff}},
		{"summary mode", []string{bigFail, goPassed}, Options{MarkerMode: ModeSummary}, []string{ReasonCollapsed, ReasonLatest}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := &DirStore{Dir: t.TempDir()}
			in := outputsOf(tt.texts...)
			out, ds, err := Compact(in, tt.opts, store)
			if err != nil {
				t.Fatal(err)
			}
			for i, d := range ds {
				if d.Reason != tt.reasons[i] {
					t.Errorf("output %d: reason %s, want %s", i, d.Reason, tt.reasons[i])
				}
				checkDecision(t, store, in[i], out[i], d, tt.opts)
			}
		})
	}
}

// checkDecision holds every decision to what it claims: kept is
// byte-identical, collapsed is one pointer line whose marker expands to
// the original in full mode and resolves to nothing in summary mode.
func checkDecision(t *testing.T, store Store, in, out Output, d Decision, opts Options) {
	t.Helper()
	if d.BytesBefore != len(in.Text) || d.BytesAfter != len(out.Text) || out.ID != in.ID {
		t.Errorf("%s: bookkeeping %+v for %d→%d bytes", in.ID, d, len(in.Text), len(out.Text))
	}
	if d.Decision == Kept {
		if out.Text != in.Text || d.Marker != "" {
			t.Errorf("%s: kept but changed", in.ID)
		}
		return
	}
	if !strings.HasPrefix(out.Text, supersededLinePrefx+d.Marker) || strings.Count(strings.TrimSuffix(out.Text, "\n"), "\n") != 0 {
		t.Errorf("%s: collapsed text %q", in.ID, out.Text)
	}
	got, err := Expand(store, out.Text)
	if opts.MarkerMode == ModeSummary {
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: summary mode stored the text (err %v)", in.ID, err)
		}
		return
	}
	if err != nil || string(got) != in.Text {
		t.Errorf("%s: Expand = %v, original not restored", in.ID, err)
	}
}

func outputsOf(texts ...string) []Output {
	out := make([]Output, len(texts))
	for i, s := range texts {
		out[i] = Output{ID: stepID(i), Text: s}
	}
	return out
}

func TestCompactOptionErrors(t *testing.T) {
	if _, _, err := Compact(outputsOf(bigFail), Options{MarkerMode: "loud"}, nil); err == nil {
		t.Fatal("unknown marker mode accepted")
	}
	if _, _, err := Compact(outputsOf(bigFail, goPassed), Options{}, nil); err == nil {
		t.Fatal("full mode without a store accepted")
	}
}

// A store that cannot write stops the compaction: no marker is handed out
// for a text that was not kept.
func TestCompactStoreFailure(t *testing.T) {
	dir := t.TempDir()
	blocker := dir + "/file"
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := Compact(outputsOf(bigFail, goPassed), Options{}, &DirStore{Dir: blocker + "/store"})
	if err == nil || !strings.Contains(err.Error(), "compact oa") {
		t.Fatalf("Compact with an unwritable store: err = %v", err)
	}
}

func TestPointerLineClipsUTF8(t *testing.T) {
	text := strings.Repeat("é", 200)
	if got := clip(text, 121); !strings.HasSuffix(got, "é…") || len(got) > 121+len("…") {
		t.Fatalf("clip = %q", got)
	}
}
