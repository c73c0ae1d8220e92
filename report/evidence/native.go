package evidence

import (
	"bytes"
	"regexp"
)

// ctestGrammar reads ctest: a failing test's status line
// (`3/5 Test #3: parse ...........***Failed    0.01 sec`, or
// `***Exception: SegFault`, `***Timeout`) and, with --output-on-failure,
// the output printed under it up to the next test's status line, or up
// to a gtest run's first line: gtest's own blocks (gtest.go) explain the
// failures of a test binary, test by test.
type ctestGrammar struct {
	oneBlock
}

var (
	ctestStatus = regexp.MustCompile(`^\d+/\d+ Test +#\d+: (\S+) `)
	ctestEnd    = regexp.MustCompile(`^(\d+% tests passed|The following tests FAILED:|Total Test time)`)
)

func (g *ctestGrammar) starts() string { return digits }

func (g *ctestGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	status := len(t) > 0 && t[0] >= '0' && t[0] <= '9' && bytes.Contains(t, []byte(" Test ")) && ctestStatus.Match(t)
	if g.block != nil {
		if status || ctestEnd.Match(t) || hasPrefix(t, "Running main() from ") || gtestMarker(t) {
			g.block = nil
		} else {
			g.block.add(l)
			return true
		}
	}
	if !status || !bytes.Contains(t, []byte("***")) {
		return false
	}
	m := ctestStatus.FindSubmatch(t)
	g.block = sc.open("ctest", string(m[1]), "test", KindTest)
	g.block.heading = true
	g.block.add(l)
	return true
}

// sanitizerGrammar reads sanitizer reports: AddressSanitizer, LeakSanitizer,
// MemorySanitizer and ThreadSanitizer from their `==PID==ERROR:` (or
// `WARNING: ThreadSanitizer:`) line, the rule above it included, over the
// access, the stack frames and the allocation stacks, to the `SUMMARY:`
// line; the shadow-byte map after it is left out. UBSan's one-line
// `file.c:L:C: runtime error: …` reports stand alone.
type sanitizerGrammar struct {
	oneBlock
}

var sanitizerHead = regexp.MustCompile(`^(==\d+==)?(ERROR|WARNING): (Address|Leak|Memory|Thread|UndefinedBehavior)Sanitizer`)

func (g *sanitizerGrammar) starts() string { return "=EW" }

func (g *sanitizerGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	if g.block != nil {
		if hasPrefix(t, "Shadow bytes around") || g.block.Lines >= 120 {
			g.block = nil
			return true
		}
		g.block.add(l)
		if hasPrefix(t, "SUMMARY: ") {
			g.block = nil
		}
		return true
	}
	if len(t) < 12 {
		return false
	}
	head := t[0] == '=' && t[1] == '=' && t[2] >= '0' && t[2] <= '9' || hasPrefix(t, "ERROR: ") || hasPrefix(t, "WARNING: ")
	if head && bytes.Contains(t, []byte("Sanitizer")) && sanitizerHead.Match(t) {
		g.block = sc.open("sanitizer", string(clip(t, 200)), "sanitizer", KindCrash)
		sc.before(g.block, 1, func(p *Line) bool { return p.End-p.Start > 10 && p.End-p.Start < 120 })
		g.block.add(l)
		return true
	}
	return false
}

// jvmGrammar reads Maven Surefire's `testX(com.x.YTest)  Time elapsed: …
// <<< FAILURE!` (or `<<< ERROR!`) with the exception and `at` frames under
// it, and Gradle's `YTest > testX() FAILED` with its indented lines.
type jvmGrammar struct {
	oneBlock
	gradle bool
}

var mavenTag = regexp.MustCompile(`^\[(INFO|ERROR|WARNING|WARN|DEBUG)\] `)

func (g *jvmGrammar) starts() string { return "" } // any: it checks how lines end

func (g *jvmGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	if g.block == nil && (len(t) == 0 || t[len(t)-1] != '!' && t[len(t)-1] != 'D') {
		return false // neither `<<< FAILURE!`, `<<< ERROR!` nor ` FAILED`
	}
	if g.block != nil {
		if g.continues(l) {
			g.block.add(l)
			return true
		}
		g.block = nil
	}
	switch {
	case bytes.HasSuffix(t, []byte("<<< FAILURE!")) || bytes.HasSuffix(t, []byte("<<< ERROR!")):
		name := mavenTag.ReplaceAll(t, nil)
		if i := bytes.Index(name, []byte("  Time elapsed")); i > 0 {
			name = name[:i]
		}
		g.block, g.gradle = sc.open("surefire", string(clip(name, 300)), "test", KindTest), false
	case bytes.HasSuffix(t, []byte(" FAILED")) && bytes.Contains(t, []byte(" > ")) && l.Indent == 0:
		g.block, g.gradle = sc.open("gradle", string(clip(t[:len(t)-len(" FAILED")], 300)), "test", KindTest), true
	default:
		return false
	}
	g.block.heading = true
	g.block.add(l)
	return true
}

func (g *jvmGrammar) continues(l *Line) bool {
	if g.gradle {
		return l.Indent > 0 && !l.blank()
	}
	t := l.T
	return !l.blank() && !hasPrefix(t, "[") && g.block.Lines < 60 &&
		(l.Indent > 0 || g.block.Lines == 1 || hasPrefix(t, "Caused by:"))
}
