package evidence

import (
	"bytes"
	"regexp"
)

// genericGrammar sees only the lines no runner grammar took. It marks the
// lines that read as an error in any framework — a leading FAIL, FAILED,
// ERROR, Error:, error:, fatal, CRITICAL, panic, an exception name, an assertion,
// `expected … got`, a crash message, a compiler's `file:L:C: error:`, a
// build tool's own error line (see toolError) — with two lines of
// context before and the lines after up to a blank one. Words must start
// the line (after blanks and a `[LEVEL] ` tag), so prose and source listings
// that mention them are left alone.
type genericGrammar struct {
	oneBlock
	closing []byte // the line that closes the failure block open (tcltest's)
	// framed: the failure block open came right under a rule, and the
	// next rule closes it (test-unit's and testthat's, blank lines within).
	framed bool
	// headed: the failure block open came on a `── Failure (…): name ──`
	// heading (testthat's check and summary reporters): it goes on to the
	// next heading or two blank lines, its backtrace after a blank one.
	headed  bool
	blankAt int64 // the number of the latest blank line in a headed block
	// indent is the failure line's; held a blank line under it, kept
	// when the next line is indented deeper (bats' pretty formatter
	// prints one inside a failure's diagnostics).
	indent int
	held   Line
	ruleAt int64 // the number of the latest rule line, claimed or not (scanner.after)
	// tagged: the failure block open came on a verdict tag (`[FAIL] `):
	// a dash tag's line under it is the next test's diagnostics.
	tagged bool
	// diag is the run of dash-tagged lines (`[----] …`) that ended on the
	// line before the current one, diagN its lines: a `[FAIL] ` tag right
	// under it takes it.
	diag   Span
	diagN  int
	diagAt int64 // the number of the run's latest line
}

var (
	// perlDied is Perl's own ending of a die or croak message: `… at
	// t/config.t line 7.` (`, <$fh> line 3.` when a file was being read).
	perlDied        = regexp.MustCompile(` at (\S+\.(?:t|pm|pl)) line \d+(?:, <[^>]*> (?:line|chunk) \d+)?\.$`)
	genericExpected = regexp.MustCompile(`(?i)\bexpected\b.*\b(got|but (was|got)|actual|received|found)\b`)
)

func (g *genericGrammar) line(l *Line, sc *scanner) {
	diag := g.takeDiag(l)
	if n := len(l.T); n > 10 && l.T[n-1] == '.' && l.Indent == 0 && l.T[0] != '#' && endsWithLineNo(l.T[:n-1]) {
		if m := perlDied.FindSubmatch(l.T); m != nil {
			sc.died, sc.diedIn = Line{Start: l.Start, End: l.End, No: l.No}, string(clip(m[1], 300))
		}
	}
	afterRule := g.ruleAt > 0 && g.ruleAt == l.No-1
	context := true
	if g.block != nil && g.block.failure {
		switch g.failureGoesOn(l) {
		case goOn:
			g.block.add(l)
			return
		case goOnLast:
			g.block.add(l)
			g.block = nil
			return
		case hold:
			return
		}
		g.block = nil
	}
	if g.block != nil {
		switch {
		case l.blank() || g.block.Lines >= 10:
			g.block = nil
		case g.block.Lines >= 4 && len(l.T) >= 4 && sc.nGeneric < maxGeneric && genericMatch(l.T, locationEnd(l.T)):
			// The next of several errors printed together (a compiler's,
			// then the linker's and make's): its own block, so a cut of
			// the one before cannot take it; its context is in that one.
			g.block, context = nil, false
		default:
			g.block.add(l)
			return
		}
	}
	if passMark(l.T) {
		return
	}
	if b := sc.justEnded(l); b != nil && expectedMark(l.T) {
		b.Kind, b.Role = KindExpected, "expected"
		return
	}
	at := locationEnd(l.T)
	if at > 0 && hasPrefix(l.T[at:], "runtime error: ") { // UBSan
		b := sc.open("sanitizer", string(clip(l.T, 200)), "sanitizer", KindCrash)
		b.add(l)
		return
	}
	// common_test frames a failed case between rules of `- `:
	// `calc_SUITE:add_big failed on line 7`, then its `Reason: …`.
	failure := len(l.T) >= 4 && (failureLine(l.T) || afterRule && bytes.Contains(l.T, []byte(" failed on line ")))
	if sc.nGeneric >= maxGeneric || len(l.T) < 4 || !failure && !genericMatch(l.T, at) {
		return
	}
	// An error line right under a rule opens a block the frameworks that
	// frame each failure between rules close with the next one.
	failure = failure || afterRule
	sc.nGeneric++
	kind, role := KindError, "error"
	if expectedMark(l.T) { // `FAIL: x (expected to fail)`, `[ FAIL ] y # xfail`
		kind, role = KindExpected, "expected"
	}
	g.block = sc.open("generic", string(clip(l.T, 200)), role, kind)
	g.block.failure, g.closing, g.framed = failure, nil, afterRule
	g.headed = failure && !afterRule && hasPrefix(l.T, "── ")
	g.indent, g.held.No = l.Indent, 0
	if failure {
		// Its reason is under it (an assertion, what the result was and
		// should have been), not in the lines before (other tests'
		// progress): no context.
		if hasPrefix(l.T, "==== ") {
			name, _, _ := bytes.Cut(l.T[len("==== "):], []byte(" "))
			g.closing = append(append(append(g.closing, "==== "...), name...), " FAILED"...)
		}
		if g.tagged = failTag(l.T); g.tagged && diag.End > 0 {
			// Criterion's reason is above its verdict, under dash tags.
			g.block.addSpan(diag)
			g.block.Lines += diag.Last - diag.First + 1
		}
	} else if context {
		sc.before(g.block, 2, func(p *Line) bool { return true })
	}
	g.block.add(l)
}

// maxFailureLines bounds a failure block found by its shape.
const maxFailureLines = 60

// What failureGoesOn says of a line under a failure block.
const (
	stop     = iota
	goOn     // the line is the block's
	goOnLast // the line is the block's and closes it
	hold     // a blank line the next one decides on (held)
)

// failureGoesOn says whether l is part of the failure block open:
// tcltest's block up to its closing `==== name FAILED` (blank lines
// within); a block framed by rules up to the next rule; a `── Failure`
// heading's up to the next heading or two blank lines; else the lines up
// to a blank one (but one the next line, indented deeper than the
// failure's, goes on from) or a passing test's progress line (`...passed`,
// `[  PASS  ]`, `ok 3`, `++++ name PASSED`).
func (g *genericGrammar) failureGoesOn(l *Line) int {
	if g.block.Lines >= maxFailureLines {
		return stop
	}
	switch {
	case g.closing != nil:
		if string(l.T) == string(g.closing) {
			return goOnLast
		}
		return goOn
	case g.framed:
		return goOnIf(!ruleLine(l.T))
	case g.headed:
		if l.blank() {
			if g.blankAt == l.No-1 {
				return stop
			}
			g.blankAt = l.No
		}
		return goOnIf(!hasPrefix(l.T, "── ") && !hasPrefix(l.T, "══ "))
	}
	if g.held.No != 0 {
		held := g.held
		g.held.No = 0
		if l.blank() || l.Indent <= g.indent {
			return stop
		}
		g.block.add(&held)
	} else if l.blank() {
		g.held = Line{Start: l.Start, End: l.End, No: l.No}
		return hold
	}
	return goOnIf(!passLine(l.T) && !failureLine(l.T) && !runTag(l.T) && !(g.tagged && diagTag(l.T)) && !progressLine(l.T))
}

// progressLine reports a line of progress marks alone (`.`, `....`, not
// `...`), or
// rebar3 ct's `%%% calc_SUITE: ...` for a suite: the next tests', not
// the failure's.
func progressLine(t []byte) bool {
	if hasPrefix(t, "%%% ") && !bytes.Contains(t, []byte(" ==> ")) {
		return true
	}
	return len(t) != 3 && allOf(t, '.', 1) // `...` is more often an elision
}

// takeDiag follows the runs of dash-tagged lines and returns the one that
// ended right above l, if any: what a `[FAIL] ` tag on l takes.
func (g *genericGrammar) takeDiag(l *Line) Span {
	adjacent := g.diagN > 0 && g.diagAt == l.No-1
	if diagTag(l.T) {
		switch {
		case !adjacent:
			g.diag, g.diagN = Span{Start: l.Start, End: l.End, First: l.No, Last: l.No}, 1
		case g.diagN < maxDiagLines: // past it, the run's first lines stay
			g.diag.End, g.diag.Last = l.End, l.No
			g.diagN++
		}
		g.diagAt = l.No
		return Span{}
	}
	if adjacent {
		return g.diag
	}
	return Span{}
}

// runTag reports a line's leading tag that starts a test (`[RUN ] a::b`,
// Criterion's with --verbose): the next test's lines, not the failure's.
func runTag(t []byte) bool { return string(tagWord(t, '[', ']')) == "RUN" }

// maxDiagLines bounds the diagnostics read back above a failure's tag.
const maxDiagLines = 30

// diagTag reports a line under a tag of dashes (`[----] t.c:4: Assertion
// Failed`): Criterion prints a test's diagnostics so, above its `[FAIL]`
// line.
func diagTag(t []byte) bool {
	if len(t) < 3 || t[0] != '[' || t[1] != '-' {
		return false
	}
	i := 1
	for i < len(t) && t[i] == '-' {
		i++
	}
	return i < len(t) && t[i] == ']'
}

func goOnIf(ok bool) int {
	if ok {
		return goOn
	}
	return stop
}

// ruleLine reports a line that is a rule of at least 20 `=`, `-`, `─`,
// `━` or `═`: what test-unit, testthat and others print around a
// failure's details.
func ruleLine(t []byte) bool {
	const minRule = 20
	if len(t) < minRule {
		return false
	}
	switch t[0] {
	case '=', '-':
		return allOf(t, t[0], minRule) || spacedRule(t, minRule)
	case 0xE2:
		if len(t)%3 != 0 || t[1] != 0x94 && t[1] != 0x95 {
			return false
		}
		for i := 3; i < len(t); i += 3 {
			if t[i] != t[0] || t[i+1] != t[1] || t[i+2] != t[2] {
				return false
			}
		}
		return t[1] == 0x94 && (t[2] == 0x80 || t[2] == 0x81) || t[1] == 0x95 && t[2] == 0x90
	}
	return false
}

// spacedRule reports a rule of `- ` pairs, common_test's around a failed
// case (`- - - - …`).
func spacedRule(t []byte, n int) bool {
	t = bytes.TrimRight(t, " ")
	if len(t) < n {
		return false
	}
	for i, c := range t {
		if c != "- "[i%2] {
			return false
		}
	}
	return true
}

// passLine reports a passing test's progress line in the frameworks
// failureLine reads: CUnit's `...passed`, a `[  PASS  ]`/`[  OK  ]` tag,
// TAP's `ok N`, tcltest's `++++ name PASSED`, a `✓` mark.
func passLine(t []byte) bool {
	return bytes.HasSuffix(t, []byte("...passed")) || passTag(t) || hasPrefix(t, "ok ") ||
		hasPrefix(t, "++++ ") && bytes.HasSuffix(t, []byte(" PASSED")) || passMark(t) || checkVerdict(t) == 'P' ||
		bytes.HasSuffix(t, []byte(":PASS")) && unityVerdict(t, "PASS")
}

// failureLine reports a line that says a test failed in a framework no
// grammar knows, by its shape: tcltest's `==== name description FAILED`
// (and the `==== name FAILED` that closes its block), CUnit's `Test: name
// ...FAILED`, a bracketed verdict tag (`[  FAIL  ]`, yath's, or `[FAILED]`)
// that no runner's grammar took, a `✗ name` mark, a leading `Failure`
// (busted's `Failure -> spec/x_spec.lua @ 12`, test-unit's `Failure:
// test_x(TC)`, testthat's `Failure ('test-x.R:6'): name`, after a rule's
// `── ` in its later versions), busted's `Error -> file @ N`, libcheck's
// `file.c:12:F:suite:test:0: message` (E for an error).
func failureLine(t []byte) bool {
	switch t[0] {
	case '=':
		return hasPrefix(t, "==== ") && bytes.HasSuffix(t, []byte(" FAILED"))
	case '[':
		return failTag(t)
	case 0xE2:
		if rest, ok := bytes.CutPrefix(t, []byte("── ")); ok {
			rest = skipOrdinal(rest) // the summary reporter's `── 1. Failure (…)`
			if verdictHeading(rest, "Failure") || verdictHeading(rest, "Error") {
				return true
			}
		}
		return hasPrefix(t, "✗ ") || hasPrefix(t, "✘ ")
	case 'F':
		if verdictHeading(t, "Failure") {
			return true
		}
	case 'E':
		if hasPrefix(t, "Error -> ") || hasPrefix(t, "Error → ") {
			return true
		}
	case '%':
		// rebar3 ct's `%%% calc_SUITE ==> add_big: FAILED` (common_test)
		if hasPrefix(t, "%%% ") && bytes.HasSuffix(t, []byte(": FAILED")) && bytes.Contains(t, []byte(" ==> ")) {
			return true
		}
	}
	if v := checkVerdict(t); v == 'F' || v == 'E' {
		return true
	}
	return bytes.HasSuffix(t, []byte("...FAILED")) || unityVerdict(t, "FAIL")
}

// unityVerdict reports Unity's (ThrowTheSwitch's, C) line for a test with
// verdict v: `test/test_calc.c:12:test_add_big:FAIL: Expected 102 Was 103`,
// `test/test_calc.c:9:test_add:PASS` — a file, a line, the test's name.
func unityVerdict(t []byte, v string) bool {
	i := bytes.Index(t, []byte(":"+v))
	if i <= 0 || i+1+len(v) < len(t) && t[i+1+len(v)] != ':' {
		return false
	}
	head := t[:i]
	j := bytes.LastIndexByte(head, ':')
	if j <= 0 || j == len(head)-1 || bytes.ContainsAny(head[j+1:], " \t") {
		return false // the test's name: one word
	}
	k := bytes.LastIndexByte(head[:j], ':')
	if k <= 0 || k+1 == j || bytes.ContainsAny(head[:k], " \t") || bytes.IndexByte(head[:k], '.') < 0 {
		return false // a file with an extension, then its line
	}
	for _, c := range head[k+1 : j] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// verdictHeading reports t starting with the verdict w as a heading:
// followed by `: `, ` (`, ` -> ` or ` → ` (a name or a place after it),
// not by prose (`Failure rate 0%`).
func verdictHeading(t []byte, w string) bool {
	if !hasPrefix(t, w) {
		return false
	}
	rest := t[len(w):]
	return hasPrefix(rest, ": ") || hasPrefix(rest, " (") || hasPrefix(rest, " -> ") || hasPrefix(rest, " → ")
}

// skipOrdinal returns t after a leading `N. `, or t.
func skipOrdinal(t []byte) []byte {
	i := 0
	for i < len(t) && i < 6 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && hasPrefix(t[i:], ". ") {
		return t[i+2:]
	}
	return t
}

// checkVerdict returns the verdict letter of libcheck's result line
// `file.c:12:P:suite:test:0: Passed` (P, F or E), or 0: a path without
// blanks, a line number, one capital letter, each ended by a colon.
func checkVerdict(t []byte) byte {
	i := 0
	for i < len(t) && i < 256 && t[i] != ':' && t[i] != ' ' {
		i++
	}
	if i == 0 || i+4 >= len(t) || t[i] != ':' || t[i+1] < '0' || t[i+1] > '9' {
		return 0
	}
	j := i + 1
	for j < len(t) && t[j] >= '0' && t[j] <= '9' {
		j++
	}
	if j+2 >= len(t) || t[j] != ':' || t[j+2] != ':' {
		return 0
	}
	switch v := t[j+1]; v {
	case 'P', 'F', 'E':
		return v
	}
	return 0
}

// endsWithLineNo reports t ending with ` line N` (Perl's die message
// without its period): a check before perlDied's regexp, as most lines of
// prose end with a period.
func endsWithLineNo(t []byte) bool {
	i := len(t)
	for i > 0 && t[i-1] >= '0' && t[i-1] <= '9' {
		i--
	}
	return i < len(t) && bytes.HasSuffix(t[:i], []byte(" line "))
}

// tagWord returns the word inside a leading bracketed tag (`[  FAIL  ] `,
// `(  DIAG  ) `: open and close are the brackets), or nil.
func tagWord(t []byte, open, close byte) []byte {
	if len(t) < 4 || t[0] != open || t[1] != ' ' && (t[1] < 'A' || t[1] > 'Z') {
		return nil // not a tag in capitals (`[widget-suite]`, `[12:00:01]`)
	}
	end := bytes.IndexByte(t[:min(len(t), 24)], close)
	if end < 0 || end+1 >= len(t) || t[end+1] != ' ' {
		return nil
	}
	return bytes.Trim(t[1:end], " ")
}

// failTag reports a line's leading verdict tag that says it failed:
// `[  FAIL  ] `, `[FAILED] `, `[ NOT OK ] `.
func failTag(t []byte) bool {
	switch string(tagWord(t, '[', ']')) {
	case "FAIL", "FAILED", "NOT OK":
		return true
	}
	return false
}

// passTag reports a line's leading tag that says a test passed:
// `[  PASS  ] `, `[ OK ] `, `( PASSED ) `.
func passTag(t []byte) bool {
	w := tagWord(t, '[', ']')
	if w == nil {
		w = tagWord(t, '(', ')')
	}
	switch string(w) {
	case "PASS", "PASSED", "OK":
		return true
	}
	return false
}

// expectedMark reports a line that says a failure was expected: `XFAIL`,
// `xfail`, "expected to fail", "expected failure".
func expectedMark(t []byte) bool {
	if bytes.IndexByte(t, 'x') < 0 && bytes.IndexByte(t, 'X') < 0 {
		return false // most lines: one pass each for the two letters all four hold
	}
	return bytes.Contains(t, []byte("XFAIL")) || bytes.Contains(t, []byte("xfail")) ||
		bytes.Contains(t, []byte("xpected to fail")) || bytes.Contains(t, []byte("xpected failure"))
}

// genericMatch reports a line that reads as an error; at is where a
// leading `file:L:C: ` ends (locationEnd).
func genericMatch(t []byte, at int) bool {
	if t[0] == '#' {
		if rest := skipBuildKit(t); len(rest) < len(t) {
			if len(rest) < 4 {
				return false
			}
			t, at = rest, locationEnd(rest)
		}
	}
	if rest := skipStamp(t); len(rest) < len(t) {
		// A logger's `2026-01-02 15:04:05,123 ERROR name: …`: the level
		// starts the line once its time is set aside.
		if len(rest) < 4 {
			return false
		}
		t, at = rest, locationEnd(rest)
	}
	if t[0] == '[' {
		if m := mavenTag.Find(t); m != nil {
			t = t[len(m):]
			if len(t) < 4 {
				return false
			}
			at = locationEnd(t)
		}
	}
	// A compiler's `file.c:12:5: error: …`, whatever the path starts
	// with (`app.c`, `Foo.java`): a word below starting so is not checked.
	if at > 0 && (hasPrefix(t[at:], "error") || hasPrefix(t[at:], "fatal error")) {
		return true
	}
	switch t[0] {
	case 'F':
		if word(t, "FAIL") || word(t, "FAILED") || word(t, "FAILURE") || word(t, "FATAL") || word(t, "Fatal") || word(t, "Failed") {
			return true
		}
	case 'E':
		if word(t, "ERROR") || word(t, "Error") || word(t, "Exception") || hasPrefix(t, "ERR_PNPM_") ||
			word(t, "Expected") && genericExpected.Match(t) {
			return true
		}
	case 'l':
		if logfmtError(t) {
			return true
		}
	case 'e':
		if word(t, "error") || hasPrefix(t, "error[") || word(t, "expected") && genericExpected.Match(t) {
			return true
		}
	case 'f':
		if word(t, "fatal") || hasPrefix(t, "fatal error") {
			return true
		}
	case 'p', 'P':
		if word(t, "panic") || word(t, "PANIC") {
			return true
		}
	case 'S':
		if hasPrefix(t, "Segmentation fault") {
			return true
		}
	case 'C':
		if word(t, "CRITICAL") { // Python logging's level above ERROR
			return true
		}
	case 'A':
		if word(t, "Assertion") || word(t, "AssertionError") || hasPrefix(t, "Aborted") || word(t, "ASSERT") {
			return true
		}
	case 'a':
		if word(t, "assert") || word(t, "assertion") {
			return true
		}
	case 'B':
		if hasPrefix(t, "Bus error") {
			return true
		}
	case 'K':
		if string(t) == "Killed" {
			return true
		}
	case 'U':
		if word(t, "Uncaught") || word(t, "Unhandled") {
			return true
		}
	}
	return exceptionName(t) || toolError(t)
}

// logfmtError reports a logfmt line (logrus, zap's console, slog's
// TextHandler) at level error or above: `level=error msg="…"`, after its
// time (skipStamp has set `time=…` aside).
func logfmtError(t []byte) bool {
	for _, p := range []string{"level=", "lvl="} {
		if hasPrefix(t, p) {
			v := bytes.TrimPrefix(t[len(p):], []byte(`"`))
			for _, l := range []string{"error", "ERROR", "eror", "fatal", "FATAL", "panic", "PANIC", "crit", "CRIT"} {
				if hasPrefix(v, l) {
					return true
				}
			}
		}
	}
	return false
}

// word reports t starting with w as a whole word: followed by the end, a
// blank, or punctuation other than a letter or digit.
func word(t []byte, w string) bool {
	if !hasPrefix(t, w) {
		return false
	}
	if len(t) == len(w) {
		return true
	}
	c := t[len(w)]
	if (c == '.' || c == '/') && len(t) > len(w)+1 && alnum(t[len(w)+1]) {
		return false // a file or path named so (`error.js` in a coverage table), not the word
	}
	return !(alnum(c) || c == '_')
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }

// skipStamp returns t after the time stamps a logger puts first: up to
// three words (each maybe in brackets, or `time=…`/`ts=…`) made of digits
// and date or time punctuation, with at least one digit and one ':' or
// '-' (`2026-01-02T15:04:05.123Z`, `[15:04:05]`, `2026/01/02`).
func skipStamp(t []byte) []byte {
	for k := 0; k < 3 && len(t) > 0; k++ {
		end := bytes.IndexByte(t, ' ')
		if end < 0 {
			return t
		}
		w := t[:end]
		for _, p := range []string{"time=", "ts="} {
			if hasPrefix(w, p) {
				w = bytes.Trim(w[len(p):], `"`)
			}
		}
		w = bytes.TrimSuffix(bytes.TrimPrefix(w, []byte("[")), []byte("]"))
		if !stampWord(w) {
			return t
		}
		t = bytes.TrimLeft(t[end:], " ")
	}
	return t
}

// skipBuildKit returns t after the step number and time docker's BuildKit
// puts before each line a build step prints (`#12 3.456 `), or t.
func skipBuildKit(t []byte) []byte {
	i := 1
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 1 || i == len(t) || t[i] != ' ' {
		return t
	}
	rest := t[i+1:]
	j := 0
	for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == '.') {
		j++
	}
	if j > 0 && j < len(rest) && rest[j] == ' ' && bytes.IndexByte(rest[:j], '.') > 0 {
		rest = rest[j+1:]
	}
	return rest
}

func stampWord(w []byte) bool {
	digit, sep := false, false
	for _, c := range w {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c == ':' || c == '-' || c == '/':
			sep = true
		case c == 'T' || c == 'Z' || c == '.' || c == ',' || c == '+':
		default:
			return false
		}
	}
	return digit && sep
}

// exceptionName reports a line that starts with an exception's name and a
// colon or nothing else: `ValueError: x`, `java.lang.IllegalStateException:`,
// `AssertionFailure` — `^[A-Za-z_][\w.$]*(Error|Exception|Failure)(:|$)`,
// without a regexp, as it runs on most lines of an unfamiliar log.
func exceptionName(t []byte) bool {
	if len(t) == 0 || !(t[0] >= 'a' && t[0] <= 'z' || t[0] >= 'A' && t[0] <= 'Z' || t[0] == '_') {
		return false
	}
	i := 1
	for i < len(t) && (isPathByte(t[i]) && t[i] != '/' && t[i] != '-' || t[i] == '$') {
		i++
	}
	if i < len(t) && t[i] != ':' {
		return false
	}
	name := t[:i]
	return bytes.HasSuffix(name, []byte("Error")) || bytes.HasSuffix(name, []byte("Exception")) || bytes.HasSuffix(name, []byte("Failure"))
}

// isPathByte is [\w./-].
func isPathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '/' || c == '-'
}

// locationEnd returns the index after a leading `file:L: ` or `file:L:C: `
// (no blank in file), or -1.
func locationEnd(t []byte) int {
	i := 0
	for i < len(t) && t[i] != ':' && t[i] != ' ' && t[i] != '\t' {
		i++
	}
	if i == 0 || i == len(t) || t[i] != ':' {
		return -1
	}
	for n := 0; n < 2; n++ { // line, then an optional column
		j := i + 1
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		if j == i+1 || j >= len(t) || t[j] != ':' {
			return -1
		}
		if j+1 < len(t) && t[j+1] == ' ' {
			return j + 2
		}
		i = j
	}
	return -1
}
