package runners

import (
	"regexp"
	"strings"
)

var (
	jestTests  = regexp.MustCompile(`^Tests:\s+((?:\d+ \w+, )*)(\d+) total$`)
	jestSuites = regexp.MustCompile(`^Test Suites:\s+((?:\d+ \w+, )*)(\d+) total$`)
	jestItem   = regexp.MustCompile(`(\d+) (\w+)`)
	jestFail   = regexp.MustCompile(`^● (.+)$`)
	jestFrame  = regexp.MustCompile(`^\d+ \|`) // a code frame's line, `12 |     expect(x)`
	jestSuite  = regexp.MustCompile(`^FAIL\s+(\S+\.[cm]?[jt]sx?)$`)
)

// jestParser reads jest's `Tests:       1 failed, 3 passed, 4 total` line,
// the `Test Suites:` line before it, and `● Suite › test` failure headings.
type jestParser struct {
	suitesFailed int
	suiteErrs    int    // `● Test suite failed to run` headings
	suite        string // file of the latest `FAIL ./x.test.js` line
	fails        failSet
	atts         []attempt
	msgLeft      int // lines under the latest failure heading still read for its message
	// frameLeft: lines still read for the latest failure's place, its
	// stack's first frame in a test file (at).
	frameLeft int
	at        frame
}

func (p *jestParser) name() string { return "jest" }

func (p *jestParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.msgLeft > 0 && !strings.HasPrefix(t, "● ") {
		// Only the message: lines that count are read on below, as
		// Verify, which sees only those, reads them.
		p.message(t)
	}
	if p.frameLeft > 0 {
		p.seekFrame(t)
	}
	switch {
	case strings.HasPrefix(t, "● "):
		return p.feedFail(l)
	case strings.HasPrefix(t, "FAIL"):
		if m := jestSuite.FindStringSubmatch(t); m != nil {
			p.suite = m[1]
			return true
		}
	case strings.HasPrefix(t, "Test Suites:"):
		if m := jestSuites.FindStringSubmatch(t); m != nil {
			p.suitesFailed = items(m[1])["failed"]
			return true
		}
	case strings.HasPrefix(t, "Tests:"):
		if m := jestTests.FindStringSubmatch(t); m != nil {
			p.close(ws, items(m[1]), atoi(m[2]))
			return true
		}
	}
	return false
}

func (p *jestParser) feedFail(l *line) bool {
	m := jestFail.FindStringSubmatch(l.trim)
	if m == nil || strings.HasPrefix(m[1], "Console") || strings.HasSuffix(m[1], "Warning:") {
		return false
	}
	f := Failure{Name: m[1], Classname: p.suite, Span: spanOf(l)}
	if m[1] == "Test suite failed to run" {
		p.suiteErrs++
	}
	n := len(p.fails.list)
	p.fails.add(f)
	p.msgLeft, p.frameLeft = 0, 0
	if len(p.fails.list) > n {
		p.msgLeft, p.frameLeft, p.at = 8, maxFrameSeek, frame{}
	}
	return true
}

// seekFrame reads the latest failure's lines for its stack's first frame
// in a test file, up to the next heading or suite.
func (p *jestParser) seekFrame(t string) {
	p.frameLeft--
	stop := strings.HasPrefix(t, "● ") || strings.HasPrefix(t, "FAIL ") || strings.HasPrefix(t, "PASS ") || strings.HasPrefix(t, "Test Suites:")
	if !stop {
		p.at.jsLine(t)
	}
	if stop || p.at.test || p.frameLeft == 0 {
		p.frameLeft = 0
		p.fails.place(p.at)
	}
}

// message reads the lines under a failure heading: the matcher's line
// (`expect(received).toBe(expected)`, or the error thrown) and its
// `Expected:` and `Received:` lines, up to the code frame or the stack.
func (p *jestParser) message(t string) {
	p.msgLeft--
	if t == "" {
		return
	}
	if len(p.fails.list) == 0 { // a summary took them
		p.msgLeft = 0
		return
	}
	if strings.HasPrefix(t, "at ") || strings.HasPrefix(t, ">") || jestFrame.MatchString(t) {
		p.msgLeft = 0
		return
	}
	f := &p.fails.list[len(p.fails.list)-1]
	switch {
	case f.Message == "":
		f.Message = t
	case strings.HasPrefix(t, "Expected") || strings.HasPrefix(t, "Received"):
		f.Message += "; " + t
	}
}

// close ends a run. A suite that failed to run fails no test, so it counts
// as an error; without its heading, a failed suite with no failed test does.
func (p *jestParser) close(ws string, n map[string]int, total int) {
	errs := min(p.suiteErrs, p.suitesFailed)
	if n["failed"] == 0 {
		errs = p.suitesFailed
	}
	om := p.fails.omitted
	p.atts = append(p.atts, attempt{unit: suiteKey(ws, total), tests: intp(total), passed: intp(n["passed"]),
		failed: intp(n["failed"]), skipped: intp(n["skipped"] + n["todo"] + n["pending"]),
		errors: intp(errs), failures: p.fails.take(), omitted: om})
	p.suitesFailed, p.suiteErrs, p.suite = 0, 0, ""
}

func (p *jestParser) end(string) []attempt { return p.atts }

func items(s string) map[string]int {
	n := map[string]int{}
	for _, m := range jestItem.FindAllStringSubmatch(s, -1) {
		n[m[2]] += atoi(m[1])
	}
	return n
}

func (p *jestParser) following() bool { return p.msgLeft > 0 || p.frameLeft > 0 }
