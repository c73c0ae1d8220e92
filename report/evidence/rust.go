package evidence

import (
	"bytes"
	"regexp"
)

// cargoGrammar reads cargo test (libtest) and nextest:
//   - `---- tests::x stdout ----` blocks (`panicked at file:L:C`, the
//     assertion, left/right), up to the next such heading, `failures:`,
//     `successes:` or `test result:`;
//   - nextest's `--- STDOUT: crate tests::x ---` / `--- STDERR: …` blocks;
//   - compiler errors: `error[E0308]: …` or `error: …` with their `-->`
//     location and code lines, up to the blank line that ends them;
//   - `thread '…' panicked at` outside a test (a binary's panic).
type cargoGrammar struct {
	oneBlock
	// untilBlank: the block ends at a blank line (errors, bare panics);
	// otherwise at the next heading or the section's end.
	untilBlank bool
	nextest    bool
}

var (
	cargoHeading   = regexp.MustCompile(`^---- (.+) std(out|err) ----$`)
	nextestHeading = regexp.MustCompile(`^--- STD(OUT|ERR): +(.+?) ---$`)
	nextestStatus  = regexp.MustCompile(`^(PASS|FAIL|SIGSEGV|SIGABRT|SIGKILL|TIMEOUT|LEAK|SLOW|START|TRY \d+ FAIL) +\[`)
)

func (g *cargoGrammar) starts() string { return "-et" }

func (g *cargoGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	if g.block != nil {
		if g.ends(l) {
			g.block = nil
		} else {
			g.block.add(l)
			return true
		}
	}
	if len(t) < 8 {
		return false
	}
	switch {
	case t[0] == '-' && l.Indent == 0 && t[len(t)-1] == '-':
		if m := cargoHeading.FindSubmatch(t); m != nil {
			return g.open(l, sc, string(m[1]), "test", KindTest, false, false)
		}
		if m := nextestHeading.FindSubmatch(t); m != nil {
			return g.open(l, sc, string(m[2]), "test", KindTest, false, true)
		}
	case t[0] == 'e' && l.Indent == 0 && (hasPrefix(t, "error[E") || hasPrefix(t, "error: ")):
		if hasPrefix(t, "error: test failed") || hasPrefix(t, "error: could not compile") ||
			hasPrefix(t, "error: aborting due to") || hasPrefix(t, "error: process didn't exit") {
			return true // cargo's verdicts: the errors and panics above explain them
		}
		return g.open(l, sc, string(clip(t, 200)), "build", KindCrash, true, false)
	case t[0] == 't' && hasPrefix(t, "thread '") && bytes.Contains(t, []byte("' panicked at")):
		if sc.claimed {
			return false
		}
		return g.open(l, sc, string(clip(t, 200)), "panic", KindCrash, true, false)
	}
	return false
}

func (g *cargoGrammar) open(l *Line, sc *scanner, name, role string, kind Kind, untilBlank, nextest bool) bool {
	g.block, g.untilBlank, g.nextest = sc.open("cargo", name, role, kind), untilBlank, nextest
	g.block.add(l)
	return true
}

// ends reports whether l is past the open block.
func (g *cargoGrammar) ends(l *Line) bool {
	t := l.T
	switch {
	case g.untilBlank:
		return l.blank() || g.block.Lines >= 60
	case g.nextest:
		return hasPrefix(t, "--- STD") || nextestStatus.Match(t) || hasPrefix(t, "------------") || hasPrefix(t, "Summary [")
	}
	return l.Indent == 0 && (string(t) == "failures:" || string(t) == "successes:" ||
		hasPrefix(t, "test result: ") || hasPrefix(t, "---- ") && cargoHeading.Match(t))
}

func init() {
	register(Grammar{Runner: "cargo", Order: 60, New: func() grammar { return &cargoGrammar{} }, Shapes: Shapes{Verdict: []string{"---- "}}})
}
