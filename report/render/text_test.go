package render

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/golden"
	"github.com/runledger/runledger/report"
)

// TestRenderTextGolden: the terminal format of the representative
// envelopes, plain; no marker, envelope or Markdown reaches a terminal.
func TestRenderTextGolden(t *testing.T) {
	for _, tt := range markdownCases() {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Text(&tt.env, TextOptions{Budget: tt.opts.Budget})
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(out, "\n")
			if want := textIcon(tt.env.Status) + " runledger: " + textWord(tt.env.Status); !strings.HasPrefix(first, want) {
				t.Errorf("first line %q, want prefix %q", first, want)
			}
			if strings.HasPrefix(out, MarkerComment) || strings.Contains(out, "<details><summary>envelope") || strings.Contains(out, "\x1b") {
				t.Errorf("text holds the comment's markers, its envelope or an escape")
			}
			if budget := (Options{Budget: tt.opts.Budget}).budget(); len(out) > budget && !strings.Contains(out, "over the") {
				t.Errorf("%d bytes over the budget without saying so", len(out))
			}
			golden.Check(t, filepath.Join("testdata", "text", tt.name+".txt"), []byte(out))
		})
	}
}

// TestRenderTextColor: colour only when asked, and log text never brings
// its own escapes.
func TestRenderTextColor(t *testing.T) {
	env := hostileEnvelope()
	for _, color := range []bool{false, true} {
		out, err := Text(&env, TextOptions{Color: color})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out, "\x1b[31m"); got != color {
			t.Errorf("color %v: red escape present = %v", color, got)
		}
		if strings.Contains(out, "\x1b]0;") || strings.Contains(out, "\x1b[31mred") {
			t.Errorf("color %v: the log's own escapes reached the terminal", color)
		}
	}
}

func TestBulletsFoldParents(t *testing.T) {
	f := func(name, msg string) report.Failure {
		return report.Failure{Name: name, Classname: "pkg", Message: msg}
	}
	tests := []struct {
		name       string
		in         []report.Failure
		want, fold string
	}{
		{"parent above subtests", []report.Failure{f("TestTotal", ""), f("TestTotal/carry", "got 10"), f("TestTotal/neg", "got -2")},
			"TestTotal/carry TestTotal/neg", "TestTotal"},
		{"nested", []report.Failure{f("TestA", ""), f("TestA/b", ""), f("TestA/b/c", "boom")}, "TestA/b/c", "TestA TestA/b"},
		{"a parent with its own message stays", []report.Failure{f("TestA", "setup failed"), f("TestA/b", "x")}, "TestA TestA/b", ""},
		{"a prefix that is not a parent", []report.Failure{f("TestAB", ""), f("TestA/b", "x")}, "TestAB TestA/b", ""},
		{"another class's subtest", []report.Failure{f("TestA", ""), {Name: "TestA/b", Classname: "other"}}, "TestA TestA/b", ""},
	}
	for _, tt := range tests {
		list, folded := bullets(tt.in, nil, nil)
		var names []string
		for _, b := range list {
			names = append(names, b.Name)
		}
		if got := strings.Join(names, " "); got != tt.want {
			t.Errorf("%s: bullets %q, want %q", tt.name, got, tt.want)
		}
		if got := strings.Join(folded, " "); got != tt.fold {
			t.Errorf("%s: folded %q, want %q", tt.name, got, tt.fold)
		}
	}
}

// TestParseVerdict: the comment's opening line reads each section's
// verdict back; anything else is not a verdict, so never a pass.
func TestParseVerdict(t *testing.T) {
	for _, tt := range markdownCases() {
		line := Verdict(&tt.env)
		got, ok := ParseVerdict(line)
		want := tt.env.Status
		if !knownStatus[want] {
			want = ""
		}
		if ok != (want != "") || got.Status != want {
			t.Errorf("%s: ParseVerdict(%q) = %+v, %v; want status %q", tt.name, line, got, ok, want)
		}
		var tests, failed int
		for _, r := range tt.env.Runs {
			if r.Summary.Source != "none" && r.Summary.Tests != nil {
				tests += *r.Summary.Tests
				failed += deref(r.Summary.Failed)
			}
		}
		if got.Tests != tests || got.Failed != failed {
			t.Errorf("%s: counts %d/%d read back, want %d/%d", tt.name, got.Failed, got.Tests, failed, tests)
		}
	}
	for _, line := range []string{"**failed**: exit code 1", "✅ **passedX**", "", "✅ passed"} {
		if got, ok := ParseVerdict(line); ok {
			t.Errorf("ParseVerdict(%q) = %+v, want not a verdict", line, got)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 2005: "2,005", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
