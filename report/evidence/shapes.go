package evidence

import (
	"regexp"
	"strings"
)

// Shapes are how a runner's evidence lines look, by what they say, for the
// comment (report/render), which ranks the lines of a quoted block when
// only some fit: the message first, then where and which test, then the
// diff under the message. A grammar registers its runner's shapes with
// it (Grammar.Shapes); the comment asks only the functions below, so it
// names no runner, and a runner added here is ranked as its grammar says.
type Shapes struct {
	// Verdict are the prefixes of a line, blanks trimmed, that names a
	// failing test or unit (`--- FAIL`, `● name`); VerdictIn substrings
	// that make a line one anywhere (`[build failed]`); Framed a rule
	// that frames a test's heading on both sides (`___ test_x ___`).
	Verdict   []string
	VerdictIn []string
	Framed    string
	// Quote is the mark the runner puts before each line of a message
	// (pytest's `E `): such a line is the message, whatever it says.
	Quote string
	// Bare matches a message that says little without the detail line
	// under it (`E  assert False`, over `E  +  where False = f(x)`).
	Bare *regexp.Regexp
	// Where matches a location line that says where and the error's type
	// but not what went wrong (`pkg/test_x.py:197: AssertionError`).
	Where *regexp.Regexp
	// Log matches a test's own log line, which names a place but is no
	// stack frame (`x_test.go:21: got 1`).
	Log *regexp.Regexp
	// Payload, for a runner that wraps what a test printed in an event
	// (go test -json), returns where the field holding it starts and
	// where what the test printed starts in a line; -1, -1 when the line
	// is no such event.
	Payload func(line string) (field, at int)
}

// shapes gathers every registered grammar's Shapes; built on first use,
// after every init has registered.
var shapes = struct {
	verdict, verdictIn, framed, quote []string
	bare, where, log                  []*regexp.Regexp
	payload                           []func(string) (int, int)
}{}

func addShapes(s Shapes) {
	shapes.verdict = append(shapes.verdict, s.Verdict...)
	shapes.verdictIn = append(shapes.verdictIn, s.VerdictIn...)
	if s.Framed != "" {
		shapes.framed = append(shapes.framed, s.Framed)
	}
	if s.Quote != "" {
		shapes.quote = append(shapes.quote, s.Quote)
	}
	for _, re := range []struct {
		re   *regexp.Regexp
		list *[]*regexp.Regexp
	}{{s.Bare, &shapes.bare}, {s.Where, &shapes.where}, {s.Log, &shapes.log}} {
		if re.re != nil {
			*re.list = append(*re.list, re.re)
		}
	}
	if s.Payload != nil {
		shapes.payload = append(shapes.payload, s.Payload)
	}
}

// VerdictLine reports a line (blanks trimmed) that names a failing test
// or unit in its runner's words.
func VerdictLine(t string) bool {
	for _, p := range shapes.verdict {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	for _, s := range shapes.verdictIn {
		if strings.Contains(t, s) {
			return true
		}
	}
	for _, f := range shapes.framed {
		if strings.HasPrefix(t, f) && strings.HasSuffix(strings.TrimSpace(t), f) {
			return true
		}
	}
	return false
}

// Quoted reports a line (blanks trimmed) that its runner marked as a
// message line.
func Quoted(t string) bool {
	for _, q := range shapes.quote {
		if strings.HasPrefix(t, q) {
			return true
		}
	}
	return false
}

// Unquote removes a runner's message mark from a line (blanks trimmed).
func Unquote(t string) string {
	for _, q := range shapes.quote {
		if strings.HasPrefix(t, q) {
			return t[len(q):]
		}
	}
	return t
}

// BareMessage reports a message that says little without the line under it.
func BareMessage(t string) bool { return anyMatch(shapes.bare, t) }

// WhereLine reports a location with only an error's type after it.
func WhereLine(t string) bool { return anyMatch(shapes.where, t) }

// LogLine reports a test's own log line (not a stack frame).
func LogLine(t string) bool { return anyMatch(shapes.log, t) }

// PayloadAt returns where the field holding what a test printed starts
// in an event line, and where what it printed starts; -1, -1 when the
// line is no event.
func PayloadAt(line string) (field, at int) {
	for _, p := range shapes.payload {
		if f, a := p(line); a >= 0 {
			return f, a
		}
	}
	return -1, -1
}

func anyMatch(res []*regexp.Regexp, t string) bool {
	for _, re := range res {
		if re.MatchString(t) {
			return true
		}
	}
	return false
}
