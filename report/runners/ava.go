package runners

import (
	"fmt"
	"regexp"
	"strings"
)

// ava's default reporter prints a line per test (`✔ title`, `✘ [fail]:
// title message`, `- [skip] title`), a rule (`─`), each failure's details
// under its title (its `test.js:12` place, the assertion or the error),
// another rule and its totals, one per line: `4 tests failed`, `1 known
// failure`, `2 tests skipped`, `1 test todo`, or `10 tests passed` when
// none failed.
//
// The ✔ lines are not read: node's spec reporter prints the same mark for
// each of its passes, and ava's totals say how many passed only when none
// failed, so `passed` is known then alone. What counts: the ✘ and ✖ lines
// (✖ is node's and tap's mark too: in their logs these lines are cited,
// and make no ava run without ava's totals), the rules, the title under a
// rule that matches the next failure (its name without the message ava
// appends to its ✘ line) and the totals right under a rule. Whether a line
// counts depends only on it and the lines counted before it, so a re-read
// of the cited lines decides the same; the lines under a rule are read
// whatever they start with (following), in the re-read too.
type avaParser struct {
	raw      []string // the ✘ lines' titles and messages, in order
	fails    []Failure
	titled   int  // failures whose details title was read
	ruled    bool // a rule came after the latest ✘ or total line
	left     int  // lines still read after a rule (its details or totals)
	n        map[string]int
	read     bool // a total was read
	atts     []attempt
	msgOf    int // the failure whose details are being read, -1 when none
	msgParts []string
	at       frame
}

var (
	avaTotal = regexp.MustCompile(`^(\d+) (tests? failed|tests? passed|known failures?|tests? skipped|tests? todo|uncaught exceptions?|unhandled rejections?)$`)
	// ava 6's `✘ [fail]: title message`, ava 4's and 5's `✖ title message`.
	avaFail  = regexp.MustCompile(`^(?:✘ \[(?:fail|unexpected pass)\]: |✖ )(.+)$`)
	avaPlace = regexp.MustCompile(`^(\S+\.[cm]?[jt]sx?):(\d+)$`)
)

// avaDetails bounds the lines read under a rule: a run's details, or the
// totals right under its last rule.
const avaDetails = 2000

func newAvaParser() *avaParser { return &avaParser{msgOf: -1} }

func (p *avaParser) name() string { return "ava" }

// following: the lines under a rule are read whatever they start with.
func (p *avaParser) following() bool { return p.ruled && p.left > 0 }

func (p *avaParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.left > 0 {
		p.left--
	}
	switch {
	case strings.HasPrefix(t, "✘ [") || strings.HasPrefix(t, "✖ "):
		m := avaFail.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		p.closeIfRead(ws)
		p.raw = append(p.raw, m[1])
		p.ruled, p.left = false, 0
		return true
	case t == "─":
		p.closeIfRead(ws)
		p.settle()
		p.ruled, p.left = true, avaDetails
		return true
	case !p.ruled || p.left == 0:
		return false
	}
	if p.total(t) {
		return true
	}
	if p.read { // ava prints its totals together: the run ends at the first other line
		p.closeIfRead(ws)
		return false
	}
	if p.titled < len(p.raw) && (t == p.raw[p.titled] || strings.HasPrefix(p.raw[p.titled], t+" ")) {
		p.settle()
		p.fails = append(p.fails, Failure{Name: t, Span: spanOf(l)})
		p.msgOf, p.msgParts, p.at = len(p.fails)-1, nil, frame{}
		p.titled++
		return true
	}
	p.details(t)
	return false
}

// total reads a total line.
func (p *avaParser) total(t string) bool {
	m := avaTotal.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	p.settle()
	if p.n == nil {
		p.n = map[string]int{}
	}
	p.n[avaKind(m[2])] += atoi(m[1])
	p.read = true
	return true
}

// details reads a failure's lines under its title for its place (its
// `test.js:12` line, else its stack) and message (the first lines that
// say what failed, up to the code or a blank after them).
func (p *avaParser) details(t string) {
	if p.msgOf < 0 {
		return
	}
	if m := avaPlace.FindStringSubmatch(t); m != nil && p.at.file == "" {
		p.at.offer(m[1], m[2], true)
		return
	}
	if strings.HasPrefix(t, "› ") {
		p.at.jsLine("at " + strings.TrimPrefix(t, "› "))
		return
	}
	p.at.jsLine(t)
	if len(p.msgParts) >= 4 || t == "" || strings.HasPrefix(t, "at ") || avaCode(t) {
		return
	}
	p.msgParts = append(p.msgParts, strings.Join(strings.Fields(t), " "))
}

// avaKind names what a total counts: `tests failed` failed, `known
// failures` known, `unhandled rejections` unhandled.
func avaKind(what string) string {
	f := strings.Fields(what)
	if f[0] == "test" || f[0] == "tests" {
		return f[1]
	}
	return f[0]
}

// avaCode: a line of the code excerpt ava quotes, `  12: t.is(a, b)`.
func avaCode(t string) bool {
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && (t[i:] == ":" || strings.HasPrefix(t[i:], ": "))
}

// settle ends the details being read: the failure gets its message and
// place.
func (p *avaParser) settle() {
	if p.msgOf < 0 {
		return
	}
	f := &p.fails[p.msgOf]
	if len(p.msgParts) > 0 {
		f.Message = clipMessage(strings.Join(p.msgParts, " "))
	}
	f.File, f.Line = p.at.place()
	p.msgOf, p.msgParts = -1, nil
}

// closeIfRead ends the run whose totals were read.
func (p *avaParser) closeIfRead(ws string) {
	if !p.read {
		return
	}
	p.settle()
	n := p.n
	failed, skipped, errors := n["failed"], n["skipped"]+n["todo"]+n["known"], n["uncaught"]+n["unhandled"]
	// Runs with the same totals are a retry; others are summed, as
	// suiteKey does for runners that print their size.
	unit := unitKey(ws, fmt.Sprintf("ava:%d/%d/%d/%d", n["passed"], failed, skipped, errors))
	at := attempt{unit: unit, failed: intp(failed), skipped: intp(skipped), errors: intp(errors),
		failures: p.fails, note: "ava prints how many passed only when none failed"}
	if passed, ok := n["passed"]; ok || failed == 0 {
		at.passed, at.tests, at.note = intp(passed), intp(passed+failed+skipped), ""
	}
	p.atts = append(p.atts, at)
	*p = avaParser{msgOf: -1, atts: p.atts}
}

func (p *avaParser) end(ws string) []attempt {
	p.closeIfRead(ws)
	return p.atts
}

func init() {
	register(Declaration{Runner: "ava", Parser: &Parser{New: func(bool) parser { return newAvaParser() }, Order: 100,
		Starts: []string{"✘ [", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}, Lines: []string{"─"}}})
}
