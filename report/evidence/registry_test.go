package evidence

import (
	"slices"
	"testing"

	"github.com/runledger/runledger/report/runners"
)

// shapeGrammars are the grammars that read a shape many runners print rather
// than one runner's output.
var shapeGrammars = []string{"traceback", "sanitizer", "numbered"}

// TestRegistry walks the grammars: each belongs to a registered runner
// (or reads a shared shape), go's is first, and the scanner holds them
// all, the declared runners' among them, with no cap on their number.
func TestRegistry(t *testing.T) {
	names := runners.Names()
	for _, g := range grammars {
		if !slices.Contains(names, g.Runner) && !slices.Contains(shapeGrammars, g.Runner) {
			t.Errorf("grammar %q: no runner of that name is registered in report/runners", g.Runner)
		}
	}
	sc := newScanner()
	if len(sc.grammars) != len(Grammars()) {
		t.Errorf("the scanner has %d grammars, Grammars lists %d", len(sc.grammars), len(Grammars()))
	}
	if _, ok := sc.grammars[0].(*goGrammar); !ok {
		t.Errorf("grammars[0] is %T, want the go grammar", sc.grammars[0])
	}
}

// TestManyGrammars: past 64 grammars the scanner's sets grow a word, and
// a grammar past the first word still sees the lines it starts on and
// every line while busy.
func TestManyGrammars(t *testing.T) {
	saved := grammars
	defer func() { grammars = saved }()
	grammars = slices.Clone(grammars)
	var probes []*probe
	for i := 0; i < 70; i++ {
		p := &probe{}
		probes = append(probes, p)
		grammars = append(grammars, Grammar{Runner: "probe", Order: 1000 + i, New: func() grammar { return p }})
	}
	sc := newScanner()
	if sc.words < 2 {
		t.Fatalf("%d grammars in %d words", len(sc.grammars), sc.words)
	}
	for i, text := range []string{"nothing here", "@open", "inside", "@close", "after"} {
		b := []byte(text)
		sc.line(&Line{Start: int64(i * 10), End: int64(i*10 + 10), No: int64(i + 1), Text: b, T: b})
	}
	last := probes[len(probes)-1]
	if want := []string{"@open", "inside", "@close"}; !slices.Equal(last.seen, want) {
		t.Errorf("the 70th probe saw %q, want %q", last.seen, want)
	}
}

// probe opens on a line starting with '@' and stays busy up to "@close".
type probe struct {
	open bool
	seen []string
}

func (p *probe) line(l *Line, sc *scanner) bool {
	p.seen = append(p.seen, string(l.T))
	p.open = string(l.T) != "@close"
	return false
}
func (p *probe) reset()         { p.open = false }
func (p *probe) starts() string { return "@" }
func (p *probe) busy() bool     { return p.open }

// TestShapes: the line shapes the grammars register, as the comment asks
// them (report/render ranks by them and names no runner).
func TestShapes(t *testing.T) {
	for _, c := range []struct {
		line string
		f    func(string) bool
		want bool
	}{
		{"--- FAIL: TestX (0.00s)", VerdictLine, true},
		{"FAIL\tex.com/app [build failed]", VerdictLine, true},
		{"ok  \tex.com/app [build failed]", VerdictLine, true},
		{"not ok 5 - adds", VerdictLine, true},
		{"● Cart › adds", VerdictLine, true},
		{"______ test_total ______", VerdictLine, true},
		{"______ test_total", VerdictLine, false},
		{"[  FAILED  ] SumTest.Adds", VerdictLine, true},
		{"---- tests::cut stdout ----", VerdictLine, true},
		{"Expected: 7", VerdictLine, false},
		{"E       assert 3 == 4", Quoted, true},
		{"Error: boom", Quoted, false},
		{"E       assert False", BareMessage, true},
		{"E       assert 3 == 4", BareMessage, false},
		{"tests/test_x.py:197: AssertionError", WhereLine, true},
		{"tests/test_x.py:197: assert 1", WhereLine, false},
		{"x_test.go:21: got 1", LogLine, true},
		{"at f (a.test.js:3:9)", LogLine, false},
	} {
		if got := c.f(c.line); got != c.want {
			t.Errorf("%q: %v, want %v", c.line, got, c.want)
		}
	}
	if got := Unquote("E   +  where 3 = f()"); got != "  +  where 3 = f()" {
		t.Errorf("Unquote = %q", got)
	}
	ev := `{"Time":"2026-01-01T00:00:00Z","Action":"output","Package":"p","Test":"TestX","Output":"    x_test.go:9: got 1\n"}`
	field, at := PayloadAt(ev)
	if field < 0 || ev[field:at] != `"Output":"` || ev[at:at+4] != "    " {
		t.Errorf("PayloadAt = %d, %d", field, at)
	}
	if f, a := PayloadAt("plain line"); f != -1 || a != -1 {
		t.Errorf("PayloadAt(plain) = %d, %d", f, a)
	}
}
