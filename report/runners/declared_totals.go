package runners

import (
	"bytes"
	"encoding/binary"
	"io"
	"regexp"
	"strings"
)

// Totals is how a runner sums up its run: the line or lines that give its
// counts, the lines that name a failing test, and where a failure's
// message is. A declaration with Totals is summarised by report like the
// runners with a parser of their own (python.go, golang.go, …), with the
// same guarantee: every count and name is read from lines the summary
// cites, and re-reading those lines alone reproduces them (see Verify).
//
// That guarantee shapes what may be declared: whether a line counts may
// depend only on the line and on lines that counted before it. So a
// multi-line total counts its Gap lines too, and Begin is a counted line.
type Totals struct {
	// Prefixes are how the lines that can start something outside a run
	// begin (Begin, Line, Open, Failure), blanks trimmed. Only such lines
	// reach the regexps: the scan's prefilter looks a line's first byte up
	// in a table of them, so a declaration costs next to nothing on other
	// runners' logs. The lines after an Open, under a Failure, or inside a
	// run (after Begin) are seen whatever they start with.
	Prefixes []string
	// Begin, when set, is the runner's banner: failures are named only
	// between it and the total (sympy's "test process starts"), so a
	// heading quoted elsewhere in a log is not taken for one. Inside a run
	// every line is seen, so the lines only a run prints need no prefix
	// (sympy's unpadded total starts "tests", as a pytest -v log's lines
	// do); a run is taken to have ended maxRunLines lines after its
	// banner, so a banner with no total does not slow the rest of a log.
	Begin *regexp.Regexp
	// Line is a total printed on one line.
	Line *regexp.Regexp
	// Open and Close are a total printed over several lines: Close counts
	// only right after Open, with only Gap lines between (unittest's "Ran N
	// tests" line, a blank line, then OK or FAILED (…)), never anywhere
	// else in a log. An Open that no Close follows is counted with a nil
	// Close match: the run ended, or was cut, before its verdict.
	Open, Close, Gap *regexp.Regexp
	// Count reads the counts from the total's matches: Line's alone, or
	// Open's and Close's. ok false: the lines give no total after all.
	Count func(m ...[]string) (c Counts, ok bool)
	// Named, when set, completes Count's counts with the number of
	// failures the run named, for a runner whose total does not count
	// what it names: prove prints the number of test files and names the
	// failing ones, but prints no count of them. The names are re-read
	// from their cited lines, so the re-read counts the same.
	Named func(c *Counts, named int)
	// Failure matches a line that names a failing test; Name reads it
	// (Name, Classname, File; the span is filled in).
	Failure *regexp.Regexp
	Name    func(m []string) Failure
	// Within, when set, names failures only in the stretches of a run
	// between a line Within.Open matches and one Within.Close matches:
	// PHPUnit numbers its failures, errors and risky tests alike ("1)
	// CalcTest::testRisky"), and only the "There was 1 failure:" and
	// "There were 2 errors:" sections hold failing tests. Both lines are
	// counted, so a re-read of the cited lines opens the same stretches.
	// A line matching Open is not taken for a Close.
	Within *Section
	// Message, when set, makes a reader of a failure's message from the
	// lines under its Failure line (pythonTraceback: the exception line).
	Message func() messageReader
	// Before, when set, reads what a run prints before it names its
	// failures, for their messages: prove's Test Summary Report names the
	// failing files after the tests' own diagnostics (Test::More's
	// "#   Failed test" lines) went by. A failure it explains keeps that
	// message and line; Message reads the others.
	Before *Before
}

// Before is how a runner's failures are explained by lines printed before
// they are named. Those lines are none that count: what Before reads
// changes no count, name or line that counts (feed reports none of them
// used), so the re-read of the cited lines, which never sees them and so
// keeps the Message reader's messages, reproduces the same summary; and
// sameResult compares no message.
type Before struct {
	// Prefixes are how the lines it starts reading at begin, blanks
	// trimmed; they join the prefilter's table. While its reader is busy
	// it sees every line.
	Prefixes []string
	New      func() beforeReader
}

// beforeReader reads the lines a run prints before naming its failures.
type beforeReader interface {
	// line reads a line starting with one of the prefixes, or any line
	// while busy. back, when the scanned log can be read at offsets, reads
	// the line that ends at an offset (prove's die message, the line
	// before "# Looks like your test exited …"); ok false otherwise.
	line(l *line, back func(end int64) (text string, ok bool))
	// busy: the next line must be seen whatever it is. It may depend only
	// on the lines read and their numbers, so that the scan reads the
	// same with and without the prefilter.
	busy() bool
	// explain sets f's message and line from what was read, for the
	// failure the Failure line matched as m; false: nothing explains it.
	explain(f *Failure, m []string) bool
}

// Counts are what a total says. A count the runner does not print and
// that cannot be derived from what it prints is nil, never guessed; Note
// says how a derived count was derived.
type Counts struct {
	Tests, Passed, Failed, Skipped, Errors *int
	Note                                   string
}

// messageReader reads a failure's message from the lines under it.
type messageReader interface {
	// line reads one line, its leading blanks kept.
	line(text string)
	// message is the message so far, "" when none.
	message() string
}

// placeReader is a messageReader that also finds where a failure
// happened, for a runner whose failure line names no file: the test's own
// frame in the stack under it. Optional, so a reader of messages alone
// needs no method it cannot fill.
type placeReader interface {
	// place is the frame found so far; file "" when none.
	place() (file string, line int)
}

// maxRunLines bounds how far after its Begin banner a run's lines are
// read; it depends on the line numbers alone, so a re-read decides the
// same.
const maxRunLines = 100_000

// maxMessageLines bounds how far under a failure line its message is
// looked for, so a failure whose block never ends does not make every
// later line go through the parser.
const maxMessageLines = 200

// prefixTable maps a line's first byte to the declared prefixes that
// start with it: the byte-level prefilter of declared lines. It runs on
// every line no hand-written parser wants (a verbose unittest or pytest
// log is mostly such lines), so each prefix is also kept as its first
// eight bytes, compared as one word.
type prefixTable [256][]prefix

type prefix struct {
	s          string
	word, mask uint64 // s's first bytes (up to 8), and which bytes of a word they are
}

// totalPrefixes holds every declared Totals' prefixes; declare fills it.
var totalPrefixes prefixTable

// index adds t's prefixes to pt.
func (t *Totals) index(pt *prefixTable) {
	for _, p := range t.Prefixes {
		if p == "" {
			panic("runners: a declared total prefix is empty")
		}
		var b [8]byte
		n := copy(b[:], p)
		mask := ^uint64(0) >> (64 - 8*n)
		pt[p[0]] = append(pt[p[0]], prefix{s: p, word: binary.LittleEndian.Uint64(b[:]), mask: mask})
	}
	if t.Before != nil {
		(&Totals{Prefixes: t.Before.Prefixes}).index(pt)
	}
}

// match reports whether t, non-empty, starts with a declared prefix.
func (pt *prefixTable) match(t []byte) bool {
	for _, p := range pt[t[0]] {
		if len(t) >= 8 {
			if binary.LittleEndian.Uint64(t)&p.mask != p.word {
				continue
			}
			if len(p.s) <= 8 {
				return true
			}
		}
		if hasPrefix(t, p.s) {
			return true
		}
	}
	return false
}

// declaredParser reads one declaration's Totals; it is a parser like the
// hand-written ones, so its counts go through the same merging of
// attempts and the same verification.
type declaredParser struct {
	runner  string
	t       *Totals
	atts    []attempt
	fails   failSet
	begun   bool     // a run's Begin banner was read ...
	begunAt int64    // ... on this line
	begunOf int64    // ... at this offset
	within  bool     // inside a Within stretch
	open    []string // Open's match while a total is open
	openAt  int64
	// msg reads the message of fails.list[msgAt] for msgLeft more lines.
	msg     messageReader
	msgAt   int
	msgLeft int
	// placing: the failure line gave no line number, so its reader's
	// frame places it; named is the file the failure line gave, if any.
	placing bool
	named   string
	// before reads the lines of the current run before its failures are
	// named (Totals.Before); a total starts a new one.
	before beforeReader
	// ra, when set, is the scanned log, read at offsets (state.readerAt).
	ra io.ReaderAt
}

// declaredParsers makes a parser for every declaration with Totals.
func declaredParsers() []*declaredParser {
	var ps []*declaredParser
	for _, d := range declarations {
		if d.Totals != nil {
			p := &declaredParser{runner: d.Runner, t: d.Totals}
			if d.Totals.Before != nil {
				p.before = d.Totals.Before.New()
			}
			ps = append(ps, p)
		}
	}
	return ps
}

func (p *declaredParser) name() string { return p.runner }

// busy reports that the parser must see the next line whatever it is:
// a total is open, or a failure's message is being read.
func (p *declaredParser) busy() bool {
	return p.open != nil || p.msgLeft > 0 || p.begun || p.before != nil && p.before.busy()
}

func (p *declaredParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.before != nil && (p.before.busy() || hasAnyPrefix(t, p.t.Before.Prefixes)) {
		p.before.line(l, p.lineBefore)
	}
	if p.open != nil {
		if used, done := p.continueTotal(l, ws); done {
			return used
		}
	}
	if p.begun && l.num > p.begunAt+maxRunLines {
		p.begun, p.within = false, false
		p.fails.take() // a run that printed no total named them
	}
	if !p.begun && !p.candidate(t) {
		p.readMessage(l)
		return false
	}
	tt := p.t
	if tt.Begin != nil && tt.Begin.MatchString(t) {
		p.begun, p.begunAt, p.begunOf, p.msgLeft, p.within = true, l.num, l.start, 0, false
		p.fails.take() // a run that printed no total named them
		return true
	}
	if tt.Line != nil {
		if m := tt.Line.FindStringSubmatch(t); m != nil {
			p.total(ws, l.start, m)
			return true
		}
	}
	if tt.Open != nil {
		if m := tt.Open.FindStringSubmatch(t); m != nil {
			p.open, p.openAt, p.msgLeft = m, l.start, 0
			return true
		}
	}
	if tt.Within != nil && (tt.Begin == nil || p.begun) {
		if tt.Within.Open.MatchString(t) {
			p.within, p.msgLeft = true, 0
			return true
		}
		if p.within && tt.Within.Close.MatchString(t) {
			p.within, p.msgLeft = false, 0
			return true
		}
	}
	if tt.Failure != nil && (tt.Begin == nil || p.begun) && (tt.Within == nil || p.within) {
		if m := tt.Failure.FindStringSubmatch(t); m != nil {
			p.failure(l, m)
			return true
		}
	}
	p.readMessage(l)
	return false
}

// candidate reports whether t starts with one of the declared prefixes.
func (p *declaredParser) candidate(t string) bool { return hasAnyPrefix(t, p.t.Prefixes) }

func hasAnyPrefix(t string, prefixes []string) bool {
	for _, pre := range prefixes {
		if strings.HasPrefix(t, pre) {
			return true
		}
	}
	return false
}

// maxLineBack bounds the line lineBefore reads back.
const maxLineBack = 1024

// lineBefore reads back the line of the scanned log that ends at end,
// cleaned as the line reader cleans lines and trimmed; ok false when the
// log cannot be read at offsets (a verifier's re-read, a plain reader) or
// the line is longer than maxLineBack.
func (p *declaredParser) lineBefore(end int64) (string, bool) {
	if p.ra == nil || end <= 0 {
		return "", false
	}
	start := max(end-maxLineBack, 0)
	buf := make([]byte, end-start)
	if n, _ := p.ra.ReadAt(buf, start); n != len(buf) {
		return "", false // a short read: the line is not known
	}
	buf = bytes.TrimSuffix(buf, []byte("\n"))
	i := bytes.LastIndexByte(buf, '\n')
	if i < 0 && start > 0 {
		return "", false
	}
	var lr lineReader
	return string(trimSpace(lr.clean(buf[i+1:]))), true
}

// continueTotal reads the line after an Open (or a Gap). done: the line
// was a Gap or the Close; otherwise the total was left unclosed, is
// counted as such, and the line is read afresh.
func (p *declaredParser) continueTotal(l *line, ws string) (used, done bool) {
	open := p.open
	if p.t.Gap != nil && p.t.Gap.MatchString(l.trim) {
		return true, true
	}
	p.open = nil
	if m := p.t.Close.FindStringSubmatch(l.trim); m != nil {
		p.total(ws, p.openAt, open, m)
		return true, true
	}
	p.total(ws, p.openAt, open, nil)
	return false, false
}

// total ends a run with the counts its total's matches give.
func (p *declaredParser) total(ws string, at int64, m ...[]string) {
	c, ok := p.t.Count(m...)
	om := p.fails.omitted
	fails := p.fails.take()
	from := at
	if p.begun {
		from = p.begunOf
	}
	p.begun, p.msgLeft, p.within = false, 0, false
	if p.before != nil {
		p.before = p.t.Before.New() // the next run's diagnostics are its own
	}
	if !ok {
		return
	}
	if p.t.Named != nil {
		p.t.Named(&c, len(fails)+om)
	}
	p.atts = append(p.atts, attempt{unit: suiteKey(ws, val(c.Tests)), tests: c.Tests,
		passed: c.Passed, failed: c.Failed, skipped: c.Skipped, errors: c.Errors,
		failures: fails, omitted: om, at: at, from: from, note: c.Note})
}

// failure names a failing test, and starts reading its message.
func (p *declaredParser) failure(l *line, m []string) {
	f := p.t.Name(m)
	f.Span = spanOf(l)
	explained := p.before != nil && p.before.explain(&f, m)
	n := len(p.fails.list)
	p.fails.add(f)
	p.msgLeft = 0
	if p.t.Message != nil && !explained && len(p.fails.list) > n {
		p.msg, p.msgAt, p.msgLeft = p.t.Message(), n, maxMessageLines
		p.placing, p.named = f.Line == 0, f.File
	}
}

// readMessage hands a line under a failure to its message reader. It
// changes no count or name: Verify does not re-read these lines.
func (p *declaredParser) readMessage(l *line) {
	if p.msgLeft == 0 {
		return
	}
	p.msgLeft--
	p.msg.line(l.text)
	if p.msgAt < len(p.fails.list) {
		f := &p.fails.list[p.msgAt]
		f.Message = p.msg.message()
		if p.placing {
			placeFrom(f, p.msg, p.named)
		}
	}
}

// placeFrom sets a failure's file and line from its reader's frame (the
// reader's best so far, so a later, better frame replaces an earlier
// one). A frame in another file than the one the failure line named is
// not its place; the named file keeps the failure line's spelling (bin/test
// names sympy/core/tests/test_x.py, its traceback /testbed/sympy/…).
func placeFrom(f *Failure, r messageReader, named string) {
	pr, ok := r.(placeReader)
	if !ok {
		return
	}
	file, line := pr.place()
	switch {
	case file == "":
	case named == "":
		f.File, f.Line = file, line
	case file == named || strings.HasSuffix(file, "/"+named):
		f.Line = line
	}
}

// end counts a total still open when the log ended.
func (p *declaredParser) end(ws string) []attempt {
	if p.open != nil {
		open := p.open
		p.open = nil
		p.total(ws, p.openAt, open, nil)
	}
	return p.atts
}

// feedDeclared gives l to the declared parsers when one of them is busy
// or l starts with a declared prefix (every line, with noFast), and
// reports whether any of them used it. The hand-written parsers want many
// lines no declaration does (a jest block, a go failure's output), and
// those need not pass through the declarations at all.
func (st *state) feedDeclared(l *line) bool {
	if !noFast && !st.declBusy && (len(l.trimB) == 0 || !totalPrefixes.match(l.trimB)) {
		return false
	}
	used := false
	for _, p := range st.declared {
		if p.feed(l, st.ws) {
			used = true
		}
	}
	st.declBusy = st.declaredBusy()
	return used
}

// declaredBusy reports that a declared parser must see the next line.
func (st *state) declaredBusy() bool {
	for _, p := range st.declared {
		if p.busy() {
			return true
		}
	}
	return false
}
