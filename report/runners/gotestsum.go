package runners

import (
	"regexp"
	"strings"
)

var (
	gotestsumDone = regexp.MustCompile(`^DONE (?:(\d+) runs, )?(\d+) tests?(?:, (\d+) skipped)?(?:, (\d+) failures?)?(?:, (\d+) errors?)? in \d`)
	gotestsumFail = regexp.MustCompile(`^=== FAIL: (\S+) (\S*)`)
)

// gotestsumParser reads gotestsum's `DONE 5 tests, 1 skipped, 2 failures in
// 0.3s` and the `=== FAIL: pkg TestName (0.00s)` lines of its summary.
type gotestsumParser struct {
	pkgFails int // `=== FAIL: pkg  (0.00s)`: a package failed, not a test
	fails    failSet
	atts     []attempt
	// msgs chooses the message of the failure whose section is being read
	// (its entry in fails.list, -1 when none) from that section's
	// file:line lines, as go's own parser does: the latest that reads like
	// an assertion, not the first t.Log line.
	msgs goAcc
	at   int
}

func newGotestsumParser() *gotestsumParser { return &gotestsumParser{at: -1} }

func (p *gotestsumParser) name() string { return "gotestsum" }

func (p *gotestsumParser) feed(l *line, ws string) bool {
	t := l.trim
	if strings.HasPrefix(t, "=== FAIL: ") && strings.Contains(t, " (") {
		m := gotestsumFail.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		p.settle()
		f := Failure{Classname: m[1], Name: m[2], Span: spanOf(l)}
		if f.Name == "" || strings.HasPrefix(f.Name, "(") {
			f.Name, f.Message = m[1], "package failed"
			p.pkgFails++
		}
		p.fails.add(f)
		if f.Message == "" {
			p.at = p.fails.find(f.Classname, f.Name)
		}
		return true
	}
	if !strings.HasPrefix(t, "DONE ") {
		p.feedDecor(l)
		return false
	}
	m := gotestsumDone.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	p.settle()
	// gotestsum counts a failed package among its failures but not among
	// its tests; here it is an error.
	n, s, e := atoi(m[2]), atoi(m[3]), atoi(m[5])
	f := max(atoi(m[4])-p.pkgFails, 0)
	om := p.fails.omitted
	p.atts = append(p.atts, attempt{unit: suiteKey(ws, n), tests: intp(n), passed: intp(max(n-s-f, 0)),
		failed: intp(f), skipped: intp(s), errors: intp(max(e, p.pkgFails)), failures: p.fails.take(), omitted: om, at: l.start})
	p.pkgFails = 0
	return true
}

func (p *gotestsumParser) end(string) []attempt { return p.atts }

// wantsDecor reports whether a `file.go:12: message` line would be kept:
// only inside a failed test's section, where gotestsum repeats its output.
func (p *gotestsumParser) wantsDecor() bool { return p.at >= 0 }

// feedDecor keeps an indented `    file_test.go:12: message` line of the
// section being read.
func (p *gotestsumParser) feedDecor(l *line) {
	if p.at < 0 || len(l.textB) == 0 || l.textB[0] != ' ' && l.textB[0] != '\t' {
		return
	}
	p.msgs.note([]byte(p.fails.list[p.at].Name), l.textB)
}

// settle gives the section just read its message, file and line.
func (p *gotestsumParser) settle() {
	if p.at < 0 {
		return
	}
	f := &p.fails.list[p.at]
	p.msgs.flush()
	if d, ok := p.msgs.decor[f.Name]; ok {
		f.File, f.Line, f.Message = d.file, d.line, d.msg
	}
	p.msgs, p.at = goAcc{}, -1
}

// gotestsum wraps go test: its DONE line and its `=== FAIL:` sections.
func init() {
	register(Declaration{Runner: "gotestsum", Parser: &Parser{New: func(bool) parser { return newGotestsumParser() }, Order: 20,
		Starts: []string{"=", "DONE "}, Wraps: "go"}})
}
