package evidence

import (
	"bytes"
	"regexp"
)

// jestGrammar reads jest's `● Suite › test` failure blocks (the message,
// the Expected/Received diff, the code frame and the `at` frames), indented
// under their heading; `● Test suite failed to run` the same way. `●
// Console` blocks are console.log noise and are claimed and dropped.
type jestGrammar struct {
	block   *Block
	console bool
	indent  int
}

func (g *jestGrammar) starts() string { return "\xe2FP" } // ●, FAIL and PASS file lines
func (g *jestGrammar) busy() bool     { return g.block != nil || g.console }

func (g *jestGrammar) reset() { g.block, g.console = nil, false }

func (g *jestGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	heading := hasPrefix(t, "● ")
	if (g.block != nil || g.console) && !heading {
		if l.blank() || l.Indent > g.indent {
			if g.block != nil {
				g.block.add(l)
			}
			return true
		}
		g.block, g.console = nil, false
	}
	if !heading {
		// `FAIL test/x.test.js`: a file's verdict; its ● blocks explain it
		return len(t) > 5 && (t[0] == 'F' || t[0] == 'P') && jestFileLine.Match(t)
	}
	g.block, g.console, g.indent = nil, false, l.Indent
	name := bytes.TrimSpace(t[len("● "):])
	if hasPrefix(name, "Console") {
		g.console = true
		return true
	}
	g.block = sc.open("jest", string(clip(name, 300)), "test", KindTest)
	g.block.add(l)
	return true
}

// vitestGrammar reads vitest's failure blocks: ` FAIL  file > suite > test`
// (or `FAIL  file [ file ]` for a suite that did not load), the error,
// the diff, the `❯ file:line:col` frame and the code frame, up to the `⎯`
// rule that closes each block.
type vitestGrammar struct {
	oneBlock
}

func (g *vitestGrammar) starts() string { return "F" }

func (g *vitestGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	head := hasPrefix(t, "FAIL ") && (bytes.Contains(t, []byte(" > ")) || bytes.Contains(t, []byte(" [ ")))
	if g.block != nil {
		if head || hasPrefix(t, "⎯") || hasPrefix(t, "Test Files ") || hasPrefix(t, "Tests ") {
			g.block = nil
		} else {
			g.block.add(l)
			return true
		}
	}
	if !head {
		return false
	}
	g.block = sc.open("vitest", string(clip(bytes.TrimSpace(t[len("FAIL "):]), 300)), "test", KindTest)
	g.block.add(l)
	return true
}

// nodeGrammar reads node --test's spec reporter: `✖ name (1.2ms)` with the
// error, its `at` frames and the {actual, expected} object indented under
// it, both where the test ran and again under `✖ failing tests:`.
type nodeGrammar struct {
	oneBlock
	indent int
}

var jestFileLine = regexp.MustCompile(`^(FAIL|PASS) +\S+(\s+\(\d+(\.\d+)? ?m?s\))?$`)

var nodeDuration = regexp.MustCompile(` \([0-9.]+m?s\)$`)

func (g *nodeGrammar) starts() string { return "\xe2" } // ✖

func (g *nodeGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	if g.block != nil {
		if l.blank() || l.Indent > g.indent {
			g.block.add(l)
			return true
		}
		g.block = nil
	}
	// testthat's status line for a file with failures, "✖ | 2       4 |
	// math", is no node test: its failures are testthat's blocks.
	if !hasPrefix(t, "✖ ") || hasPrefix(t, "✖ failing tests:") || hasPrefix(t, "✖ | ") {
		return false
	}
	name := nodeDuration.ReplaceAll(t[len("✖ "):], nil)
	g.block, g.indent = sc.open("node", string(clip(name, 300)), "test", KindTest), l.Indent
	g.block.heading = true
	g.block.add(l)
	return true
}

// tapGrammar reads TAP (node --test's default off a terminal, node-tap,
// tape, prove): `not ok N - name` with its indented YAML diagnostics or
// `#` comment lines; and Test::More's `#   Failed test 'name'` diagnostics,
// which prove leaves on stderr apart from their `not ok` line. Under -v,
// sharness (git's test-lib) prints a test's script and output from its
// `expecting success:` line to its `not ok`: quoted with it, as the
// `test_cmp` diff that says why is there.
type tapGrammar struct {
	oneBlock
	indent int
	diag   bool // a `#   Failed test` block: `#` lines only
	// notes are the die message sc.died (line diedAt) and the `#` lines
	// under it so far.
	notes  []Line
	diedAt int64
	// expect is sharness's (git's test-lib's) `expecting success: …` line
	// under -v, since the latest result: the test's script and what it
	// printed (a test_cmp diff) run from it to the test's `not ok`.
	expect Line
}

// maxExpectLines bounds the lines above a `not ok` taken from its
// `expecting success:` line: a longer stretch is left to the other
// grammars.
const maxExpectLines = 40

var (
	tapNotOK   = regexp.MustCompile(`^not ok \d+( - )?(.*)$`)
	tapSummary = regexp.MustCompile(`^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms|Subtest|Looks like)\b`)
	tapFailed  = regexp.MustCompile(`^#\s+Failed (?:\(TODO\) )?test (?:'(.*)'|at )`)
)

func (g *tapGrammar) starts() string { return "n#eo" }

func (g *tapGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	if g.block != nil {
		if g.continues(l) {
			g.block.add(l)
			return true
		}
		g.block = nil
	}
	if len(t) < 6 {
		return false
	}
	switch t[0] {
	case 'e':
		if hasPrefix(t, "expecting success") || hasPrefix(t, "expecting failure") {
			g.expect = Line{Start: l.Start, End: l.End, No: l.No}
		}
		return false
	case 'o':
		if hasPrefix(t, "ok ") {
			g.expect.No = 0
		}
		return false
	case 'n':
		m := tapNotOK.FindSubmatch(t)
		expect := g.expect
		g.expect.No = 0
		if m == nil || bytes.Contains(t, []byte("# TODO")) || bytes.Contains(t, []byte("# SKIP")) {
			return false
		}
		g.block, g.indent, g.diag = sc.open("tap", string(clip(m[2], 300)), "test", KindTest), l.Indent, false
		g.block.heading = true
		if expect.No > 0 && l.No-expect.No <= maxExpectLines {
			g.block.addSpan(Span{Start: expect.Start, End: l.Start, First: expect.No, Last: l.No - 1})
			g.block.Lines += l.No - expect.No
		}
	case '#':
		if g.dieNote(l, sc) {
			break
		}
		m := tapFailed.FindSubmatch(t)
		if m == nil {
			return false
		}
		g.block, g.indent, g.diag = sc.open("tap", string(clip(m[1], 300)), "test", KindTest), l.Indent, true
	default:
		return false
	}
	g.block.add(l)
	return true
}

// dieNote reads the `#` lines under a test file's die message (Perl's
// `… at t/x.t line 7.`, sc.died): Test::More's notes up to its `# Looks
// like your test exited` open a block of the message and the notes, as
// prove's summary names the file and this says why. It reports a block
// opened; its last line is the caller's to add.
func (g *tapGrammar) dieNote(l *Line, sc *scanner) bool {
	const maxNotes = 4
	if sc.died.No == 0 {
		return false
	}
	if g.diedAt != sc.died.No {
		g.diedAt, g.notes = sc.died.No, append(g.notes[:0], sc.died)
	}
	last := g.notes[len(g.notes)-1]
	if last.No != l.No-1 || last.End != l.Start || len(g.notes) > maxNotes || tapFailed.Match(l.T) {
		sc.died.No = 0
		return false
	}
	if !hasPrefix(l.T, "# Looks like your test exited") {
		g.notes = append(g.notes, Line{Start: l.Start, End: l.End, No: l.No})
		return false
	}
	g.block, g.diag = sc.open("tap", sc.diedIn, "die", KindTest), true
	for i := range g.notes {
		g.block.add(&g.notes[i])
	}
	sc.died.No = 0
	return true
}

func (g *tapGrammar) continues(l *Line) bool {
	t := l.T
	if g.diag {
		return hasPrefix(t, "#") && !tapFailed.Match(t) && !tapSummary.Match(t)
	}
	switch {
	case l.Indent > g.indent:
		return true
	case hasPrefix(t, "#"):
		return !tapSummary.Match(t) && !tapFailed.Match(t)
	}
	return false
}

func init() {
	register(Grammar{Runner: "jest", Order: 70, New: func() grammar { return &jestGrammar{} }, Shapes: Shapes{Verdict: []string{"● "}}})
	register(Grammar{Runner: "vitest", Order: 80, New: func() grammar { return &vitestGrammar{} }})
	register(Grammar{Runner: "node", Order: 90, New: func() grammar { return &nodeGrammar{} }})
	register(Grammar{Runner: "tap", Order: 100, New: func() grammar { return &tapGrammar{} }, Shapes: Shapes{Verdict: []string{"not ok "}}})
}
