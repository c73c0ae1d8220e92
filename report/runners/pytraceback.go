package runners

import (
	"regexp"
	"strings"
)

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
	if m := pyException.FindStringSubmatch(text); m != nil && isExceptionName(m[1]) {
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
