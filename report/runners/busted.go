package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// busted (Lua's unit-testing framework) prints, with its terminal output
// handlers (plainTerminal, its default outside a terminal, and
// utfTerminal, its default in one), a line of dots, its total, then a
// block for each pending test, each failure and each error, in that
// order:
//
//	+-+*++..++
//	6 successes / 1 failure / 1 error / 2 pending : 0.002908 seconds
//
//	Failure -> spec/calc_spec.lua @ 11
//	calc add adds big numbers
//	spec/calc_spec.lua:13: Expected objects to be equal.
//	Passed in:
//	(number) 103
//
//	Error -> spec/calc_spec.lua @ 22
//	calc divide divides by zero
//	src/calc.lua:12: division by zero
//
// utfTerminal's arrow is "→". A block's heading names the test's file and
// line, the line under it the test (its describe blocks and its own name),
// the lines after that the message (and, with --verbose, a stack
// traceback). An error outside a test (a spec file that does not load, a
// failing before_each) is an error too: "Error -> <message>" with the
// file's name under it when busted knows no place.
//
// The total comes first, so a run ends when its blocks are read: as many
// failures and errors as it counts, the next total, or the log's end. Its
// counts stand only when it named as many failures and errors as it
// counts; otherwise only the total number is known, with a note.
//
// A run is known by its number of tests, as a retried suite is: --repeat's
// runs are one unit (the last counts, earlier failures are flaky), two
// different suites are summed.
//
// What counts: the total, and each failure's and error's heading and the
// test's name under it.
type bustedParser struct {
	atts   []attempt
	cur    *bustedRun
	naming bool // the next line names the test under a heading
	kind   string
	head   Failure
	left   int // lines of the latest failure still read for its message
	msg    []string
}

// bustedRun is a run whose total was read and whose blocks are being read.
type bustedRun struct {
	a                     attempt
	failures, errors      int // as the total counts them
	namedFails, namedErrs int
	fails                 failSet
}

// bustedMsgLines bounds the lines read under a failure.
const bustedMsgLines = 40

var (
	bustedTotal = regexp.MustCompile(`^(\d+) success(?:es)? / (\d+) failures? / (\d+) errors? / (\d+) pending : [0-9.]+ seconds$`)
	// BustedHeading is a pending test's, a failure's or an error's heading:
	// "Failure -> spec/calc_spec.lua @ 11" (utfTerminal: "Failure → …").
	BustedHeading = regexp.MustCompile(`^(Pending|Failure|Error) (?:->|→) (.+?) @ (\d+)$`)
	// bustedError is an error busted knows no place of: its message.
	bustedError = regexp.MustCompile(`^Error (?:->|→) (.+)$`)
)

func (p *bustedParser) name() string { return "busted" }

func (p *bustedParser) following() bool { return p.naming || p.left > 0 }

func (p *bustedParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.naming {
		// The test's name is the line right under its heading (a verifier,
		// shown only the lines a summary cites, tells it by its number),
		// never a blank line, a heading or a total.
		p.naming = false
		if l.num == p.head.Span.LastLine+1 && t != "" && p.cur != nil && !bustedLine(t) {
			p.named(l, t)
			return true
		}
	}
	switch {
	case startsDigit(t) && strings.HasSuffix(t, " seconds"):
		if m := bustedTotal.FindStringSubmatch(t); m != nil {
			p.total(l, ws, m)
			return true
		}
	case strings.HasPrefix(t, "Failure ") || strings.HasPrefix(t, "Error "):
		if p.cur != nil {
			return p.heading(l, t)
		}
	}
	if p.left > 0 {
		p.left--
		p.msgLine(t)
	}
	return false
}

// bustedLine reports a heading's or a total's shape.
func bustedLine(t string) bool {
	return BustedHeading.MatchString(t) || bustedError.MatchString(t) || bustedTotal.MatchString(t)
}

// heading reads a failure's or an error's heading in a run's blocks; the
// test's name is on the next line.
func (p *bustedParser) heading(l *line, t string) bool {
	p.left = 0
	if m := BustedHeading.FindStringSubmatch(t); m != nil {
		p.kind, p.head = m[1], Failure{File: m[2], Line: atoi(m[3]), Span: spanOf(l)}
	} else if m := bustedError.FindStringSubmatch(t); m != nil {
		p.kind, p.head = "Error", Failure{Message: clipMessage(m[1]), Span: spanOf(l)}
	} else {
		return false
	}
	p.naming = true
	return true
}

// named reads the test's name under a heading: the failure or error is
// named and counted, and its message read from the lines under it.
func (p *bustedParser) named(l *line, name string) {
	f := p.head
	f.Name = name
	if f.File == "" {
		// "Error -> spec/broken_spec.lua:5: ')' expected …": a file that
		// does not load is named by its message's place.
		f.File, f.Line, _ = bustedPlace(f.Message)
	}
	f.Span = &Span{Start: f.Span.Start, End: l.end, FirstLine: f.Span.FirstLine, LastLine: l.num}
	r := p.cur
	switch p.kind {
	case "Failure":
		r.namedFails++
	case "Error":
		r.namedErrs++
	default:
		return
	}
	r.fails.add(f)
	p.msg, p.left = nil, 0
	// Its message is read unless a failure of the same name was named
	// before (it keeps its own), or the heading was the message.
	if n := len(r.fails.list); n > 0 && r.fails.list[n-1].Span == f.Span && f.Message == "" {
		p.left = bustedMsgLines
	}
	if r.namedFails >= r.failures && r.namedErrs >= r.errors {
		// Every failure and error the total counts is named: the run's
		// blocks are read, but for the last one's message.
		p.finish()
	}
}

// msgLine reads a line of a failure's message, up to the blank line
// under it or its stack traceback (--verbose).
func (p *bustedParser) msgLine(t string) {
	if t == "" || t == "stack traceback:" {
		p.left = 0
		return
	}
	f := p.latest()
	if len(p.msg) == 0 {
		// "spec/calc_spec.lua:13: Expected …": an assertion in the test's
		// own file is where it failed.
		if file, line, ok := bustedPlace(t); ok && file == f.File {
			f.Line = line
		}
	}
	if len(p.msg) < 12 {
		p.msg = append(p.msg, strings.Join(strings.Fields(t), " "))
		f.Message = clipMessage(strings.Join(p.msg, " "))
	}
}

// latest is the failure named last: in the run being read, or in the
// run just finished, whose last failure's message follows its name.
func (p *bustedParser) latest() *Failure {
	if p.cur != nil {
		l := p.cur.fails.list
		return &l[len(l)-1]
	}
	l := p.atts[len(p.atts)-1].failures
	return &l[len(l)-1]
}

// bustedPlace reads a Lua message's "file.lua:13:" prefix.
func bustedPlace(t string) (string, int, bool) {
	i := strings.Index(t, ".lua:")
	if i < 0 {
		return "", 0, false
	}
	rest := t[i+len(".lua:"):]
	j := strings.IndexByte(rest, ':')
	if j <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil {
		return "", 0, false
	}
	return t[:i+len(".lua")], n, true
}

// total begins a run: its counts stand when its blocks name as many
// failures and errors.
func (p *bustedParser) total(l *line, ws string, m []string) {
	p.finish()
	successes, failures, errors, pending := atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4])
	tests := successes + failures + errors + pending
	r := &bustedRun{failures: failures, errors: errors}
	r.a = attempt{at: l.start, unit: suiteKey(ws, tests), tests: intp(tests),
		passed: intp(successes), failed: intp(failures), skipped: intp(pending), errors: intp(errors)}
	p.cur = r
	if failures == 0 && errors == 0 {
		p.finish()
	}
}

// finish ends the run being read: what its blocks named decides whether
// its counts stand.
func (p *bustedParser) finish() {
	r := p.cur
	if r == nil {
		return
	}
	p.cur, p.naming = nil, false
	a := r.a
	a.omitted = r.fails.omitted
	a.failures = r.fails.take()
	if r.namedFails != r.failures || r.namedErrs != r.errors {
		a.passed, a.failed, a.skipped, a.errors = nil, nil, nil, nil
		a.note = "busted's total does not agree with the failures and errors it named under it: only the number of tests is known"
	}
	p.atts = append(p.atts, a)
}

func (p *bustedParser) end(string) []attempt {
	p.finish()
	return p.atts
}
