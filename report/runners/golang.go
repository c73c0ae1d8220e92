package runners

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	goResult   = regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (\S+) \(\d+\.\d+s\)`)
	goPkgOK    = regexp.MustCompile(`^ok\s+(\S+)\s+(?:\d+\.\d+s|\(cached\))`)
	goPkgFail  = regexp.MustCompile(`^FAIL\s+(\S+)\s+(?:\d+\.\d+s|\[([a-z ]+)\])`)
	goFileLine = regexp.MustCompile(`^\s+([\w./-]+\.go):(\d+): ?(.*)$`)
	goMarker   = regexp.MustCompile(`^=== (?:RUN|CONT|NAME|PAUSE)\s+(\S+)`)
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
	omitted          int                // failing tests past maxNamed, counted but not named
	decor            map[string]Failure // file, line and message by test name
	decorLast        string             // the test decorated last
	passes           []namedPass        // for the test index
	unnamed          bool               // a pass past maxIndexed was not named
}

// maxDecor bounds goAcc.decor: file:line output of that many tests still
// running is kept for their failures; more is dropped, as it names nothing.
const maxDecor = 4096

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

// dropDecor forgets the file:line output of a test that passed. Sequential
// -v output decorates a test just before its result, so only the test
// decorated last is looked at; interleaved output is bounded by maxDecor.
func (a *goAcc) dropDecor(name []byte) {
	if a.decorLast != "" && string(name) == a.decorLast {
		delete(a.decor, a.decorLast)
		a.decorLast = ""
	}
}

func (a *goAcc) decorate(name, file, ln, msg string) {
	if name == "" {
		return
	}
	if a.decor == nil {
		a.decor = map[string]Failure{}
	}
	if _, ok := a.decor[name]; ok || len(a.decor) >= maxDecor {
		return
	}
	n, _ := strconv.Atoi(ln)
	a.decor[name], a.decorLast = Failure{File: file, Line: n, Message: msg}, name
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
	for _, f := range a.fails {
		d := a.decor[f.Name]
		f.Classname, f.File, f.Line, f.Message = pkg, d.File, d.Line, d.Message
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
	lastFail string // test of the latest --- FAIL line (non-verbose output)
	inRun    bool   // a === line came after the latest --- line
	kept     int    // passing tests named for the index so far
}

func (p *goParser) name() string { return "go" }

func (p *goParser) feed(l *line, ws string) bool {
	t := l.trim
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
		p.plain.decorate(p.lastFail, "", "0", t)
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
	p.plain.add(m[1], m[2], l)
	if m[1] != "FAIL" {
		p.keep(&p.plain, m[1] == "SKIP", []byte(m[2]))
	}
	p.inRun = false
	if m[1] == "FAIL" {
		p.lastFail = m[2]
	}
	return true
}

// feedDecor attaches `    file_test.go:12: message` to the test it belongs
// to: -v prints it before the test's --- line, plain output after.
func (p *goParser) feedDecor(l *line) {
	if !strings.HasPrefix(l.text, " ") && !strings.HasPrefix(l.text, "\t") || !strings.Contains(l.text, ".go:") {
		return
	}
	if !p.wantsDecor() {
		return
	}
	file, ln, msg, ok := parseGoFileLine(l.text)
	if !ok {
		return
	}
	p.plain.decorate(p.decorName(), file, ln, msg)
}

// decorName is the test a file:line line belongs to.
func (p *goParser) decorName() string {
	if p.inRun {
		return string(p.cur)
	}
	return p.lastFail
}

// wantsDecor reports whether decorate would keep a file:line line now: the
// test it belongs to has none yet (only its first is kept).
func (p *goParser) wantsDecor() bool {
	a := &p.plain
	if p.inRun {
		if len(p.cur) == 0 {
			return false
		}
		_, seen := a.decor[string(p.cur)] // no allocation: the conversion is a map key
		return !seen && len(a.decor) < maxDecor
	}
	if p.lastFail == "" {
		return false
	}
	_, seen := a.decor[p.lastFail]
	return !seen && len(a.decor) < maxDecor
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
	p.plain, p.lastFail, p.cur = goAcc{}, "", p.cur[:0]
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
	verdict, name, ok := ParseGoResult(t)
	if !ok || verdict == "FAIL" {
		return false, false
	}
	p.plain.passed(verdict == "SKIP", name, l)
	p.keep(&p.plain, verdict == "SKIP", name)
	p.inRun = false
	return true, true
}
