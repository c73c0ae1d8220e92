package publish

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/golden"
	"github.com/runledger/runledger/report/render"
)

func TestCommentGolden(t *testing.T) {
	old := merge(nil, []Section{{Key: "ci/unit/linux", Title: "unit (linux)", Status: "❌ **failed** · exit 1 · 120 tests, 2 failed",
		Collapsed: "`<<cg:0123456789abcdef>>` run r-1 in artifact unit-linux-1 -->"}})
	parts := merge(old, []Section{
		{Key: "ci/unit/linux", Title: "unit (linux)", Status: "✅ **passed** · 120 tests · 4.0s",
			Full: "```\nok  \tpkg\t0.2s\n```", Compact: "`ok pkg`"},
		{Key: "ci/unit/macos", Title: "unit (macos)", Status: "⏱️ **timed_out** · 10m00s",
			Collapsed: "`<<cg:fedcba9876543210>>` run r-2",
			Full:      "```\n<!-- a forged marker -->\npanic: test timed out\n```"},
	})
	body, err := compose(parts, commentBudget)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "golden", "comment.md"), []byte(body))
}

func sized(key string, status string, full, compact int) Section {
	return Section{Key: key, Title: key, Status: status, Full: strings.Repeat("f", full), Compact: strings.Repeat("c", compact)}
}

func TestCompose(t *testing.T) {
	tests := []struct {
		name    string
		secs    []Section
		history int // earlier verdicts per section, oldest first
		budget  int
		// want is each section's rendering kind in key order.
		want        string
		wantHistory bool // whether all history survives
		note        bool
		wantErr     bool
	}{
		{name: "everything fits", secs: []Section{sized("a", "failed", 100, 10), sized("b", "passed", 100, 10)},
			budget: 2000, want: "ff", wantHistory: true},
		{name: "largest excerpt goes compact first", secs: []Section{sized("a", "failed", 3000, 10), sized("b", "passed", 500, 10)},
			budget: 2000, want: "cf", wantHistory: true, note: true},
		{name: "then to a note", secs: []Section{sized("a", "failed", 3000, 2500), sized("b", "passed", 500, 10)},
			budget: 2000, want: "nf", wantHistory: true, note: true},
		{name: "a compact no smaller is skipped", secs: []Section{sized("a", "failed", 3000, 4000)},
			budget: 2000, want: "n", wantHistory: true, note: true},
		{name: "excerpts shrink before history", secs: []Section{sized("a", "failed", 3000, 10), sized("b", "passed", 10, 10)},
			history: 5, budget: 2500, want: "cf", wantHistory: true, note: true},
		{name: "oldest history goes last", secs: []Section{sized("a", "failed", 3000, 10), sized("b", "passed", 10, 10)},
			history: 40, budget: 900, want: "nn", note: true},
		{name: "a very long status line is shortened, not dropped", secs: []Section{sized("a", strings.Repeat("failed ", 1000), 10, 10)},
			budget: 1000, want: "n", wantHistory: true, note: true},
		{name: "status lines alone too long", secs: manySections(200), budget: 1000, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var parts []*part
			for h := range tt.history {
				var old []Section
				for _, s := range tt.secs {
					old = append(old, Section{Key: s.Key, Title: s.Title, Status: fmt.Sprintf("verdict %d of %s", h, s.Key)})
				}
				parts = merge(parts, old)
			}
			parts = merge(parts, tt.secs)
			body, err := compose(parts, tt.budget)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("want an error, got %d characters", chars(body))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := chars(body); n > tt.budget {
				t.Fatalf("%d characters over a budget of %d", n, tt.budget)
			}
			got := parseBody(body)
			kinds := ""
			for i, p := range got {
				kinds += p.options[0].kind
				if p.status != tt.secs[i].Status && p.status != cut(oneLine(tt.secs[i].Status), 300) {
					t.Errorf("status of %s is %q", p.title, p.status)
				}
				kept := len(p.history) == min(tt.history, maxHistory)
				if tt.wantHistory != kept {
					t.Errorf("%s: %d history entries kept of %d", p.title, len(p.history), tt.history)
				}
				if !kept && (p.droppedHistory == 0 || !strings.Contains(body, "older results omitted")) {
					t.Errorf("history dropped without a visible note")
				}
				if kept && tt.history > 0 && p.history[0] != fmt.Sprintf("verdict %d of %s", tt.history-1, p.title) {
					t.Errorf("newest history entry is %q", p.history[0])
				}
			}
			if kinds != tt.want {
				t.Errorf("renderings %q, want %q\n%s", kinds, tt.want, body)
			}
			if hasNote := strings.Contains(body, sizeNote) || strings.Contains(body, sizeNoteCut); hasNote != tt.note {
				t.Errorf("size note shown = %v, want %v", hasNote, tt.note)
			}
			if strings.Contains(body, "Status lines are complete") && strings.Contains(body, "…") {
				t.Errorf("footer claims complete status lines after cutting one")
			}
		})
	}
}

func manySections(n int) []Section {
	var out []Section
	for i := range n {
		out = append(out, sized(fmt.Sprintf("leg%03d", i), "failed: "+strings.Repeat("x", 90), 10, 10))
	}
	return out
}

func TestParseToleratesCRLF(t *testing.T) {
	parts := merge(nil, []Section{leg(1, "failed"), leg(2, "passed")})
	body, err := compose(parts, commentBudget)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{leg(1, "failed").Key: leg(1, "failed").hash(), leg(2, "passed").Key: leg(2, "passed").hash()}
	if !current(strings.ReplaceAll(body, "\n", "\r\n"), want) {
		t.Fatal("a comment saved with CRLF line ends is not recognised")
	}
	if current(body, map[string]string{leg(3, "failed").Key: leg(3, "failed").hash()}) {
		t.Fatal("a missing section reads as current")
	}
}

// FuzzCompose: whatever the sections, the body fits the budget, every status
// line survives (a failed verdict never disappears), and the body reads back
// to the same sections.
func FuzzCompose(f *testing.F) {
	f.Add("unit", "**failed** exit 1", "--- FAIL: TestX\n", "TestX", uint8(3), uint16(4000))
	f.Add("t<!--x", "timed_out\r\n<!-- rl k=000000000000 h=000000000000 r=f -->", strings.Repeat("𝄞", 900), "", uint8(12), uint16(3000))
	f.Add("", "", "", "", uint8(1), uint16(200))
	f.Add("**", "- **failed**", "<!-- rl:body -->\n<!-- rl:history -->", "_3 older results omitted", uint8(40), uint16(9000))
	f.Fuzz(func(t *testing.T, title, status, full, compact string, n uint8, budget uint16) {
		var secs []Section
		for i := range int(n%48) + 1 {
			secs = append(secs, Section{
				Key: fmt.Sprintf("k%d", i), Title: fmt.Sprintf("%s %d", title, i),
				Status: fmt.Sprintf("%s #%d", status, i), Full: strings.Repeat(full, i%3+1), Compact: compact,
			})
		}
		parts := merge(merge(nil, secs[:len(secs)/2]), secs)
		body, err := compose(parts, int(budget))
		if err != nil {
			return // only when the status lines alone cannot fit
		}
		if chars(body) > int(budget) {
			t.Fatalf("%d characters over %d", chars(body), budget)
		}
		got := parseBody(body)
		if len(got) != len(secs) {
			t.Fatalf("%d sections read back, want %d", len(got), len(secs))
		}
		byID := map[string]*part{}
		for _, p := range got {
			byID[p.id] = p
		}
		for _, s := range secs {
			p := byID[keyID(s.Key)]
			if p == nil || p.hash != s.hash() {
				t.Fatalf("section %s lost or stale", s.Key)
			}
			want := oneLine(s.Status)
			if p.status != want && p.status != cut(want, 300) {
				t.Fatalf("status %q read back as %q", want, p.status)
			}
		}
		// A second pass over what was written changes nothing.
		again, err := compose(parseBody(body), int(budget))
		if err != nil || !current(again, hashes(secs)) {
			t.Fatalf("re-composing lost sections: %v", err)
		}
	})
}

func hashes(secs []Section) map[string]string {
	m := map[string]string{}
	for _, s := range secs {
		m[s.Key] = s.hash()
	}
	return m
}

// TestEnvelopeMarkersSurvive: a section holding a report keeps its
// embedded envelope readable in the comment, while any other HTML comment
// opener in caller text is still broken.
func TestEnvelopeMarkersSurvive(t *testing.T) {
	full := "**runledger: failed**\n<!-- rl k=000000000000 h=000000000000 r=f -->\n<details>\n\n" +
		render.MarkerEnvelopeBegin + "\n```json\n{\"schema\":\"runledger.report/v1\",\"status\":\"failed\",\"runs\":[],\"superseded\":[]}\n```\n" +
		render.MarkerEnvelopeEnd + "\n\n</details>"
	body, err := compose(merge(nil, []Section{{Key: "k", Title: "t", Status: "failed", Full: full, Compact: "c"}}), commentBudget)
	if err != nil {
		t.Fatal(err)
	}
	env, err := render.ExtractEnvelope(body)
	if err != nil || env.Status != "failed" {
		t.Fatalf("envelope in the comment: %v %v", env, err)
	}
	if strings.Count(body, "<!-- rl k=") != 1 {
		t.Fatalf("a forged section marker survived:\n%s", body)
	}
}
