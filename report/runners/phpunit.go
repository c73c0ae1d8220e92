package runners

import (
	"regexp"
	"strings"
)

var (
	phpSection = regexp.MustCompile(`^There (?:was|were) \d+ (errors?|failures?|warnings?|risky tests?):$`)
	phpEntry   = regexp.MustCompile(`^\d+\) ([\w\\]+)::(\w+)`)
	phpTotals  = regexp.MustCompile(`^Tests: (\d+), Assertions: \d+((?:, \w+: \d+)*)\.$`)
	phpOK      = regexp.MustCompile(`^OK \((\d+) tests?, \d+ assertions?\)$`)
	phpItem    = regexp.MustCompile(`, (\w+): (\d+)`)
	phpPlace   = regexp.MustCompile(`^(\S+\.php):(\d+)$`)
)

// phpunitParser reads PHPUnit's `Tests: 4, Assertions: 3, Errors: 1,
// Failures: 2.` (or `OK (4 tests, 4 assertions)`) and the numbered
// reports of its `There were 2 failures:` and `There was 1 error:`
// sections: `1) CalculatorTest::testAdd`, the message (`Failed asserting
// that 5 matches expected 4.`, `InvalidArgumentException: …`), a diff,
// then the frames, the test's own last.
type phpunitParser struct {
	section bool // inside a There were … section
	fails   failSet
	atts    []attempt
	msgLeft int
}

func (p *phpunitParser) name() string { return "phpunit" }

func (p *phpunitParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.msgLeft > 0 && !startsDigit(t) {
		p.message(t) // changes no count: the line is read on as Verify reads it
	}
	switch {
	case strings.HasPrefix(t, "There w"):
		if phpSection.MatchString(t) {
			p.section, p.msgLeft = true, 0
			return true
		}
	case strings.HasPrefix(t, "Tests: "):
		if m := phpTotals.FindStringSubmatch(t); m != nil {
			n := map[string]int{}
			for _, it := range phpItem.FindAllStringSubmatch(m[2], -1) {
				n[it[1]] = atoi(it[2])
			}
			p.close(ws, atoi(m[1]), n)
			return true
		}
	case strings.HasPrefix(t, "OK ("):
		if m := phpOK.FindStringSubmatch(t); m != nil {
			p.close(ws, atoi(m[1]), nil)
			return true
		}
	case p.section && startsDigit(t):
		if m := phpEntry.FindStringSubmatch(t); m != nil {
			n := len(p.fails.list)
			p.fails.add(Failure{Name: m[2], Classname: m[1], Span: spanOf(l)})
			p.msgLeft = 0
			if len(p.fails.list) > n {
				p.msgLeft = 48
			}
			return true
		}
	}
	return false
}

// message: the report's first line is the message; the frames below the
// diff place it, the test's own frame last.
func (p *phpunitParser) message(t string) {
	p.msgLeft--
	if len(p.fails.list) == 0 || t == "--" || strings.HasPrefix(t, "There w") {
		p.msgLeft = 0
		return
	}
	f := &p.fails.list[len(p.fails.list)-1]
	switch m := phpPlace.FindStringSubmatch(t); {
	case m != nil:
		f.File, f.Line = m[1], atoi(m[2])
	case t == "":
	case f.Message == "":
		f.Message = t
	}
}

func (p *phpunitParser) close(ws string, total int, n map[string]int) {
	failed, errs := n["Failures"], n["Errors"]
	skipped := n["Skipped"] + n["Incomplete"]
	om := p.fails.omitted
	p.atts = append(p.atts, attempt{unit: suiteKey(ws, total), tests: intp(total), passed: intp(max(total-failed-errs-skipped, 0)),
		failed: intp(failed), skipped: intp(skipped), errors: intp(errs), failures: p.fails.take(), omitted: om})
	p.section, p.msgLeft = false, 0
}

func (p *phpunitParser) end(string) []attempt { return p.atts }
