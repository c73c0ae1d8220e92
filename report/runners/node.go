package runners

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	tapCount      = regexp.MustCompile(`^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)\s+(\d+)(?:\.\d+)?$`) // tape aligns: `# pass  735`
	tapNotOK      = regexp.MustCompile(`^not ok \d+(?: -)? (.+?)(?: # (.*))?$`)                                             // tape writes no dash
	tapObject     = regexp.MustCompile(`^# \{ total: (\d+)((?:, \w+: \d+)*) \}$`)
	tapObjectItem = regexp.MustCompile(`, (\w+): (\d+)`)
	tapWhere      = regexp.MustCompile(`(?:^|\(|')(?:file://)?(/?[^\s()']+?):(\d+)(?::\d+)?\)?'?$`)
	specCount     = regexp.MustCompile(`^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+)(?:\.\d+)?$`)
	specFail      = regexp.MustCompile(`^✖ (.+?) \(\d+(?:\.\d+)?m?s\)$`)
	specAt        = regexp.MustCompile(`^test at (.+):(\d+):\d+$`)
)

// nodeParser reads the totals `node --test` prints after its tests: `# tests
// N`, `# pass N`, … with the TAP reporter (src "tap", which other TAP
// producers such as tape share) or `ℹ tests N`, … with the spec reporter
// (src "node"). Failing names come from `not ok N - name` or `✖ name (1ms)`.
type nodeParser struct {
	src   string
	open  *attempt // totals being read
	fails failSet
	atts  []attempt
	at    *Failure // a `test at file:line:col` line: the next ✖ line repeats a failure of the closed run
	// msgFor is the spec reporter's latest failing test, whose message
	// the next msgLeft lines may hold.
	msgFor  string
	msgLeft int
	// inErr: reading the block under a TAP diagnostic's `error: |-`;
	// expected and actual are its values, the message when it has no error.
	inErr            bool
	expected, actual string
	inDiff           bool // reading node-tap's `diff: |` block
}

func (p *nodeParser) name() string { return p.src }

func (p *nodeParser) feed(l *line, ws string) bool {
	counts, fail := tapCount, tapNotOK
	if p.src == "node" {
		counts, fail = specCount, specFail
	}
	switch {
	case p.msgLeft > 0 && p.src == "tap" && !strings.HasPrefix(l.trim, "not ok ") && !strings.HasPrefix(l.trim, "ok "):
		p.yaml(l.trim) // changes no count: the line is read on as Verify reads it
	case p.msgLeft > 0 && p.src == "node":
		p.message(l.trim)
	}
	if !strings.HasPrefix(l.trim, "# ") && !strings.HasPrefix(l.trim, "ℹ ") && !strings.HasPrefix(l.trim, "not ok ") &&
		!strings.HasPrefix(l.trim, "✖ ") && !strings.HasPrefix(l.trim, "test at ") {
		return false
	}
	if m := counts.FindStringSubmatch(l.trim); m != nil {
		p.count(ws, m[1], atoi(m[2]))
		return true
	}
	if m := tapObject.FindStringSubmatch(l.trim); m != nil && p.src == "tap" {
		// node-tap's one-line totals: `# { total: 3, pass: 2, fail: 1 }`.
		p.count(ws, "tests", atoi(m[1]))
		for _, kv := range tapObjectItem.FindAllStringSubmatch(m[2], -1) {
			p.count(ws, map[string]string{"pass": "pass", "fail": "fail", "skip": "skipped", "todo": "todo"}[kv[1]], atoi(kv[2]))
		}
		p.close()
		return true
	}
	if m := specAt.FindStringSubmatch(l.trim); m != nil && p.src == "node" {
		p.at = &Failure{File: m[1], Line: atoi(m[2])}
		return true
	}
	m := fail.FindStringSubmatch(l.trim)
	if m == nil || len(m) > 2 && directive(m[2]) {
		return false
	}
	p.addFail(Failure{Name: m[1], Span: spanOf(l)})
	p.msgFor, p.msgLeft, p.inErr, p.inDiff, p.expected, p.actual = m[1], 8, false, false, "", ""
	if p.src == "tap" {
		p.msgLeft = 64 // its YAML diagnostic, to its `...`
	}
	return true
}

// yaml reads a line of the YAML diagnostic under a TAP `not ok` (node
// --test's, tape's, node-tap's): the error's message (`error: |-` and the
// block under it, or `error: 'msg'`), else `expected: …; actual: …` (or
// node-tap's diff), and the place (`location: '/t/a.test.js:9:1'`, `at:
// f (/t/a.js:344:17)`, node-tap's `fileName:` and `lineNumber:`).
func (p *nodeParser) yaml(t string) {
	p.msgLeft--
	f := p.failure(p.msgFor)
	if f == nil || t == "..." {
		p.msgLeft = 0
		if f != nil && f.Message == "" && p.expected+p.actual != "" {
			f.Message = "expected: " + p.expected + "; actual: " + p.actual
		}
		return
	}
	if p.inDiff && (strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") || strings.HasPrefix(t, "@@")) {
		p.diffLine(t) // node-tap's `diff: |`: `-12` wanted, `+12.5` found
		return
	}
	p.inDiff = false
	key, val, keyed := strings.Cut(t, ": ")
	if !keyed && strings.HasSuffix(t, ":") && !strings.Contains(t, " ") {
		key, keyed = strings.TrimSuffix(t, ":"), true
	}
	if p.inErr && (!keyed || strings.Contains(key, " ")) {
		errorLine(f, t)
		return
	}
	p.inErr = false
	p.yamlKey(f, key, val)
}

// errorLine reads a line of the block under `error: |-`: its first line
// is the message and, when that ends with a colon, the next says how.
func errorLine(f *Failure, t string) {
	switch {
	case t == "" || t == "+ actual - expected" || strings.HasPrefix(t, "^"):
	case f.Message == "":
		f.Message = t
	case strings.HasSuffix(f.Message, ":"):
		f.Message += " " + t
	}
}

// yamlKey reads one `key: value` of a TAP diagnostic.
func (p *nodeParser) yamlKey(f *Failure, key, val string) {
	switch key {
	case "error", "message":
		if v := yamlScalar(val); v != "" && v != "|-" && v != "|" && v != ">-" {
			f.Message = v
		} else {
			p.inErr = true
		}
	case "expected", "wanted":
		p.expected = val
	case "actual", "found":
		p.actual = strings.TrimSpace(val)
	case "diff":
		p.inDiff = true
	case "fileName":
		f.File = val
	case "lineNumber":
		f.Line = atoi(val)
	case "location", "at":
		if m := tapWhere.FindStringSubmatch(val); m != nil && f.Line == 0 {
			f.File, f.Line = m[1], atoi(m[2])
		}
	}
}

// yamlScalar is the text of a one-line YAML scalar: a quoted one loses
// its one pair of quotes and its escapes (two single quotes for one in single quotes; `\"`,
// `\\`, `\n` in double quotes), so that node's `error: "'a' == 'b'"`
// keeps the single quotes of its message.
func yamlScalar(v string) string {
	if len(v) < 2 || v[0] != v[len(v)-1] {
		return strings.Trim(v, `'"`)
	}
	switch v[0] {
	case '\'':
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	case '"':
		if u, err := strconv.Unquote(v); err == nil {
			return u
		}
		return v[1 : len(v)-1]
	}
	return v
}

// diffLine reads a line of node-tap's diff: its first removed and added
// lines are what was wanted and what was found.
func (p *nodeParser) diffLine(t string) {
	switch {
	case strings.HasPrefix(t, "---") || strings.HasPrefix(t, "+++") || strings.HasPrefix(t, "@@"):
	case t[0] == '-' && p.expected == "":
		p.expected = t[1:]
	case t[0] == '+' && p.actual == "":
		p.actual = t[1:]
	}
}

// message reads a line under the spec reporter's `✖ name (1ms)`: the
// error thrown (`AssertionError [ERR_ASSERTION]: Expected values to be
// strictly equal:`) and, when it ends with a colon, the first line that
// says how (`2 !== 3`, `+ 'a-tale of two'`), past the diff's legend.
func (p *nodeParser) message(t string) {
	p.msgLeft--
	switch {
	case t == "" || t == "+ actual - expected" || t == "^":
		return
	case strings.HasPrefix(t, "at ") || strings.HasPrefix(t, "ℹ ") || strings.HasPrefix(t, "✖ ") ||
		strings.HasPrefix(t, "✔ ") || strings.HasPrefix(t, "▶ ") || strings.HasPrefix(t, "test at "):
		p.msgLeft = 0
		return
	}
	f := p.failure(p.msgFor)
	switch {
	case f == nil:
		p.msgLeft = 0
	case f.Message == "":
		f.Message = t
	case strings.HasSuffix(f.Message, ":"):
		f.Message += " " + t
	default:
		p.msgLeft = 0 // the repeat after the totals: read already
	}
	if f != nil && !strings.HasSuffix(f.Message, ":") {
		p.msgLeft = 0
	}
}

// failure finds the latest failure of that name, gathered or filed.
func (p *nodeParser) failure(name string) *Failure {
	for i := len(p.fails.list) - 1; i >= 0; i-- {
		if p.fails.list[i].Name == name {
			return &p.fails.list[i]
		}
	}
	if n := len(p.atts); n > 0 {
		fs := p.atts[n-1].failures
		for i := len(fs) - 1; i >= 0; i-- {
			if fs[i].Name == name {
				return &fs[i]
			}
		}
	}
	return nil
}

// addFail files a failing test under the run it belongs to. The spec reporter
// repeats a run's failures after its totals, each under `test at …`.
func (p *nodeParser) addFail(f Failure) {
	if p.at == nil || p.open != nil || len(p.atts) == 0 {
		p.at = nil
		p.fails.add(f)
		return
	}
	f.File, f.Line, p.at = p.at.File, p.at.Line, nil
	last := &p.atts[len(p.atts)-1]
	for i := range last.failures {
		if last.failures[i].Name == f.Name {
			last.failures[i].File, last.failures[i].Line = f.File, f.Line
			return
		}
	}
	last.failures = append(last.failures, f)
}

// directive tells TAP's `# SKIP` and `# TODO`, which are not failures.
func directive(d string) bool {
	d = strings.ToUpper(d)
	return strings.HasPrefix(d, "SKIP") || strings.HasPrefix(d, "TODO")
}

func (p *nodeParser) count(ws, key string, n int) {
	if key == "tests" {
		p.close()
		om := p.fails.omitted
		p.open = &attempt{unit: suiteKey(ws, n), tests: intp(n), passed: intp(0), failed: intp(0),
			skipped: intp(0), errors: intp(0), failures: p.fails.take(), omitted: om}
		return
	}
	if p.open == nil {
		return
	}
	switch key {
	case "pass":
		*p.open.passed = n
	case "fail":
		*p.open.failed = n
	case "cancelled":
		*p.open.errors = n
	case "skipped", "todo":
		*p.open.skipped += n
	case "duration_ms":
		p.close()
	}
}

func (p *nodeParser) close() {
	if p.open != nil {
		p.open.omitted += p.fails.omitted
		p.open.failures = append(p.open.failures, p.fails.take()...)
		p.atts = append(p.atts, *p.open)
		p.open = nil
	}
}

func (p *nodeParser) end(string) []attempt {
	p.close()
	return p.atts
}

// tap is node --test's TAP reporter and the TAP producers that share it
// (tape); node's spec reporter registers in declare_node.go.
func init() {
	register(Declaration{Runner: "tap", Parser: &Parser{New: func(bool) parser { return &nodeParser{src: "tap"} }, Order: 50,
		Starts: []string{"# ", "not ok ", "ok"}}})
}

func (p *nodeParser) following() bool { return p.msgLeft > 0 }
