package evidence

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/runledger/runledger/report/runners"
)

// pytestGrammar reads pytest's failure sections: a `____ test_name ____`
// heading, then the test's source with its `>` line, the `E   ` lines and
// the `file.py:N: Error` location, up to the next heading or `====`
// banner; `____ ERROR collecting x.py ____` sections the same way. With
// --tb=line the FAILURES banner is followed by bare `file.py:N: message`
// lines. The short test summary's `FAILED x.py::t - msg` lines are
// verdicts.
type pytestGrammar struct {
	section  *Block
	failures bool // inside a FAILURES or ERRORS banner
}

var (
	pytestHeading = regexp.MustCompile(`^_{3,} (.+?) _{3,}$`)
	pytestBanner  = regexp.MustCompile(`^=+ (.*?) ?=+$`)
	pytestTBLine  = regexp.MustCompile(`^\S+\.py:\d+: \S`)
)

func (g *pytestGrammar) starts() string { return "_=FE" }
func (g *pytestGrammar) busy() bool     { return g.section != nil || g.failures }

func (g *pytestGrammar) reset() { g.section, g.failures = nil, false }

func (g *pytestGrammar) line(l *Line, sc *scanner) bool {
	t := l.T
	// A line a declared runner took (sympy's heading, unittest's FAILED
	// verdict) is not pytest's.
	if l.Indent == 0 && len(t) > 6 && !sc.claimed {
		switch t[0] {
		case '_':
			if t[len(t)-1] != '_' {
				break
			}
			if m := pytestHeading.FindSubmatch(t); m != nil {
				role, name := "test", string(m[1])
				if hasPrefix(m[1], "ERROR collecting ") {
					role = "collect"
				}
				g.section = sc.open("pytest", name, role, KindTest)
				g.section.add(l)
				return true
			}
		case '=':
			if t[len(t)-1] != '=' || t[1] != '=' {
				break // not a banner: `=== RUN   TestX` and the like
			}
			if m := pytestBanner.FindSubmatch(t); m != nil && len(m[1]) > 0 {
				g.section = nil
				g.failures = string(m[1]) == "FAILURES" || string(m[1]) == "ERRORS"
				return false
			}
		case 'F', 'E':
			if hasPrefix(t, "FAILED ") || hasPrefix(t, "ERROR ") && !logRecord(t) {
				g.section = nil
				name, _, _ := bytes.Cut(t[bytes.IndexByte(t, ' ')+1:], []byte(" - "))
				b := sc.open("pytest", string(clip(name, 300)), "verdict", KindVerdict)
				b.heading = true
				b.add(l)
				return true
			}
		}
	}
	if g.section != nil {
		g.section.add(l)
		return true
	}
	if g.failures && l.Indent == 0 && pytestTBLine.Match(t) {
		b := sc.open("pytest", string(clip(t, 200)), "test", KindTest)
		b.add(l)
		return true
	}
	return false
}

// tracebackGrammar reads a Python traceback that no test runner's block
// holds (a script dying on stderr): from `Traceback (most recent call
// last):` over its indented frames to the exception line. A log record
// at level ERROR or above printed right above it (logging.exception,
// logging.error(…, exc_info=True): `ERROR ingest: segment 400 could not
// be parsed`, `ERROR:root:…`, `2026-01-02 15:04:05,123 - app - CRITICAL -
// …`) says what failed: it opens the block.
type tracebackGrammar struct {
	oneBlock
	indent int
	// record is the latest line it was shown that starts as a log record
	// may (No 0: none), and text its first bytes.
	record Line
	text   []byte
}

// maxRecordPrefix is what of a record line errorRecord reads: its time,
// logger and level come first.
const maxRecordPrefix = 160

// The first bytes of a log record line: its level or a time stamp's
// digits (a bracketed level, `[ERROR]`, is not looked for: most lines
// of many logs start with a bracket).
func (g *tracebackGrammar) starts() string { return "TECF" + digits }

func (g *tracebackGrammar) reset() { g.block, g.record.No = nil, 0 }

func (g *tracebackGrammar) line(l *Line, sc *scanner) bool {
	if g.block == nil && !hasPrefix(l.T, "T") {
		if l.Indent == 0 {
			// Kept, not judged: only the line above a traceback is.
			g.record.Start, g.record.End, g.record.No = l.Start, l.End, l.No
			g.text = append(g.text[:0], l.T[:min(len(l.T), maxRecordPrefix)]...)
		}
		return false // the record line stays the other grammars'
	}
	if g.block != nil {
		g.block.add(l)
		if !l.blank() && l.Indent <= g.indent {
			g.block.Test = string(clip(l.T, 200))
			g.block = nil
		}
		return true
	}
	if sc.claimed || !hasPrefix(l.T, runners.PyTracebackStart) {
		return false
	}
	g.block, g.indent = sc.open("python", "traceback", "traceback", KindCrash), l.Indent
	if g.record.No > 0 && g.record.No == l.No-1 && g.record.End == l.Start && l.Indent == 0 && errorRecord(g.text) {
		g.block.add(&g.record)
	}
	g.record.No = 0
	g.block.add(l)
	return true
}

// logRecord reports a logger's `ERROR name: message` line, which pytest's
// `ERROR path::test - message` verdict never is: its first word ends with
// a colon.
func logRecord(t []byte) bool {
	w, _, _ := bytes.Cut(t[len("ERROR "):], []byte(" "))
	return len(w) > 1 && w[len(w)-1] == ':'
}

// errorRecord reports a log record line at level ERROR, CRITICAL or FATAL
// (or logging's EXCEPTION): the level first, after a time stamp and a
// bracket, or after a time stamp and the logger's name (`… - app - ERROR -
// …`), followed by a blank, a colon, a bracket or a dash.
func errorRecord(t []byte) bool {
	t = skipStamp(t)
	for k := 0; k < 3 && len(t) > 0; k++ {
		for len(t) > 0 && (t[0] == '[' || t[0] == '-' || t[0] == ' ') {
			t = t[1:]
		}
		for _, lvl := range []string{"ERROR", "CRITICAL", "FATAL", "EXCEPTION"} {
			if hasPrefix(t, lvl) && (len(t) == len(lvl) || strings.IndexByte(" :]-|", t[len(lvl)]) >= 0) {
				return true
			}
		}
		if k == 0 && len(t) > 0 && !(t[0] >= 'a' && t[0] <= 'z' || t[0] >= 'A' && t[0] <= 'Z') {
			return false // neither a level nor a logger's name
		}
		i := bytes.IndexByte(t, ' ')
		if i < 0 {
			return false
		}
		t = t[i:]
	}
	return false
}

func init() {
	register(Grammar{Runner: "pytest", Order: 40, New: func() grammar { return &pytestGrammar{} },
		Shapes: Shapes{Verdict: []string{"FAILED ", "ERROR: "}, Framed: "___", Quote: "E ", Bare: pytestBare, Where: pytestWhere}})
	register(Grammar{Runner: "traceback", Order: 50, New: func() grammar { return &tracebackGrammar{} }})
}

// pytestBare is pytest's message for an assertion on a call's result
// (`assert f(x)`): its `+  where` line below names the call.
var pytestBare = regexp.MustCompile(`^E\s+assert (False|None|True|0|not \S+)\s*$`)

// pytestWhere is pytest's last line of a failure, a location with only
// an exception's type after it (`pkg/test_x.py:197: AssertionError`).
var pytestWhere = regexp.MustCompile(`^\S+:\d+: [\w.]*(Error|Exception|Failure|Exit|Interrupt)\s*$`)
