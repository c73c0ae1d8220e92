package runners

import (
	"bytes"
	"regexp"
	"strings"
)

var (
	goResult  = regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (\S+) \(\d+\.\d+s\)`)
	goPkgOK   = regexp.MustCompile(`^ok\s+(\S+)\s+(?:\d+\.\d+s|\(cached\))`)
	goPkgFail = regexp.MustCompile(`^FAIL\s+(\S+)\s+(?:\d+\.\d+s|\[([a-z ]+)\])`)
	goMarker  = regexp.MustCompile(`^=== (?:RUN|CONT|NAME|PAUSE)\s+(\S+)`)
	// goRunning: a test still running when go test's -timeout panicked,
	// listed under its `running tests:` (`TestX (10s)`).
	goRunning = regexp.MustCompile(`^(\S+) \((\d[\dhmsµn.]*s)\)$`)
)

// goAcc collects one package's test results until its package line.
type goAcc struct {
	pass, fail, skip int
	last             int64 // offset of the latest result line
	lastSpan         Span  // and its span, cited when the output ends unfinished
	hasLast          bool
	verbose          bool   // passes are printed (-v or -json), so they can be counted
	ended            string // a bare PASS or FAIL line closed the tests
	fails            []Failure
	omitted          int                  // failing tests past maxNamed, counted but not named
	decor            map[string]decorNote // the chosen file:line message by test name
	decorBits        nameFilter           // the names decor may hold
	recent           recentLines          // the latest file:line lines, of one test
	passes           passList             // for the test index
	unnamed          bool                 // a pass past maxIndexed was not named
	example          exampleOut           // a failed example's got/want output
	panicAt          panicPlace           // the trace under a test's panic
	race             raceReport           // the race detector's reports
}

// maxDecor bounds goAcc.decor: file:line output of that many tests still
// running is kept for their failures; more is dropped, as it names nothing.
const maxDecor = 4096

// decorNote is the file:line message chosen for a test. strong marks one
// that reads like an assertion (want, expected, got, …): a test that logs
// progress and then fails is known by its assertion, not by its last log.
type decorNote struct {
	file, msg string
	line      int
	strong    bool
}

// decorKeep is how many of a test's latest file:line lines are kept to
// choose its message from.
const decorKeep = 16

// recentLines holds the raw file:line lines of the test that printed
// last, copied but not parsed: most tests pass, and a passing test's lines
// are never read again. They are parsed when that test fails or another
// test's lines come between (parallel tests, plain output).
type recentLines struct {
	owner []byte
	buf   [decorKeep][]byte
	n     int  // lines pushed since owner took over
	cont  bool // the latest line ended with its colon: testify's message follows, indented
	inErr bool // reading the `Error:` field of that message
}

func (a *goAcc) mark(l *line) {
	a.last, a.lastSpan, a.hasLast = l.start, *spanOf(l), true
}

// lastSpanRef is the span of the latest result line, nil when none was read.
func (a *goAcc) lastSpanRef() *Span {
	if !a.hasLast {
		return nil
	}
	sp := a.lastSpan
	return &sp
}

func (a *goAcc) add(verdict, name string, l *line) {
	a.mark(l)
	switch verdict {
	case "PASS", "pass":
		a.pass++
		a.verbose = true
		a.dropDecor([]byte(name))
	case "SKIP", "skip":
		a.skip++
		a.verbose = true
		a.dropDecor([]byte(name))
	case "FAIL", "fail":
		a.fail++
		a.flushIf([]byte(name))
		if len(a.fails) >= maxNamed {
			a.omitted++
			return
		}
		a.fails = append(a.fails, Failure{Name: name, Span: spanOf(l)})
	}
}

// passed counts a passing or skipped test read by the fast path. The name
// is only needed to drop its file:line output.
func (a *goAcc) passed(skip bool, name []byte, l *line) {
	a.mark(l)
	a.verbose = true
	if skip {
		a.skip++
	} else {
		a.pass++
	}
	a.dropDecor(name)
}

// dropDecor forgets the file:line output of a test that passed.
func (a *goAcc) dropDecor(name []byte) {
	if a.recent.n > 0 && bytes.Equal(a.recent.owner, name) {
		a.recent.n = 0
	}
	if len(a.decor) > 0 && a.decorBits.may(name) {
		delete(a.decor, string(name))
	}
}

// nameFilter is a 256-bit filter of names by their length and last two
// bytes: once a failing test's message is kept, every later pass of its
// package would otherwise hash its name to delete nothing.
type nameFilter [4]uint64

func nameBit[T string | []byte](name T) (word int, bit uint64) {
	n := len(name)
	h := uint(n)
	if n > 0 {
		h = h*31 + uint(name[n-1])
	}
	if n > 1 {
		h = h*31 + uint(name[n-2])
	}
	return int(h>>6) & 3, 1 << (h & 63)
}

func (f *nameFilter) add(name string) {
	w, b := nameBit(name)
	f[w] |= b
}

// may reports whether name may have been added.
func (f *nameFilter) may(name []byte) bool {
	w, b := nameBit(name)
	return f[w]&b != 0
}

// note keeps a raw `file.go:12: message` line of test name.
func (a *goAcc) note(name, text []byte) { a.noteBody(name, text, skipBlanks(text)) }

// noteBody is note for a caller that has text's body, past its blanks,
// already: that skip is a loop on every t.Log line.
func (a *goAcc) noteBody(name, text, body []byte) {
	if len(name) == 0 || hasPrefix(body, "Error Trace:") {
		return
	}
	r := &a.recent
	if r.n > 0 && !bytes.Equal(r.owner, name) {
		a.flush()
	}
	if r.n == 0 {
		r.owner = append(r.owner[:0], name...)
	}
	i := r.n % decorKeep
	r.buf[i] = append(r.buf[i][:0], text...)
	r.n++
	end := len(text)
	for end > 0 && text[end-1] == ' ' {
		end--
	}
	r.cont, r.inErr = end > 0 && text[end-1] == ':', false
}

// skipBlanks drops the spaces and tabs b starts with.
func skipBlanks(b []byte) []byte {
	// An index, then one slice: reslicing a byte at a time rewrote the
	// slice for each of the blanks that start every t.Log line.
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return b[i:]
}

// continuation reads testify's message under an empty `file.go:12:` line
// (`\tError Trace:\t…`, `\tError:\tNot equal:`, `\t\texpected: 2`, …):
// the Error and Messages fields join that line's message; so do
// quicktest's `error:` block and what follows it (`got:`, `want:`) up to
// its `comment:` or `stack:`. Any other line ends it. It changes no count.
func (a *goAcc) continuation(text []byte) {
	r := &a.recent
	if !r.cont || r.n == 0 {
		return
	}
	if len(text) == 0 || text[0] != ' ' && text[0] != '\t' || bytes.IndexByte(text, '\t') < 0 && !goContinued(text) {
		r.cont = false
		return
	}
	t := bytes.TrimSpace(text)
	label, rest, labelled := bytes.Cut(t, []byte(":"))
	switch {
	case labelled && (string(label) == "Error" || string(label) == "Messages"):
		r.inErr, t = true, bytes.TrimSpace(rest)
	case labelled && len(rest) == 0 && string(label) == "error": // quicktest's `error:`, its text below
		r.inErr = true
		return
	case labelled && len(rest) == 0 && (string(label) == "got" || string(label) == "want"):
		r.inErr = true // quicktest's, past its `comment:`
	case labelled && (string(label) == "Error Trace" || string(label) == "Test" || string(label) == "comment" || string(label) == "stack"):
		r.inErr = false
		return
	case !r.inErr:
		return
	}
	last := &r.buf[(r.n-1)%decorKeep]
	if len(*last) > 4096 {
		return
	}
	if !bytes.HasSuffix(*last, []byte(": ")) {
		*last = append(*last, ' ')
	}
	for _, f := range bytes.Fields(t) {
		*last = append(append(*last, f...), ' ')
	}
	*last = bytes.TrimRight(*last, " ")
}

// goContinued: a line of go's own continuation of a message that starts
// on the line after its `file.go:12:` (t.Errorf("\nError:\n…")): spaces
// only, at least eight of them, not a `file.go:N:` line itself, not
// blank (the message's first paragraph ends there; what follows is often
// a dump of the input).
func goContinued(text []byte) bool {
	t := bytes.TrimSpace(text)
	return len(t) > 0 && bytes.HasPrefix(text, []byte("        ")) && !goPathColon(t)
}

// flushIf chooses the message of test name now if its lines are the
// recent ones: a failed test's lines must outlive the next test's.
func (a *goAcc) flushIf(name []byte) {
	if a.recent.n > 0 && bytes.Equal(a.recent.owner, name) {
		a.flush()
	}
}

// flush chooses the recent lines' message: the latest that reads like an
// assertion, else the latest.
func (a *goAcc) flush() {
	r := &a.recent
	if r.n == 0 {
		return
	}
	var best decorNote
	found := false
	for k := 0; k < min(r.n, decorKeep); k++ {
		file, ln, msg, ok := parseGoFileLine(r.buf[(r.n-1-k)%decorKeep])
		if !ok {
			continue
		}
		d := decorNote{file: string(file), msg: string(msg), line: atoi(string(ln)), strong: assertLike(msg)}
		if !found || d.strong {
			best, found = d, true
		}
		if d.strong {
			break
		}
	}
	r.n = 0
	if found {
		a.merge(string(r.owner), best)
	}
}

// merge records d as test name's message unless an assertion-like one is
// already there and d is not.
func (a *goAcc) merge(name string, d decorNote) {
	if name == "" {
		return
	}
	if d.msg == raceDetected && d.file == "testing.go" {
		if n := a.race.take(name); n != nil {
			d = decorNote{file: n.file, line: n.line, msg: n.msg, strong: true}
		}
	}
	if a.decor == nil {
		a.decor = map[string]decorNote{}
	}
	old, had := a.decor[name]
	if !had && len(a.decor) >= maxDecor || had && old.strong && !d.strong {
		return
	}
	a.decor[name] = d
	a.decorBits.add(name)
}

// decorate records one parsed file:line message of test name (-json
// output, which comes parsed).
func (a *goAcc) decorate(name, file, ln, msg string) {
	a.merge(name, decorNote{file: file, msg: msg, line: atoi(ln), strong: assertLike([]byte(msg))})
}

// assertWords are what an assertion message says and a progress log seldom
// does (matched without regard to case).
var assertWords = []string{"want", "expect", "got", "actual", "assert", "mismatch", "!=", "not equal",
	"error", "fail", "panic", "should", "unexpected", "diff", "differ"}

func assertLike(msg []byte) bool {
	var low [256]byte
	n := copy(low[:], msg)
	for i := range n {
		if c := low[i]; c >= 'A' && c <= 'Z' {
			low[i] = c + 'a' - 'A'
		}
	}
	for _, w := range assertWords {
		if bytes.Contains(low[:n], []byte(w)) {
			return true
		}
	}
	return false
}

// close turns the accumulated results into the attempt of package pkg. A
// package that failed without a failing test (build failure, panic outside a
// test, timeout, setup failure) counts as one error.
func (a *goAcc) close(unit, pkg string, failed bool, why string, l *line) attempt {
	if !failed && pkg != "" && a.fail > 0 {
		// go test printed `ok` for the package: no test of it failed. Its
		// --- FAIL lines came from tests that run tests as their subject
		// (testify's suite runs suites expected to fail) and are output,
		// not results.
		a.fail, a.fails, a.omitted = 0, nil, 0
	}
	// A package that did not build or set up ran no test: its counts are
	// known to be zero.
	known := a.verbose || strings.HasPrefix(why, "[") && a.pass+a.fail+a.skip == 0
	at := attempt{unit: unit, failed: intp(a.fail), errors: intp(0), at: a.last, omitted: a.omitted,
		name: pkg, passes: a.passes, named: a.verbose && !a.unnamed && a.omitted == 0}
	if l != nil {
		at.at = l.start
	}
	if known {
		at.passed, at.skipped, at.tests = intp(a.pass), intp(a.skip), intp(a.pass+a.fail+a.skip)
	}
	a.flush()
	for _, f := range a.fails {
		d := a.decor[f.Name]
		f.Classname, f.File, f.Line, f.Message = pkg, d.file, d.line, d.msg
		at.failures = append(at.failures, f)
	}
	if failed && a.fail == 0 {
		f := Failure{Name: pkg, Classname: pkg, Message: why}
		if pkg == "" {
			f.Name = "(test binary)"
		}
		f.Span = a.lastSpanRef()
		if l != nil {
			f.Span = spanOf(l)
		}
		at.errors = intp(1)
		at.failures = append(at.failures, f)
	}
	return at
}

// goParser reads `go test` output, plain, -v and -json.
type goParser struct {
	plain    goAcc
	pkgs     map[string]*goAcc // -json, by package
	atts     []attempt
	cur      []byte // test named by the latest === line (-v output)
	lastFail []byte // test of the latest --- FAIL line (non-verbose output)
	inRun    bool   // a === line came after the latest --- line
	kept     int    // passing tests named for the index so far
	verifier bool   // re-reads a scan's lines: names no passes (see keep)
	timedOut string // `panic: test timed out after 10s`, until the package line
}

func (p *goParser) name() string { return "go" }

func (p *goParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.plain.example.reading() {
		p.exampleLine(&p.plain, l.textB)
	}
	if p.plain.race.reading() {
		p.plain.race.line(l.textB)
		return false
	}
	if strings.HasPrefix(t, "WARNING: DATA RACE") {
		p.plain.race.start()
		return false
	}
	if p.plain.panicAt.reading() {
		if file, ln, ok := p.plain.panicAt.line(l.textB); ok {
			p.plain.panicked(p.plain.panicAt.test, file, ln)
		}
	}
	switch {
	case strings.HasPrefix(t, "{"):
		return p.feedJSON(l, ws)
	case strings.HasPrefix(t, "--- "):
		return p.feedResult(l)
	case strings.HasPrefix(t, "ok"), strings.HasPrefix(t, "FAIL"):
		return p.feedPackage(l, ws)
	case strings.HasPrefix(t, "=== "):
		return p.feedMarker(l)
	case strings.HasPrefix(t, "panic: "):
		p.plain.flushIf(p.lastFail)
		p.plain.merge(string(p.lastFail), decorNote{msg: t, strong: true})
		if strings.HasPrefix(t, "panic: test timed out after ") {
			p.timedOut = t // the tests it names next (`running tests:`) failed by it
			return true
		}
		p.plain.panicAt.start(string(p.lastFail))
	case p.timedOut != "" && goRunning.MatchString(t):
		name := goRunning.FindStringSubmatch(t)[1]
		p.plain.add("FAIL", name, l)
		p.plain.merge(name, decorNote{msg: p.timedOut, strong: true})
		return true
	default:
		p.feedDecor(l)
	}
	return false
}

// feedMarker follows `=== RUN` lines: they name the test that later file:line
// output belongs to, and the first of a package shows -v, so its passes can
// be counted. Only that first one changes a count, and only it is recorded.
func (p *goParser) feedMarker(l *line) bool {
	m := goMarker.FindStringSubmatch(l.trim)
	if m == nil {
		return false
	}
	return p.marker([]byte(m[1]), l)
}

func (p *goParser) marker(name []byte, l *line) bool {
	p.cur, p.inRun = append(p.cur[:0], name...), true
	if p.plain.verbose {
		return false
	}
	p.plain.verbose = true
	p.plain.mark(l)
	return true
}

func (p *goParser) feedResult(l *line) bool {
	m := goResult.FindStringSubmatch(l.trim)
	if m == nil {
		return false
	}
	if m[1] == "FAIL" && fuzzEcho(l.textB, m[2], p.lastFail) {
		return false // the same failure, told once
	}
	p.plain.add(m[1], m[2], l)
	if m[1] != "FAIL" {
		p.keep(&p.plain, m[1] == "SKIP", []byte(m[2]))
	}
	p.inRun = false
	if m[1] == "FAIL" {
		p.lastFail = append(p.lastFail[:0], m[2]...)
		p.plain.example.start(m[2])
	}
	return true
}

// fuzzEcho reports the `    --- FAIL: FuzzX` line go test -fuzz prints,
// indented, right under the fuzz target's own `--- FAIL: FuzzX`: one
// failure of one test, not a subtest of the same name. A test run twice
// (-count=2) prints its verdicts unindented.
func fuzzEcho(text []byte, name string, lastFail []byte) bool {
	return strings.HasPrefix(name, "Fuzz") && string(lastFail) == name && len(text) > 0 && (text[0] == ' ' || text[0] == '\t')
}

// exampleLine gives a line printed after an example's --- FAIL line to
// acc's reader, and the message it makes to the example.
func (p *goParser) exampleLine(acc *goAcc, t []byte) {
	if msg, done := acc.example.line(t); done && msg != "" {
		acc.merge(acc.example.name, decorNote{msg: msg, strong: true})
	}
}

// feedDecor attaches `    file_test.go:12: message` to the test it belongs
// to: -v prints it before the test's --- line, plain output after. The
// line is copied, not parsed: see recentLines.
func (p *goParser) feedDecor(l *line) {
	t := l.textB
	if len(t) == 0 || t[0] != ' ' && t[0] != '\t' || !goPathColon(skipBlanks(t)) {
		return
	}
	p.plain.note(p.decorName(), t)
}

// goPathColon reports a line that starts with a path byte and whose first
// colon follows `.go`: what a `file.go:12: message` line, the only kind
// parseGoFileLine accepts, looks like once its blanks are dropped.
func goPathColon(t []byte) bool {
	if len(t) == 0 || !isPathByte(t[0]) {
		return false
	}
	i := bytes.IndexByte(t, ':')
	return i >= 4 && string(t[i-3:i]) == ".go"
}

// decorName is the test a file:line line belongs to.
func (p *goParser) decorName() []byte {
	if p.inRun {
		return p.cur
	}
	return p.lastFail
}

func (p *goParser) feedPackage(l *line, ws string) bool {
	if l.trim == "PASS" || l.trim == "FAIL" {
		p.plain.ended = l.trim
		return true
	}
	if m := goPkgOK.FindStringSubmatch(l.trim); m != nil {
		p.atts = append(p.atts, p.plain.close(unitKey(ws, m[1]), m[1], false, "", l))
	} else if m := goPkgFail.FindStringSubmatch(l.trim); m != nil {
		why := "package failed without a failing test"
		if m[2] != "" {
			why = "[" + m[2] + "]"
		}
		p.atts = append(p.atts, p.plain.close(unitKey(ws, m[1]), m[1], true, why, l))
	} else {
		return false
	}
	p.plain = goAcc{recent: recentLines{owner: p.plain.recent.owner[:0], buf: p.plain.recent.buf}}
	p.lastFail, p.cur, p.timedOut = p.lastFail[:0], p.cur[:0], ""
	return true
}

// end closes what the log left open: plain results with no package line (a
// test binary run directly ends with a bare PASS or FAIL) and -json packages
// that never reported an end. Output that stops before any end counts as an
// error, as a crashed or killed test run must not read as a clean one.
func (p *goParser) end(ws string) []attempt {
	atts := p.atts
	if a := p.plain; a.pass+a.fail+a.skip > 0 || a.verbose {
		why := "the output ended before a package result"
		if a.ended != "" {
			why = "package failed without a failing test"
		}
		atts = append(atts, a.close(unitKey(ws, ""), "", a.ended != "PASS", why, nil))
	}
	for _, pkg := range sortedKeys(p.pkgs) {
		acc := p.pkgs[pkg]
		if !acc.hasLast {
			continue // made only to hold a test's file:line output; nothing counted
		}
		at := acc.close(unitKey(ws, pkg), pkg, false, "", nil)
		at.errors = intp(1)
		at.failures = append(at.failures, Failure{Name: pkg, Classname: pkg, Span: acc.lastSpanRef(),
			Message: "no package result: the output ended first"})
		atts = append(atts, at)
	}
	return atts
}

// fast reads the two line shapes that make up most of a `go test -v` log,
// `=== RUN   TestX` and `--- PASS: TestX (0.00s)`, without a regexp or an
// allocation. It handles only lines that goMarker or goResult match and,
// when quiet, no other parser acts on; ok is false for any other line,
// which then takes the general path.
func (p *goParser) fast(l *line, quiet bool) (used, ok bool) {
	t := l.trimB
	if !quiet {
		return false, false
	}
	if hasPrefix(t, "=== ") {
		name, ok := parseMarker(t[4:])
		if !ok {
			return false, false
		}
		return p.marker(name, l), true
	}
	var cur []byte
	if p.inRun { // else cur is an older test's name: the verifier sees only the first === line
		cur = p.cur
	}
	verdict, name, ok := parseGoResultOf(t, cur)
	if !ok || verdict == "FAIL" {
		return false, false
	}
	p.plain.passed(verdict == "SKIP", name, l)
	p.keep(&p.plain, verdict == "SKIP", name)
	p.inRun = false
	return true, true
}

func (p *goParser) following() bool {
	return p.plain.example.reading() || p.plain.panicAt.reading() || p.plain.race.reading()
}
