package evidence

import (
	"bytes"
	"regexp"
)

// gtestGrammar reads GoogleTest's console output. A failing test's first
// block runs from its first `file:line: Failure` line through its
// `[  FAILED  ]` verdict: the assertion under each failure line, and what
// the test printed after them; its second block is what the test printed
// before its first failure, from its `[ RUN      ]` line, quoted only once
// every failure's first block has its share (see Plan): a test's own
// logging is the first to go. A passing or skipped
// test's output is claimed and dropped, so that its log lines are no
// generic error. With --gtest_brief (no [ RUN ] lines, no banner) a block
// opens at a failure line and the verdict after it names it. A failure
// printed outside any test (a suite's SetUpTestSuite or
// TearDownTestSuite, the global test environment) is a block of its own,
// named as the summary names it. A test whose [ RUN ] has no verdict when
// the next run begins or the piece ends stopped there (a crash, an abort,
// a kill): its block is kept as a crash's. The total's lines are claimed,
// and its list of failed tests is a bare verdict. It is hand-written, not
// declared (report/runners/declared_evidence.go): a block named by a
// verdict that ends it, kept only when that verdict is a failure, is
// more than a heading and a closing line.
type gtestGrammar struct {
	active  bool   // inside a run: its banner, a marker or gtest_main's first line came
	banner  bool   // this run printed its banner: it is not --gtest_brief's
	cur     *Block // the running test's output up to its first failure, not kept yet
	main    *Block // ... and from its first failure on, not kept yet
	curName []byte
	// loose is a failure block outside a test: with --gtest_brief the
	// next verdict's (not kept yet), else its suite's (kept).
	loose     *Block
	looseKept bool
	suite     []byte // the suite the latest "[----------] N tests from S" opened
	global    bool   // ... or the global test environment
	tail      bool   // reading the run's total
	list      *Block // the total's list of failed tests
	free      *Block // a passed test's block, for the next test
	// cmocka: this run's banner is cmocka's (`Running 6 test(s).`), a C
	// library that prints GoogleTest's markers: its blocks are cmocka's.
	cmocka bool
	// busted: this run's banner is busted's gtest output's (`Running
	// tests from scanned files.`): its blocks are busted's, its tests
	// are named "file @ line: name", and it marks a skipped test
	// `[ SKIPPED  ]` and an error `[  ERROR   ]`.
	busted bool
}

// runner names the blocks of the run being read.
func (g *gtestGrammar) runner() string {
	switch {
	case g.cmocka:
		return "cmocka"
	case g.busted:
		return "busted"
	}
	return "gtest"
}

// bustedMark reads the markers busted's gtest output has and GoogleTest
// has not, as the GoogleTest markers they stand for.
func bustedMark(t []byte) (mark string, rest []byte, ok bool) {
	if len(t) < 13 || t[0] != '[' || t[11] != ']' || t[12] != ' ' {
		return "", nil, false
	}
	switch string(t[1:11]) {
	case " SKIPPED  ":
		return "  SKIPPED ", t[13:], true
	case "  ERROR   ":
		return "  FAILED  ", t[13:], true
	}
	return "", nil, false
}

// bustedTime is the time after a test's name in busted's verdicts.
var bustedTime = regexp.MustCompile(` \([0-9.]+ ms\)$`)

func (g *gtestGrammar) starts() string { return "[R" }

func (g *gtestGrammar) busy() bool {
	return g.active || g.cur != nil || g.loose != nil || g.tail
}

func (g *gtestGrammar) reset() {
	*g = gtestGrammar{free: g.free}
}

// end keeps the block of a test that never got its verdict.
func (g *gtestGrammar) end(sc *scanner) { g.stopped(sc) }

// gtestMark splits a line into its 12-byte gtest marker's inside ("  FAILED
// ", "==========") and the rest; ok is false for any other line, a
// "[2024-01-02] …" log line too.
func gtestMark(t []byte) (mark string, rest []byte, ok bool) {
	if len(t) < 13 || t[0] != '[' || t[11] != ']' || t[12] != ' ' {
		return "", nil, false
	}
	switch mark := string(t[1:11]); mark {
	case " RUN      ", "       OK ", "  FAILED  ", "  SKIPPED ", "----------", "==========", "  PASSED  ", " DISABLED ", "  DEATH   ":
		return mark, t[13:], true
	}
	return "", nil, false
}

func (g *gtestGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	mark, rest, ok := gtestMark(t)
	if !ok && g.busted {
		mark, rest, ok = bustedMark(t)
	}
	if g.tail {
		if g.tailLine(l, sc, mark, rest, ok) {
			return true
		}
		g.tail, g.active, g.banner, g.list = false, false, false, nil
	}
	if !ok {
		return g.text(l, sc)
	}
	g.active = true
	switch mark {
	case "==========":
		g.stopped(sc)
		g.closeLoose()
		if hasPrefix(rest, "Running ") {
			g.banner, g.cmocka = true, bytes.HasSuffix(rest, []byte(" test(s)."))
			g.busted = string(rest) == "Running tests from scanned files."
		} else if bytes.HasSuffix(rest, []byte(" ran.")) || bytes.Contains(rest, []byte(" ran. (")) {
			g.tail = true
		}
	case " RUN      ":
		g.stopped(sc)
		g.closeLoose()
		b := g.free
		if b == nil {
			b = &Block{}
		}
		g.free = nil
		b.Runner, b.Role, b.Kind = g.runner(), "test", KindTest
		g.cur, g.main, g.curName = b, nil, append(g.curName[:0], rest...)
		b.add(l)
	case "       OK ", "  SKIPPED ":
		if g.cur != nil {
			g.cur.Test, g.cur.Spans, g.cur.Lines, g.cur.heading = "", g.cur.Spans[:0], 0, false
			g.free, g.cur, g.main = g.cur, nil, nil
		}
		if !g.looseKept {
			g.loose = nil
		}
	case "  FAILED  ":
		name := gtestTestName(rest)
		if g.busted {
			name = bustedTime.ReplaceAll(rest, nil)
		}
		var from, before *Block
		switch {
		case g.cur != nil && bytes.Equal(g.curName, name):
			from, before = g.main, g.cur
			if from == nil { // no failure line: the test's whole output
				from, before = g.cur, nil
			}
			g.cur, g.main = nil, nil
		case g.loose != nil && !g.looseKept:
			from, g.loose = g.loose, nil
		}
		kept := sc.open(g.runner(), string(name), "test", KindTest)
		if from != nil {
			kept.Spans, kept.Lines = from.Spans, from.Lines
		}
		kept.heading = from == nil
		kept.add(l)
		if before != nil && before.Lines > 1 { // more than its [ RUN ] line
			out := sc.open(g.runner(), string(name), "output", KindTest)
			out.Spans, out.Lines = before.Spans, before.Lines
		}
	case "----------":
		g.closeLoose()
		g.suiteLine(rest)
	case "  DEATH   ": // a death test's child's stderr, in its block
		return g.text(l, sc)
	}
	return true
}

// text reads a line that is no marker.
func (g *gtestGrammar) text(l *Line, sc *scanner) bool {
	t := l.T
	if hasPrefix(t, "Running main() from ") {
		g.active = true // gtest_main's first line; a threadsafe death test's child prints it too
	}
	if (g.cur != nil || g.loose != nil) && ctestLine(t) {
		// ctest's next test: the binary ended, without its verdict if a
		// test was running.
		g.stopped(sc)
		g.closeLoose()
		g.active, g.banner = false, false
		return false
	}
	switch {
	case g.main != nil:
		g.main.add(l)
		return true
	case g.cur != nil && gtestFailure(t):
		g.main = &Block{Runner: g.runner(), Role: "test", Kind: KindTest}
		g.main.add(l)
		return true
	case g.cur != nil:
		g.cur.add(l)
		return true
	case g.loose != nil:
		g.loose.add(l)
		return true
	case !g.active || !gtestFailure(t):
		return false
	case g.banner:
		// Outside a test of a run that prints them: its suite's set-up or
		// tear-down, or the global environment's, as the summary names it.
		name := "Global test environment"
		if !g.global && len(g.suite) > 0 {
			name = string(g.suite) + ": SetUpTestSuite or TearDownTestSuite"
		}
		g.loose, g.looseKept = sc.open(g.runner(), name, "test", KindTest), true
	default:
		g.loose, g.looseKept = &Block{Runner: g.runner(), Role: "test", Kind: KindTest}, false
	}
	g.loose.add(l)
	return true
}

// tailLine reads a line of the total: its counts, its lists and tallies.
func (g *gtestGrammar) tailLine(l *Line, sc *scanner, mark string, rest []byte, ok bool) bool {
	t := l.T
	if !ok {
		if len(t) == 0 || gtestTally(t) {
			return true
		}
		return false
	}
	switch mark {
	case "  PASSED  ", "  SKIPPED ":
		g.list = nil
	case "  FAILED  ":
		if g.list == nil {
			if !bytes.HasSuffix(rest, []byte(", listed below:")) {
				return true
			}
			g.list = sc.open(g.runner(), string(clip(t, 200)), "verdict", KindVerdict)
			g.list.heading = true
		}
		g.list.add(l)
	default:
		return false
	}
	return true
}

// stopped keeps the block of the running test, which has no verdict: it
// stopped there.
func (g *gtestGrammar) stopped(sc *scanner) {
	if g.cur == nil {
		return
	}
	kept := sc.open(g.runner(), string(g.curName), "crash", KindCrash)
	kept.Spans, kept.Lines = g.cur.Spans, g.cur.Lines
	if g.main != nil {
		for _, sp := range g.main.Spans {
			kept.addSpan(sp)
		}
		kept.Lines += g.main.Lines
	}
	g.cur, g.main = nil, nil
}

// closeLoose ends a failure block printed outside a test; one of
// --gtest_brief's that no verdict named is dropped.
func (g *gtestGrammar) closeLoose() { g.loose, g.looseKept = nil, false }

// suiteLine notes the suite a "[----------]" line opens.
func (g *gtestGrammar) suiteLine(rest []byte) {
	switch {
	case hasPrefix(rest, "Global test environment "):
		g.global = true
	case bytes.HasSuffix(rest, []byte(" total)")):
	default:
		if i := bytes.Index(rest, []byte(" from ")); i >= 0 {
			name := rest[i+6:]
			if j := bytes.Index(name, []byte(", where ")); j >= 0 {
				name = name[:j]
			}
			g.suite, g.global = append(g.suite[:0], name...), false
		}
	}
}

// gtestTestName is a verdict's test: its first word, before a failed
// parameterised test's ", where …" and the time.
func gtestTestName(rest []byte) []byte {
	if i := bytes.IndexAny(rest, " ,"); i >= 0 {
		return rest[:i]
	}
	return rest
}

// gtestFailure: gtest's `file:line: Failure`, `unknown file: Failure`, or
// MSVC's `file(line): error: message`.
func gtestFailure(t []byte) bool {
	if bytes.HasSuffix(t, []byte(": Failure")) {
		return true
	}
	i := bytes.Index(t, []byte("): error: "))
	if i <= 0 {
		return false
	}
	j := bytes.LastIndexByte(t[:i], '(')
	if j <= 0 || j+1 == i {
		return false
	}
	for _, c := range t[j+1 : i] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// gtestTally: "3 FAILED TESTS", "1 FAILED TEST SUITE", "YOU HAVE 2
// DISABLED TESTS".
func gtestTally(t []byte) bool {
	return hasPrefix(t, "YOU HAVE ") || len(t) > 0 && t[0] >= '0' && t[0] <= '9' && bytes.Contains(t, []byte(" FAILED TEST"))
}

// gtestMarker: gtest's own progress and verdict lines ("[ RUN      ] x",
// "[  FAILED  ] x (0 ms)", "[----------] …"), which say nothing an
// excerpt's label does not.
func gtestMarker(t []byte) bool {
	mark, _, ok := gtestMark(t)
	return ok && mark != "  DEATH   "
}

// ctestLine: ctest's `Start 3: name` and `3/5 Test #3: name …` lines,
// which end a test binary's output under ctest --output-on-failure.
func ctestLine(t []byte) bool {
	if hasPrefix(t, "Start ") {
		return len(t) > 6 && t[6] >= '0' && t[6] <= '9' && bytes.Contains(t, []byte(": "))
	}
	return len(t) > 0 && t[0] >= '0' && t[0] <= '9' && bytes.Contains(t, []byte(" Test ")) && ctestStatus.Match(t)
}

func init() {
	register(Grammar{Runner: "gtest", Order: 130, New: func() grammar { return &gtestGrammar{} }, Shapes: Shapes{Verdict: []string{"[  FAILED  ] "}}})
}
