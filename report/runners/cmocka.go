package runners

import (
	"fmt"
	"regexp"
	"strings"
)

// cmocka (a C unit-testing library, Debian's libcmocka-dev) prints
// GoogleTest-shaped lines with counts of its own, "N test(s)":
//
//	[==========] Running 6 test(s).
//	[ RUN      ] test_add
//	[       OK ] test_add
//	[ RUN      ] test_add_big
//	[  ERROR   ] --- 0x67 != 0x66
//	[   LINE   ] --- calc_test.c:11: error: Failure!
//	[  FAILED  ] test_add_big
//	[ RUN      ] test_fail_msg
//	ERROR: unexpected state 7
//	[  ERROR   ] --- [   LINE   ] --- calc_test.c:15: error: Failure!
//	[  FAILED  ] test_fail_msg
//	[==========] 6 test(s) run.
//	[  PASSED  ] 1 test(s).
//	[  SKIPPED ] 1 test(s), listed below:
//	[  SKIPPED ] test_skip
//
//	 1 SKIPPED TEST(S)
//	[  FAILED  ] 4 test(s), listed below:
//	[  FAILED  ] test_add_big
//	…
//
//	 4 FAILED TEST(S)
//
// A run is cmocka's only from its banner ("Running N test(s).") on; its
// counts are its total's ("N test(s) run.", then PASSED, SKIPPED and
// FAILED counts), and they stand only when they add up and the failed
// count is the number of tests it failed by name: anything else leaves
// tests alone known, with a note. A failing test is named by its own
// verdict, its message and place read from the "[  ERROR   ] ---" and
// "[   LINE   ] ---" lines under its [ RUN ]; the names listed under the
// total are the same tests again and count nothing. A run that ended
// without its total (a crash: cmocka catches signals, an abort does not
// return) counts its verdicts, and its running test as failed.
//
// What counts: the banner, [ RUN ] and verdict lines, and the total's
// lines; the ERROR, LINE and message lines are read for messages only.
type cmockaParser struct {
	atts     []attempt
	run      cmockaRun
	verifier bool
	kept     int // passes named, up to maxIndexed
}

// cmockaRun is one group's run, from its banner to its total.
type cmockaRun struct {
	begun     bool
	from      int64
	group     string // cmocka 2's "[==========] group: Running …", else ""
	nRun      int    // [ RUN ] lines
	names     uint64 // their names' hashes, summed (gtestHash)
	cur       string // the test whose [ RUN ] has no verdict yet
	curSpan   *Span
	msg       cmockaMsg
	ok, skip  int
	fails     failSet
	failed    int
	errored   int // tests whose own setup or teardown failed: "[  ERROR   ] name"
	groupErrs []Failure
	passes    passList
	unnamed   bool
	tot       bool // the total's first line was read
	totAt     int64
	tests     int
	passed    *int
	skipped   int
	failedN   *int
	listing   string // "SKIPPED" or "FAILED" while a list is read
	listed    int    // failed tests listed by name under the total
	totalDone bool
}

// cmockaMsg is what a failing test printed before its verdict.
type cmockaMsg struct {
	text, file string
	line       int
	extra      string // a line of the test's own (fail_msg's "ERROR: …")
}

var (
	cmockaBanner = regexp.MustCompile(`^\[==========\] (?:(\S+): )?Running (\d+) test\(s\)\.$`)
	cmockaRan    = regexp.MustCompile(`^\[==========\] (?:(\S+): )?(\d+) test\(s\) run\.$`)
	cmockaCount  = regexp.MustCompile(`^\[  (PASSED|SKIPPED|FAILED)  ?\] (\d+) test\(s\)(?:, listed below:|\.)$`)
	cmockaTally  = regexp.MustCompile(`^\d+ (?:FAILED|SKIPPED) TEST\(S\)$`)
	cmockaPlace  = regexp.MustCompile(`\[   LINE   \] --- (.+?):(\d+): error: (.*)$`)
)

func (p *cmockaParser) name() string { return "cmocka" }

// following: inside a test, the lines a failing assertion prints (fail_msg's
// "ERROR: …" too); inside the total, its lists and tallies.
func (p *cmockaParser) following() bool {
	return p.run.begun && (p.run.cur != "" || p.run.tot && !p.run.totalDone)
}

func (p *cmockaParser) feed(l *line, ws string) bool {
	t := l.trim
	r := &p.run
	if !r.begun && !strings.HasPrefix(t, "[==========] ") {
		return false // outside a run, only its banner counts
	}
	if m := cmockaBanner.FindStringSubmatch(t); m != nil {
		p.endRun(ws)
		p.run = cmockaRun{begun: true, from: l.start, group: m[1]}
		return true
	}
	if !r.begun {
		return false
	}
	if r.tot {
		return p.total(l, t, ws)
	}
	if m := cmockaRan.FindStringSubmatch(t); m != nil {
		p.endTest("")
		r.tot, r.totAt, r.tests = true, l.start, atoi(m[2])
		return true
	}
	mark, rest, ok := gtestMark(t)
	if !ok {
		if p.errorVerdict(l, t) {
			return true
		}
		p.msgLine(t)
		return false
	}
	switch mark {
	case " RUN      ":
		if r.cur != "" {
			p.endTest("")
		}
		r.cur, r.curSpan, r.msg = rest, spanOf(l), cmockaMsg{}
		r.nRun, r.names = r.nRun+1, r.names+gtestHash(rest)
		return true
	case "       OK ", "  SKIPPED ":
		if rest != r.cur {
			return false
		}
		if mark == "  SKIPPED " {
			r.skip++
		} else {
			r.ok++
		}
		p.pass(rest, mark == "  SKIPPED ")
		r.cur, r.curSpan = "", nil
		return true
	case "  FAILED  ":
		if r.cur == "" && (rest == "GROUP SETUP" || rest == "GROUP TEARDOWN") {
			// The group's setup or teardown failed: no test ran for it, or
			// they ran and passed; the run failed all the same.
			r.groupErrs = append(r.groupErrs, Failure{Name: rest, Span: spanOf(l)})
			return true
		}
		if rest != r.cur {
			return false
		}
		p.fail(Failure{Name: rest, Span: spanOf(l)})
		return true
	}
	return false
}

// errorVerdict reads "[  ERROR   ] name", the verdict on a test whose own
// setup or teardown failed ("Could not run test: Test setup failed" above
// it): no FAILED verdict, and in the total neither passed nor failed.
func (p *cmockaParser) errorVerdict(l *line, t string) bool {
	r := &p.run
	name, ok := strings.CutPrefix(t, "[  ERROR   ] ")
	if !ok || r.cur == "" || name != r.cur {
		return false
	}
	p.fail(Failure{Name: name, Span: spanOf(l)})
	r.failed--
	r.errored++
	return true
}

// msgLine reads a line a running test printed: cmocka's "[  ERROR   ] ---"
// message and "[   LINE   ] ---" place (on one line when the message is
// empty), or the test's own, fail_msg's "ERROR: …".
func (p *cmockaParser) msgLine(t string) {
	r := &p.run
	if r.cur == "" || t == "" {
		return
	}
	if m := cmockaPlace.FindStringSubmatch(t); m != nil && r.msg.file == "" {
		r.msg.file, r.msg.line = m[1], atoi(m[2])
		if m[3] != "Failure!" && r.msg.text == "" {
			r.msg.text = m[3]
		}
	}
	if rest, ok := strings.CutPrefix(t, "[  ERROR   ] --- "); ok {
		if i := strings.Index(rest, "[   LINE   ] --- "); i >= 0 {
			rest = rest[:i]
		}
		if rest = strings.TrimSpace(rest); rest != "" && r.msg.text == "" {
			r.msg.text = rest
		}
		return
	}
	if t[0] != '[' && r.msg.extra == "" && len(t) < 300 {
		r.msg.extra = t
	}
}

// fail ends the running test as failed.
func (p *cmockaParser) fail(f Failure) {
	r := &p.run
	f.File, f.Line = r.msg.file, r.msg.line
	msg := r.msg.text
	if msg == "" {
		msg = r.msg.extra
	}
	f.Message = clipMessage(msg)
	r.fails.add(f)
	r.failed++
	r.cur, r.curSpan = "", nil
}

// endTest ends a test that got no verdict (a crash stopped it, or another
// test began): it failed.
func (p *cmockaParser) endTest(why string) {
	r := &p.run
	if r.cur == "" {
		return
	}
	f := Failure{Name: r.cur, Span: r.curSpan}
	if why == "" {
		why = cmockaNoVerdict
	}
	r.msg.extra = strings.TrimPrefix(r.msg.extra+"; "+why, "; ")
	if r.msg.text != "" {
		r.msg.text += "; " + why
	}
	p.fail(f)
}

const cmockaNoVerdict = "no verdict: the test program stopped in this test (a crash, an abort or a kill)"

func (p *cmockaParser) pass(name string, skip bool) {
	r := &p.run
	if p.verifier {
		return
	}
	if p.kept >= maxIndexed {
		r.unnamed = true
		return
	}
	p.kept++
	r.passes.add([]byte(name), skip)
}

// total reads a line of the total; a line none of it ends the run.
func (p *cmockaParser) total(l *line, t, ws string) bool {
	r := &p.run
	if m := cmockaCount.FindStringSubmatch(t); m != nil {
		n := atoi(m[2])
		switch m[1] {
		case "PASSED":
			r.passed = &n
		case "SKIPPED":
			r.skipped = n
		case "FAILED":
			r.failedN = &n
		}
		r.listing = ""
		if strings.HasSuffix(t, ":") {
			r.listing = m[1]
		}
		return true
	}
	if r.listing != "" {
		if mark, rest, ok := gtestMark(t); ok && strings.TrimSpace(mark) == r.listing && !strings.ContainsAny(rest, " \t") {
			if r.listing == "FAILED" {
				r.listed++
			}
			return true
		}
	}
	switch {
	case t == "":
		return true
	case cmockaTally.MatchString(t):
		r.listing = ""
		return true
	}
	p.closeRun(ws)
	// The line that ended the total may begin the next run.
	return p.feed(l, ws)
}

// closeRun ends a run at its total.
func (p *cmockaParser) closeRun(ws string) {
	r := &p.run
	tests := r.tests
	a := attempt{at: r.totAt, from: r.from, unit: p.unitOf(ws), tests: intp(tests), passes: r.passes, omitted: r.fails.omitted}
	a.failures = r.fails.take()
	failed := 0
	if r.failedN != nil {
		failed = *r.failedN
	}
	a.failures = append(a.failures, r.groupErrs...)
	switch {
	case r.passed == nil:
		a.note = "cmocka's total has no [  PASSED  ] line under it: only the number of tests is known"
	case *r.passed+r.skipped+failed+r.errored != tests:
		a.note = "cmocka's total does not add up: only the number of tests is known"
	case failed != r.failed || r.failedN != nil && r.listed != failed:
		a.note = "cmocka's failed count is not the number of tests it failed by name: only the number of tests is known"
	default:
		// Errors: the tests whose own setup or teardown failed (the total
		// leaves them out of every count but the tests run) and a failed
		// group setup or teardown.
		a.passed, a.skipped, a.failed, a.errors = r.passed, intp(r.skipped), intp(failed), intp(r.errored+len(r.groupErrs))
	}
	a.named = !r.unnamed && r.ok+r.skip+r.failed+r.errored == tests
	p.atts = append(p.atts, a)
	p.run = cmockaRun{}
}

// endRun ends a run that printed no total: what its verdicts said.
func (p *cmockaParser) endRun(ws string) {
	r := &p.run
	if !r.begun {
		return
	}
	if r.tot {
		p.closeRun(ws)
		return
	}
	p.endTest("")
	a := attempt{at: r.from, from: r.from, unit: p.unitOf(ws),
		passed: intp(r.ok), skipped: intp(r.skip), failed: intp(r.failed), errors: intp(r.errored + len(r.groupErrs)),
		passes: r.passes, omitted: r.fails.omitted,
		note: "a cmocka run ended without its total (a crash, an abort, a kill or a cut log): tests is unknown, the other counts are its verdicts'"}
	a.failures = append(r.fails.take(), r.groupErrs...)
	p.atts = append(p.atts, a)
	p.run = cmockaRun{}
}

// unitOf names a run by the tests it ran, in any order (as gtest's), so
// that a program run again is an attempt of the same unit.
func (p *cmockaParser) unitOf(ws string) string {
	r := &p.run
	return unitKey(ws, fmt.Sprintf("cmocka:%s:%d:%016x", r.group, r.nRun, r.names))
}

func (p *cmockaParser) end(ws string) []attempt {
	p.endRun(ws)
	return p.atts
}
