package evidence

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// maxBlockRead bounds what quote reads of one block: its first and last
// halves of this when it is longer (a test that logged megabytes).
const maxBlockRead = 2 << 20

// bline is one line of a block as quote sees it.
type bline struct {
	start, end, no int64
	key            int  // how directly the line explains a failure (0: not)
	jvmFrame       bool // `\tat pkg.Class.method(File.java:12)`
}

// quote adds the lines of r's block that best explain it, within limit
// bytes (and the budget): all of it when it fits; else its heading, its
// last line when that says something (Python's exception, pytest's
// location), windows around its key lines (assertion, expected/actual,
// location), then more after the first key line.
func (p *planner) quote(r ref, limit int64, reason string) error {
	if p.budget <= 0 {
		return nil
	}
	limit = min(limit, p.budget+p.coveredIn(r))
	lines, err := blockLines(r.in.RA, r.b.Spans)
	if err != nil {
		return fmt.Errorf("read the %s evidence of %q: %w", r.b.Runner, r.b.Test, err)
	}
	if len(lines) == 0 {
		return nil
	}
	sel := selectLines(lines, limit)
	pc := Piece{Stream: r.in.Stream, Reason: reason, Runner: r.b.Runner, Test: r.b.Test, Role: r.b.Role}
	for _, sp := range runs(lines, sel) {
		if sp.End-sp.Start > limit { // one line longer than the limit: its start
			sp.End, sp.cutEnd = sp.Start+max(limit, 1), true
		}
		if p.fresh(r.in.Stream, sp) > p.budget {
			continue // the lines already quoted were counted in limit; these do not fit
		}
		pc.Span = sp
		p.add(pc)
	}
	return nil
}

// fresh is how many bytes of sp are not quoted yet.
func (p *planner) fresh(stream string, sp Span) int64 {
	var n int64
	for _, part := range subtract(sp, p.covered[stream]) {
		n += part.End - part.Start
	}
	return n
}

// coveredIn is how many bytes of r's block are quoted already, so a block
// grown in a later round is judged by its whole size.
func (p *planner) coveredIn(r ref) int64 {
	var n int64
	for _, c := range p.covered[r.in.Stream] {
		for _, s := range r.b.Spans {
			if lo, hi := max(c.Start, s.Start), min(c.End, s.End); hi > lo {
				n += hi - lo
			}
		}
	}
	return n
}

// selectLines marks the lines to quote within limit bytes.
func selectLines(lines []bline, limit int64) []bool {
	sel := make([]bool, len(lines))
	var total int64
	for _, l := range lines {
		total += l.end - l.start
	}
	if total <= limit {
		for i := range sel {
			sel[i] = true
		}
		return sel
	}
	used := int64(0)
	take := func(i int) bool {
		if i < 0 || i >= len(lines) || sel[i] {
			return true
		}
		n := lines[i].end - lines[i].start
		if used+n > limit && used > 0 {
			return false
		}
		sel[i], used = true, used+n
		return true
	}
	take(0)
	// The last words of a block are often its verdict and cause (Python's
	// exception line, pytest's `file.py:N: Error`). A JVM block's last line
	// is a frame, only the place: it waits for the assertions, as under a
	// tight limit surefire's `org.junit.ComparisonFailure: expected:<…>`
	// above it is the cause.
	if last := lastNonBlank(lines); last > 0 && lines[last].key > 0 && !lines[last].jvmFrame {
		take(last)
	}
	for _, lvl := range []int{2, 1} {
		for i, l := range lines {
			if l.key != lvl {
				continue
			}
			for j := i - 1; j <= i+2; j++ {
				if !take(j) {
					break
				}
			}
		}
	}
	for i := firstKey(lines); i < len(lines) && take(i); i++ {
	}
	return sel
}

// lastNonBlank is the index of the last line with more than a newline, or
// -1.
func lastNonBlank(lines []bline) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i].end-lines[i].start > 2 {
			return i
		}
	}
	return -1
}

func firstKey(lines []bline) int {
	for i, l := range lines {
		if l.key > 0 {
			return i
		}
	}
	return 1
}

// runs turns selected lines into spans of adjacent lines.
func runs(lines []bline, sel []bool) []Span {
	var out []Span
	for i, l := range lines {
		if !sel[i] {
			continue
		}
		if n := len(out); n > 0 && sel[i-1] && out[n-1].End == l.start {
			out[n-1].End, out[n-1].Last = l.end, l.no
			continue
		}
		out = append(out, Span{Start: l.start, End: l.end, First: l.no, Last: l.no})
	}
	return out
}

// blockLines reads a block's lines, scoring each; of a block longer than
// maxBlockRead only the lines in its first and last halves of that.
func blockLines(ra io.ReaderAt, spans []Span) ([]bline, error) {
	var total int64
	for _, s := range spans {
		total += s.End - s.Start
	}
	keepHead, keepTail := total, int64(0)
	if total > maxBlockRead {
		keepHead, keepTail = maxBlockRead/2, maxBlockRead/2
	}
	var out []bline
	var at int64 // block-relative offset of the span's start
	for _, s := range spans {
		n := s.End - s.Start
		headEnd := s.Start
		if at < keepHead {
			headEnd = s.Start + min(n, keepHead-at)
			b, err := readRange(ra, s.Start, headEnd)
			if err != nil {
				return nil, err
			}
			out = appendLines(out, b, s.Start, s.First)
		}
		if tailFrom := total - keepTail; keepTail > 0 && at+n > tailFrom {
			lo := max(s.Start+max(tailFrom-at, 0), headEnd)
			b, err := readRange(ra, lo, s.End)
			if err != nil {
				return nil, err
			}
			if lo > s.Start { // lo may sit inside a line: start at the next one
				i := bytes.IndexByte(b, '\n')
				if i < 0 || i == len(b)-1 {
					b = nil
				} else {
					b, lo = b[i+1:], lo+int64(i+1)
				}
			}
			first := s.Last - int64(bytes.Count(b[:max(len(b)-1, 0)], []byte{'\n'}))
			out = appendLines(out, b, lo, first)
		}
		at += n
	}
	return out, nil
}

func readRange(ra io.ReaderAt, lo, hi int64) ([]byte, error) {
	b := make([]byte, hi-lo)
	if k, err := ra.ReadAt(b, lo); k < len(b) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("read [%d,%d): %w", lo, hi, err)
	}
	return b, nil
}

// appendLines splits b, which starts at offset start on line no, into lines.
func appendLines(out []bline, b []byte, start, no int64) []bline {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			i = len(b) - 1
		}
		line := b[:i+1]
		out = append(out, bline{start: start, end: start + int64(len(line)), no: no, key: keyOf(line), jvmFrame: jvmFrame(line)})
		start += int64(len(line))
		no++
		b = b[i+1:]
	}
	return out
}

// jvmFrame reports a JVM stack frame, `at pkg.Class.method(File.java:12)`
// (or .kt, .scala, .groovy) after blanks.
func jvmFrame(line []byte) bool {
	t := bytes.TrimLeft(line, " \t")
	if !hasPrefix(t, "at ") {
		return false
	}
	i := bytes.LastIndexByte(t, '(')
	return i > 0 && (bytes.Contains(t[i:], []byte(".java:")) || bytes.Contains(t[i:], []byte(".kt:")) ||
		bytes.Contains(t[i:], []byte(".scala:")) || bytes.Contains(t[i:], []byte(".groovy:")))
}

// keyOf scores a line: 2 for an assertion, an error message or
// expected/actual values, 1 for a source location or a stack frame's
// head, 0 for anything else (a test's own log lines, source listings, the
// frames of Rust's std in a backtrace, heads and `at /rustc/…` lines).
func keyOf(line []byte) int {
	if out, ok := jsonOutput(line); ok {
		line = out // a go test -json event: the test's line is what it says
	}
	t := bytes.TrimLeft(clip(line, 512), " \t")
	if hasPrefix(t, "--- FAIL") || hasPrefix(t, "--- PASS") || hasPrefix(t, "=== ") || gtestMarker(t) {
		return 0 // a verdict or marker says nothing the excerpt's label does not
	}
	if gmockBoilerplate(t) {
		return 0 // gMock's words around what was expected and got (`Expected arg #3: …`, `Actual: "foo\r"`)
	}
	if hasPrefix(t, "at /rustc/") || rustStdFrame.Match(t) {
		return 0 // a backtrace frame in Rust's own library (`2: core::panicking::panic_fmt`, its `at /rustc/…`): the crate's frames below it say where
	}
	if hasPrefix(t, "at ") {
		if k, ok := jvmFrameKey(t); ok {
			return k // a JVM frame: `at org.junit.Assert.assertEquals(Assert.java:117)` is no assertion of the test's
		}
	}
	for _, w := range keyWords {
		if bytes.Contains(t, w) {
			return 2
		}
	}
	for _, p := range keyPrefixes {
		if bytes.HasPrefix(t, p) {
			return 2
		}
	}
	if failureCount.Match(t) || numberedHeading.Match(t) {
		return 2 // a summary that counts failures (`1605 specs, 8 failures`), a failure's numbered heading
	}
	if keyLocation.Match(t) {
		return 1
	}
	return 0
}

var (
	keyWords = bytesList("Error", "error:", "Exception", "assert", "Assert", "expected", "Expected", "Which is: ", "Value of: ",
		"got:", "got ", "want", "actual", "Actual", "Received", "panic", "FAIL", "failed", "mismatch",
		"unexpected", "not equal", "!==", " != ", "left:", "right:", "Failed asserting", "Sanitizer",
		"runtime error", "DATA RACE", "Segmentation fault", "timed out", "timeout",
		// Catch2's words under a failed assertion, over its expansion or
		// the exception's message.
		"with expansion:", "with message", "fatal error condition",
		// tcltest's headings over what a failed test returned and what
		// it should have.
		"Result was:", "should have been")
	keyPrefixes = bytesList("E   ", "E  ", "> ", "+ ", "- ", "-->", "❯ ", "Caused by", "Previous write", "Write at", "Read at", "but: ")
	// rustStdFrame: the head of a Rust backtrace frame in the standard
	// library or libtest (`0: __rustc::rust_begin_unwind`, `5: <alloc::vec::Vec<T,A> as …>::index`).
	rustStdFrame = regexp.MustCompile(`^\d+: <?(?:__rustc|core|std|alloc|test)::`)
	// gmockLine: gMock's lines that say a call was unexpected or an
	// expectation's call count, which every such failure repeats.
	gmockLine = regexp.MustCompile(`^(?:Unexpected mock function call - returning directly\.|Expected: (?:to be called |all pre-requisites are satisfied)|Actual: (?:never called|called (?:once|twice|\d+ times) - |the following immediate pre-requisites are not satisfied))`)
	// failureCount: a nonzero count of failures in a runner's summary.
	failureCount = regexp.MustCompile(`\b[1-9]\d* failures\b`)
	// numberedHeading: the heading of a numbered failure (`1) Test slugger
	// should be unique`), as jasmine, mocha, RSpec and PHPUnit list them.
	numberedHeading = regexp.MustCompile(`^\d+\) \S`)
	keyLocation     = regexp.MustCompile(`\.(go|py|rs|js|mjs|cjs|ts|tsx|jsx|rb|php|java|kt|c|cc|cpp|h|hpp|cs|swift|ex|exs|pl|t):\d+|\bat \S+:\d+|, line \d+`)
)

func bytesList(ss ...string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

// LineKey scores one line of quoted text as the planner does (see keyOf),
// for renderers that shorten an excerpt further: 2 for an assertion or
// error message, 1 for a location or stack frame, 0 for anything else.
func LineKey(line string) int { return keyOf([]byte(line)) }

// HasLocation reports whether a line of quoted text names a source
// location (`x_test.go:191`, `, line 3`, `at f (a.js:3:9)`), as keyOf
// scores it.
func HasLocation(line string) bool { return keyLocation.MatchString(line) }

// outputKey starts the Output field of a go test -json (test2json) event.
const outputKey = `"Output":"`

// jsonOutput returns the Output field of a go test -json event line, raw
// (escapes not decoded: keyOf's words and locations hold no quotes), and
// whether the line is one. Other events (`"Action":"fail"`) have none.
func jsonOutput(line []byte) ([]byte, bool) {
	if !hasPrefix(line, `{"`) {
		return nil, false
	}
	i := bytes.Index(line, []byte(outputKey))
	if i < 0 {
		return nil, bytes.Contains(line, []byte(`"Action":"`))
	}
	return line[i+len(outputKey):], true
}

// outputAt returns where the Output field's value starts in a go test
// -json event line, or -1: a renderer that must shorten the line cuts
// the event's wrapper (time, package, test name) before what the test
// printed.
func outputAt(line string) int {
	if !strings.HasPrefix(line, `{"`) {
		return -1
	}
	i := strings.Index(line, outputKey)
	if i < 0 {
		return -1
	}
	return i + len(outputKey)
}

// gmockBoilerplate: a line gMock prints around every failed expectation
// (`Unexpected mock function call - returning directly.`, `Expected: to be
// called once`, `Actual: never called - unsatisfied and active`): what
// was expected and got is on the lines between (`Expected arg #3: is equal
// to "foo\n"`, `Actual: "foo\r"`), and they, not these, are the evidence
// a cut excerpt keeps.
func gmockBoilerplate(t []byte) bool {
	if !hasPrefix(t, "Unexpected mock ") && !hasPrefix(t, "Expected: ") && !hasPrefix(t, "Actual: ") {
		return false
	}
	return gmockLine.Match(t)
}
