package runners

import (
	"regexp"
	"slices"
	"strings"
)

// testthat (R's unit-testing framework, 3.x) reports a run with one of
// its reporters. The progress reporter (test_dir(), test_local(),
// devtools::test()) prints each file's problems under its status line,
// between rules, then a results section and the total:
//
//	✖ | 2       4 | math [2.5s]
//	────────────────────────────────────────────────────────────────
//	Failure ('test-math.R:3'): addition works
//	add(101, 1) (`actual`) not equal to 102 (`expected`).
//
//	  `actual`: 103
//	`expected`: 102
//
//	Error ('test-math.R:17'): by zero: returns Inf
//	Error in `divide(1, 0)`: division by zero
//	────────────────────────────────────────────────────────────────
//	══ Results ═════════════════════════════════════════════════════
//	[ FAIL 2 | WARN 1 | SKIP 2 | PASS 10 ]
//
// The check reporter (test_check() in tests/testthat.R, R CMD check)
// prints the total, its "══ Failed tests ══" section with each problem
// under a rule ("── Failure ('test-math.R:3'): addition works ──"), and
// the same total again. Newer testthat puts the column in the place
// ('test-math.R:3:3') and lists the failures again under the results;
// with colours the place is unquoted. The compact reporter (test_file())
// prints a total after each expectation, under its "══ Testing
// test-math.R ══" banner, the problems, and the last total again (with "
// Done!" after it when all passed): one run, its last total.
//
// testthat counts expectations, not tests: FAIL counts failed
// expectations and errors, each of which it reports under a heading of
// its own. Its counts stand only when FAIL is the number of Failure and
// Error headings read (a heading repeated under the results is not read
// again); otherwise, as when R CMD check shows only the last 13 lines,
// only the total number is known, with a note.
//
// A run is known by its number of expectations, as a retried suite is:
// a suite run again counts once (its last run), two different ones are
// summed.
//
// What counts: the headings, the total, the results rule (after which
// headings repeat) and the check reporter's section rules (which make its
// two totals one run). Messages are read from the lines under a heading
// and count nothing.
type testthatParser struct {
	atts        []attempt
	fails       failSet
	failed      int  // Failure headings since the run began
	errors      int  // Error headings since the run began
	recap       bool // after the progress reporter's results rule
	checkOpen   bool // a check reporter's section after the latest total
	compact     bool // in the compact reporter's file (test_file())
	last        *testthatTotal
	left        int // lines under the latest heading still read for its message
	msg         []string
	cur         int // index in fails of the failure the latest heading named
	inBacktrace bool
}

// testthatTotal is the latest total and what it was read with, kept so
// that the check reporter's closing total can make one run with it.
type testthatTotal struct {
	counts         [4]int
	fails          []Failure
	failed, errors int
	compact        bool
}

var (
	testthatTotalRe = regexp.MustCompile(`^\[ FAIL (\d+) \| WARN (\d+) \| SKIP (\d+) \| PASS (\d+) \](?: Done!)?$`)
	// TestthatHeading is a problem's heading: its kind, place (quoted, or
	// bare with colours; "???" without a source reference) and test, under
	// a rule in the check and summary reporters ("── 1. Failure (…): … ──").
	TestthatHeading = regexp.MustCompile(`^(?:── )?(?:\d+\. )?(Failure|Error|Skip|Warning) \((?:'([^']+)'|([^\s'()]+)|\?\?\?)\): (.+?)(?: ─+)?$`)
	testthatPlace   = regexp.MustCompile(`^(.+):(\d+)(?::\d+)?$`)
)

// testthatMsgLines bounds the lines read under a heading.
const testthatMsgLines = 40

func (p *testthatParser) name() string { return "testthat" }

func (p *testthatParser) following() bool { return p.left > 0 }

func (p *testthatParser) feed(l *line, ws string) bool {
	t := l.trim
	switch {
	case strings.HasPrefix(t, "[ FAIL "):
		if m := testthatTotalRe.FindStringSubmatch(t); m != nil {
			p.total(l, ws, [4]int{atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4])})
			return true
		}
	case strings.HasPrefix(t, "══ "):
		p.left = 0
		return p.section(t)
	case strings.HasPrefix(t, "✔ | F W "):
		// The progress reporter's header: no compact reporter's status.
		was := p.compact
		p.compact = false
		return was
	case strings.HasPrefix(t, "──"):
		if m := TestthatHeading.FindStringSubmatch(t); m != nil {
			p.heading(l, m)
			return m[1] == "Failure" || m[1] == "Error"
		}
		p.left = 0 // a rule ends a problem's lines
		return false
	case strings.HasPrefix(t, "Failure (") || strings.HasPrefix(t, "Error (") || strings.HasPrefix(t, "Skip (") || strings.HasPrefix(t, "Warning ("):
		if m := TestthatHeading.FindStringSubmatch(t); m != nil {
			p.heading(l, m)
			return m[1] == "Failure" || m[1] == "Error"
		}
	}
	if p.left > 0 {
		p.left--
		p.msgLine(t)
	}
	return false
}

// section reads a "══ … ══" rule: the progress reporter's results (its
// problems are listed again under it), the check reporter's sections
// between its two totals, and the summary reporter's end, which has no
// total.
func (p *testthatParser) section(t string) bool {
	switch {
	case strings.HasPrefix(t, "══ Results "):
		p.recap = true
	case strings.HasPrefix(t, "══ Failed tests ") || strings.HasPrefix(t, "══ Skipped tests ") || strings.HasPrefix(t, "══ Warnings "):
		if p.last == nil {
			return false
		}
		p.checkOpen = true
	case strings.HasPrefix(t, "══ Testing "):
		// The compact reporter's (test_file()) banner: the totals under it
		// are its status, each the run so far, up to its last.
		p.fails, p.failed, p.errors, p.recap, p.last, p.compact = failSet{}, 0, 0, false, nil, true
	case strings.HasPrefix(t, "══ Terminated early"):
		// The progress reporter stopped at its maximum of failures.
		if n := len(p.atts); n > 0 && !strings.Contains(p.atts[n-1].note, "stopped") {
			p.atts[n-1].note += "; testthat stopped at its maximum number of failures: the tests after them did not run"
		}
	case strings.HasPrefix(t, "══ DONE "):
		// The summary reporter's end: it prints no total, so what it named
		// is no run's.
		p.fails, p.failed, p.errors, p.recap = failSet{}, 0, 0, false
	default:
		return false
	}
	return true
}

// heading reads a problem's heading: a failure or an error is named and
// counted (not again under the results), and its message read.
func (p *testthatParser) heading(l *line, m []string) {
	p.left = 0
	if m[1] != "Failure" && m[1] != "Error" || p.recap {
		return
	}
	f := Failure{Name: m[4], Span: spanOf(l)}
	place := m[2] + m[3]
	if pm := testthatPlace.FindStringSubmatch(place); pm != nil {
		f.File, f.Line = pm[1], atoi(pm[2])
	}
	if m[1] == "Error" {
		p.errors++
	} else {
		p.failed++
	}
	p.fails.add(f)
	// A test's second failed expectation is named once, by its first.
	p.cur = p.fails.find("", f.Name)
	if p.cur >= 0 && p.fails.list[p.cur].Message == "" {
		p.msg, p.inBacktrace, p.left = nil, false, testthatMsgLines
	}
}

// msgLine reads a line under a heading: the expectation's message and
// its actual/expected lines, or the error's; a backtrace is left out.
func (p *testthatParser) msgLine(t string) {
	if t == "" || p.inBacktrace || len(p.msg) >= 12 {
		return
	}
	if t == "Backtrace:" {
		p.inBacktrace = true
		return
	}
	p.msg = append(p.msg, strings.Join(strings.Fields(t), " "))
	p.fails.list[p.cur].Message = clipMessage(strings.Join(p.msg, " "))
}

// total ends a run. The check reporter's closing total, the same counts
// after its sections, ends the run its first total began; the compact
// reporter's, the run its status lines showed so far.
func (p *testthatParser) total(l *line, ws string, c [4]int) {
	p.left = 0
	if p.last != nil && (p.checkOpen && p.last.counts == c || p.compact && p.last.compact) {
		p.atts = p.atts[:len(p.atts)-1]
		carried := p.fails.take()
		for _, f := range p.last.fails {
			p.fails.add(f)
		}
		for _, f := range carried {
			p.fails.add(f)
		}
		p.failed += p.last.failed
		p.errors += p.last.errors
	}
	fail, skip, pass := c[0], c[2], c[3]
	tests := fail + skip + pass
	a := attempt{at: l.start, unit: suiteKey(ws, tests), tests: intp(tests),
		omitted: p.fails.omitted}
	last := &testthatTotal{counts: c, failed: p.failed, errors: p.errors, compact: p.compact}
	a.failures = p.fails.take()
	last.fails = slices.Clone(a.failures)
	if fail == p.failed+p.errors {
		a.passed, a.failed, a.skipped, a.errors = intp(pass), intp(p.failed), intp(skip), intp(p.errors)
		a.note = "testthat counts expectations, not tests: a test with two failed expectations counts twice, and warnings are in no count"
	} else {
		a.note = "testthat's FAIL count is not the number of failures and errors it reported under headings (R CMD check shows only the last lines): only the number of expectations is known"
	}
	p.atts = append(p.atts, a)
	p.last, p.checkOpen, p.recap, p.failed, p.errors = last, false, false, 0, 0
}

func (p *testthatParser) end(string) []attempt { return p.atts }
