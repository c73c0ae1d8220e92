package evidence

import (
	"bytes"
	"math/bits"

	"github.com/runledger/runledger/report/internal/lines"
)

// Line is one line of the stored file as the grammars see it.
type Line struct {
	Start, End int64 // [Start, End) in the stored file, newline included
	No         int64 // 1-based line number in the stored file
	// Text is the line's first bytes without its line ending and terminal
	// escapes, the last \r-separated segment of a progress line; T is Text
	// without leading blanks, and Indent how many blanks (a tab counts 4)
	// were dropped.
	Text, T []byte
	Indent  int
}

// blank reports an empty or all-blank line.
func (l *Line) blank() bool { return len(l.T) == 0 }

// grammar is one runner's knowledge: it sees every line and collects the
// blocks that explain that runner's failures.
type grammar interface {
	// line reports whether l belongs to evidence the grammar is
	// collecting (or to a test's output it tracks), so that the generic
	// matcher leaves it alone.
	line(l *Line, sc *scanner) bool
	// reset closes what is open: a piece of the stored file ended.
	reset()
	// starts lists the first bytes (after blanks) of the lines that can
	// open something; "" means any line. busy reports that something is
	// open and every line must be seen. A grammar that is not busy must
	// leave every other line alone: the scanner does not show it them.
	starts() string
	busy() bool
}

// ender is a grammar that keeps, when a piece of the file ends, what it
// had not kept yet: gtest's test that never got its verdict.
type ender interface {
	end(sc *scanner)
}

const digits = "0123456789"

type scanner struct {
	grammars []grammar
	golang   *goGrammar // grammars[0], called directly on its own lines
	generic  *genericGrammar
	blocks   []*Block
	spare    Block // where blocks past maxBlocks go, uncounted
	nGeneric int
	claimed  bool // a grammar earlier in the list took the current line
	// died is the latest unclaimed line that ends as Perl's die message
	// does, and diedIn the file it names: tap's `# Looks like your test
	// exited` right under it quotes it.
	died   Line
	diedIn string
	// recent is a ring of the latest lines (spans only; at is the newest),
	// both the lines before the current one and the tail: one store a
	// line instead of two. nPrev and nTail count those of this piece.
	recent   [recentLines]Line
	at       int
	nPrev    int
	nTail    int
	head     []Span
	headDone bool
	escBuf   []byte
	cur      Line
	// starts[c*words+i/64] has bit i%64 set when grammar i can open
	// something on a line starting with c (startTable); busy when grammar
	// i has something open.
	starts []uint64
	busy   bitset
	words  int
}

func newScanner() *scanner {
	sc := &scanner{generic: &genericGrammar{}, grammars: newGrammars()}
	sc.golang = sc.grammars[0].(*goGrammar)
	sc.busy = newBitset(len(sc.grammars))
	sc.words = len(sc.busy)
	sc.starts = startTable(sc.grammars, sc.words)
	return sc
}

// open starts a block; past maxBlocks the block is not kept.
func (sc *scanner) open(runner, test, role string, kind Kind) *Block {
	if len(sc.blocks) >= maxBlocks {
		sc.spare = Block{}
		return &sc.spare
	}
	b := &Block{Runner: runner, Test: test, Role: role, Kind: kind}
	sc.blocks = append(sc.blocks, b)
	return b
}

// recentLines is the size of the ring of recent lines: a power of two, so
// that a line's slot is a mask, and at least tailLines.
const recentLines = 64

// prevLines is how many of the lines before the current one before sees.
const prevLines = 3

// justEnded returns the latest block when it is a traceback or generic
// error that ended at most two lines above l: a line under it that says
// the failure was meant (`XFAIL: …`, "expected to fail") makes it an
// expected failure, as a BDD runner prints inside passing scenarios. A
// runner's own test block is its grammar's to judge.
func (sc *scanner) justEnded(l *Line) *Block {
	if len(sc.blocks) == 0 {
		return nil
	}
	b := sc.blocks[len(sc.blocks)-1]
	if n := len(b.Spans); n > 0 && (b.Kind == KindCrash && b.Runner == "python" || b.Kind == KindError) &&
		b.Spans[n-1].Last >= l.No-3 {
		return b
	}
	return nil
}

// back returns the k-th line before the current one (0: the one just before).
func (sc *scanner) back(k int) *Line {
	return &sc.recent[(sc.at-k)&(recentLines-1)]
}

// before adds up to n of the lines just before the current one to b, when
// they are adjacent; keep says which of them qualify (nil: all).
func (sc *scanner) before(b *Block, n int, keep func(*Line) bool) {
	k := 0
	for k < min(n, sc.nPrev) && (keep == nil || keep(sc.back(k))) {
		k++
	}
	for i := k - 1; i >= 0; i-- {
		b.add(sc.back(i))
	}
}

func (sc *scanner) line(l *Line) {
	sc.claimed = false
	var first byte
	if len(l.T) > 0 {
		first = l.T[0]
	}
	if sc.idleBut(0) && passMark(l.T) {
		// A jest, mocha or node:test `✓ title` line: no grammar opens
		// anything on it, and no error word can start it.
		sc.after(l)
		return
	}
	if sc.idleBut(1) && goVerdictOrRun(l.T) {
		// Most of a `go test -v` log: no other grammar acts on these
		// lines unless it has a block open, so only the go grammar
		// (grammars[0]) sees them, called directly rather than through
		// the interface: two of every three lines of a dense log.
		g := sc.golang
		sc.claimed = g.line(l, sc)
		sc.busy[0] &^= 1
		if g.busy() {
			sc.busy[0] |= 1
		}
		sc.after(l)
		return
	}
	starts := sc.starts[int(first)*sc.words:]
	for w, busy := range sc.busy {
		for m := busy | starts[w]; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			g := sc.grammars[w*64+i]
			if g.line(l, sc) {
				sc.claimed = true
			}
			if g.busy() {
				sc.busy[w] |= 1 << i
			} else {
				sc.busy[w] &^= 1 << i
			}
		}
	}
	sc.after(l)
}

// idleBut reports that no grammar has anything open, but those in the
// first word's bits but (the go grammar's: bit 0).
func (sc *scanner) idleBut(but uint64) bool {
	if sc.busy[0]&^but != 0 {
		return false
	}
	for _, w := range sc.busy[1:] {
		if w != 0 {
			return false
		}
	}
	return true
}

// goVerdictOrRun reports a line that is `--- PASS: `, `--- SKIP: ` or
// `=== RUN   ` and so, when no other grammar is busy, only go's.
func goVerdictOrRun(t []byte) bool {
	if len(t) < 10 {
		return false
	}
	// Eight bytes and two, each one comparison; ten would be a call.
	switch t[0] {
	case '-':
		return (string(t[:8]) == "--- PASS" || string(t[:8]) == "--- SKIP") && string(t[8:10]) == ": "
	case '=':
		return string(t[:8]) == "=== RUN " && string(t[8:10]) == "  "
	}
	return false
}

// passMark reports a line that starts with ✓ and a blank.
func passMark(t []byte) bool {
	return len(t) > 4 && t[0] == 0xE2 && t[1] == 0x9C && t[2] == 0x93 && t[3] == ' '
}

// after is what every line does once the grammars have seen it: the
// generic matcher, the head, the tail and the lines before the next one.
func (sc *scanner) after(l *Line) {
	if !sc.claimed {
		sc.generic.line(l, sc)
	} else if sc.generic.block != nil { // every claimed line: no store when none is open
		sc.generic.reset()
	}
	if ruleLine(l.T) { // another grammar's rule too (catch2 claims its `=====`)
		sc.generic.ruleAt = l.No
	}
	if !sc.headDone && len(sc.head) < headLines {
		sc.head = append(sc.head, Span{Start: l.Start, End: l.End, First: l.No, Last: l.No})
	}
	sc.at = (sc.at + 1) & (recentLines - 1)
	p := &sc.recent[sc.at]
	p.Start, p.End, p.No = l.Start, l.End, l.No
	sc.nPrev = min(sc.nPrev+1, prevLines)
	sc.nTail = min(sc.nTail+1, tailLines)
}

// tail returns the spans of the last lines of the latest piece, oldest first.
func (sc *scanner) tail() []Span {
	out := make([]Span, 0, sc.nTail)
	for k := sc.nTail - 1; k >= 0; k-- {
		p := &sc.recent[(sc.at-k)&(recentLines-1)]
		out = append(out, Span{Start: p.Start, End: p.End, First: p.No, Last: p.No})
	}
	return out
}

func (sc *scanner) resetSegment() {
	sc.nTail, sc.nPrev, sc.died.No = 0, 0, 0
}

func (sc *scanner) endSegment() {
	for _, g := range sc.grammars {
		if e, ok := g.(ender); ok {
			e.end(sc)
		}
		g.reset()
	}
	clear(sc.busy)
	sc.generic.reset()
	sc.headDone = sc.headDone || len(sc.head) > 0 // the head ends with its piece
}

// view makes the Line the grammars see out of the reader's line.
func (sc *scanner) view(ln *lines.Line, off, no int64) *Line {
	p := ln.Prefix
	if n := len(p); n > 0 && p[n-1] == '\n' {
		p = p[:n-1]
	}
	if n := len(p); n > 0 && p[n-1] == '\r' {
		p = p[:n-1]
	}
	if ln.Dirty {
		p = sc.clean(p)
	}
	indent, i := 0, 0
	for ; i < len(p) && (p[i] == ' ' || p[i] == '\t'); i++ {
		if p[i] == '\t' {
			indent += 4
		} else {
			indent++
		}
	}
	// Field by field: a composite literal assigned to the heap copies the
	// whole struct through a write-barrier-checked move, a tenth of the
	// scan's time on a log of short lines.
	l := &sc.cur // reused: a line is not kept past its turn
	l.Start, l.End, l.No, l.Text, l.T, l.Indent = off, off+ln.Len, no, p, p[i:], indent
	return l
}

// clean removes terminal escapes and keeps the last segment of a line
// rewritten with carriage returns (or a move to the first column), as a
// terminal would show it.
func (sc *scanner) clean(p []byte) []byte {
	for {
		i := bytes.LastIndexByte(p, '\r')
		if i < 0 {
			break
		}
		if i+1 < len(p) {
			p = p[i+1:]
			break
		}
		p = p[:i]
	}
	if bytes.IndexByte(p, 0x1b) < 0 {
		return p
	}
	out := sc.escBuf[:0]
	cut := -1
	for i := 0; i < len(p); {
		if p[i] == 0x1b {
			if hasPrefix(p[i:], "\x1b[1G") || hasPrefix(p[i:], "\x1b[G") {
				// Back to the first column, as a carriage return: what
				// follows is what the line shows (bats' pretty formatter
				// writes its ✓ or ✗ over the test's name so).
				cut = len(out)
			}
			i = lines.SkipEscape(p, i)
			continue
		}
		out = append(out, p[i])
		i++
	}
	if cut > 0 && cut < len(out) {
		out = out[cut:]
	}
	sc.escBuf = out
	return out
}

// hasPrefix is bytes.HasPrefix for a string prefix without a conversion.
func hasPrefix(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[:len(p)]) == p
}

// allOf reports a non-empty line made only of c (a rule like `=====`).
func allOf(b []byte, c byte, minLen int) bool {
	if len(b) < minLen {
		return false
	}
	for _, x := range b {
		if x != c {
			return false
		}
	}
	return true
}

// oneBlock is the state of a grammar that has at most one block open:
// it is busy while the block is, and a reset closes it.
type oneBlock struct{ block *Block }

func (o *oneBlock) busy() bool { return o.block != nil }
func (o *oneBlock) reset()     { o.block = nil }
