package evidence

import (
	"bytes"
	"regexp"

	"github.com/runledger/runledger/report/internal/jvmstack"
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

// jvmGrammar reads the JVM build tools' failures:
//   - Maven Surefire's failing test report under its heading,
//     `testX(com.x.YTest)  Time elapsed: … <<< FAILURE!` (or `<<< ERROR!`;
//     surefire 3's `com.x.YTest.testX -- Time elapsed: …`; JUnit 5's bare
//     method under surefire 2), which names the block and is not quoted:
//     its exception's message lines (Hamcrest's and multi-line diffs'
//     included, blank lines within), and its stack: the frames in the
//     project's code, `Caused by:` and its message, not the JDK's, the
//     test framework's and the runner's frames (the thirty lines of
//     reflection under every JUnit failure), up to the blank line after
//     the stack;
//   - javac's errors as the Maven compiler plugin prints them,
//     `[ERROR] /src/Foo.java:[12,5] cannot find symbol` with its `symbol:`
//     and `location:` lines: the build's root cause (once: Maven repeats
//     them under its `Failed to execute goal`);
//   - Maven's `Failed to execute goal …: There are test failures.`, a bare
//     verdict the test reports explain;
//   - Gradle's `YTest > testX() FAILED` with its indented lines (frames
//     filtered the same way).
type jvmGrammar struct {
	oneBlock
	mode   byte // 's' a surefire report, 'g' a gradle failure, 'c' a compiler error
	frames bool // the stack started: a blank line ends a surefire report
	own    int  // frames in the project's code kept of the current exception
	// javac: the compiler errors quoted, so that the list Maven repeats
	// under `Failed to execute goal` is claimed and not quoted twice.
	javac map[string]bool
}

var (
	mavenTag = regexp.MustCompile(`^\[(INFO|ERROR|WARNING|WARN|DEBUG)\] `)
	// javacError: `/src/Foo.java:[12,5] cannot find symbol` after [ERROR].
	javacError = regexp.MustCompile(`^\S.*\.(?:java|kt|groovy|scala):\[\d+(?:,\d+)?\] \S`)
)

const (
	jvmReportLines = 80 // lines of one failure's block
	jvmOwnFrames   = 10 // project frames kept per exception of a stack
	javacLines     = 12 // lines of one compiler error
)

func (g *jvmGrammar) starts() string { return "" } // any: it checks how lines end

func (g *jvmGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	if g.block != nil {
		switch g.continues(l) {
		case jvmKeep:
			g.block.add(l)
			return true
		case jvmSkip:
			return true
		}
		g.block = nil
	}
	if len(t) < 8 {
		return false
	}
	switch last := t[len(t)-1]; {
	case last == '!' && (bytes.HasSuffix(t, []byte("<<< FAILURE!")) || bytes.HasSuffix(t, []byte("<<< ERROR!"))):
		name := mavenTag.ReplaceAll(t, nil)
		if i := bytes.Index(name, []byte(" Time elapsed")); i > 0 {
			name = bytes.TrimSuffix(bytes.TrimRight(name[:i], " "), []byte(" --"))
		}
		g.open(sc, "surefire", string(clip(name, 300)), "test", KindTest, 's')
	case last == 'D' && bytes.HasSuffix(t, []byte(" FAILED")) && bytes.Contains(t, []byte(" > ")) && l.Indent == 0:
		g.open(sc, "gradle", string(clip(t[:len(t)-len(" FAILED")], 300)), "test", KindTest, 'g')
	case t[0] == '[' && hasPrefix(t, "[ERROR] "):
		rest := t[len("[ERROR] "):]
		switch {
		case javacError.Match(rest):
			name := string(clip(rest, 200))
			if g.javac[name] {
				g.block, g.mode = &Block{}, 'c' // a repeat: claimed, not kept
				break
			}
			if g.javac == nil {
				g.javac = map[string]bool{}
			}
			if len(g.javac) < 1000 {
				g.javac[name] = true
			}
			g.open(sc, "javac", name, "build", KindCrash, 'c')
		case hasPrefix(rest, "Failed to execute goal ") && bytes.HasSuffix(rest, []byte("There are test failures.")):
			// The test reports above explain it: a verdict alone.
			b := sc.open("maven", string(clip(rest, 200)), "verdict", KindVerdict)
			b.add(l)
			return true
		default:
			return false
		}
	default:
		return false
	}
	if g.mode == 's' {
		// The heading is the block's name, which the excerpt's label
		// shows: with many failures, a share of the budget goes further
		// on the assertion and the frame than on a line of names and
		// timings.
		return true
	}
	g.block.heading = g.mode == 'g'
	g.block.add(l)
	return true
}

func (g *jvmGrammar) open(sc *scanner, runner, name, role string, kind Kind, mode byte) {
	g.block, g.mode, g.frames, g.own = sc.open(runner, name, role, kind), mode, false, 0
}

// What continues does with a line of an open block.
const (
	jvmEnd  = iota // past the block: it ends
	jvmKeep        // quoted with the block
	jvmSkip        // in the block, not quoted: a framework's frame
)

func (g *jvmGrammar) continues(l *Line) int {
	t := l.T
	switch g.mode {
	case 'g':
		if l.Indent == 0 || l.blank() {
			return jvmEnd
		}
		return g.stackLine(t, jvmKeep)
	case 'c':
		// `  symbol: …` lines, tagged when Maven repeats the errors.
		if g.block.Lines >= javacLines || l.blank() {
			return jvmEnd
		}
		if l.Indent > 0 && t[0] != '[' || hasPrefix(t, "[ERROR]  ") {
			return jvmKeep
		}
		return jvmEnd
	}
	switch {
	case g.block.Lines >= jvmReportLines:
		return jvmEnd
	case l.blank():
		if g.frames {
			return jvmEnd // the blank line after the stack
		}
		return jvmKeep // a blank line within the message
	case t[0] == '[' && mavenTag.Match(t), hasPrefix(t, "Tests run:"):
		return jvmEnd
	}
	if r := g.stackLine(t, -1); r >= 0 {
		return r
	}
	if g.frames {
		return jvmEnd // something printed after the stack
	}
	return jvmKeep // the exception's message
}

// stackLine reads a stack's line: a frame (kept when in the project's
// code, the first few of each exception), `Caused by:` (kept: a new
// exception, whose message follows), `... 25 more`. Other lines get
// other.
func (g *jvmGrammar) stackLine(t []byte, other int) int {
	switch {
	case hasPrefix(t, "at "):
		cls, ok := jvmFrameClass(t)
		if !ok {
			return other
		}
		g.frames = true
		if jvmstack.Framework(string(cls)) || g.own >= jvmOwnFrames {
			return jvmSkip
		}
		g.own++
		return jvmKeep
	case hasPrefix(t, "Caused by:") || hasPrefix(t, "Suppressed:"):
		g.frames, g.own = false, 0
		return jvmKeep
	case hasPrefix(t, "... ") && bytes.HasSuffix(t, []byte(" more")):
		g.frames = true
		return jvmSkip
	}
	return other
}

// jvmFrameClass returns the class of a JVM stack frame, `at
// com.x.Foo.bar(Foo.java:12)` (a module or class loader may come first:
// `java.base/`, `app//`), and whether t is one.
func jvmFrameClass(t []byte) ([]byte, bool) {
	open := bytes.IndexByte(t, '(')
	if open < 4 || t[len(t)-1] != ')' || bytes.IndexByte(t[3:open], ' ') >= 0 {
		return nil, false
	}
	inside := t[open+1 : len(t)-1]
	if !bytes.Contains(inside, []byte(".java")) && !bytes.Contains(inside, []byte(".kt")) && !bytes.Contains(inside, []byte(".scala")) &&
		!bytes.Contains(inside, []byte(".groovy")) && string(inside) != "Native Method" && string(inside) != "Unknown Source" {
		return nil, false
	}
	call := t[3:open]
	if i := bytes.LastIndexByte(call, '/'); i >= 0 {
		call = call[i+1:]
	}
	i := bytes.LastIndexByte(call, '.')
	if i <= 0 {
		return nil, false
	}
	return call[:i], true
}

// jvmFrameKey scores a line of a JVM stack for the excerpts: 1 for a frame in
// the project's code, 0 for the JDK's, a test framework's or a build
// tool's; ok is false when the line is no frame.
func jvmFrameKey(t []byte) (key int, ok bool) {
	cls, ok := jvmFrameClass(t)
	if !ok {
		return 0, false
	}
	if jvmstack.Framework(string(cls)) {
		return 0, true
	}
	return 1, true
}

func init() {
	register(Grammar{Runner: "ctest", Order: 120, New: func() grammar { return &ctestGrammar{} }})
	register(Grammar{Runner: "sanitizer", Order: 140, New: func() grammar { return &sanitizerGrammar{} }})
	register(Grammar{Runner: "jvm", Order: 150, New: func() grammar { return &jvmGrammar{} }})
}
