package runners

import (
	"regexp"
	"strings"
)

var (
	vitestTests = regexp.MustCompile(`^Tests\s+((?:\d+ \w+(?: \| )?)+)\s*\((\d+)\)$`)
	vitestFiles = regexp.MustCompile(`^Test Files\s+((?:\d+ \w+(?: \| )?)+)\s*\((\d+)\)$`)
	vitestFail  = regexp.MustCompile(`^FAIL\s+(\S+\.[cm]?[jt]sx?) > (.+)$`)
	vitestFrame = regexp.MustCompile(`^❯ (?:\S+ )?(\S+?):(\d+):\d+$`)
)

// vitestParser reads vitest's `Tests  2 failed | 2 passed (4)` line, the
// `Test Files  1 failed | 1 passed (2)` line before it, and the failures
// of its `Failed Tests` section: ` FAIL  test/a.test.js > suite > test`,
// then the error (`AssertionError: expected 5 to be 4 // Object.is
// equality`), a diff and the frames (`❯ test/a.test.js:6:23`).
type vitestParser struct {
	filesFailed int
	fails       failSet
	atts        []attempt
	msgLeft     int // lines under the latest FAIL heading still read for its message and place
}

func (p *vitestParser) name() string { return "vitest" }

func (p *vitestParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.msgLeft > 0 && !strings.HasPrefix(t, "FAIL") {
		p.message(t) // changes no count: the line is read on as Verify reads it
	}
	switch {
	case strings.HasPrefix(t, "FAIL"):
		m := vitestFail.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		n := len(p.fails.list)
		p.fails.add(Failure{Name: m[2], Classname: m[1], Span: spanOf(l)})
		p.msgLeft = 0
		if len(p.fails.list) > n {
			p.msgLeft = 16
		}
		return true
	case strings.HasPrefix(t, "Test Files"):
		if m := vitestFiles.FindStringSubmatch(t); m != nil {
			p.filesFailed = items(m[1])["failed"]
			return true
		}
	case strings.HasPrefix(t, "Tests"):
		if m := vitestTests.FindStringSubmatch(t); m != nil {
			p.close(ws, items(m[1]), atoi(m[2]))
			return true
		}
	}
	return false
}

// message reads a line under a FAIL heading: the first is the error, and
// the first frame in the test's own file is where the test failed (a
// frame in the code under test may come first).
func (p *vitestParser) message(t string) {
	p.msgLeft--
	if len(p.fails.list) == 0 || strings.HasPrefix(t, "⎯") {
		p.msgLeft = 0
		return
	}
	f := &p.fails.list[len(p.fails.list)-1]
	switch {
	case t == "":
	case f.Message == "":
		f.Message = t
	case f.Line == 0:
		if m := vitestFrame.FindStringSubmatch(t); m != nil && m[1] == f.Classname {
			f.File, f.Line, p.msgLeft = m[1], atoi(m[2]), 0
		}
	}
}

// close ends a run. A test file that failed with no failing test (it did
// not load) counts as an error.
func (p *vitestParser) close(ws string, n map[string]int, total int) {
	errs := 0
	if n["failed"] == 0 {
		errs = p.filesFailed
	}
	om := p.fails.omitted
	p.atts = append(p.atts, attempt{unit: suiteKey(ws, total), tests: intp(total), passed: intp(n["passed"]),
		failed: intp(n["failed"]), skipped: intp(n["skipped"] + n["todo"]), errors: intp(errs),
		failures: p.fails.take(), omitted: om})
	p.filesFailed, p.msgLeft = 0, 0
}

func (p *vitestParser) end(string) []attempt { return p.atts }

func init() {
	register(Declaration{Runner: "vitest", Parser: &Parser{New: func(bool) parser { return &vitestParser{} }, Order: 90,
		Starts: []string{"FAIL", "Test", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}}})
}

func (p *vitestParser) following() bool { return p.msgLeft > 0 }
