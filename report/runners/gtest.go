package runners

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// GoogleTest's console output (the default printer, and --gtest_brief=1):
//
//	[==========] Running 6 tests from 2 test suites.
//	[ RUN      ] SumTest.Three
//	t.cc:5: Failure
//	Expected equality of these values:
//	  6
//	  Sum({1,2,3})
//	    Which is: 3
//	[  FAILED  ] SumTest.Three (0 ms)
//	[ RUN      ] V/P.Pos/2
//	[       OK ] V/P.Pos/2 (0 ms)
//	[==========] 6 tests from 2 test suites ran. (0 ms total)
//	[  PASSED  ] 3 tests.
//	[  SKIPPED ] 1 test, listed below:
//	[  SKIPPED ] S.Skipped
//	[  FAILED  ] 2 tests, listed below:
//	[  FAILED  ] SumTest.Three
//	[  FAILED  ] V/P.Pos/1, where GetParam() = -2
//
//	 2 FAILED TESTS
//	[  FAILED  ] Db: SetUpTestSuite or TearDownTestSuite
//
//	 1 FAILED TEST SUITE
//	  YOU HAVE 2 DISABLED TESTS
//
// It is read by a parser of its own rather than declared (declared.go),
// for what a Declaration cannot say: what explains a failure comes before
// the verdict that names it (the `file:line: Failure` block between the
// test's [ RUN ] and its [  FAILED  ]), a test that started and never
// ended is the one a crash stopped, its total runs on past the two lines
// an Open and a Close give (the skipped and failed counts, the lists),
// its passing tests are named for the test index, and one binary's run is
// told from another's by the tests it ran, not by its size. Its lines for
// compaction are declared (declare_gtest.go).
//
// What counts: each run's banner, its [ RUN ] and verdict lines, its
// total's lines and the line after them (which ends the total, so a
// re-read of the cited lines ends it at the same place). The failure
// blocks are read for messages only. So:
//
//   - tests, passed and skipped are the total's; failed is tests minus
//     passed and skipped (gtest's own partition of the tests it ran;
//     --gtest_brief prints no failed count); a failed SetUpTestSuite or
//     TearDownTestSuite is an error named "Suite: SetUpTestSuite or
//     TearDownTestSuite", and a run that failed with no test or suite
//     failed (a global test environment's) one error as well;
//   - a run that ended without its total (a crash, an abort, a kill, a
//     timeout) counts what its verdicts said, names the test whose
//     [ RUN ] has no verdict as failed, and leaves tests unknown;
//   - a run's unit is the set of tests it ran ([ RUN ] names, hashed in
//     any order): several binaries in one log are summed however many
//     tests each has, and --gtest_repeat's iterations (shuffled or not)
//     are attempts of one unit, the last counting, a test failed only in
//     an earlier one flaky. --gtest_brief prints no [ RUN ] lines: its
//     runs are told apart by their test and suite counts only;
//   - a death test's child (threadsafe style) prints "Running main()
//     from …" inside its parent's test: no boundary is read from it.
type gtestParser struct {
	atts     []attempt
	run      gtestRun
	tot      *gtestTotal // the total being read, nil when none
	verifier bool        // names no passes (see goParser.keep)
	kept     int         // passes named, up to maxIndexed
	// reading is the failure block whose lines are being read, for
	// left more lines; it is the running test's first block, a suite's
	// (printed outside a test: its SetUpTestSuite or TearDownTestSuite),
	// or, with --gtest_brief, the first since the last verdict.
	reading *gtestMsg
	left    int
	suite   string // the suite the latest "[----------] N tests from S" opened
}

// gtestRun is one binary's run, from its banner (or its first line that
// counts, with --gtest_brief) to its total.
type gtestRun struct {
	begun       bool
	banner      bool  // it printed its banner: it is no --gtest_brief run
	from        int64 // offset of its first counted line
	names       uint64
	nRun        int    // [ RUN ] lines
	cur         string // the test whose [ RUN ] has no verdict yet
	curSpan     *Span
	msg         gtestMsg // the current test's first failure block
	ok, skipped int
	failed      int
	fails       failSet
	passes      passList
	unnamed     bool // passes past maxIndexed
	// suiteMsgs: the first failure block printed outside a test in a
	// suite, "" for the global test environment's.
	suiteMsgs map[string]*gtestMsg
}

// gtestTotal is a total being read.
type gtestTotal struct {
	at            int64
	tests, suites int
	passed        *int
	skipped       int
	failedListed  *int  // "[  FAILED  ] N tests, listed below:"
	failedSpan    *Span // its line
	listing       bool  // the failed or skipped tests are being listed
	suiteFailures []Failure
	passedRead    bool // the line after the first was read
}

// gtestMsg is one failure block: its place and its lines so far.
type gtestMsg struct {
	set  bool
	file string
	line int
	text string
	prev int    // the previous line's indent
	last string // and its text
	done bool   // the assertion and one line after it were read
	diff bool   // its "With diff:" came: its -/+ lines go on with it
}

const (
	gtestMarkLen = 12 // "[ RUN      ]"
	// maxGtestMsgLines bounds the lines read under a failure line.
	maxGtestMsgLines = 40
	// maxGtestSuites bounds the suites whose outside-test failures are kept.
	maxGtestSuites = 64
)

var (
	gtestBanner = regexp.MustCompile(`^Running (\d+) tests? from (\d+) test (?:suites?|cases?)\.$`)
	gtestRan    = regexp.MustCompile(`^(\d+) tests? from (\d+) test (?:suites?|cases?) ran\.(?: \(\d+ ms total\))?$`)
	gtestCount  = regexp.MustCompile(`^(\d+) tests?(?:, listed below:|\.)$`)
	// gtestVerdict: a test's name, then what PrintFullTestCommentIfPresent
	// adds to a failed parameterised one (", where GetParam() = -2"), then
	// its time unless --gtest_print_time=0.
	gtestVerdict   = regexp.MustCompile(`^(\S+?)(, where .*?)?(?: \((\d+) ms\))?$`)
	gtestSuiteFail = regexp.MustCompile(`^(\S+): SetUpTestSuite or TearDownTestSuite$`)
	gtestTally     = regexp.MustCompile(`^\d+ FAILED TESTS?(?: SUITES?)?$|^YOU HAVE \d+ DISABLED TESTS?$`)
	// gtestFailureLine: where gtest reports a failed assertion, as
	// FormatFileLocation prints it: "file:line: Failure", "unknown file:
	// Failure" (an exception), and with MSVC "file(line): error: " and
	// the message on the same line.
	gtestFailureLine = regexp.MustCompile(`^(?:(.+):(\d+): Failure|unknown file: Failure|(.+)\((\d+)\): error: (.*))$`)
)

func (p *gtestParser) name() string { return "gtest" }

// following: a failure block's lines or a total's are read whatever they
// start with.
func (p *gtestParser) following() bool { return p.left > 0 || p.tot != nil }

// inTest: a test is running; wants then shows the parser MSVC's failure
// lines, which start with their path and end with the message.
func (p *gtestParser) inTest() bool { return p.run.cur != "" }

// gtestMark splits a line into its 12-byte gtest marker's inside ("  FAILED
// ", "==========") and the rest; ok is false for any other line, a
// "[2024-01-02] …" log line too.
func gtestMark(t string) (mark, rest string, ok bool) {
	if len(t) < gtestMarkLen+2 || t[0] != '[' || t[gtestMarkLen-1] != ']' || t[gtestMarkLen] != ' ' {
		return "", "", false
	}
	switch mark := t[1 : gtestMarkLen-1]; mark {
	case " RUN      ", "       OK ", "  FAILED  ", "  SKIPPED ", "----------", "==========", "  PASSED  ", " DISABLED ", "  DEATH   ":
		return mark, t[gtestMarkLen+1:], true
	}
	return "", "", false
}

func (p *gtestParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.tot != nil {
		if p.tail(l, t) {
			return true
		}
		p.closeTotal(ws)
		// The line that ended the total counts, so a re-read of the cited
		// lines ends it there too; it is read afresh.
		p.line(l, t, ws)
		return true
	}
	return p.line(l, t, ws)
}

// line reads a line outside a total.
func (p *gtestParser) line(l *line, t, ws string) bool {
	mark, rest, ok := gtestMark(t)
	if !ok {
		p.blockLine(l, t)
		return false
	}
	if mark == "  DEATH   " { // a death test's child's stderr, in the block
		if p.left > 0 {
			p.left--
			p.reading.add(rest, 1)
		}
		return false
	}
	p.left = 0 // a marker ends a failure block
	switch mark {
	case "==========":
		if gtestBanner.MatchString(rest) {
			p.endRun(ws)
			p.run.begun, p.run.banner, p.run.from = true, true, l.start
			return true
		}
		if m := gtestRan.FindStringSubmatch(rest); m != nil {
			p.startRun(l)
			p.tot = &gtestTotal{at: l.start, tests: atoi(m[1]), suites: atoi(m[2])}
			return true
		}
	case " RUN      ":
		name, ok := gtestName(rest)
		if !ok {
			return false
		}
		if p.run.cur != "" { // a test started while another had no verdict: another process
			p.endRun(ws)
		}
		p.startRun(l)
		p.run.cur, p.run.curSpan, p.run.nRun = name, spanOf(l), p.run.nRun+1
		p.run.names += gtestHash(name)
		p.run.msg = gtestMsg{}
		return true
	case "       OK ", "  SKIPPED ":
		m := gtestVerdict.FindStringSubmatch(rest)
		if m == nil || m[2] != "" {
			return false
		}
		p.startRun(l)
		skip := mark == "  SKIPPED "
		if skip {
			p.run.skipped++
		} else {
			p.run.ok++
		}
		p.endTest(m[1])
		p.pass(m[1], skip)
		return true
	case "  FAILED  ":
		m := gtestVerdict.FindStringSubmatch(rest)
		if m == nil {
			return false
		}
		p.startRun(l)
		p.run.failed++
		f := Failure{Name: m[1], Span: spanOf(l)}
		p.run.msg.explain(&f)
		if m[2] != "" { // what the test was run with: ", where GetParam() = -2"
			f.Message = clipMessage(strings.TrimPrefix(f.Message+"; "+strings.TrimPrefix(m[2], ", "), "; "))
		}
		p.run.fails.add(f)
		p.endTest(m[1])
		return true
	case "----------":
		p.suiteLine(rest)
	}
	return false
}

// startRun begins a run at a counted line when no banner did
// (--gtest_brief prints none).
func (p *gtestParser) startRun(l *line) {
	if !p.run.begun {
		p.run.begun, p.run.from = true, l.start
	}
}

// endTest ends the running test on a verdict: with --gtest_brief, whose
// verdicts are for failed tests only, the next failure block is the next
// failed test's.
func (p *gtestParser) endTest(name string) {
	if p.run.cur == name {
		p.run.cur, p.run.curSpan = "", nil
	}
	p.run.msg = gtestMsg{}
}

// pass names a passing or skipped test for the index.
func (p *gtestParser) pass(name string, skip bool) {
	if p.verifier {
		return
	}
	if p.kept >= maxIndexed {
		p.run.unnamed = true
		return
	}
	p.kept++
	p.run.passes.add([]byte(name), skip)
}

// suiteLine notes the suite a "[----------]" line opens, for the failures
// printed in it outside a test.
func (p *gtestParser) suiteLine(rest string) {
	switch {
	case strings.HasPrefix(rest, "Global test environment "):
		p.suite = ""
	case strings.HasSuffix(rest, " total)"):
	default:
		if _, after, ok := strings.Cut(rest, " from "); ok {
			name, _, _ := strings.Cut(after, ", where ")
			p.suite = name
		}
	}
}

// blockLine starts reading a failure block at its `file:line: Failure`
// line, or reads a line of the block being read.
func (p *gtestParser) blockLine(l *line, t string) {
	if strings.HasSuffix(t, ": Failure") || p.run.cur != "" && strings.Contains(t, "): error: ") {
		if m := gtestFailureLine.FindStringSubmatch(t); m != nil {
			p.left = 0
			to := p.slot()
			if to == nil || to.set {
				return // only a test's first block is its message
			}
			*to = gtestMsg{set: true}
			switch {
			case m[1] != "":
				to.file, to.line = m[1], atoi(m[2])
			case m[3] != "":
				to.file, to.line = m[3], atoi(m[4])
				to.add(m[5], 0)
			}
			p.reading, p.left = to, maxGtestMsgLines
			return
		}
	}
	if p.left == 0 || t == "[  DEATH   ]" {
		return
	}
	p.left--
	p.reading.add(strings.TrimSpace(t), indentOf(l.text))
}

// slot is where a failure block starting now goes: the running test's,
// else (outside a test of a run that printed its banner) its suite's,
// else the next failed test's (--gtest_brief, which prints neither).
func (p *gtestParser) slot() *gtestMsg {
	r := &p.run
	if r.cur != "" || !r.banner {
		return &r.msg
	}
	if m, ok := r.suiteMsgs[p.suite]; ok {
		return m
	}
	if len(r.suiteMsgs) >= maxGtestSuites {
		return nil
	}
	if r.suiteMsgs == nil {
		r.suiteMsgs = map[string]*gtestMsg{}
	}
	m := &gtestMsg{}
	r.suiteMsgs[p.suite] = m
	return m
}

// tail reads a line of the open total; false: the line is none of it.
func (p *gtestParser) tail(l *line, t string) bool {
	tt := p.tot
	mark, rest, ok := gtestMark(t)
	if !tt.passedRead {
		tt.passedRead = true
		if ok && mark == "  PASSED  " && strings.HasSuffix(rest, ".") {
			if m := gtestCount.FindStringSubmatch(rest); m != nil {
				n := atoi(m[1])
				tt.passed = &n
				return true
			}
		}
		return false
	}
	if !ok {
		switch {
		case t == "":
			return true
		case gtestTally.MatchString(t):
			tt.listing = false
			return true
		}
		return false
	}
	switch mark {
	case "  SKIPPED ", "  FAILED  ":
		if m := gtestCount.FindStringSubmatch(rest); m != nil {
			n := atoi(m[1])
			if mark == "  SKIPPED " {
				tt.skipped = n
			} else {
				tt.failedListed, tt.failedSpan = &n, spanOf(l)
			}
			tt.listing = strings.HasSuffix(rest, ":")
			return true
		}
		if m := gtestSuiteFail.FindStringSubmatch(rest); m != nil && mark == "  FAILED  " {
			f := Failure{Name: rest, Span: spanOf(l)}
			if msg, ok := p.run.suiteMsgs[m[1]]; ok {
				msg.explain(&f)
			}
			tt.suiteFailures = append(tt.suiteFailures, f)
			tt.listing = false
			return true
		}
		if m := gtestVerdict.FindStringSubmatch(rest); m != nil && m[3] == "" && tt.listing {
			return true
		}
	}
	return false
}

// closeTotal ends the run with its total's counts.
func (p *gtestParser) closeTotal(ws string) {
	tt, r := p.tot, &p.run
	p.tot = nil
	a := attempt{at: tt.at, from: r.from, unit: p.unitOf(ws, tt.tests, tt.suites), tests: intp(tt.tests),
		passes: r.passes, omitted: r.fails.omitted}
	a.failures = r.fails.take()
	switch failed := tt.tests - val(tt.passed) - tt.skipped; {
	case tt.passed == nil:
		a.note = "gtest's total has no [  PASSED  ] line under it: only the number of tests is known"
	case failed < 0 || tt.failedListed != nil && *tt.failedListed != failed:
		a.note = "gtest's total does not add up: only the number of tests is known"
	case r.nRun > 0 && r.cur == "" && r.ok+r.skipped+r.failed == tt.tests && r.failed != failed:
		// Every test it ran got a verdict, and they say another number.
		a.note = "gtest's failed count is not the number of tests it failed by name: only the number of tests is known"
	default:
		if tt.failedListed != nil && failed == 0 && len(tt.suiteFailures) == 0 {
			// gtest lists failed tests only when the run failed: none
			// listed, and no suite's set-up failed, its global test
			// environment did.
			f := Failure{Name: "Global test environment", Span: tt.failedSpan}
			if msg, ok := r.suiteMsgs[""]; ok {
				msg.explain(&f)
			}
			tt.suiteFailures = append(tt.suiteFailures, f)
		}
		a.passed, a.skipped, a.failed, a.errors = tt.passed, intp(tt.skipped), intp(failed), intp(len(tt.suiteFailures))
		a.failures = append(a.failures, tt.suiteFailures...)
	}
	a.named = r.nRun > 0 && !r.unnamed && r.cur == "" && r.ok+r.skipped+r.failed == tt.tests
	p.atts = append(p.atts, a)
	p.resetRun()
}

// endRun ends a run that printed no total: what its verdicts said, and
// its running test, which never got one, as failed.
func (p *gtestParser) endRun(ws string) {
	r := &p.run
	if !r.begun {
		return
	}
	if r.cur != "" {
		f := Failure{Name: r.cur, Span: r.curSpan}
		r.msg.explain(&f)
		f.Message = clipMessage(strings.TrimPrefix(f.Message+"; "+gtestNoVerdict, "; "))
		r.fails.add(f)
		r.failed++
	}
	if r.ok+r.skipped+r.failed == 0 || !r.banner {
		// Without its banner and its total, the [ RUN ] and verdict lines
		// are no gtest run: other programs print them by imitation (cmocka's
		// "[  FAILED  ] test_b"), and a --gtest_brief run has its total.
		p.resetRun()
		return
	}
	a := attempt{at: r.from, from: r.from, unit: p.unitOf(ws, -1, -1),
		passed: intp(r.ok), skipped: intp(r.skipped), failed: intp(r.failed), errors: intp(0),
		passes: r.passes, omitted: r.fails.omitted,
		note: "a gtest run ended without its total (a crash, an abort, a kill or a cut log): tests is unknown, the other counts are its verdicts'"}
	a.failures = r.fails.take()
	p.atts = append(p.atts, a)
	p.resetRun()
}

// gtestNoVerdict is the message of a test whose [ RUN ] has no verdict.
const gtestNoVerdict = "no verdict: the test binary stopped in this test (a crash, an abort or a kill) and printed no total"

func (p *gtestParser) resetRun() {
	p.run = gtestRun{}
	p.reading, p.left = nil, 0
}

// unitOf names a run by the tests it ran, or by its counts when it names
// none (--gtest_brief); a run with neither, by where it began.
func (p *gtestParser) unitOf(ws string, tests, suites int) string {
	r := &p.run
	switch {
	case r.nRun > 0:
		return unitKey(ws, fmt.Sprintf("gtest:%d:%016x", r.nRun, r.names))
	case tests >= 0:
		return unitKey(ws, fmt.Sprintf("gtest:tests=%d/%d", tests, suites))
	}
	return unitKey(ws, "gtest:@"+strconv.FormatInt(r.from, 10))
}

func (p *gtestParser) end(ws string) []attempt {
	if p.tot != nil {
		p.closeTotal(ws)
	}
	p.endRun(ws)
	return p.atts
}

// gtestName reads a [ RUN ] line's test name: Suite.Test, one word.
func gtestName(rest string) (string, bool) {
	if strings.ContainsAny(rest, " \t") || !strings.Contains(rest, ".") {
		return "", false
	}
	return rest, true
}

// gtestHash hashes a test's name (FNV-1a); a run's names are summed, so
// the sum is the same in any order.
func gtestHash(name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	return h
}

func indentOf(s string) int {
	n := 0
	for n < len(s) && (s[n] == ' ' || s[n] == '\t') {
		n++
	}
	return n
}

// add appends a line of the block, trimmed. The block is gtest's
// assertion (its first line, and the lines that go on with it: indented
// ones, gtest's and gMock's "Expected"/"Actual"/"Which is:" lines, a
// description's wrapped lines, a string diff's lines) and then one line
// more, an `<< "custom message"` if there is one: what the test prints
// after its failure is no part of it. The operands of "Expected equality
// of these values:", each indented two blanks, are set apart by " / ",
// the other lines by a blank.
func (m *gtestMsg) add(t string, indent int) {
	if t == "" || m.done || len(m.text) >= 300 {
		return
	}
	more := m.text == "" || gtestGoesOn(t, indent, m.last) || m.diff && (t[0] == '-' || t[0] == '+')
	m.diff = m.diff || t == "With diff:"
	t = strings.Join(strings.Fields(t), " ")
	switch {
	case m.text == "":
		m.text = t
	case indent == 2 && m.prev >= 2:
		m.text += " / " + t
	default:
		m.text += " " + t
	}
	m.prev, m.last, m.done = indent, t, !more
}

// gtestGoesOn reports whether a line goes on with the assertion above it,
// whose last line was last.
func gtestGoesOn(t string, indent int, last string) bool {
	if indent > 0 || strings.HasSuffix(last, ":") || strings.HasSuffix(last, ",") || strings.HasSuffix(last, " where") {
		return true
	}
	for _, p := range gtestAssertLines {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return strings.Contains(t, " evaluates to ")
}

// gtestAssertLines start the lines of gtest's and gmock's assertions.
var gtestAssertLines = []string{"Expected", "Actual", "Value of:", "Which is:", "With diff:", "@@ ", "Death test:",
	"Error msg:", "Actual msg:", "Google Mock", "Function call:", "Returns:", "Stack trace:", "element #", "whose ", "and ", "or "}

// explain gives f the block's place and message.
func (m *gtestMsg) explain(f *Failure) {
	if !m.set {
		return
	}
	f.File, f.Line = m.file, m.line
	f.Message = clipMessage(m.text)
}

// wanting: inside a test, MSVC's failure lines read `t.cc(5): error: …`.
func (p *gtestParser) wanting() bool { return p.inTest() }

func (p *gtestParser) wants(t []byte) bool { return bytes.Contains(t, []byte("): error: ")) }
