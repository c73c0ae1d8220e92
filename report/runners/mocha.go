package runners

import (
	"regexp"
	"strings"
)

var (
	mochaPassing = regexp.MustCompile(`^(\d+) passing \(\d+(?:\.\d+)?(?:ms|s|m|h)\)$`)
	mochaOther   = regexp.MustCompile(`^(\d+) (pending|failing)$`)
	mochaTitle   = regexp.MustCompile(`^(\d+)\) (.+)$`)
)

// maxTitleLines bounds a mocha failure title (one line per describe level).
const maxTitleLines = 8

// mochaParser reads mocha's `N passing (10ms)`, `N pending`, `N failing`
// lines and the numbered failure titles after them, which span one line per
// describe level and end with a colon.
type mochaParser struct {
	open    *attempt
	failing bool     // a `N failing` line opened the failure list
	title   []string // a title still being read
	span    *Span
	atts    []attempt
	msgLeft int // lines under the latest failure title still read for its message
	// frameLeft: lines still read for the latest failure's place, its
	// stack's first frame in a test file (at).
	frameLeft int
	at        frame
}

func (p *mochaParser) name() string { return "mocha" }

func (p *mochaParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.title != nil {
		p.continueTitle(l)
		return true
	}
	if p.msgLeft > 0 {
		p.message(t) // changes no count: the line is read on as Verify reads it
	}
	if p.frameLeft > 0 {
		p.seekFrame(t)
	}
	if !startsDigit(t) {
		return false
	}
	if m := mochaPassing.FindStringSubmatch(t); m != nil {
		p.close()
		n := atoi(m[1])
		p.open = &attempt{unit: ws, tests: intp(n), passed: intp(n), failed: intp(0), skipped: intp(0), errors: intp(0)}
		return true
	}
	if p.open == nil {
		return false
	}
	if m := mochaOther.FindStringSubmatch(t); m != nil {
		p.count(m[2], atoi(m[1]))
		return true
	}
	if m := mochaTitle.FindStringSubmatch(t); m != nil && p.failing && atoi(m[1]) == len(p.open.failures)+1 {
		p.title, p.span = []string{}, spanOf(l)
		p.continueTitle(&line{trim: m[2], start: l.start, end: l.end, num: l.num})
		return true
	}
	return false
}

func (p *mochaParser) count(kind string, n int) {
	*p.open.tests += n
	if kind == "pending" {
		*p.open.skipped = n
		return
	}
	*p.open.failed, p.failing = n, true
}

// continueTitle reads one more line of a failure title. Every line read while
// a title is open is recorded, so a re-parse sees the same lines.
func (p *mochaParser) continueTitle(l *line) {
	t := strings.TrimSpace(l.trim)
	if t == "" || len(p.title) >= maxTitleLines {
		p.title = nil // not a title after all
		return
	}
	p.title = append(p.title, strings.TrimSuffix(t, ":"))
	p.span.End, p.span.LastLine = l.end, l.num
	if strings.HasSuffix(t, ":") {
		p.open.failures = append(p.open.failures, Failure{Name: strings.Join(p.title, " "), Span: p.span})
		p.title, p.msgLeft, p.frameLeft, p.at = nil, 6, maxFrameSeek, frame{}
		p.failing = len(p.open.failures) < *p.open.failed
	}
}

// message reads the lines under a failure title: the error thrown
// (`AssertionError [ERR_ASSERTION]: Expected values to be strictly
// equal:`) and, when it ends with a colon, the line that says how.
func (p *mochaParser) message(t string) {
	p.msgLeft--
	if t == "" {
		return
	}
	if p.open == nil || len(p.open.failures) == 0 || strings.HasPrefix(t, "at ") || strings.HasPrefix(t, "+ expected") ||
		mochaTitle.MatchString(t) {
		p.msgLeft = 0
		return
	}
	f := &p.open.failures[len(p.open.failures)-1]
	switch {
	case f.Message == "":
		f.Message = t
	case strings.HasSuffix(f.Message, ":"):
		f.Message += " " + t
	}
	if !strings.HasSuffix(f.Message, ":") {
		p.msgLeft = 0
	}
}

// seekFrame reads the latest failure's lines for its stack's first frame
// in a test file, up to the next failure's title.
func (p *mochaParser) seekFrame(t string) {
	p.frameLeft--
	stop := p.open == nil || mochaTitle.MatchString(t) || mochaPassing.MatchString(t)
	if !stop {
		p.at.jsLine(t)
	}
	if stop || p.at.test || p.frameLeft == 0 {
		p.frameLeft = 0
		if p.open != nil && len(p.open.failures) > 0 && p.at.file != "" {
			f := &p.open.failures[len(p.open.failures)-1]
			f.File, f.Line = p.at.place()
		}
	}
}

func (p *mochaParser) close() {
	if p.open != nil {
		p.open.unit = suiteKey(p.open.unit, *p.open.tests)
		p.atts = append(p.atts, *p.open)
		p.open, p.failing, p.title, p.msgLeft, p.frameLeft = nil, false, nil, 0, 0
	}
}

func (p *mochaParser) end(string) []attempt {
	p.close()
	return p.atts
}

func (p *mochaParser) following() bool { return p.title != nil || p.msgLeft > 0 || p.frameLeft > 0 }

// readsRules: a title being read takes a `--- ` or `=== ` line too.
func (p *mochaParser) readsRules() bool { return p.title != nil }
