package runners

import (
	"regexp"
	"strings"
)

var (
	cargoResult  = regexp.MustCompile(`^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; \d+ measured; \d+ filtered out`)
	cargoUnit    = regexp.MustCompile(`^(?:Running (.+)|Doc-tests (\S+))$`)
	cargoFailed  = regexp.MustCompile(`^(?:---- (\S+) stdout ----|test (\S+)(?: - should panic)? \.\.\. FAILED)$`)
	cargoPanicAt = regexp.MustCompile(`^thread '([^']+)'(?: \(\d+\))? panicked at ([^:\s]+):(\d+):\d+:?$`)
)

// cargoParser reads libtest output: one `test result:` line per test binary,
// each after cargo's `Running …` or `Doc-tests …` line naming the binary.
type cargoParser struct {
	unit  string
	fails failSet
	atts  []attempt
	decor map[string]Failure
	msgOf string // the test whose panic message is the next line
}

func (p *cargoParser) name() string { return "cargo" }

func (p *cargoParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.msgOf != "" {
		d := p.decor[p.msgOf]
		d.Message, p.msgOf = t, ""
		p.decor[d.Name] = d
	}
	switch {
	case strings.HasPrefix(t, "Running "), strings.HasPrefix(t, "Doc-tests "):
		if m := cargoUnit.FindStringSubmatch(t); m != nil {
			p.unit = m[1] + m[2]
			return true
		}
	case strings.HasPrefix(t, "test "), strings.HasPrefix(t, "---- "):
		return p.feedTest(l)
	case strings.HasPrefix(t, "thread '"):
		p.feedPanic(t)
	}
	return false
}

func (p *cargoParser) feedTest(l *line) bool {
	if m := cargoResult.FindStringSubmatch(l.trim); m != nil {
		pass, fail, ign := atoi(m[1]), atoi(m[2]), atoi(m[3])
		at := attempt{unit: unitKey("", p.unit), tests: intp(pass + fail + ign), passed: intp(pass),
			failed: intp(fail), skipped: intp(ign), errors: intp(0), omitted: p.fails.omitted}
		for _, f := range p.fails.take() {
			d := p.decor[f.Name]
			f.File, f.Line, f.Message = d.File, d.Line, d.Message
			at.failures = append(at.failures, f)
		}
		p.atts, p.decor = append(p.atts, at), nil
		return true
	}
	if m := cargoFailed.FindStringSubmatch(l.trim); m != nil {
		p.fails.add(Failure{Name: m[1] + m[2], Classname: p.unit, Span: spanOf(l)})
		return true
	}
	return false
}

// feedPanic takes file and line from `thread 'name' panicked at src/x.rs:3:5:`.
func (p *cargoParser) feedPanic(t string) {
	m := cargoPanicAt.FindStringSubmatch(t)
	if m == nil {
		return
	}
	if p.decor == nil {
		p.decor = map[string]Failure{}
	}
	if _, ok := p.decor[m[1]]; !ok {
		p.decor[m[1]] = Failure{Name: m[1], File: m[2], Line: atoi(m[3])}
		p.msgOf = m[1]
	}
}

func (p *cargoParser) end(string) []attempt { return p.atts }
