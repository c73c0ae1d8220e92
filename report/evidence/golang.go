package evidence

import (
	"bytes"
	"cmp"
	"regexp"
	"unicode/utf8"

	"github.com/runledger/runledger/report/runners"
)

// goGrammar reads `go test` output, plain and -v, as gotestsum replays it.
//
//   - -v: a test's output is every line between its `=== RUN`, `=== CONT`
//     or `=== NAME` marker and the next marker or result line, however far
//     from its `--- FAIL` line; parallel tests come in pieces.
//   - plain: a failing test's output follows its `--- FAIL` line, indented
//     deeper than it; a subtest's own `--- FAIL` line starts its block.
//   - `panic:` / `fatal error:` with the head of the goroutine trace;
//     race reports from the rule above `WARNING: DATA RACE` to the closing
//     rule; build and vet errors: `# pkg` and its `file.go:L:C:` lines.
type goGrammar struct {
	active  map[string]*Block // tests that started and have not ended, but seq
	seq     *Block            // the test started last when no other was running
	seqName []byte            // its name (its Block's Test is set when kept)
	// seqPlain: seqName holds no \s byte, so its verdict line can be
	// matched against it in place rather than parsed (see result).
	seqPlain bool
	free     []*Block // blocks of passed tests, for the next tests
	cur      *Block   // the test the latest marker named
	verdict  *Block   // a `--- FAIL` block taking deeper lines
	vIndent  int
	// example: the verdict is an Example's, whose `got:` and `want:`
	// output go test prints unindented under it, up to its next own line.
	example bool
	panic   *Block
	frames  bool // the panic's goroutine trace has begun
	race    *Block
	build   *Block
	buildOK bool // the `# pkg` line was followed by an error line
	// unbuilt holds the `FAIL pkg [build failed]` lines: which packages a
	// build error stopped (go test -v prints them first, far from the
	// error on stderr), quoted together as one root cause.
	unbuilt *Block
	failed  []*Block // the current package's failing tests
	// lastFail is the latest `--- FAIL` line (its span): a panic right
	// under it quotes it, as the verdict of a test with no output of its
	// own says nothing alone and would go with the panic explaining it.
	lastFail Line
}

func newGoGrammar() *goGrammar { return &goGrammar{active: map[string]*Block{}} }

func (g *goGrammar) starts() string { return "=-Wpf#oFP?" }

func (g *goGrammar) busy() bool {
	return g.cur != nil || g.verdict != nil || g.panic != nil || g.race != nil || g.build != nil
}

func (g *goGrammar) reset() {
	clear(g.active)
	g.seq, g.lastFail = nil, Line{}
	g.cur, g.verdict, g.panic, g.race, g.build, g.failed, g.unbuilt = nil, nil, nil, nil, nil, nil, nil
}

func (g *goGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	if g.race != nil {
		g.race.add(l)
		if l.Indent == 0 && allOf(t, '=', 18) && g.race.Lines > 2 {
			g.race = nil
		}
		return true
	}
	if g.panic != nil && g.panicLine(l) {
		return true
	}
	if g.build != nil && g.buildLine(l) {
		return true
	}
	if len(t) == 0 {
		return g.output(l)
	}
	switch t[0] {
	case '=':
		if g.marker(l) {
			return true
		}
	case '-':
		if hasPrefix(t, "--- ") {
			return g.result(l, sc)
		}
	case 'W':
		if hasPrefix(t, "WARNING: DATA RACE") {
			g.race = sc.open("go", g.name("data race"), "race", KindCrash)
			sc.before(g.race, 1, func(p *Line) bool { return p.End-p.Start >= 18 && p.End-p.Start <= 20 })
			g.race.add(l)
			return true
		}
	case 'p', 'f':
		if l.Indent == 0 && (hasPrefix(t, "panic: ") || hasPrefix(t, "fatal error: ")) {
			g.panic, g.frames = sc.open("go", g.name(string(clip(t, 200))), "panic", KindCrash), false
			if g.lastFail.End == l.Start && g.lastFail.End > 0 {
				g.panic.add(&g.lastFail)
			}
			g.panic.add(l)
			return true
		}
	case '#':
		if l.Indent == 0 && goBuildHeader.Match(t) {
			g.build, g.buildOK = sc.open("go", "build "+string(t[2:]), "build", KindCrash), false
			g.build.add(l)
			return true
		}
	case 'o', 'F', 'P', '?':
		if goPackageEnd(t) {
			if hasPrefix(t, "ok  \t") {
				g.demote() // the package passed: its --- FAIL lines were its tests' own subject
			}
			if len(t) > 4 { // a package line, not the bare PASS or FAIL before it
				g.failed = g.failed[:0]
			}
			if hasPrefix(t, "FAIL\t") && (bytes.HasSuffix(t, []byte(" [build failed]")) || bytes.HasSuffix(t, []byte(" [setup failed]"))) {
				if g.unbuilt == nil {
					g.unbuilt = sc.open("go", "packages that did not build", "build", KindCrash)
				}
				g.unbuilt.add(l)
			}
			g.endPackage()
			return true // a verdict the envelope's summary states: not an error line
		}
	}
	return g.output(l)
}

// name is the test a crash happened in, when a marker named one.
func (g *goGrammar) name(what string) string {
	if g.cur != nil {
		g.named(g.cur)
		return g.cur.Test
	}
	return what
}

// named gives b its Test, which the sequential slot leaves unset until a
// block is kept: most tests pass, and their names cost no allocation.
func (g *goGrammar) named(b *Block) {
	if b == g.seq && b.Test == "" {
		b.Test = string(g.seqName)
	}
}

// lookup finds the running test called name.
func (g *goGrammar) lookup(name []byte) *Block {
	if g.seq != nil && bytes.Equal(g.seqName, name) {
		return g.seq
	}
	if len(g.active) == 0 {
		return nil
	}
	return g.active[string(name)]
}

// start opens the block of test name. A test started while none runs
// takes the sequential slot (what most of a `go test -v` log is); one
// started beside others moves the slot's test to the map first.
func (g *goGrammar) start(name []byte) *Block {
	var b *Block
	if n := len(g.free); n > 0 {
		b, g.free = g.free[n-1], g.free[:n-1]
	} else {
		b = &Block{}
	}
	b.Runner, b.Role, b.Kind = "go", "test", KindTest
	if g.seq == nil && len(g.active) == 0 {
		g.seq, g.seqName = b, append(g.seqName[:0], name...)
		g.seqPlain = runners.Plain(name)
		return b
	}
	if g.seq != nil {
		g.named(g.seq)
		g.active[g.seq.Test], g.seq = g.seq, nil
	}
	if len(g.active) >= 4096 { // a runaway of tests that never end
		clear(g.active)
	}
	b.Test = string(name)
	g.active[b.Test] = b
	return b
}

// end forgets the running test called name; a passed one's block is
// reused by a later test, as nothing kept refers to it.
func (g *goGrammar) end(b *Block, name []byte, passed bool) {
	if b == g.seq {
		if !passed {
			g.named(b)
		}
		g.seq = nil
	} else {
		delete(g.active, string(name))
	}
	if passed && len(g.free) < 64 {
		// Field by field, not `*b = Block{…}`: a composite literal stored
		// through a pointer is a write-barrier-checked copy of the whole
		// struct, once a test. start sets Runner, Role and Kind again.
		b.Test, b.Spans, b.Lines, b.heading = "", b.Spans[:0], 0, false
		g.free = append(g.free, b)
	}
}

// output gives l to the open verdict block, or to the current test.
func (g *goGrammar) output(l *Line) bool {
	if g.verdict != nil {
		if l.blank() || l.Indent > g.vIndent || g.example {
			g.verdict.add(l)
			return true
		}
		g.verdict = nil
	}
	if g.cur != nil {
		g.cur.add(l)
		return true
	}
	return false
}

var goBuildHeader = regexp.MustCompile(`^# [\w./~-]+( \[[\w./~-]+\])?$`)

// goCompileLine: `file.go:12:5: message`, also vet's and cgo's.
var goCompileLine = regexp.MustCompile(`^\S+\.(go|s|c|h):\d+(:\d+)?: `)

func (g *goGrammar) buildLine(l *Line) bool {
	if goCompileLine.Match(l.T) || (g.buildOK && l.Indent > 0 && !l.blank()) {
		g.build.add(l)
		g.buildOK = true
		return true
	}
	if !g.buildOK {
		g.build.Test, g.build.Kind = "", KindVerdict // a `# pkg` with no error: not a build error
		g.build.Lines = 0
		g.build.Spans = nil
	}
	g.build = nil
	return false
}

// panicLine takes the panic's lines up to the end of its first goroutine's
// trace (later goroutines are seldom the cause and can run for pages).
func (g *goGrammar) panicLine(l *Line) bool {
	t := l.T
	switch {
	case goPackageEnd(t) || hasPrefix(t, "exit status ") || g.panic.Lines >= 80:
		g.panic = nil
		return false
	case l.blank() && g.frames:
		g.panic = nil
		return true
	case hasPrefix(t, "goroutine ") && bytes.HasSuffix(t, []byte("]:")):
		g.frames = true
	}
	g.panic.add(l)
	return true
}

// marker handles `=== RUN`, `=== CONT`, `=== NAME`, `=== PAUSE`.
func (g *goGrammar) marker(l *Line) bool {
	t := l.T
	if !hasPrefix(t, "=== ") || len(t) < 10 {
		return false
	}
	// The keyword compared in place: a string of it cost a call a line.
	kw := t[4:8]
	run, pause := string(kw) == "RUN ", string(kw) == "PAUS"
	if !run && !pause && string(kw) != "CONT" && string(kw) != "NAME" {
		return false
	}
	name := trimName(t[8:])
	if pause {
		name = bytes.TrimSpace(bytes.TrimPrefix(t[8:], []byte("E")))
	}
	g.verdict = nil
	b := g.lookup(name)
	if run || b == nil {
		if b != nil {
			g.end(b, name, false) // run again: its earlier output is not this run's
		}
		b = g.start(name)
	}
	g.cur = b
	if pause {
		g.cur = nil
	}
	return true
}

// trimName is bytes.TrimSpace for a marker's name, which go aligns with
// blanks and most often ends in a visible ASCII byte: past the blanks,
// one look at each end instead of the call.
func trimName(b []byte) []byte {
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	if n := len(b); n > 0 && b[0] > ' ' && b[0] < utf8.RuneSelf && b[n-1] > ' ' && b[n-1] < utf8.RuneSelf {
		return b
	}
	return bytes.TrimSpace(b)
}

// result handles `--- FAIL: name (0.00s)`, `--- PASS`, `--- SKIP`.
func (g *goGrammar) result(l *Line, sc *scanner) bool {
	if g.passedSeq(l.T) {
		return true
	}
	verdict, nameB, ok := runners.ParseGoResult(l.T)
	if !ok {
		return g.output(l)
	}
	b := g.lookup(nameB)
	if g.cur != nil && (g.cur == b || g.cur != g.seq && g.cur.Test == string(nameB)) {
		g.cur = nil
	}
	if b != nil {
		g.end(b, nameB, verdict != "FAIL")
	}
	g.verdict = nil
	if verdict != "FAIL" {
		return true
	}
	name := string(nameB)
	kept := sc.open("go", name, "test", KindTest)
	if b != nil {
		kept.Spans, kept.Lines = b.Spans, b.Lines
	}
	if len(g.failed) < maxBlocks {
		g.failed = append(g.failed, kept)
	}
	kept.heading = b == nil || b.Lines == 0
	kept.add(l)
	g.lastFail = Line{Start: l.Start, End: l.End, No: l.No}
	g.verdict, g.vIndent = kept, l.Indent
	g.example = bytes.HasPrefix(nameB, []byte("Example"))
	return true
}

// passedSeq ends the sequential test on its own `--- PASS` line, what
// result does with most verdicts of a verbose log, but with its name
// compared in place instead of parsed and looked up. With no parallel
// test running, the current test is the sequential one or none.
func (g *goGrammar) passedSeq(t []byte) bool {
	if g.seq == nil || !g.seqPlain || !runners.PassOf(t, g.seqName) {
		return false // another test's verdict, or none: result reads it
	}
	g.cur, g.verdict = nil, nil
	g.end(g.seq, g.seqName, true)
	return true
}

// goPackageEnd: the lines that end a package's output.
func goPackageEnd(t []byte) bool {
	switch {
	case len(t) == 4 && (string(t) == "PASS" || string(t) == "FAIL"):
		return true
	case hasPrefix(t, "ok  \t"), hasPrefix(t, "FAIL\t"), hasPrefix(t, "?   \t"):
		return true
	}
	return false
}

func (g *goGrammar) endPackage() {
	clear(g.active)
	g.seq, g.cur, g.verdict, g.lastFail = nil, nil, nil, Line{}
}

// demote turns the failures of a package that passed into verdicts: a
// package that tests a test framework (testify's suite) prints --- FAIL
// lines of inner tests it expects to fail, and they explain nothing.
func (g *goGrammar) demote() {
	for _, b := range g.failed {
		b.Kind, b.Role = KindVerdict, "verdict"
	}
}

// clip returns at most n bytes of b.
func clip(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// goJSONGrammar reads `go test -json` (and gotestsum's --jsonfile): a
// test's evidence is its own `"Action":"output"` lines, whatever else
// comes between; a package that fails without a failing test (a build
// error, a panic in init) shows its package-level output.
type goJSONGrammar struct {
	pkgs   map[string]map[string]*Block // package → test ("" for the package) → output
	failed map[string][]*Block          // package → its failing tests' blocks
}

func (g *goJSONGrammar) starts() string { return "{" }
func (g *goJSONGrammar) busy() bool     { return false }

func (g *goJSONGrammar) reset() { g.pkgs, g.failed = nil, nil }

func (g *goJSONGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	if len(t) < 20 || t[0] != '{' || l.Indent != 0 {
		return false
	}
	action := jsonField(t, `"Action":"`)
	if action == nil {
		return false
	}
	pkg := jsonField(t, `"Package":"`)
	if pkg == nil {
		pkg = jsonField(t, `"ImportPath":"`)
	}
	test := string(jsonField(t, `"Test":"`))
	if g.pkgs == nil {
		g.pkgs = map[string]map[string]*Block{}
	}
	tests := g.pkgs[string(pkg)]
	switch string(action) {
	case "output", "build-output":
		if tests == nil {
			if len(g.pkgs) >= 1024 {
				clear(g.pkgs)
			}
			tests = map[string]*Block{}
			g.pkgs[string(pkg)] = tests
		}
		b := tests[test]
		if b == nil {
			role := "test"
			if test == "" {
				role = "package"
			}
			b = &Block{Runner: "go", Test: test, Role: role, Kind: KindTest}
			if test == "" {
				b.Test, b.Kind = string(pkg), KindCrash
			}
			tests[test] = b
		}
		b.add(l)
	case "fail", "build-fail":
		g.fail(l, sc, tests, string(pkg), test)
	case "pass", "skip":
		delete(tests, test)
		if test == "" {
			delete(g.pkgs, string(pkg))
			for _, b := range g.failed[string(pkg)] { // the package passed: see goGrammar.demote
				b.Kind, b.Role = KindVerdict, "verdict"
			}
			delete(g.failed, string(pkg))
		}
	}
	return true
}

func (g *goJSONGrammar) fail(l *Line, sc *scanner, tests map[string]*Block, pkg, test string) {
	b := tests[test]
	delete(tests, test)
	if test == "" {
		delete(g.pkgs, pkg)
		failed := len(g.failed[pkg]) > 0
		delete(g.failed, pkg)
		if b == nil || b.Lines == 0 || failed {
			return // its failing tests carry the evidence
		}
	}
	kept := sc.open("go", cmp.Or(test, pkg), "test", KindTest)
	if b != nil {
		kept.Spans, kept.Lines, kept.Role, kept.Kind = b.Spans, b.Lines, b.Role, b.Kind
	}
	kept.heading = b == nil
	kept.add(l)
	if test != "" {
		if g.failed == nil {
			g.failed = map[string][]*Block{}
		}
		if len(g.failed) < 1024 && len(g.failed[pkg]) < maxBlocks {
			g.failed[pkg] = append(g.failed[pkg], kept)
		}
	}
}

// jsonField returns the string value after key in a one-line JSON object,
// raw (escapes not decoded); test and package names need none.
func jsonField(t []byte, key string) []byte {
	i := bytes.Index(t, []byte(key))
	if i < 0 {
		return nil
	}
	v := t[i+len(key):]
	j := bytes.IndexByte(v, '"')
	if j < 0 {
		return nil
	}
	return v[:j]
}

func init() {
	register(Grammar{Runner: "go", Order: 10, New: func() grammar { return newGoGrammar() },
		Shapes: Shapes{Verdict: []string{"--- FAIL", "FAIL"}, VerdictIn: []string{"[build failed]"}, Log: goLogLine}})
	register(Grammar{Runner: "go", Order: 20, New: func() grammar { return &goJSONGrammar{} }, Shapes: Shapes{Payload: jsonPayload}})
}

// goLogLine is a Go test's t.Log or t.Error line: it names a place, and is
// no stack frame.
var goLogLine = regexp.MustCompile(`^[\w./-]+\.go:\d+: `)

// jsonPayload finds the Output field of a go test -json event line.
func jsonPayload(line string) (field, at int) {
	if at = outputAt(line); at < 0 {
		return -1, -1
	}
	return at - len(outputKey), at
}
