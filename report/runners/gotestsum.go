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
}

func (p *gotestsumParser) name() string { return "gotestsum" }

func (p *gotestsumParser) feed(l *line, ws string) bool {
	t := l.trim
	if strings.HasPrefix(t, "=== FAIL: ") && strings.Contains(t, " (") {
		m := gotestsumFail.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		f := Failure{Classname: m[1], Name: m[2], Span: spanOf(l)}
		if f.Name == "" || strings.HasPrefix(f.Name, "(") {
			f.Name, f.Message = m[1], "package failed"
			p.pkgFails++
		}
		p.fails.add(f)
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
// only the latest failure's first one is.
func (p *gotestsumParser) wantsDecor() bool {
	n := len(p.fails.list)
	return n > 0 && p.fails.list[n-1].File == ""
}

// feedDecor attaches `    file_test.go:12: message` to the latest failure.
func (p *gotestsumParser) feedDecor(l *line) {
	if !p.wantsDecor() || !strings.Contains(l.text, ".go:") {
		return
	}
	if file, ln, msg, ok := parseGoFileLine(l.text); ok {
		p.fails.decorate(file, ln, msg)
	}
}
