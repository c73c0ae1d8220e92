package evidence

import (
	"bytes"

	"github.com/runledger/runledger/report/runners"
)

// catch2Grammar reads Catch2's console reporter: a test case's header (a
// rule of dashes, its name and sections, a rule, its place and a rule of
// dots) and the assertions under it, to the next header or the run's
// closing rule of '='. A block is kept only when a `file:12: FAILED:` line
// is under its header; with -s the passing assertions (`file:9: PASSED:`
// down to their blank line) are left out of it, so what is quoted is the
// header and what failed. Under ctest -V each line's `1: ` is passed over.
// It is a grammar of its own, not a declaration: the block's test is the
// header's name, which Catch2 wraps over several lines (runners.Catch2Name
// joins them as the summary does), and a block of passes is no evidence.
type catch2Grammar struct {
	state uint8 // 0 nothing open, 1 in a header, 2 under one
	name  []string
	pend  Block // the header and what follows, until a FAILED line keeps it
	block *Block
	skip  bool // inside a passing assertion (-s)
}

func (g *catch2Grammar) starts() string { return "-" + digits }
func (g *catch2Grammar) busy() bool     { return g.state != 0 }
func (g *catch2Grammar) reset()         { g.state, g.block, g.skip = 0, nil, false }

// catch2Text is a line without ctest -V's `12: `.
func catch2Text(l *Line) []byte {
	t := l.T
	if len(t) > 0 && t[0] >= '0' && t[0] <= '9' {
		i := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i+1 < len(t) && t[i] == ':' && t[i+1] == ' ' {
			return l.Text[len(l.Text)-len(t)+i+2:]
		}
	}
	return l.Text
}

func rule(t []byte, c byte) bool { return allOf(bytes.TrimSpace(t), c, 40) }

func (g *catch2Grammar) line(l *Line, sc *scanner) bool {
	text := catch2Text(l)
	t := bytes.TrimSpace(text)
	switch g.state {
	case 0:
		if !rule(t, '-') {
			return false
		}
		g.open(l)
		return true
	case 1:
		g.pend.add(l)
		switch {
		case rule(t, '-') && len(g.name) > 0:
			g.state = 2
		case len(t) == 0 || len(g.name) >= 32 || rule(t, '.') || rule(t, '-'):
			g.reset()
		default:
			g.name = append(g.name, string(bytes.TrimRight(text, " \t")))
		}
		return true
	}
	// Under a header.
	switch {
	case rule(t, '-'):
		g.open(l)
		return true
	case rule(t, '=') || rule(t, '~'):
		g.reset()
		return false
	}
	if g.skip {
		g.skip = len(t) > 0
		return true
	}
	if bytes.HasSuffix(t, []byte(": PASSED:")) || bytes.HasSuffix(t, []byte(": FAILED - but was ok:")) {
		g.skip = true
		return true
	}
	if g.block == nil && bytes.HasSuffix(t, []byte(": FAILED:")) {
		name, _ := runners.Catch2Name(g.name)
		g.block = sc.open("catch2", string(clip([]byte(name), 300)), "test", KindTest)
		g.block.Spans = append(g.block.Spans[:0], g.pend.Spans...)
		g.block.Lines = g.pend.Lines
	}
	if g.block != nil {
		if g.block.Lines >= 400 {
			g.reset()
			return false
		}
		g.block.add(l)
	} else {
		g.pend.add(l)
	}
	return true
}

// open starts reading a header at its first rule.
func (g *catch2Grammar) open(l *Line) {
	g.state, g.name, g.block, g.skip = 1, g.name[:0], nil, false
	g.pend.Spans, g.pend.Lines = g.pend.Spans[:0], 0
	g.pend.add(l)
}

func init() {
	register(Grammar{Runner: "catch2", Order: 30, New: func() grammar { return &catch2Grammar{} }})
}
