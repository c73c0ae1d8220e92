package runners

import (
	"regexp"
	"strings"
)

var (
	mavenLevel = regexp.MustCompile(`^\[(?:INFO|ERROR|WARNING|WARN)\] ?`)
	// The totals after `Results:` end at Skipped (or Flakes); the per-class
	// lines go on with `, Time elapsed`, and are not counted again.
	surefireTotals = regexp.MustCompile(`^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: \d+)?$`)
	surefirePlugin = regexp.MustCompile(`^--- (?:maven-)?(?:surefire|failsafe)(?:-plugin)?:\S+:\S+ \(\S+\) @ (\S+) ---$`)
	// `  FooTest.bar:12 expected…` (surefire 2.19+) or `  bar(com.x.FooTest): …`
	// (older). A test inherited from a base class is `Sub>Base.bar:12->Base.helper:40 …`,
	// run by Sub; an assertion without a message leaves the entry at its line.
	surefireFail = regexp.MustCompile(`^ {2}(?:(?:([\w$.]+)>)?([\w$.]+)\.([\w$]+[^\s:>]*)(?::(\d+))?(?:->\S*)?(?: (.*))?|([\w$]+)\(([\w$.]+)\)(?::\d+)?: (.*))$`)

	gradleTotals = regexp.MustCompile(`^(\d+) tests? completed, (\d+) failed(?:, (\d+) skipped)?$`)
	gradleTask   = regexp.MustCompile(`^> Task (:\S+)`)
	gradleFail   = regexp.MustCompile(`^(\S.*?) > (.+) FAILED$`)
)

// surefireParser reads maven surefire's final `Tests run: …` totals of each
// module and the failing tests listed above them.
type surefireParser struct {
	module string
	fails  failSet
	atts   []attempt
}

func (p *surefireParser) name() string { return "surefire" }

func (p *surefireParser) feed(l *line, ws string) bool {
	if !strings.HasPrefix(l.trim, "[") && !strings.HasPrefix(l.trim, "Tests run:") {
		return false
	}
	lv := mavenLevel.FindString(l.trim)
	t := l.trim[len(lv):]
	if m := surefirePlugin.FindStringSubmatch(t); m != nil {
		p.module = m[1]
		return true
	}
	if m := surefireTotals.FindStringSubmatch(t); m != nil {
		run, f, e, s := atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4])
		om := p.fails.omitted
		p.atts = append(p.atts, attempt{unit: unitKey(ws, p.module), tests: intp(run), passed: intp(run - f - e - s),
			failed: intp(f), skipped: intp(s), errors: intp(e), failures: p.fails.take(), omitted: om})
		return true
	}
	if m := surefireFail.FindStringSubmatch(t); m != nil && strings.HasPrefix(lv, "[ERROR]") {
		// An error's entry is `Class.test:21 » NumberFormat For input…`:
		// the guillemet only marks the exception's short name, kept.
		msg := strings.TrimPrefix(m[5]+m[8], "» ")
		class := m[1] // the subclass that ran an inherited test
		if class == "" {
			class = m[2] + m[7]
		}
		f := Failure{Classname: class, Name: m[3] + m[6], Line: atoi(m[4]), Message: msg, Span: spanOf(l)}
		p.fails.add(f)
		return true
	}
	return false
}

func (p *surefireParser) end(string) []attempt { return p.atts }

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
