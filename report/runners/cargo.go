package runners

import (
	"regexp"
	"strings"
)

var (
	cargoResult = regexp.MustCompile(`^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; \d+ measured; \d+ filtered out`)
	cargoUnit   = regexp.MustCompile(`^(?:Running (.+)|Doc-tests (\S+))$`)
	// A doc test is named by its file, item and line: `src/lib.rs - add (line 3)`.
	cargoFailed  = regexp.MustCompile(`^(?:---- (.+?) stdout ----|test (.+?)(?: - should panic)? \.\.\. FAILED)$`)
	cargoDoctest = regexp.MustCompile(`^(\S+\.rs) - .* \(line (\d+)\)(?: - compile(?: fail)?)?$`)
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
	// more: lines still read after a panic's message for assert_eq!'s
	// `left:` and `right:` (of the test named moreOf).
	more    int
	moreOf  string
	section string // the test of the latest `---- name stdout ----` line
}

func (p *cargoParser) name() string { return "cargo" }

func (p *cargoParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.more > 0 {
		p.more--
		if strings.HasPrefix(t, "left:") || strings.HasPrefix(t, "right:") {
			d := p.decor[p.moreOf]
			d.Message += " " + strings.Join(strings.Fields(t), " ")
			p.decor[p.moreOf] = d
		} else {
			p.more = 0
		}
	}
	if p.msgOf != "" {
		d := p.decor[p.msgOf]
		d.Message, p.msgOf = t, ""
		p.decor[d.Name] = d
		p.more, p.moreOf = 2, d.Name
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
		if m[1] != "" {
			p.section = m[1]
		}
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
	f := Failure{Name: m[1], File: m[2], Line: atoi(m[3])}
	// A doc test runs as its own program: its thread is main, its place
	// a file of the compiler's; the place is the example's, in its name.
	if d := cargoDoctest.FindStringSubmatch(p.section); m[1] == "main" && d != nil {
		f = Failure{Name: p.section, File: d[1], Line: atoi(d[2])}
	}
	if _, ok := p.decor[f.Name]; !ok {
		p.decor[f.Name] = f
		p.msgOf = f.Name
	}
}

func (p *cargoParser) end(string) []attempt { return p.atts }

func (p *cargoParser) following() bool { return p.msgOf != "" || p.more > 0 }

// readsRules: a test's captured output may hold `--- ` and `=== ` lines.
func (p *cargoParser) readsRules() bool { return p.msgOf != "" }
