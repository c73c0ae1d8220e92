package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// frame is where a stack says a failure happened. A runner whose failure
// line names no file (RSpec, PHPUnit, unittest) prints the test's own
// frame under it; these readers find it, so a failing test is listed with
// its file:line as go test's are.
type frame struct {
	file string
	line int
	// test: the frame is in a test file, the place an agent opens first; a
	// frame in library code is kept only until one in a test file shows.
	test bool
}

// offer takes file:line as the place if none is kept yet, or if it is the
// first frame in a test file after frames that were not.
func (f *frame) offer(file, line string, test bool) {
	if f.file != "" && (f.test || !test) {
		return
	}
	n, err := strconv.Atoi(line)
	if err != nil || n <= 0 {
		return
	}
	f.file, f.line, f.test = file, n, test
}

func (f *frame) place() (string, int) { return f.file, f.line }

var (
	// rspecFrame: "# ./spec/calc_spec.rb:9:in `block (2 levels) in <top>'".
	rspecFrame = regexp.MustCompile(`^# (?:\./)?([^\s:]+\.rb):(\d+)(?::in |$)`)
	// phpFrame: "/src/tests/CalcTest.php:14", as PHPUnit lists a stack.
	phpFrame = regexp.MustCompile(`^(\S+\.php):(\d+)$`)
	// jsFrame: V8's `at fn (test/sum.test.js:7:23)` or `at file:///src/t.js:7:23`.
	jsFrame = regexp.MustCompile(`^at (?:.*\()?(?:file://)?([^\s()]+):(\d+):\d+\)?$`)
)

// maxFrameSeek bounds the lines a JavaScript runner's failure is followed
// for its first frame: a long diff may come between.
const maxFrameSeek = 200

// rspecLine reads RSpec's backtrace lines: the first frame in a
// _spec.rb file, else the first frame.
func (f *frame) rspecLine(t string) {
	if m := rspecFrame.FindStringSubmatch(t); m != nil {
		f.offer(m[1], m[2], strings.HasSuffix(m[1], "_spec.rb"))
	}
}

// phpLine reads PHPUnit's stack lines: the first frame in a *Test.php
// file, else the first frame.
func (f *frame) phpLine(t string) {
	if m := phpFrame.FindStringSubmatch(t); m != nil {
		f.offer(m[1], m[2], strings.HasSuffix(m[1], "Test.php"))
	}
}

// pyLine reads a Python traceback's frames: unittest and sympy's bin/test
// start it at the test function's own frame, so the first one is kept.
func (f *frame) pyLine(t string) {
	if m := pyFrame.FindStringSubmatch(t); m != nil && strings.HasSuffix(m[0], ", in ") { // not a SyntaxError's frame
		f.offer(m[1], m[2], true)
	}
}

// jsLine reads a V8 stack line: the first frame in a test file, else the
// first frame outside node_modules and node's own modules.
func (f *frame) jsLine(t string) {
	if !strings.HasPrefix(t, "at ") {
		return
	}
	m := jsFrame.FindStringSubmatch(t)
	if m == nil || strings.Contains(m[1], "node_modules/") || strings.HasPrefix(m[1], "node:") || strings.HasPrefix(m[1], "internal/") {
		return
	}
	f.offer(m[1], m[2], jsTestFile(m[1]))
}

// jsTestFile reports a path that names a test file the way jest, mocha
// and their peers find them.
func jsTestFile(p string) bool {
	return strings.Contains(p, ".test.") || strings.Contains(p, ".spec.") || strings.Contains(p, "__tests__/") ||
		strings.HasPrefix(p, "test/") || strings.HasPrefix(p, "tests/") || strings.Contains(p, "/test/") || strings.Contains(p, "/tests/")
}
