package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// EUnit (Erlang's unit-testing framework) prints a run in one of two ways.
// Under rebar3 (`rebar3 eunit`), its progress formatter, after rebar3's
// "===> Performing EUnit tests...":
//
//	..F.F..
//	Failures:
//
//	  1) calc_tests:add_big_test/0
//	     Failure/Error: ?assertEqual(102, calc : add ( 101 , 1 ))
//	       expected: 102
//	            got: 103
//	     %% eunit_proc.erl:346:in `eunit_proc:with_timeout/3`
//
//	Finished in 0.045 seconds
//	7 tests, 2 failures
//
// and EUnit's own (erl's eunit:test/1,2, `rebar3 eunit -v`): a failing
// test's "calc_tests: add_big_test...*failed*", its stack ("in function
// calc_tests:add_big_test/0 (test/calc_tests.erl, line 4)") and its error
// ("**error:{assertEqual,[…]}"), then the total under a rule:
//
//	=======================================================
//	  Failed: 2.  Skipped: 0.  Passed: 3.
//
// A total counts only under its own grammar: the progress one after
// rebar3's banner and right under its bare "Finished in" (ExUnit's and
// RSpec's say more on that line), EUnit's own right under its rule
// ("All 5 tests passed." too; a run whose tests all passed prints no rule
// without verbose, and its "  5 tests passed." alone is nobody's). Its
// counts stand only when its failed count is the number of tests it
// failed by name; otherwise tests alone is known, with a note.
//
// What counts: rebar3's banner, the failure headings and *failed* lines,
// "Finished in", the rule and the total. Messages and places are read
// from the lines under a failure, which count nothing.
type eunitParser struct {
	atts     []attempt
	rebar3   bool // rebar3's banner was read: a progress total may follow
	fails    failSet
	named    int // failures named since the last total
	timedOut int // tests named "*timed out*" since the last total
	pending  byte
	left     int // lines of the latest failure still read for its message
	msg      []string
	inTerm   bool // reading an "**error:" term over several lines
	progress bool // the latest failure is a progress heading's
	// frameFile: in an exception's term, "?" once the test module's frame
	// began, then its file.
	frameFile string
}

const (
	eunitFinished = 'F' // a bare "Finished in": the progress total may follow
	eunitRule     = '=' // EUnit's rule: its total may follow
	eunitTotalled = 'T' // its own total was read: the cancelled line may follow
	// eunitMsgLines bounds the lines read under a failure.
	eunitMsgLines = 40
)

var (
	eunitFinishedRe = regexp.MustCompile(`^Finished in [0-9.]+ seconds?$`)
	eunitProgress   = regexp.MustCompile(`^(\d+) tests?, (\d+) failures?(?:, (\d+) skipped)?(?:, (\d+) cancelled)?$`)
	eunitTotal      = regexp.MustCompile(`^Failed: (\d+)\.  Skipped: (\d+)\.  Passed: (\d+)\.(?:  Cancelled: (\d+)\.)?$`)
	eunitAll        = regexp.MustCompile(`^(?:All (\d+) tests passed|Test passed)\.$`)
	// EUnitHeading: rebar3's "1) calc_tests:add_big_test/0" (its function
	// and arity), or a generated test's "2) calc_tests:12: -gen_test_/0-fun-0-";
	// the excerpts tell its blocks from RSpec's by it.
	EUnitHeading = regexp.MustCompile(`^\d+\) ([a-z][\w@]*):(\S.*)$`)
	// EUnitFailed: EUnit's own line for a failed test, "calc_tests:
	// add_big_test...*failed*", with -v's time, "…[0.002 s] *failed*"; the
	// excerpts open its block on it.
	EUnitFailed = regexp.MustCompile(`^([a-z][\w@]*): (.+?)\.\.\.(?:\[[0-9.]+ s\] )?\*failed\*$`)
	// EUnitTimedOut: a test EUnit stopped at its timeout, which it counts
	// as cancelled, "to_tests: -slow_test_/0-fun-0-...*timed out*".
	EUnitTimedOut = regexp.MustCompile(`^([a-z][\w@]*): (.+?)\.\.\.(?:\[[0-9.]+ s\] )?\*timed out\*$`)
	// eunitFrame: "in function calc_tests:add_big_test/0 (test/calc_tests.erl, line 4)".
	eunitArity    = regexp.MustCompile(`/\d+$`)
	eunitRaised   = regexp.MustCompile(`^\{(error|exit|throw),([^,\[{]+),$`)
	eunitTermFile = regexp.MustCompile(`\{file,\s*"([^"]+\.erl)"\}`)
	eunitTermLine = regexp.MustCompile(`\{line,\s*(\d+)\}`)
	eunitFrame    = regexp.MustCompile(`^in (?:function|call from) ([a-z][\w@]*):\S+ \((\S+\.erl), line (\d+)\)$`)
)

// eunitRuleLine is the rule EUnit prints over its total.
const eunitRuleLine = "======================================================="

func (p *eunitParser) name() string { return "eunit" }

func (p *eunitParser) following() bool { return p.pending != 0 || p.left > 0 }

func (p *eunitParser) feed(l *line, ws string) bool {
	t := l.trim
	if pend := p.pending; pend != 0 {
		p.pending = 0
		if pend == eunitFinished && p.rebar3 {
			if m := eunitProgress.FindStringSubmatch(t); m != nil {
				p.progressTotal(l, ws, m)
				return true
			}
		}
		if pend == eunitTotalled && t == eunitCancelledLine {
			p.cancelledUncounted()
			return true
		}
		if pend == eunitRule {
			if m := eunitTotal.FindStringSubmatch(t); m != nil {
				p.total(l, ws, atoi(m[3]), atoi(m[1]), atoi(m[2]), atoi(m[4]))
				p.pending = eunitTotalled
				return true
			}
			if m := eunitAll.FindStringSubmatch(t); m != nil {
				n := 1
				if m[1] != "" {
					n = atoi(m[1])
				}
				p.total(l, ws, n, 0, 0, 0)
				return true
			}
		}
	}
	switch {
	case t == rebar3EUnitBanner:
		p.rebar3 = true
		return true
	case t == eunitRuleLine:
		p.pending, p.left = eunitRule, 0
		return true
	case strings.HasPrefix(t, "Finished in ") && eunitFinishedRe.MatchString(t):
		p.pending, p.left = eunitFinished, 0
		return true
	case strings.HasSuffix(t, "*failed*"):
		if m := EUnitFailed.FindStringSubmatch(t); m != nil {
			p.failure(Failure{Classname: m[1], Name: m[2], Span: spanOf(l)}, false)
			return true
		}
	case strings.HasSuffix(t, "*timed out*"):
		if m := EUnitTimedOut.FindStringSubmatch(t); m != nil {
			p.fails.add(Failure{Classname: m[1], Name: m[2], Message: "timed out", Span: spanOf(l)})
			p.timedOut++
			p.left = 0 // its stack is wherever it was stopped, not the test's
			return true
		}
	case p.rebar3 && startsDigit(t):
		if m := EUnitHeading.FindStringSubmatch(t); m != nil {
			// "add_big_test/0" is the test EUnit's own lines call add_big_test.
			name := eunitArity.ReplaceAllString(m[2], "")
			p.failure(Failure{Classname: m[1], Name: name, Span: spanOf(l)}, true)
			return true
		}
	}
	if p.left > 0 {
		p.left--
		p.msgLine(t)
	}
	return false
}

// failure names a failed test and starts reading its message.
func (p *eunitParser) failure(f Failure, progress bool) {
	p.fails.add(f)
	p.named++
	p.msg, p.inTerm, p.progress, p.left, p.frameFile = nil, false, progress, eunitMsgLines, ""
}

// msgLine reads a line under a failure: the progress formatter's
// "Failure/Error:", "expected:" and "got:" lines, or EUnit's stack (the
// first frame in the test's module is its place) and "**error:" term.
func (p *eunitParser) msgLine(t string) {
	n := len(p.fails.list)
	if n == 0 || t == "" {
		p.inTerm = false
		return
	}
	f := &p.fails.list[n-1]
	switch {
	case p.progress && (strings.HasPrefix(t, "%%") || strings.HasPrefix(t, "Output:")):
		p.left = 0
		return
	case p.progress:
		if len(p.msg) == 0 {
			t = strings.TrimPrefix(t, "Failure/Error: ")
			// An exception's term, "{error,badarith,": its class and reason
			// are the message, as EUnit's own "**error:badarith"; its stack
			// follows, where the test's frame is its place.
			if m := eunitRaised.FindStringSubmatch(t); m != nil {
				p.add(m[1] + ":" + m[2])
				p.inTerm = true
				f.Message = clipMessage(strings.Join(p.msg, " "))
				return
			}
		}
		if p.inTerm {
			p.termPlace(f, t)
			return
		}
		p.add(t)
	case strings.HasPrefix(t, "in function ") || strings.HasPrefix(t, "in call from "):
		if m := eunitFrame.FindStringSubmatch(t); m != nil && m[1] == f.Classname && f.File == "" {
			f.File = m[2]
			f.Line, _ = strconv.Atoi(m[3])
		}
		return
	case strings.HasPrefix(t, "**"):
		p.inTerm = true
		p.add(t)
	case strings.HasPrefix(t, "output:<<"):
		p.left = 0
		return
	case p.inTerm:
		p.add(t)
	default:
		return
	}
	f.Message = clipMessage(strings.Join(p.msg, " "))
}

// termPlace reads a stack's frame in an exception's term: the test's own,
// `{calc_tests,divide_zero_test,0,` with `[{file,"…/calc_tests.erl"},`
// and `{line,6}]}` on the lines under it, is the failure's place.
func (p *eunitParser) termPlace(f *Failure, t string) {
	switch {
	case f.File != "":
	case strings.HasPrefix(t, "{"+f.Classname+","):
		p.frameFile = "?"
	case p.frameFile == "?":
		if m := eunitTermFile.FindStringSubmatch(t); m != nil {
			p.frameFile = m[1]
		}
		fallthrough
	case p.frameFile != "":
		if m := eunitTermLine.FindStringSubmatch(t); m != nil && p.frameFile != "?" {
			f.File, f.Line = p.frameFile, atoi(m[1])
		}
	}
}

func (p *eunitParser) add(t string) {
	if len(p.msg) < 12 {
		p.msg = append(p.msg, strings.Join(strings.Fields(t), " "))
	}
}

// progressTotal reads rebar3's "7 tests, 2 failures[, 1 skipped][, 1
// cancelled]"; tests is every one of them.
func (p *eunitParser) progressTotal(l *line, ws string, m []string) {
	tests, failed, skipped, cancelled := atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4])
	p.total(l, ws, tests-failed-skipped-cancelled, failed, skipped, cancelled)
}

// total ends a run; cancelled tests (a setup that failed, a timeout) are
// errors. EUnit's own total leaves out the tests it cancelled (they are
// in no count of it): those named "*timed out*" are counted here.
func (p *eunitParser) total(l *line, ws string, passed, failed, skipped, cancelled int) {
	cancelled = max(cancelled, p.timedOut)
	tests := passed + failed + skipped + cancelled
	a := attempt{at: l.start, unit: unitKey(ws, "eunit:@"+strconv.FormatInt(l.start, 10)), tests: intp(tests),
		omitted: p.fails.omitted}
	a.failures = p.fails.take()
	switch {
	case passed < 0:
		a.note = "EUnit's total does not add up: only the number of tests is known"
	case failed != p.named:
		a.note = "EUnit's failed count is not the number of tests it failed by name: only the number of tests is known"
	default:
		a.passed, a.failed, a.skipped, a.errors = intp(passed), intp(failed), intp(skipped), intp(cancelled)
	}
	p.atts = append(p.atts, a)
	p.named, p.timedOut, p.left, p.rebar3 = 0, 0, 0, false
}

// eunitCancelledLine is what EUnit prints under its total when it
// cancelled tests (a timeout, a setup that failed), without their number.
const eunitCancelledLine = "One or more tests were cancelled."

// cancelledUncounted reads the cancelled line under the latest total: when
// no cancelled test was named, how many there were is not known, so only
// the number of tests EUnit counted stands, with a note; the run is not
// one whose tests all passed.
func (p *eunitParser) cancelledUncounted() {
	a := &p.atts[len(p.atts)-1]
	if a.errors != nil && *a.errors > 0 {
		return
	}
	a.passed, a.failed, a.skipped, a.errors = nil, nil, nil, nil
	a.note = "EUnit cancelled tests it does not count or name (a setup that failed, a timeout): only the number of tests it ran is known"
}

func (p *eunitParser) end(string) []attempt { return p.atts }
