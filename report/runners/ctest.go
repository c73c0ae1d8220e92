package runners

import (
	"regexp"
	"strings"
)

var (
	ctestResult = regexp.MustCompile(`^\d+/\d+ Test\s+#\d+: (\S+) \.*\s*(\*\*\*)?(.*?)\s+[\d.]+ sec$`)
	ctestTotals = regexp.MustCompile(`^\d+% tests passed, (\d+) tests? failed out of (\d+)$`)
	ctestPid    = regexp.MustCompile(`^==\d+==`)
	ctestPlace  = regexp.MustCompile(`^([\w./-]+\.\w+):(\d+):`)
)

// ctestParser reads CTest: its `3/3 Test #3: parse_hex ....***Failed  0.01
// sec` lines, the `67% tests passed, 1 tests failed out of 3` totals, and
// under a failed test (with --output-on-failure) its output, whose first
// line that reads as an error is the test's message: a sanitizer's
// `ERROR: AddressSanitizer: heap-buffer-overflow …`, a check's
// `check_parse.cpp:18: parse_hex: expected 255, got 0`.
type ctestParser struct {
	fails   failSet
	atts    []attempt
	msgLeft int // lines of the latest failed test's output still read for its message
}

func (p *ctestParser) name() string { return "ctest" }

func (p *ctestParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.msgLeft > 0 && !startsDigit(t) {
		p.message(t) // changes no count: the line is read on as Verify reads it
	}
	if !startsDigit(t) {
		return false
	}
	if m := ctestResult.FindStringSubmatch(t); m != nil {
		p.msgLeft = 0
		if m[2] == "" && m[3] == "Passed" || m[3] == "Not Run" || strings.HasPrefix(m[3], "Skipped") {
			return true
		}
		n := len(p.fails.list)
		p.fails.add(Failure{Name: m[1], Span: spanOf(l)})
		if len(p.fails.list) > n {
			p.msgLeft = 64
		}
		return true
	}
	if m := ctestTotals.FindStringSubmatch(t); m != nil {
		failed, total := atoi(m[1]), atoi(m[2])
		om := p.fails.omitted
		p.atts = append(p.atts, attempt{unit: suiteKey(ws, total), tests: intp(total), passed: intp(total - failed),
			failed: intp(failed), skipped: intp(0), errors: intp(0), failures: p.fails.take(), omitted: om})
		p.msgLeft = 0
		return true
	}
	return false
}

// message takes the first line of a failed test's output that reads as an
// error, and its `file:line:` when it starts with one.
func (p *ctestParser) message(t string) {
	p.msgLeft--
	if strings.HasPrefix(t, "Start ") || len(p.fails.list) == 0 {
		p.msgLeft = 0
		return
	}
	t = strings.TrimSpace(ctestPid.ReplaceAllString(t, ""))
	if t == "" || !errorLike(t) {
		return
	}
	f := &p.fails.list[len(p.fails.list)-1]
	f.Message, p.msgLeft = t, 0
	if m := ctestPlace.FindStringSubmatch(t); m != nil {
		f.File, f.Line = m[1], atoi(m[2])
	}
}

// errorLike: a line of a test's own output that says it failed.
func errorLike(t string) bool {
	low := strings.ToLower(t)
	for _, w := range []string{"error", "expected", "fail", "assert", "abort", "fault", "exception", "panic", "mismatch"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

func (p *ctestParser) end(string) []attempt { return p.atts }
