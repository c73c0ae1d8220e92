package evidence

import (
	"bytes"

	"github.com/runledger/runledger/report/runners"
)

// eunitGrammar reads EUnit's own report of a failed test (erl's
// eunit:test/1,2 and `rebar3 eunit -v`): the `mod: name...*failed*` line
// (or `...*timed out*`),
// the stack under it (`in function …`, `in call from …`, which name the
// test's file and line), the error (`**error:{assertEqual,[…]}`, its term
// over as many lines as it takes) and the test's `output:<<"…">>`, up to
// the blank line EUnit ends it with, the next test's line or the group's
// `[done in …]`. rebar3's progress format (`Failures:` and numbered
// blocks) is the numbered grammar's.
type eunitGrammar struct {
	block *Block
	n     int // lines in block
}

// eunitBlockLines bounds a block: the stack is at most about ten frames,
// an error term a few dozen lines.
const eunitBlockLines = 60

// Erlang's module names are atoms: a lowercase letter first.
func (g *eunitGrammar) starts() string { return "abcdefghijklmnopqrstuvwxyz" }
func (g *eunitGrammar) busy() bool     { return g.block != nil }
func (g *eunitGrammar) reset()         { g.block = nil }

var eunitMark, eunitTimeout = []byte("*failed*"), []byte("*timed out*")

func (g *eunitGrammar) line(l *Line, sc *scanner) bool {
	if g.block != nil {
		if !eunitEnds(l.T) && g.n < eunitBlockLines {
			g.block.add(l)
			g.n++
			return true
		}
		g.block = nil
		if l.blank() {
			return false
		}
	}
	var m [][]byte
	switch {
	case bytes.HasSuffix(l.T, eunitMark):
		m = runners.EUnitFailed.FindSubmatch(l.T)
	case bytes.HasSuffix(l.T, eunitTimeout):
		m = runners.EUnitTimedOut.FindSubmatch(l.T)
	}
	if m == nil {
		return false
	}
	g.block = sc.open("eunit", string(m[1])+":"+string(clip(m[2], 300)), "test", KindTest)
	g.block.heading = true
	g.block.add(l)
	g.n = 1
	return true
}

// eunitEnds reports a line past a failed test's report: a blank line, the
// next test's (`mod: name...ok`), its group's end or the total's rule.
func eunitEnds(t []byte) bool {
	return len(t) == 0 || hasPrefix(t, "[done in ") || hasPrefix(t, "module '") || hasPrefix(t, "=====") ||
		bytes.Contains(t, []byte("...")) && (bytes.HasSuffix(t, []byte("ok")) || bytes.HasSuffix(t, eunitMark) || bytes.HasSuffix(t, eunitTimeout) ||
			bytes.HasSuffix(t, []byte("*skipped*")) || bytes.HasSuffix(t, []byte("*cancelled*")))
}

func init() {
	register(Grammar{Runner: "eunit", Order: 170, New: func() grammar { return &eunitGrammar{} }})
}
