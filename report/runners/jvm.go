package runners

import (
	"regexp"
	"strings"
)

var (
	gradleTotals = regexp.MustCompile(`^(\d+) tests? completed, (\d+) failed(?:, (\d+) skipped)?$`)
	gradleTask   = regexp.MustCompile(`^> Task (:\S+)`)
	gradleFail   = regexp.MustCompile(`^(\S.*?) > (.+) FAILED$`)
)

// gradleParser reads gradle's `5 tests completed, 1 failed` (printed only
// when a test failed; a green gradle build states no count) and the
// `FooTest > bar() FAILED` lines of the task before it.
type gradleParser struct {
	task  string
	fails failSet
	atts  []attempt
}

func (p *gradleParser) name() string { return "gradle" }

func (p *gradleParser) feed(l *line, ws string) bool {
	t := l.trim
	if strings.HasPrefix(t, "> Task ") {
		if m := gradleTask.FindStringSubmatch(t); m != nil {
			p.task = m[1]
			return true
		}
		return false
	}
	if !startsDigit(t) && !strings.HasSuffix(t, " FAILED") {
		return false
	}
	if m := gradleTotals.FindStringSubmatch(t); m != nil {
		n, f, s := atoi(m[1]), atoi(m[2]), atoi(m[3])
		om := p.fails.omitted
		p.atts = append(p.atts, attempt{unit: unitKey(ws, p.task), tests: intp(n), passed: intp(n - f - s),
			failed: intp(f), skipped: intp(s), errors: intp(0), failures: p.fails.take(), omitted: om})
		return true
	}
	if !strings.HasSuffix(t, " FAILED") {
		return false
	}
	if m := gradleFail.FindStringSubmatch(t); m != nil {
		p.fails.add(Failure{Classname: m[1], Name: m[2], Span: spanOf(l)})
		return true
	}
	return false
}

func (p *gradleParser) end(string) []attempt { return p.atts }

func init() {
	register(Declaration{Runner: "gradle", Parser: &Parser{New: func(bool) parser { return &gradleParser{} }, Order: 120,
		Starts: []string{">", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}}})
}
