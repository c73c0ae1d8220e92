package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// A Python traceback's grammar, read here for every reader of one: the
// report's messages and places (pythonTraceback, pytest's --tb=native),
// the excerpts' traceback blocks (report/evidence) and compaction's
// script and failure (compaction/frame.go). Each keeps only what it does
// with the lines.

// PyTracebackStart is the line a traceback opens with, at the indent of
// what printed it.
const PyTracebackStart = "Traceback (most recent call last):"

// pyFrame is a traceback's frame line, blanks trimmed:
// `File "/src/test_geo.py", line 12, in test_area`; a SyntaxError's names
// no function.
var pyFrame = regexp.MustCompile(`^File "([^"]+)", line (\d+)(?:, in |\s*$)`)

// PyFrame reads a traceback's frame line, blanks trimmed: the file and
// line it names.
func PyFrame(t string) (file string, line int, ok bool) {
	m := pyFrame.FindStringSubmatch(t)
	if m == nil {
		return "", 0, false
	}
	n, _ := strconv.Atoi(m[2])
	return m[1], n, true
}

// PyException reports a traceback's exception line, at column 0:
// `AssertionError: 12.57 != 12.56`, `ValueError`, `mod.CustomFailure: x`.
func PyException(t string) bool {
	m := pyException.FindStringSubmatch(t)
	return m != nil && isExceptionName(m[1])
}

// pythonTraceback reads a failure's message from the Python traceback
// under its heading (unittest's, sympy's bin/test's): the last exception
// line at column 0, "AssertionError: 12.57 != 12.56". The last, because a
// chained traceback ends with the exception that was raised. A bare
// "AssertionError" (a plain assert) says nothing by itself, so the source
// line it was raised on, the last one the traceback quotes, is added.
type pythonTraceback struct {
	exc, source string
	frame
}

func newPythonTraceback() messageReader { return &pythonTraceback{} }

// pyException is an exception line: a dotted name, then ": message" or
// nothing. isExceptionName checks the name, so a one-word line of prose
// is not taken for one.
var pyException = regexp.MustCompile(`^([A-Za-z_][\w.]*)(?:: .*)?$`)

func (p *pythonTraceback) line(text string) {
	if text == "" {
		return
	}
	if text[0] == ' ' || text[0] == '\t' {
		s := strings.TrimSpace(text)
		if s != "" && !strings.HasPrefix(s, "File \"") && !strings.HasPrefix(s, "^") {
			p.source = s
		}
		p.pyLine(s)
		return
	}
	if PyException(text) {
		p.exc = strings.TrimSpace(text)
	}
}

func (p *pythonTraceback) message() string {
	if p.exc == "AssertionError" && p.source != "" {
		return p.exc + " at: " + p.source
	}
	return p.exc
}

// isExceptionName reports a dotted name whose last part reads as an
// exception class: ValueError, sympy's PolificationFailed, SystemExit.
func isExceptionName(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	if last == "" || last[0] < 'A' || last[0] > 'Z' {
		return false
	}
	for _, suffix := range []string{"Error", "Exception", "Failure", "Failed", "Exit", "Interrupt", "Warning", "Iteration", "Timeout"} {
		if strings.HasSuffix(last, suffix) {
			return true
		}
	}
	return false
}
