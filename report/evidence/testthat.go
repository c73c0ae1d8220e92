package evidence

import "github.com/runledger/runledger/report/runners"

// testthatGrammar reads testthat's report of a failed expectation or an
// error, under any of its reporters: the heading ("Failure
// ('test-math.R:3'): addition works", under a rule in the check and
// summary reporters: "── Failure (…): … ──"), the message, its
// `actual`/`expected` lines or the error's "Error in …" and backtrace, up
// to the next heading, a rule ("────", "══ Results ══") or the total. A
// skip's or a warning's heading ends a block and opens none.
type testthatGrammar struct {
	block *Block
	n     int // lines in block
	// blanks are the blank lines since the block's last line: kept once a
	// line of the block follows them (the blank line between a message and
	// its `actual`/`expected` lines), so that the block is one range of
	// bytes, and left out at its end.
	blanks []Line
}

// testthatBlockLines bounds a block: a waldo diff or a backtrace is at
// most a few dozen lines.
const testthatBlockLines = 60

// Headings start "Failure (", "Error (", or with the rule "── "; the
// rules that end a block start with the same byte as "─" and "═".
func (g *testthatGrammar) starts() string { return "FE\xe2" }
func (g *testthatGrammar) busy() bool     { return g.block != nil }
func (g *testthatGrammar) reset()         { g.block, g.blanks = nil, g.blanks[:0] }

func (g *testthatGrammar) line(l *Line, sc *scanner) bool {
	m := testthatHeading(l.T)
	if g.block != nil {
		if m == nil && !testthatEnds(l.T) && g.n+len(g.blanks) < testthatBlockLines {
			if l.blank() {
				g.blanks = append(g.blanks, Line{Start: l.Start, End: l.End, No: l.No})
				return true
			}
			for i := range g.blanks {
				g.block.add(&g.blanks[i])
			}
			g.n += len(g.blanks) + 1
			g.blanks = g.blanks[:0]
			g.block.add(l)
			return true
		}
		g.block, g.blanks = nil, g.blanks[:0]
	}
	if m == nil || string(m[1]) != "Failure" && string(m[1]) != "Error" {
		return false
	}
	g.block = sc.open("testthat", string(clip(m[4], 300)), "test", KindTest)
	g.block.heading = true
	g.block.add(l)
	g.n = 1
	return true
}

// testthatHeading matches a problem's heading, quickly rejecting lines
// that start otherwise.
func testthatHeading(t []byte) [][]byte {
	if !hasPrefix(t, "Failure (") && !hasPrefix(t, "Error (") && !hasPrefix(t, "Skip (") && !hasPrefix(t, "Warning (") && !hasPrefix(t, "── ") {
		return nil
	}
	return runners.TestthatHeading.FindSubmatch(t)
}

// testthatEnds reports a line past a problem's report: a rule (the
// progress reporter's "────", a section's "══ … ══") or the total.
func testthatEnds(t []byte) bool {
	return hasPrefix(t, "───") || hasPrefix(t, "══ ") || hasPrefix(t, "[ FAIL ")
}

func init() {
	register(Grammar{Runner: "testthat", Order: 172, New: func() grammar { return &testthatGrammar{} },
		Shapes: Shapes{Verdict: []string{"Failure ('", "Error ('", "── Failure (", "── Error ("}}})
}
