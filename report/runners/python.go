package runners

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

var (
	// pytest pads its final line with "=" (and -q prints it bare).
	pytestLine  = regexp.MustCompile(`^((?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|warnings?|errors?|rerun)(?:, )?)+|no tests ran) in \d+(?:\.\d+)?s\b`)
	pytestItem  = regexp.MustCompile(`(\d+) (\w+)`)
	pytestShort = regexp.MustCompile(`^(FAILED|ERROR) (\S+)(?: - (.*))?$`)
	// pytestWhere: a traceback entry's location, `tests/test_x.py:197:
	// AssertionError`, `tests/test_x.py:5:` (an entry that called on), or
	// with --tb=short `tests/test_x.py:5: in test_foo`.
	pytestWhere = regexp.MustCompile(`^([\w./-]+\.py):(\d+):(?: |$)`)
	// pytestNative: --tb=native's frame, `File "/abs/test_x.py", line 8, in test_y`.
	pytestNative = regexp.MustCompile(`^File "([^"]+\.py)", line (\d+), in `)
	// pytestCrash: xdist's section for a test whose worker died.
	pytestCrash = regexp.MustCompile(`^worker '\w+' crashed while running '(\S+\.py::.+)'$`)
)

// pyPlace is where a pytest section's first traceback entry stands: the
// test function's own line, since pytest hides its own frames.
type pyPlace struct {
	file string
	line int
}

// seekLines bounds how far under a `____ name ____` heading the parser
// looks for its first location line, so that another program's
// underlined heading does not send every later line through it.
const seekLines = 400

// pytestParser reads the final `=== 1 failed, 2 passed in 0.12s ===` line and
// the short summary's `FAILED path::test - message` lines before it.
type pytestParser struct {
	fails   failSet
	atts    []attempt
	section string             // the test of the latest `____ test ____` heading
	firstE  map[string]string  // its first `E   ` line, by test
	doc     string             // in a doctest's section: "Expected:" or "Got:", the label of the next line
	docMsg  string             // that doctest's `Expected: x Got: y` so far
	places  map[string]pyPlace // the first location line under each heading, by test
	seek    int                // lines left to look for the current section's place
	tbLeft  int                // lines left to look for a --tb=native traceback's exception line
	// passes are the tests -v names passed or skipped, for the test
	// index; rerun the tests pytest-rerunfailures ran again, and flaky
	// those of them that then passed.
	passes   passList
	kept     int
	rerun    map[string]bool
	flaky    []TestRef
	verifier bool // re-reads a scan's lines: names no passes
}

// seeking: the parser reads every line of a failure's section until its
// first location line, which no start of a line announces.
func (p *pytestParser) seeking() bool { return p.seek > 0 }

// inNative: the parser reads a --tb=native traceback up to its exception
// line, the first unindented one, which no start of a line announces.
func (p *pytestParser) inNative() bool { return p.tbLeft > 0 }

// inDoctest: the parser reads the lines of a doctest's Expected:/Got:
// block, which no start of a line announces.
func (p *pytestParser) inDoctest() bool { return p.doc != "" || p.docMsg != "" }

// maxSections bounds pytestParser.firstE.
const maxSections = 1000

func (p *pytestParser) name() string { return "pytest" }

func (p *pytestParser) feed(l *line, ws string) bool {
	t := l.trim
	p.assertion(t, l.text != "" && (l.text[0] == ' ' || l.text[0] == '\t')) // changes no count: the line is read on as Verify reads it
	if t != "" && (t[0] == '[' || strings.HasSuffix(t, "%]")) {
		return p.verbose(l.trimB)
	}
	if !strings.HasPrefix(t, "FAILED ") && !strings.HasPrefix(t, "ERROR ") && !startsDigit(t) && !strings.HasPrefix(t, "=") {
		return false
	}
	if m := pytestShort.FindStringSubmatch(t); m != nil && isNodeID(m[2]) {
		file, test, _ := strings.Cut(m[2], "::")
		msg := m[3]
		if e := p.firstE[strings.ReplaceAll(test, "::", ".")]; e != "" && (msg == "" || strings.HasSuffix(msg, "...")) {
			msg = e // the short summary cuts its message to the terminal's width
		}
		f := Failure{Name: m[2], File: file, Message: msg, Span: spanOf(l)}
		// --tb=native's frames name the file by its absolute path
		if pl, ok := p.places[strings.ReplaceAll(test, "::", ".")]; ok && (pl.file == file || strings.HasSuffix(pl.file, "/"+file)) {
			f.Line = pl.line // not a fixture's or a helper's file: the test's own line
		}
		p.fails.add(f)
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

// verbose reads -v's line of one test's verdict. A passed or skipped
// test goes to the index and counts nothing; a RERUN line counts, and so
// does the PASSED line of a test an earlier counted RERUN line named: that
// test is flaky, which the verifier's re-read of both lines reproduces.
func (p *pytestParser) verbose(t []byte) bool {
	id, verdict, ok := splitVerbose(t)
	if !ok {
		return false
	}
	switch verdict {
	case "RERUN":
		if p.rerun == nil {
			p.rerun = map[string]bool{}
		}
		if len(p.rerun) < maxSections {
			p.rerun[string(id)] = true
		}
		return true
	case "PASSED", "XPASS", "SKIPPED", "XFAIL":
		if verdict == "PASSED" && p.rerun[string(id)] {
			delete(p.rerun, string(id))
			p.flaky = append(p.flaky, TestRef{Name: string(id)})
			return true
		}
		p.keep(id, verdict == "SKIPPED" || verdict == "XFAIL")
	}
	return false
}

// splitVerbose reads -v's `path.py::test PASSED   [ 40%]` and xdist -v's
// `[gw0] [ 40%] PASSED path.py::test` by hand, on bytes: a -v log is
// mostly such lines, and a regexp with submatches cost 7µs a line.
func splitVerbose(t []byte) (id []byte, verdict string, ok bool) {
	if hasPrefix(t, "[gw") {
		_, rest, found := bytes.Cut(t, []byte("%] "))
		w, id, _ := bytes.Cut(rest, []byte(" "))
		id = bytes.TrimSpace(id)
		verdict = pyVerdict(w)
		return id, verdict, found && verdict != "" && bytes.Contains(id, []byte(".py::"))
	}
	k := bytes.Index(t, []byte(".py::"))
	if k < 0 || !bytes.HasSuffix(t, []byte("%]")) {
		return nil, "", false
	}
	// The id may hold blanks (a parameter's); the verdict is the first word after it that is one.
	for j := k + 5; ; j++ {
		sp := bytes.IndexByte(t[j:], ' ')
		if sp < 0 {
			return nil, "", false
		}
		j += sp
		w := t[j+1:]
		if end := bytes.IndexByte(w, ' '); end >= 0 {
			w = w[:end]
		}
		if v := pyVerdict(w); v != "" {
			return t[:j], v, true
		}
	}
}

// pyVerdict is w if it is a pytest verdict word, else "".
func pyVerdict(w []byte) string {
	for _, v := range [...]string{"PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS", "RERUN"} {
		if string(w) == v {
			return v
		}
	}
	return ""
}

// keep names a passing or skipped test for the index while maxIndexed lasts.
func (p *pytestParser) keep(id []byte, skip bool) {
	if p.verifier || p.kept >= maxIndexed {
		return
	}
	p.kept++
	p.passes.add(id, skip)
}

// assertion follows the failure sections: a `____ test ____` heading and
// the first `E   ` line under it, the assertion the short summary line
// may have cut. It changes no count, only messages.
func (p *pytestParser) assertion(t string, indented bool) {
	if strings.HasPrefix(t, "___") && strings.HasSuffix(t, "___") {
		// a doctest's section is `[doctest] pkg.mod.func`, its test `path.py::pkg.mod.func`
		p.section, p.doc, p.docMsg = strings.TrimPrefix(strings.Trim(t, "_ "), "[doctest] "), "", ""
		p.seek, p.tbLeft = 0, 0
		if p.section != "" {
			p.seek = seekLines
		}
		return
	}
	if p.tbLeft > 0 {
		p.tbLeft--
		if !indented && t != "" {
			p.note(t) // --tb=native: `AssertionError: assert 'A' == ('A',)`, where -v would print an E line
			p.tbLeft = 0
		}
	}
	if p.seek > 0 {
		p.seek--
		p.place(t)
	}
	switch {
	case strings.HasPrefix(t, "E ") && p.section != "":
		p.note(strings.TrimSpace(t[1:]))
	case t == PyTracebackStart && p.section != "" && !indented:
		p.tbLeft = seekLines
	case strings.HasPrefix(t, "[XPASS(strict)]") && p.section != "":
		p.note(strings.TrimSpace(t)) // a strict xfail that passed has nothing else to say
	case strings.HasPrefix(t, "worker '"):
		// xdist names the crashed test in a section headed by its file
		if m := pytestCrash.FindStringSubmatch(t); m != nil {
			_, test, _ := strings.Cut(m[1], "::")
			p.section = strings.ReplaceAll(test, "::", ".")
			p.note(t)
		}
	case p.section != "" && (t == "Expected:" || t == "Got:"):
		p.doc = t // a doctest's failure: the lines under these two say it
	case p.doc != "" && t != "":
		p.docMsg = strings.TrimSpace(p.docMsg + " " + p.doc + " " + t)
		if p.doc == "Got:" {
			p.note(p.docMsg)
			p.docMsg = ""
		}
		p.doc = ""
	}
}

// place keeps the first location line of the current section.
func (p *pytestParser) place(t string) {
	m := pytestWhere.FindStringSubmatch(t)
	if m == nil && strings.HasPrefix(t, "File \"") {
		m = pytestNative.FindStringSubmatch(t)
	}
	if m == nil {
		return
	}
	p.seek = 0
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return
	}
	if p.places == nil {
		p.places = map[string]pyPlace{}
	}
	if _, ok := p.places[p.section]; !ok && len(p.places) < maxSections {
		p.places[p.section] = pyPlace{file: m[1], line: n}
	}
}

// note keeps msg as the message of the current section's test, if it has none.
func (p *pytestParser) note(msg string) {
	if p.firstE == nil {
		p.firstE = map[string]string{}
	}
	if _, ok := p.firstE[p.section]; !ok && len(p.firstE) < maxSections {
		p.firstE[p.section] = msg
	}
}

func (p *pytestParser) count(ws, items string) attempt {
	n := map[string]int{}
	for _, m := range pytestItem.FindAllStringSubmatch(items, -1) {
		n[strings.TrimSuffix(m[2], "s")] += atoi(m[1])
	}
	passed, skipped := n["passed"]+n["xpassed"], n["skipped"]+n["xfailed"]
	total := passed + skipped + n["failed"] + n["error"]
	om := p.fails.omitted
	passes, flaky := p.passes, p.flaky
	p.section, p.firstE, p.doc, p.docMsg, p.places, p.seek, p.tbLeft = "", nil, "", "", nil, 0, 0
	p.passes, p.rerun, p.flaky = passList{}, nil, nil
	return attempt{unit: suiteKey(ws, total), tests: intp(total),
		passed: intp(passed), failed: intp(n["failed"]), skipped: intp(skipped),
		errors: intp(n["error"]), failures: p.fails.take(), omitted: om, passes: passes, flaky: flaky}
}

func (p *pytestParser) end(string) []attempt { return p.atts }

// isNodeID accepts `path.py::test` and, for collection errors, `path.py`.
func isNodeID(s string) bool { return strings.Contains(s, ".py::") || strings.HasSuffix(s, ".py") }

func startsDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

func (p *pytestParser) following() bool { return p.inDoctest() || p.seeking() || p.inNative() }
