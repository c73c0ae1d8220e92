package runners

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/runledger/runledger/report/internal/jvmstack"
)

// Maven Surefire (and Failsafe) report each test class as it ends, its
// failing tests' reports under it, and, once the module's tests are done,
// a Results block: the failing tests listed under `Failures:` and
// `Errors:` (and `Flakes:`, with reruns), then the totals:
//
//	[INFO] --- maven-surefire-plugin:2.22.3:test (default-test) @ calc ---
//	[INFO] Running com.example.calc.CalcTest
//	[ERROR] Tests run: 6, Failures: 3, Errors: 1, Skipped: 1, Time elapsed: 0.3 s <<< FAILURE! - in com.example.calc.CalcTest
//	[ERROR] addsLarge(com.example.calc.CalcTest)  Time elapsed: 0 s  <<< FAILURE!
//	java.lang.AssertionError: expected:<8> but was:<9>
//		at com.example.calc.CalcTest.addsLarge(CalcTest.java:18)
//
//	[INFO] Results:
//	[ERROR] Failures:
//	[ERROR]   CalcTest.addsLarge:18 expected:<8> but was:<9>
//	[ERROR] Tests run: 10, Failures: 3, Errors: 2, Skipped: 1
//
// A report's heading is `method(com.x.Class)` (JUnit 4 under surefire 2),
// the bare method or parameterised case `countsMany{String, int}[2]`
// (JUnit 5 under surefire 2: the class is the one the class line above
// named), `com.x.Class.method -- Time elapsed` (surefire 3), or the class
// alone when its set-up failed. The Results list names a test by its
// class's simple name (an inherited test's as `SubTest>BaseTest.method`)
// and the method its stack's test frame is in, with that frame's line,
// and its message cut to a line; with
// rerunFailingTestsCount a test's fully qualified name heads its `Run 1:`,
// `Run 2:` lines instead.
//
// What counts: the totals line (not the class lines, which count every
// rerun), each Results entry a failing test (a Flakes entry a flaky one),
// named by its report when one matches: its class in full, its case's
// name; the class lines and the reports' headings count too, as the names
// depend on them. A report's message (its exception's lines above the
// stack) and place (the stack's first frame in the test's class, else in
// the project's code) are read from its other lines, which count nothing:
// a re-read of the cited lines gives the same names and counts.
type surefireParser struct {
	unit, module string // the plugin execution and module of the latest plugin line
	class        string // the class of the latest class line
	classes      []string
	reports      []sfReport
	reading      int  // the report whose lines are being read, -1 when none
	section      byte // under `Failures:` 'F', `Errors:` 'E', `Flakes:` 'K', else 0
	entry        int  // the latest Results entry among fails.list, -1 when none
	entryCont    int  // lines of its message still taken from the next lines
	entryOwn     bool // its message is the entry's own, not its report's
	cur          *line
	fails        failSet
	flakes       []TestRef
	skipped      []string // modules the reactor summary says were skipped
	inReactor    bool
	atts         []attempt
}

// sfReport is one failing test's report: its heading and what its lines
// say.
type sfReport struct {
	class, name string // name "" for a class whose set-up failed
	msg         []string
	frames      []sfFrame // the first frames in the project's code
	stack       bool      // its stack started: a blank line ends it
	lines       int
	used        bool // matched to a Results entry
}

const (
	// sfReportLines bounds the lines read of one report (its stack may be
	// long, with causes); sfMsgLines the message lines kept.
	sfReportLines = 400
	sfMsgLines    = 12
	// sfContLines bounds a Results entry's message lines after its own.
	sfContLines = 12
)

var (
	mavenLevel = regexp.MustCompile(`^\[(?:INFO|ERROR|WARNING|WARN|DEBUG)\] ?`)
	// The totals after `Results:` end at Skipped (or Flakes); the class
	// lines go on with `, Time elapsed`, and are not counted again.
	surefireTotals = regexp.MustCompile(`^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: (\d+))?$`)
	surefireClass  = regexp.MustCompile(`^Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+(?:, Flakes: \d+)?, Time elapsed: .*? --? in (\S+)$`)
	surefirePlugin = regexp.MustCompile(`^--- (?:maven-)?(surefire|failsafe)(?:-plugin)?:\S+:\S+ \((\S+)\) @ (\S+) ---$`)
	// A failing test's report heading, `<name>  Time elapsed: 0.01 s  <<< FAILURE!`
	// (surefire 3: `<name> -- Time elapsed: …`; before 2.19, `sec`).
	surefireHeading = regexp.MustCompile(`^(\S.*?)(?: --)? +Time elapsed: [\d.,]+ s(?:ec)? +<<< (?:FAILURE|ERROR)!$`)
	// `method(com.x.Class)`: JUnit 4's name of a test under surefire 2.
	surefireJUnit4 = regexp.MustCompile(`^([^\s()]+)\(([\w$.]+)\)$`)
	// A Results entry before surefire 2.19: `  bar(com.x.FooTest): message`.
	surefireOldEntry = regexp.MustCompile(`^([\w$]+)\(([\w$.]+)\)(?::\d+)?: (.*)$`)
	// The head of a rerun test's `Run N:` lines: `com.x.FooTest.bar(com.x.FooTest)`
	// (surefire 2) or `com.x.FooTest.bar` (surefire 3).
	surefireRerunHead = regexp.MustCompile(`^([\w$]+(?:\.[\w$]+)+)\.([^\s.()]+?)(?:\(([\w$.]+)\))?$`)
	surefireReactor   = regexp.MustCompile(`^(\S.*?) \.+ (?:SUCCESS|FAILURE|SKIPPED)(?: \[.*\])?$`)
	// A JVM stack frame: `at com.x.Foo.bar(Foo.java:12)`, with a module
	// or class loader before a slash (`java.base/`, `app//`).
	jvmFrame = regexp.MustCompile(`^at (?:[\w.@-]*/)*([\w$.]+)\.[^.(\s]+\(([^():]+)(?::(\d+))?\)$`)
)

func newSurefireParser() *surefireParser { return &surefireParser{reading: -1, entry: -1} }

func (p *surefireParser) name() string { return "surefire" }

// following: a report's lines, or a Results entry's message lines, are
// read whatever they start with.
func (p *surefireParser) following() bool { return p.reading >= 0 || p.entryCont > 0 }

func (p *surefireParser) feed(l *line, ws string) bool {
	t := l.trim
	p.cur = l
	if p.reading >= 0 && p.reportLine(t) {
		return false
	}
	mark := strings.HasPrefix(t, "[") && mavenLevel.MatchString(t)
	if p.entryCont > 0 {
		if !mark && !strings.HasPrefix(t, "Tests run:") {
			p.entryCont--
			p.continueEntry(t)
			return false
		}
		p.entryCont = 0
	}
	if !mark && !strings.HasPrefix(t, "Tests run:") {
		return false
	}
	lv := mavenLevel.FindString(t)
	t = t[len(lv):]
	body := strings.TrimLeft(t, " ")
	switch {
	case strings.HasPrefix(body, "Tests run:"):
		return p.counts(body, ws)
	case strings.HasPrefix(body, "--- "):
		if m := surefirePlugin.FindStringSubmatch(body); m != nil {
			p.startRun(m[1], m[2], m[3])
			return true
		}
		return false
	case strings.HasSuffix(body, "!"):
		if m := surefireHeading.FindStringSubmatch(body); m != nil && len(t) == len(body) {
			p.heading(m[1])
			return true
		}
		return false
	}
	if len(t) == len(body) { // not indented: a section's title, a rerun's head, the reactor's lines
		return p.title(body)
	}
	if p.section != 0 && strings.HasPrefix(t, "  ") {
		return p.entryLine(t[2:])
	}
	return false
}

// startRun: a surefire or failsafe execution of a module starts.
func (p *surefireParser) startRun(plugin, execution, module string) {
	p.unit, p.module = module+" "+plugin+":"+execution, module
	if plugin != "surefire" || execution != "default-test" {
		p.module = module + " (" + plugin + ":" + execution + ")"
	}
	p.reset()
}

// reset forgets what one execution's report said.
func (p *surefireParser) reset() {
	p.class, p.classes, p.reports = "", nil, nil
	p.reading, p.section, p.entry, p.entryCont = -1, 0, -1, 0
}

// counts reads a class line or the totals.
func (p *surefireParser) counts(t, ws string) bool {
	if m := surefireClass.FindStringSubmatch(t); m != nil {
		p.class = m[1]
		if len(p.classes) < maxNamed {
			p.classes = append(p.classes, m[1])
		}
		return true
	}
	m := surefireTotals.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	run, f, e, s := atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4])
	unit := p.unit
	if unit == "" { // quiet (-q): no plugin line names the module
		unit = "tests=" + strconv.Itoa(run)
	}
	om := p.fails.omitted
	p.atts = append(p.atts, attempt{unit: unitKey(ws, unit), name: p.module, tests: intp(run), passed: intp(run - f - e - s),
		failed: intp(f), skipped: intp(s), errors: intp(e), failures: p.fails.take(), omitted: om, flaky: p.flakes})
	p.flakes = nil
	p.reset()
	return true
}

// heading starts a failing test's report.
func (p *surefireParser) heading(name string) {
	r := sfReport{class: p.class, name: name}
	switch m := surefireJUnit4.FindStringSubmatch(name); {
	case m != nil:
		r.class, r.name = m[2], m[1]
	case p.class != "" && name == p.class:
		r.name = ""
	case p.class != "" && strings.HasPrefix(name, p.class+"."):
		r.name = name[len(p.class)+1:]
	case p.class != "" && strings.HasPrefix(name, p.class+"$"):
		rest := name[len(p.class):]
		if i := strings.IndexByte(rest, '.'); i > 0 {
			r.class, r.name = p.class+rest[:i], rest[i+1:]
		}
	case p.class == "":
		cut := len(name)
		if i := strings.IndexAny(name, "({["); i >= 0 {
			cut = i
		}
		if i := strings.LastIndexByte(name[:cut], '.'); i > 0 {
			r.class, r.name = name[:i], name[i+1:]
		}
	}
	if len(p.reports) >= maxNamed {
		return
	}
	p.reports = append(p.reports, r)
	p.reading = len(p.reports) - 1
}

// reportLine reads a line of the open report, and reports whether it was
// one: a Maven line or a total ends the report.
func (p *surefireParser) reportLine(t string) bool {
	if strings.HasPrefix(t, "[") && mavenLevel.MatchString(t) || strings.HasPrefix(t, "Tests run:") {
		p.reading = -1
		return false
	}
	r := &p.reports[p.reading]
	r.lines++
	switch {
	case t == "":
		if r.stack { // the blank line after the stack
			p.reading = -1
		}
	case strings.HasPrefix(t, "at "):
		r.stack = true
		r.frame(t)
	case strings.HasPrefix(t, "Caused by:") || strings.HasPrefix(t, "Suppressed:") || strings.HasPrefix(t, "... "):
		r.stack = true
	case !r.stack && len(r.msg) < sfMsgLines:
		r.msg = append(r.msg, t)
	}
	if r.lines >= sfReportLines {
		p.reading = -1
	}
	return true
}

// sfFrame is a stack frame in the project's code.
type sfFrame struct {
	class, file string
	line        int
}

// sfFrames bounds the frames kept of a report.
const sfFrames = 16

// frame keeps a stack frame in the project's code (not the JDK's, a test
// framework's or the runner's), its file as its class's package path and
// its file name: `com/example/CalcTest.java`.
func (r *sfReport) frame(t string) {
	m := jvmFrame.FindStringSubmatch(t)
	if m == nil || m[3] == "" || len(r.frames) >= sfFrames || jvmstack.Framework(m[1]) {
		return
	}
	cls, file := m[1], m[2]
	if i := strings.LastIndexByte(cls, '.'); i > 0 {
		file = strings.ReplaceAll(cls[:i], ".", "/") + "/" + file
	}
	r.frames = append(r.frames, sfFrame{cls, file, atoi(m[3])})
}

// place is the report's first frame in the test's class, or in the class
// that declares the test (`AllocateDirectHexTest>HexTest.testX`: its
// superclass), a nested or anonymous class of either included; else its
// first frame in the project's code.
func (r *sfReport) place(declaring string) (string, int) {
	in := func(cls, of string) bool {
		return of != "" && (cls == of || strings.HasPrefix(cls, of+"$") ||
			!strings.Contains(of, ".") && (sfSimple(cls) == of || strings.HasPrefix(sfSimple(cls), of+"$")))
	}
	for _, f := range r.frames {
		if in(f.class, r.class) || in(f.class, declaring) {
			return f.file, f.line
		}
	}
	if len(r.frames) > 0 {
		return r.frames[0].file, r.frames[0].line
	}
	return "", 0
}

// message is the report's exception line and the lines of its message,
// blanks folded.
func (r *sfReport) message() string {
	return clipMessage(strings.Join(strings.Fields(strings.Join(r.msg, " ")), " "))
}

// title reads an unindented line: a Results section's title, a rerun
// test's head, the reactor summary.
func (p *surefireParser) title(t string) bool {
	switch t {
	case "Results:":
		p.section, p.entry = 0, -1
		return true
	case "Failures:", "Failed tests:":
		p.section, p.entry = 'F', -1
		return true
	case "Errors:", "Tests in error:":
		p.section, p.entry = 'E', -1
		return true
	case "Flakes:":
		p.section, p.entry = 'K', -1
		return true
	}
	if strings.HasPrefix(t, "Reactor Summary") {
		p.inReactor = true
		return false
	}
	if p.inReactor {
		if strings.HasSuffix(t, "SKIPPED") {
			if m := surefireReactor.FindStringSubmatch(t); m != nil && len(p.skipped) < 100 {
				p.skipped = append(p.skipped, m[1])
			}
		}
		if strings.HasPrefix(t, "BUILD ") || strings.HasPrefix(t, "---") {
			p.inReactor = false
		}
		return false
	}
	if p.section == 0 {
		return false
	}
	m := surefireRerunHead.FindStringSubmatch(t)
	if m == nil {
		p.entry = -1
		return false
	}
	cls, method := m[1], m[2]
	if m[3] != "" {
		cls = m[3]
	}
	p.entryOf(cls, "", "", method, 0, "")
	return true
}

// entryLine reads an indented line under a Results section: a failing
// test (`CalcTest.addsLarge:18 expected:<8> but was:<9>`), or a rerun's
// `Run 1: …` line under its head.
func (p *surefireParser) entryLine(t string) bool {
	if strings.HasPrefix(t, "Run ") {
		if i := strings.Index(t, ": "); i > 4 && allDigits(t[4:i]) {
			if p.entry >= 0 && i+2 < len(t) {
				msg := t[i+2:]
				if _, _, _, _, m, ok := sfEntry(msg); ok {
					msg = m
				}
				if f := &p.fails.list[p.entry]; f.Message == "" && msg != "PASS" {
					f.Message = clipMessage(strings.TrimPrefix(msg, "» "))
				}
			}
			return false
		}
	}
	if m := surefireOldEntry.FindStringSubmatch(t); m != nil {
		p.entryOf(m[2], "", "", m[1], 0, m[3])
		return true
	}
	simple, declaring, method, at, msg, ok := sfEntry(t)
	if !ok {
		return false
	}
	p.entryOf("", simple, declaring, method, at, msg)
	p.entryCont = sfContLines
	return true
}

// sfEntry splits a Results entry: `Class.method:line message`, where a
// stack of calls may follow the line (`:20->Calc.parse:9`), either may be
// missing (`Class » Error message` for a class's set-up), and a test a
// class inherits names the class that declares it after the one that ran
// it (`AllocateDirectHexTest>HexTest.testX:173`).
func sfEntry(t string) (simple, declaring, method string, at int, msg string, ok bool) {
	loc, msg, _ := strings.Cut(t, " ")
	if i := strings.Index(loc, "->"); i > 0 {
		loc = loc[:i]
	}
	if i := strings.LastIndexByte(loc, ':'); i > 0 && allDigits(loc[i+1:]) {
		at, loc = atoi(loc[i+1:]), loc[:i]
	}
	simple = loc
	if i := strings.LastIndexByte(loc, '.'); i > 0 {
		simple, method = loc[:i], loc[i+1:]
	}
	if i := strings.IndexByte(simple, '>'); i > 0 {
		simple, declaring = simple[:i], simple[i+1:]
		if !javaIdent(declaring) {
			return "", "", "", 0, "", false
		}
	}
	if !javaIdent(simple) || method != "" && !javaIdent(method) {
		return "", "", "", 0, "", false
	}
	return simple, declaring, method, at, msg, true
}

// entryOf names a Results entry's test, by its report when one matches,
// and adds it to the failures or the flaky tests. fqn is the class's full
// name when the entry gives it (a rerun's head), else simple its own.
func (p *surefireParser) entryOf(fqn, simple, declaring, method string, at int, msg string) {
	// An error's entry is `Class.test:21 » NumberFormat For input…`: the
	// guillemet only marks the exception's short name.
	f := Failure{Name: method, Line: at, Message: strings.TrimPrefix(msg, "» ")}
	p.entryOwn = true
	i := p.match(fqn, simple, method)
	switch {
	case i >= 0:
		r := &p.reports[i]
		r.used = true
		f.Classname = r.class
		if fqn == "" && simple != sfSimple(r.class) { // JUnit 5's nested class: `WordsTest$Ages`
			f.Classname = sfPackage(r.class) + simple
		}
		if r.name != "" {
			f.Name = r.name
		}
		if m := r.message(); m != "" {
			f.Message, p.entryOwn = m, false
		}
		if file, line := r.place(declaring); file != "" {
			f.File, f.Line = file, line
		}
	case fqn != "":
		f.Classname = fqn
	default:
		f.Classname = simple
		for _, c := range p.classes {
			if sfSimple(c) == simple || strings.HasPrefix(simple, sfSimple(c)+"$") {
				f.Classname = sfPackage(c) + simple
				break
			}
		}
	}
	if f.Name == "" {
		f.Name = sfSimple(f.Classname)
	}
	if p.section == 'K' {
		p.entry = -1
		if len(p.flakes) < maxNamed {
			p.flakes = append(p.flakes, TestRef{Name: f.Name, Classname: f.Classname})
		}
		return
	}
	n := len(p.fails.list)
	f.Span = spanOf(p.cur)
	p.fails.add(f)
	p.entry = -1
	if len(p.fails.list) > n {
		p.entry = n
	}
}

// continueEntry adds a line of a Results entry's message that went on
// past its line (Hamcrest's `Expected: …` and `but: …`), unless its
// report gave the message.
func (p *surefireParser) continueEntry(t string) {
	if p.entry < 0 || !p.entryOwn || t == "" {
		return
	}
	f := &p.fails.list[p.entry]
	f.Message = clipMessage(strings.TrimSpace(f.Message + " " + strings.Join(strings.Fields(t), " ")))
}

// match finds the report of a Results entry's test: an unmatched one of
// its class (its full name when known, else by its simple name; JUnit 5's
// nested `WordsTest$Ages` under its outer class's reports) named as the
// method or a parameterised case of it (`countsMany{String, int}[2]`),
// else its class's set-up's report. -1 when there is none.
func (p *surefireParser) match(fqn, simple, method string) int {
	classOK := func(c string) bool {
		if fqn != "" {
			return c == fqn || strings.HasPrefix(fqn, c+"$")
		}
		s := sfSimple(c)
		return s == simple || strings.HasPrefix(simple, s+"$")
	}
	for pass := 0; pass < 2; pass++ {
		for i := range p.reports {
			r := &p.reports[i]
			if r.used || !classOK(r.class) {
				continue
			}
			if pass == 0 && r.name != "" && (r.name == method || sfCaseOf(r.name, method)) || pass == 1 && r.name == "" {
				return i
			}
		}
	}
	return -1
}

// sfCaseOf reports whether name is a case of a parameterised method:
// `countsMany{String, int}[2]`, `countsMany(String, int)[2]`, `countsMany[2]`.
func sfCaseOf(name, method string) bool {
	return len(name) > len(method) && strings.HasPrefix(name, method) && strings.IndexByte("{([", name[len(method)]) >= 0
}

// sfSimple is a class's name without its package.
func sfSimple(class string) string {
	return class[strings.LastIndexByte(class, '.')+1:]
}

// sfPackage is a class's package with its final dot, "" for none.
func sfPackage(class string) string {
	return class[:strings.LastIndexByte(class, '.')+1]
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// javaIdent reports a Java identifier, `$` (nested classes) allowed.
func javaIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' || c >= 0x80) {
			return false
		}
	}
	return s != ""
}

// end adds, to the last totals, which modules the reactor skipped after a
// failure: their tests did not run, so no count covers them.
func (p *surefireParser) end(string) []attempt {
	if n := len(p.skipped); n > 0 && len(p.atts) > 0 {
		names := p.skipped[:min(n, 5)]
		more := ""
		if n > 5 {
			more = fmt.Sprintf(" and %d more", n-5)
		}
		p.atts[len(p.atts)-1].note = fmt.Sprintf("the Maven reactor skipped %s%s after a failure: their tests did not run", strings.Join(names, ", "), more)
	}
	return p.atts
}

func init() {
	register(Declaration{Runner: "surefire", Parser: &Parser{New: func(bool) parser { return newSurefireParser() }, Order: 110,
		Starts: []string{"[", "Running ", "Test"}}})
}
