package evidence

import (
	"github.com/runledger/runledger/report/runners"
)

// bustedGrammar reads busted's report of a failure or an error under its
// terminal outputs (plainTerminal, utfTerminal), after its total: the
// heading ("Failure -> spec/calc_spec.lua @ 11", utfTerminal's "Failure →
// …"; "Error -> <message>" for a spec that does not load), the test's
// name under it, and the message (an assertion's "Expected objects to be
// equal." with its "Passed in:" and "Expected:" values, or the error),
// with --verbose's stack traceback, up to the blank line that ends it.
// A pending test's block is none of its.
type bustedGrammar struct {
	block     *Block
	n         int  // lines in block
	named     bool // the test's name was read
	gap       bool // a blank line was read: the block ends unless a traceback follows
	traceback bool
}

// bustedBlockLines bounds a block: a message and a traceback of a few
// dozen frames.
const bustedBlockLines = 60

func (g *bustedGrammar) starts() string { return "FE" }
func (g *bustedGrammar) busy() bool     { return g.block != nil }
func (g *bustedGrammar) reset()         { g.block = nil }

func (g *bustedGrammar) line(l *Line, sc *scanner) bool {
	if g.block != nil {
		if g.more(l) {
			return true
		}
		g.block = nil
	}
	if !hasPrefix(l.T, "Failure ") && !hasPrefix(l.T, "Error ") {
		return false
	}
	test := ""
	if m := runners.BustedHeading.FindSubmatch(l.T); m != nil {
		test = string(m[2]) + ":" + string(m[3])
	} else if hasPrefix(l.T, "Error -> ") || hasPrefix(l.T, "Error → ") {
		test = "error"
	} else {
		return false
	}
	g.block = sc.open("busted", test, "test", KindTest)
	g.block.heading = true
	g.block.add(l)
	g.n, g.named, g.gap, g.traceback = 1, false, false, false
	return true
}

// more adds a line of the open block, or reports that it ended.
func (g *bustedGrammar) more(l *Line) bool {
	switch {
	case g.n >= bustedBlockLines:
		return false
	case !g.named:
		// The test's name names the block.
		if l.blank() {
			return false
		}
		g.block.Test = string(clip(l.T, 300))
		g.named = true
	case l.blank():
		g.gap = true
		return true
	case g.gap && string(l.T) == "stack traceback:":
		g.gap, g.traceback = false, true
	case g.gap:
		return false
	}
	g.block.add(l)
	g.n++
	return true
}

func init() {
	// An error's heading may be its message ("Error -> spec/x_spec.lua:5:
	// ')' expected"): only a failure's is a bare verdict.
	register(Grammar{Runner: "busted", Order: 174, New: func() grammar { return &bustedGrammar{} },
		Shapes: Shapes{Verdict: []string{"Failure -> ", "Failure → "}}})
}
