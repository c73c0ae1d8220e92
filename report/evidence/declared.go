package evidence

import "github.com/runledger/runledger/report/runners"

// declaredGrammar reads the evidence a runner declares in report/runners
// (Declaration.Evidence, next to its result lines and totals), so a runner
// is added in one file there and this package needs no grammar of its own
// for it. unittest's and sympy's bin/test's blocks are read this way.
//
// A hand-written grammar (pytestGrammar, cargoGrammar, …) moves here when
// what it reads fits the declaration: a heading, maybe right after a rule,
// the lines under it up to a closing line, and bare verdict lines. Its
// regexps go into the runner's Declaration.Evidence, its test cases stay
// in TestGrammars, and its register call (registry.go) is dropped.
type declaredGrammar struct {
	runner string
	ev     *runners.Evidence
	ruled  bool // the previous line matched After
	block  *Block
	under  int // Underline matches seen under the heading
}

// declaredGrammars makes a grammar of every declared runner's evidence.
func declaredGrammars() []grammar {
	var gs []grammar
	for _, d := range runners.Evidences() {
		gs = append(gs, &declaredGrammar{runner: d.Runner, ev: d.Evidence})
	}
	return gs
}

func (g *declaredGrammar) starts() string { return g.ev.Starts }
func (g *declaredGrammar) busy() bool     { return g.ruled || g.block != nil }
func (g *declaredGrammar) reset()         { g.ruled, g.block, g.under = false, nil, 0 }

func (g *declaredGrammar) line(l *Line, sc *scanner) bool {
	ruled := g.ruled
	g.ruled = false
	if g.block != nil {
		if g.inBlock(l) {
			return true
		}
		g.block = nil // the line ends the block; it may start the next
	}
	ev, t := g.ev, l.Text
	if ruled || ev.After == nil {
		if m := ev.Open.FindSubmatch(t); m != nil {
			g.block, g.under = sc.open(g.runner, string(clip(m[1], 300)), "test", KindTest), 0
			g.block.add(l)
			return true
		}
	}
	if ev.After != nil && ev.After.Match(t) {
		g.ruled = true
		return true
	}
	if ev.Verdict != nil && ev.Verdict.Match(t) {
		b := sc.open(g.runner, string(clip(l.T, 200)), "verdict", KindVerdict)
		b.heading = true
		b.add(l)
		return true
	}
	return false
}

// inBlock adds l to the open block, or reports that l ends it.
func (g *declaredGrammar) inBlock(l *Line) bool {
	ev := g.ev
	if ev.Underline != nil && ev.Underline.Match(l.Text) {
		if g.under++; g.under > 1 {
			return false
		}
	} else if ev.Close.Match(l.Text) {
		return false
	}
	g.block.add(l)
	return true
}
