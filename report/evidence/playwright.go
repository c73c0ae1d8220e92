package evidence

import (
	"bytes"
	"regexp"
)

// playwrightGrammar reads Playwright Test's numbered failure blocks (list,
// line and dot reporters alike): the header `1) [project] › file:7:1 ›
// title ───`, the error, its Expected/Received lines or diff, the code
// frame and the `at file:line:col` frame, all indented under the header.
// A `Retry #1 ───` rule inside a block starts the retry's own block for
// the same test, so that every test's first error is quoted before any
// retry's. The block ends at the next line indented like the header (the
// next header, the summary's counts) or less (the line reporter's
// `[3/7]` progress).
type playwrightGrammar struct {
	block  *Block
	test   string
	indent int
}

// pwHeader is a failure block's header, blanks trimmed; m[1] is the test.
var pwHeader = regexp.MustCompile(`^\d+\) ((?:\[.+?\] › )?\S[^›]*?:\d+:\d+ › .+?)(?: ─+)?$`)

func (g *playwrightGrammar) starts() string { return digits }
func (g *playwrightGrammar) busy() bool     { return g.block != nil }
func (g *playwrightGrammar) reset()         { g.block = nil }

func (g *playwrightGrammar) line(l *Line, sc *scanner) bool {
	if g.block != nil {
		if l.blank() || l.Indent > g.indent {
			if hasPrefix(l.T, "Retry #") && bytes.Contains(l.T, []byte(" ─")) {
				g.block = sc.open("playwright", g.test, "test", KindTest)
			}
			if !l.blank() && !hasPrefix(l.T, "Error Context: ") {
				g.block.add(l)
			}
			return true
		}
		g.block = nil
	}
	m := pwHeader.FindSubmatch(l.T)
	if m == nil {
		return false
	}
	g.test, g.indent = string(clip(m[1], 300)), l.Indent
	g.block = sc.open("playwright", g.test, "test", KindTest)
	g.block.add(l)
	return true
}

func init() {
	register(Grammar{Runner: "playwright", Order: 160, New: func() grammar { return &playwrightGrammar{} }})
}
