package runners

import (
	"regexp"
	"strings"
)

var (
	rspecCounts  = regexp.MustCompile(`^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?$`)
	rspecHeading = regexp.MustCompile(`^\d+\) (.+)$`)
	rspecFrame   = regexp.MustCompile(`^# \./(\S+_spec\.rb):(\d+)`)
	mtCounts     = regexp.MustCompile(`^(\d+) runs, \d+ assertions, (\d+) failures, (\d+) errors, (\d+) skips$`)
	mtHeading    = regexp.MustCompile(`^\d+\) (Failure|Error):$`)
	mtTest       = regexp.MustCompile(`^(\S+)#(\S+?)(?: \[(\S+):(\d+)\])?:$`)
)

// rspecParser reads rspec's `3 examples, 2 failures, 1 pending` line and
// the numbered failures before it: `  1) Counter#count counts the words`
// heading, then `Failure/Error: <the line that failed>`, the expectation
// (`expected: 4` / `got: 5`, or the error raised) and the frames (`#
// ./spec/counter_spec.rb:6:in …`). A numbered line is a failure only
// under `Failures:` and when `Failure/Error:` follows it (mocha numbers
// its failing tests too).
type rspecParser struct {
	section bool     // a `Failures:` line opened the failure reports
	heading *Failure // the latest numbered line, not yet confirmed
	fails   failSet
	atts    []attempt
	msgLeft int // lines under the latest failure still read for its message and place
	extra   int // lines of the expectation joined to the message so far
}

func (p *rspecParser) name() string { return "rspec" }

func (p *rspecParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.msgLeft > 0 && !strings.HasPrefix(t, "Failure/Error:") && !startsDigit(t) {
		p.message(t) // changes no count: the line is read on as Verify reads it
	}
	switch {
	case t == "Failures:":
		p.section = true
		return true
	case strings.HasPrefix(t, "Failure/Error:"):
		if p.heading == nil {
			return false
		}
		f := *p.heading
		f.Message = strings.TrimSpace(strings.TrimPrefix(t, "Failure/Error:"))
		n := len(p.fails.list)
		p.fails.add(f)
		p.heading, p.msgLeft, p.extra = nil, 0, 0
		if len(p.fails.list) > n {
			p.msgLeft = 12
		}
		return true
	case !startsDigit(t):
		return false
	}
	if m := rspecCounts.FindStringSubmatch(t); m != nil {
		p.close(ws, m)
		return true
	}
	p.heading = nil
	if m := rspecHeading.FindStringSubmatch(t); m != nil && p.section {
		p.heading = &Failure{Name: m[1], Span: spanOf(l)}
		return true
	}
	return false
}

// message joins the expectation under `Failure/Error:` to the message
// (`expected: 4; got: 5`, `NoMethodError: undefined method …`) and takes
// the first frame in a spec file as the failure's place.
func (p *rspecParser) message(t string) {
	p.msgLeft--
	if len(p.fails.list) == 0 {
		p.msgLeft = 0
		return
	}
	f := &p.fails.list[len(p.fails.list)-1]
	if m := rspecFrame.FindStringSubmatch(t); m != nil {
		f.File, f.Line, p.msgLeft = m[1], atoi(m[2]), 0
		return
	}
	switch {
	case t == "" || strings.HasPrefix(t, "(compared using") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "^"):
	case strings.HasSuffix(f.Message, ":"): // `NoMethodError:` over what it says
		f.Message += " " + t
	case p.extra < 2 && (strings.Contains(t, ": ") || strings.HasSuffix(t, ":")): // `expected: 4`, `got: 5`, `NoMethodError:`; not the code frame
		f.Message += "; " + t
		p.extra++
	}
}

func (p *rspecParser) close(ws string, m []string) {
	total, failed, pending := atoi(m[1]), atoi(m[2]), atoi(m[3])
	om := p.fails.omitted
	p.atts = append(p.atts, attempt{unit: suiteKey(ws, total), tests: intp(total), passed: intp(total - failed - pending),
		failed: intp(failed), skipped: intp(pending), errors: intp(atoi(m[4])), failures: p.fails.take(), omitted: om})
	p.heading, p.msgLeft, p.section = nil, 0, false
}

func (p *rspecParser) end(string) []attempt { return p.atts }

// minitestParser reads minitest's `4 runs, 3 assertions, 1 failures, 1
// errors, 0 skips` line and the numbered reports before it: `  1)
// Failure:` then `StackTest#test_push_four [test/stack_test.rb:12]:` and
// the assertion's message (`Expected: 4` / `  Actual: 5`), or `  2) Error:`
// then `StackTest#test_pop:` and the error raised.
type minitestParser struct {
	kind    string // Failure or Error: a heading waiting for its test's line, which comes next
	fails   failSet
	atts    []attempt
	msgLeft int
}

func (p *minitestParser) name() string { return "minitest" }

func (p *minitestParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.kind != "" {
		p.kind = ""
		if m := mtTest.FindStringSubmatch(t); m != nil {
			n := len(p.fails.list)
			p.fails.add(Failure{Name: m[2], Classname: m[1], File: m[3], Line: atoi(m[4]), Span: spanOf(l)})
			p.msgLeft = 0
			if len(p.fails.list) > n {
				p.msgLeft = 4
			}
			return true
		}
	}
	if p.msgLeft > 0 {
		p.message(t)
	}
	if !startsDigit(t) {
		return false
	}
	if m := mtHeading.FindStringSubmatch(t); m != nil {
		p.kind, p.msgLeft = m[1], 0
		return true
	}
	if m := mtCounts.FindStringSubmatch(t); m != nil {
		runs, failed, errs, skips := atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4])
		om := p.fails.omitted
		p.atts = append(p.atts, attempt{unit: suiteKey(ws, runs), tests: intp(runs), passed: intp(runs - failed - errs - skips),
			failed: intp(failed), skipped: intp(skips), errors: intp(errs), failures: p.fails.take(), omitted: om})
		p.msgLeft = 0
		return true
	}
	return false
}

// message: the assertion's first line, and the `Actual:` under an
// `Expected:`.
func (p *minitestParser) message(t string) {
	p.msgLeft--
	if t == "" || len(p.fails.list) == 0 {
		p.msgLeft = 0
		return
	}
	f := &p.fails.list[len(p.fails.list)-1]
	switch {
	case f.Message == "":
		f.Message = t
		if !strings.HasPrefix(t, "Expected") {
			p.msgLeft = 0
		}
	case strings.HasPrefix(t, "Actual"):
		f.Message += "; " + t
		p.msgLeft = 0
	}
}

func (p *minitestParser) end(string) []attempt { return p.atts }
