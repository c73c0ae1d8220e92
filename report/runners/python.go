package runners

import (
	"regexp"
	"strings"
)

var (
	// pytest pads its final line with "=" (and -q prints it bare).
	pytestLine  = regexp.MustCompile(`^((?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|warnings?|errors?|rerun)(?:, )?)+|no tests ran) in \d+(?:\.\d+)?s\b`)
	pytestItem  = regexp.MustCompile(`(\d+) (\w+)`)
	pytestShort = regexp.MustCompile(`^(FAILED|ERROR) (\S+)(?: - (.*))?$`)
)

// pytestParser reads the final `=== 1 failed, 2 passed in 0.12s ===` line and
// the short summary's `FAILED path::test - message` lines before it.
type pytestParser struct {
	fails failSet
	atts  []attempt
}

func (p *pytestParser) name() string { return "pytest" }

func (p *pytestParser) feed(l *line, ws string) bool {
	t := l.trim
	if !strings.HasPrefix(t, "FAILED ") && !strings.HasPrefix(t, "ERROR ") && !startsDigit(t) && !strings.HasPrefix(t, "=") {
		return false
	}
	if m := pytestShort.FindStringSubmatch(t); m != nil && isNodeID(m[2]) {
		file, _, _ := strings.Cut(m[2], "::")
		p.fails.add(Failure{Name: m[2], File: file, Message: m[3], Span: spanOf(l)})
		return true
	}
	padded := strings.HasPrefix(t, "=") && strings.HasSuffix(t, "=")
	if !padded && !startsDigit(t) {
		return false
	}
	m := pytestLine.FindStringSubmatch(strings.Trim(t, "= "))
	if m == nil {
		return false
	}
	p.atts = append(p.atts, p.count(ws, m[1]))
	return true
}

func (p *pytestParser) count(ws, items string) attempt {
	n := map[string]int{}
	for _, m := range pytestItem.FindAllStringSubmatch(items, -1) {
		n[strings.TrimSuffix(m[2], "s")] += atoi(m[1])
	}
	passed, skipped := n["passed"]+n["xpassed"], n["skipped"]+n["xfailed"]
	total := passed + skipped + n["failed"] + n["error"]
	om := p.fails.omitted
	return attempt{unit: suiteKey(ws, total), tests: intp(total),
		passed: intp(passed), failed: intp(n["failed"]), skipped: intp(skipped),
		errors: intp(n["error"]), failures: p.fails.take(), omitted: om}
}

func (p *pytestParser) end(string) []attempt { return p.atts }

// isNodeID accepts `path.py::test` and, for collection errors, `path.py`.
func isNodeID(s string) bool { return strings.Contains(s, ".py::") || strings.HasSuffix(s, ".py") }

func startsDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }
