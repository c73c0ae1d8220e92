package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// Catch2's console reporter (v2, and v3's, which prints the same lines)
// prints nothing of a test case that passes, unless run with -s. Anything
// it does print (a failed assertion, a warning, with -s every assertion)
// comes first under the run's banner ("~~~~" and "tests is a Catch
// v2.13.10 host application."), then under a header naming the test case:
//
//	-------------------------------------------------------------------------------
//	divides
//	  by zero
//	-------------------------------------------------------------------------------
//	test_calc.cpp:14
//	...............................................................................
//
//	test_calc.cpp:17: FAILED:
//	  CHECK( Div(1, 0) == 0 )
//	due to unexpected exception with message:
//	  division by zero
//
// The header is a rule, the test case's name, its section path (each
// section indented two blanks), a rule; names are wrapped at 80 columns.
// The run ends with a rule of '=' and its totals: "test cases: 4 | 1 passed
// | 3 failed" over "assertions: 8 | 5 passed | 3 failed", or "All tests
// passed (12 assertions in 5 test cases)". A test case that crashes
// ("due to a fatal error condition: SIGSEGV - Segmentation violation
// signal") ends the run there, with its totals.
//
// The parser is hand-written, not declared: the name of a failing test
// case is printed before the line that says it failed, over several lines
// (wrapped, with its sections), and with -s the same header stands over
// passing assertions; a declaration names a failure from one line.
//
// Every line of a header counts (its two rules, the name, the sections),
// and the `file:12: FAILED:` lines under it, so a re-read of the counted
// lines sees the same headers; the assertion and what it expanded to are
// the failure's message, read from lines that count nothing. Under ctest
// -V every line carries the test's number ("1: "), which is dropped.
type catch2Parser struct {
	atts   []attempt
	fails  failSet
	begun  bool  // the banner was read ...
	at     int64 // ... on this line
	prefix string
	binary string
	// hdr: 0 no header, 1 its first rule read, 2 its name read.
	hdr      int
	hdrLines []string
	hdrSpan  *Span
	cur      string   // the test case the last header named ...
	curSec   []string // ... and its sections
	headed   []string // the test cases headed in this run, in order, once each
	headedOK map[string]bool
	failed   map[string]bool
	cases    bool // a "test cases:" total was read: its "assertions:" line may follow
	msg      catch2Message
	msgLeft  int
	verifier bool
	// ctestNo: the number of the failing ctest test whose output follows
	// (--output-on-failure prints it under the test's status line).
	ctestNo string
}

var (
	// catch2Banner: "tests is a Catch v2.13.10 host application." (v3:
	// "Catch2 v3.4.0").
	catch2Banner = regexp.MustCompile(`^(\S+) is a Catch2? v\d+\.\d+\.\d+ host application\.$`)
	// catch2Failed: "test_calc.cpp:17: FAILED:", MSVC's "calc.cpp(17): FAILED:".
	catch2Failed = regexp.MustCompile(`^(\S.*?)(?::(\d+)|\((\d+)\)): FAILED:$`)
	catch2Cases  = regexp.MustCompile(`^test cases: (?:(\d+)|- none -)((?: \| \d+ (?:passed|failed|failed as expected|skipped))*)$`)
	catch2Assert = regexp.MustCompile(`^assertions: (?:\d+|- none -)(?: \| \d+ (?:passed|failed|failed as expected|skipped))*$`)
	catch2All    = regexp.MustCompile(`^All tests passed \((\d+) assertions? in (\d+) test cases?\)$`)
	// ctestFailedNo: the number of a test's status line; one that
	// ctestFailed matches (a failing test's, which ctest
	// --output-on-failure prints over its output) counts, as it does for
	// ctest's own summary.
	ctestFailedNo = regexp.MustCompile(`^\d+/\d+ +Test +#(\d+): `)
)

// catch2Width is the console width Catch2 wraps names at.
const catch2Width = 80

func (p *catch2Parser) name() string { return "catch2" }

// following reports that the parser must see the next line: a header or
// a failure's message is being read, or a total's second line may follow.
func (p *catch2Parser) following() bool { return p.hdr > 0 || p.msgLeft > 0 || p.cases }

// catch2Wants reports a line, blanks trimmed and not empty, that
// Catch2's parser may act on when it follows nothing, beyond the
// digit-led and "test " lines: a banner, a rule, a FAILED line or "All
// tests passed (…)". It is asked of the lines ending in ".:-)]" only.
func catch2Wants(t []byte) bool {
	switch t[len(t)-1] {
	case '.':
		return hasSuffixB(t, " host application.")
	case ':':
		return hasSuffixB(t, ": FAILED:")
	case '-':
		return t[0] == '-' && len(t) >= 40
	case ')':
		return t[0] == 'A' && hasPrefix(t, "All tests passed (")
	case ']': // pytest -v's lines end so too: "[ 50%]"
		return t[0] == '*'
	}
	return false
}

// ctestStatus matches a failing test's status line (ctestFailed's), its
// number in m[1]; only a line with "***" is tried.
func ctestStatus(t string) []string {
	if !strings.Contains(t, "***") || !ctestFailed.MatchString(t) {
		return nil
	}
	return ctestFailedNo.FindStringSubmatch(t)
}

// ctestNumber is the length of the test number ctest -V puts before each
// line of a test's output ("12: "), 0 when t does not start with one.
func ctestNumber(t string) int {
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 || i+2 > len(t) || t[i] != ':' || t[i+1] != ' ' {
		return 0
	}
	return i + 2
}

func hasSuffixB(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}

func (p *catch2Parser) feed(l *line, ws string) bool {
	text, t, pre := l.text, l.trim, ""
	if p.prefix != "" && strings.HasPrefix(text, p.prefix) {
		text, pre = text[len(p.prefix):], p.prefix
		t = strings.TrimSpace(text)
	} else if startsDigit(t) {
		if n := ctestNumber(t); n > 0 {
			text, pre = t[n:], t[:n]
			t = strings.TrimSpace(text)
		} else if m := ctestStatus(t); m != nil {
			// A program's output under ctest comes after its status line
			// (--output-on-failure) or before it (-V): a run still open
			// here is one that ended without its totals (it crashed, or
			// was killed), whose failures are no later run's.
			p.fails.take()
			p.begun, p.cur, p.ctestNo, p.msgLeft = false, "", "#"+m[1], 0
			return true
		}
	}
	if p.hdr > 0 {
		return p.header(l, text, t)
	}
	if p.cases {
		p.cases = false
		if catch2Assert.MatchString(t) {
			return true
		}
	}
	if p.msgLeft > 0 {
		p.readMessage(text, t)
	}
	if p.begun && l.num > p.at+maxRunLines {
		p.begun = false
		p.fails.take()
	}
	switch {
	case t == "":
		return false
	case catch2Rule(t, '-'):
		if !p.begun {
			return false
		}
		p.hdr, p.hdrLines, p.hdrSpan, p.msgLeft = 1, p.hdrLines[:0], spanOf(l), 0
		return true
	case strings.HasSuffix(t, " host application."):
		m := catch2Banner.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		p.fails.take() // a run that printed no total named them
		p.begun, p.at, p.binary, p.cur, p.msgLeft = true, l.num, m[1], "", 0
		p.headed, p.headedOK, p.failed = nil, nil, nil
		p.prefix = ""
		if i := strings.Index(l.text, m[0]); i > 0 && ctestNumber(l.text[:i]) == i {
			p.prefix = l.text[:i]
		}
		return true
	case strings.HasSuffix(t, ": FAILED:"):
		m := catch2Failed.FindStringSubmatch(t)
		if m == nil || !p.begun || p.cur == "" {
			return false
		}
		p.failure(l, m)
		return true
	}
	if m := catch2Cases.FindStringSubmatch(t); m != nil {
		p.total(ws+pre, l, m)
		p.cases = true
		return true
	}
	if m := catch2All.FindStringSubmatch(t); m != nil {
		n := atoi(m[2])
		p.close(ws+pre, l, n, n, 0, 0)
		return true
	}
	return false
}

// catch2Rule reports a rule of c (79 of them at Catch2's width; any
// width it may be built with from 40 on).
func catch2Rule(t string, c byte) bool {
	if len(t) < 40 {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != c {
			return false
		}
	}
	return true
}

// header reads a header's lines, every one of which counts: the name and
// sections up to the second rule.
func (p *catch2Parser) header(l *line, text, t string) bool {
	p.hdrSpan.End, p.hdrSpan.LastLine = l.end, l.num
	if catch2Rule(t, '-') {
		if p.hdr == 1 { // two rules: a "Group:" header's, or no name
			return true
		}
		p.hdr = 0
		p.cur, p.curSec = Catch2Name(p.hdrLines)
		if !p.headedOK[p.cur] {
			if p.headedOK == nil {
				p.headedOK = map[string]bool{}
			}
			p.headedOK[p.cur] = true
			if len(p.headed) < maxIndexed {
				p.headed = append(p.headed, p.cur)
			}
		}
		return true
	}
	if t == "" || len(p.hdrLines) >= 32 || catch2Rule(t, '.') {
		// Not a test case's header after all (a "Group:" header is
		// closed by a rule of dots).
		p.hdr, p.cur = 0, ""
		return true
	}
	p.hdr = 2
	p.hdrLines = append(p.hdrLines, strings.TrimRight(text, " \t"))
	return true
}

// Catch2Name reads a header's lines (between its rules, indentation kept)
// as the test case's name and its section path, joining the lines Catch2
// wrapped at 80 columns. Catch2 indents a section two blanks (BDD's
// "Given:" more) and a wrapped line past its item's first ": ", else as
// much as the item's first line; a line so indented is taken for a
// wrapped one when the line before it could not have held its first word.
func Catch2Name(lines []string) (name string, sections []string) {
	if len(lines) == 0 {
		return "", nil
	}
	items := []string{strings.TrimSpace(lines[0])}
	cont := catch2Cont(lines[0])
	for i := 1; i < len(lines); i++ {
		ln := lines[i]
		indent := len(ln) - len(strings.TrimLeft(ln, " "))
		t := strings.TrimSpace(ln)
		word, _, _ := strings.Cut(t, " ")
		wrapped := len(lines[i-1])+1+len(word) >= catch2Width
		if indent >= 2 && (indent != cont || !wrapped) {
			items, cont = append(items, t), catch2Cont(ln)
			continue
		}
		items[len(items)-1] += " " + t
	}
	return items[0], items[1:]
}

// catch2Cont is how far Catch2 indents the wrapped lines of an item whose
// first line is ln: past its first ": ", else as far as ln.
func catch2Cont(ln string) int {
	if i := strings.Index(ln, ": "); i >= 0 {
		return i + 2
	}
	return len(ln) - len(strings.TrimLeft(ln, " "))
}

// failure names the test case the latest header named as failing, at the
// FAILED line's place, and starts reading its assertion.
func (p *catch2Parser) failure(l *line, m []string) {
	f := Failure{Name: p.cur, File: m[1], Span: spanOf(l)}
	f.Line, _ = strconv.Atoi(m[2] + m[3])
	if p.failed == nil {
		p.failed = map[string]bool{}
	}
	p.failed[p.cur] = true
	n := len(p.fails.list)
	p.fails.add(f)
	p.msgLeft = 0
	if len(p.fails.list) > n {
		p.msg = catch2Message{sections: p.curSec}
		p.msgLeft = maxMessageLines
	}
}

// readMessage reads a line under a FAILED line: it changes no count.
func (p *catch2Parser) readMessage(text, t string) {
	p.msgLeft--
	if !p.msg.line(text, t) {
		p.msgLeft = 0
	}
	if n := len(p.fails.list); n > 0 {
		p.fails.list[n-1].Message = p.msg.message()
	}
}

// catch2Message is the assertion under a FAILED line and what Catch2 says
// of it, up to the blank line that ends it: "REQUIRE( Sum(v) == 6 ) with
// expansion: 5 == 6", "CHECK( Div(1, 0) == 0 ) due to unexpected exception
// with message: division by zero", after the section path ("by zero: …").
type catch2Message struct {
	sections []string
	parts    []string
}

// line reads one line; false: the message is complete.
func (r *catch2Message) line(text, t string) bool {
	if t == "" {
		return len(r.parts) == 0
	}
	if len(r.parts) >= 12 {
		return false
	}
	r.parts = append(r.parts, strings.Join(strings.Fields(t), " "))
	return true
}

func (r *catch2Message) message() string {
	m := strings.Join(r.parts, " ")
	if len(r.sections) > 0 {
		m = strings.Join(r.sections, " / ") + ": " + m
	}
	return clipMessage(m)
}

// total reads "test cases: 4 | 1 passed | 3 failed | 1 failed as expected".
func (p *catch2Parser) total(ws string, l *line, m []string) {
	n := map[string]int{}
	for _, item := range strings.Split(m[2], " | ") {
		c, word, ok := strings.Cut(item, " ")
		if ok {
			n[word] = atoi(c)
		}
	}
	p.close(ws, l, atoi(m[1]), n["passed"], n["failed"], n["failed as expected"]+n["skipped"])
}

// close ends a run with its totals: the test cases, and how many passed,
// failed and failed as they were expected to ([!shouldfail], [!mayfail];
// counted as skipped). ws holds the npm workspace and ctest -V's test
// number ("2: "), else the number of the failing ctest test whose output
// this is: the programs ctest runs (catch_discover_tests makes a ctest
// test of each test case, one program run once for each) are told apart
// by it, and by the name the banner gives (a run that passed prints none),
// not only by their number of test cases.
func (p *catch2Parser) close(ws string, l *line, tests, passed, failed, skipped int) {
	fails := p.fails.take()
	if !strings.Contains(ws, ": ") && p.ctestNo != "" {
		ws += p.ctestNo
	}
	p.ctestNo = ""
	om := 0
	errors := 0
	a := attempt{unit: unitKey(ws, "catch2 "+p.binary+" tests="+strconv.Itoa(tests)),
		tests: intp(tests), passed: intp(passed), failed: intp(failed), skipped: intp(skipped), errors: intp(errors),
		failures: fails, omitted: om, at: l.start}
	if !p.verifier {
		for _, name := range p.headed {
			if !p.failed[name] {
				a.passes.add([]byte(name), false)
			}
		}
		a.named = len(p.headed) == tests && len(p.headed) < maxIndexed
	}
	p.atts = append(p.atts, a)
	p.begun, p.binary, p.prefix, p.cur, p.msgLeft = false, "", "", "", 0
	p.headed, p.headedOK, p.failed = nil, nil, nil
}

func (p *catch2Parser) end(string) []attempt { return p.atts }
