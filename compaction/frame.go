package compaction

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/runledger/runledger/report/runners"
)

// harnessFrame reads what an agent harness wraps around a command's
// output: mini-swe-agent's <returncode>N</returncode> and <output> tags,
// its <warning> and <output_head>/<elided_chars>/<output_tail> elision,
// and OpenHands' "[The command completed with exit code N.]". The exit
// status is the strongest evidence a transcript holds; the tags and the
// harness's own notes are no part of the output.
type harnessFrame struct {
	exit    evidence // the line holding the exit status; reason "" when none
	code    int
	suffix  bool   // the exit status came from OpenHands' suffix, which must end the text
	inNote  string // the closing tag of the harness note being skipped
	outside bool   // a <returncode> line was seen: text outside <output> tags is the harness's
}

var (
	returncodeRe = regexp.MustCompile(`^<returncode>(-?\d+)</returncode>$`)
	// OpenHands' suffix, in its CodeAct ("[The command completed with exit
	// code 1.]") and newer ("[Command finished with exit code 1]") forms.
	openHandsExitRe = regexp.MustCompile(`^\[(?:The command completed|Command finished) with exit code (-?\d+)\.?\]$`)
	frameTagRe      = regexp.MustCompile(`^(?:</?(?:output|output_head|output_tail)>)+$`)
)

// feed reports whether line is the harness's rather than the command's.
func (f *harnessFrame) feed(line string, lineNo int, off int64) bool {
	t := strings.TrimSpace(line)
	if f.inNote != "" {
		if rest, ok := strings.CutPrefix(t, f.inNote); ok {
			f.inNote = ""
			return rest == "" || frameTagRe.MatchString(rest)
		}
		return true
	}
	if m := returncodeRe.FindStringSubmatch(t); m != nil && lineNo == 1 {
		f.setExit(m[1], lineNo, off, line)
		f.outside = true
		return true
	}
	if m := openHandsExitRe.FindStringSubmatch(t); m != nil {
		f.setExit(m[1], lineNo, off, line)
		f.suffix = true
		return true
	}
	if f.suffix {
		// The output went on: the line was quoted, not the harness's.
		f.exit, f.code, f.suffix = evidence{}, 0, false
	}
	if !f.outside {
		return false
	}
	for _, note := range []string{"warning", "elided_chars"} {
		if strings.HasPrefix(t, "<"+note+">") {
			f.inNote = "</" + note + ">"
			return true
		}
	}
	return frameTagRe.MatchString(t)
}

func (f *harnessFrame) setExit(code string, lineNo int, off int64, line string) {
	n, err := strconv.Atoi(code)
	if err != nil {
		return
	}
	f.code = n
	f.exit = evidence{lineNo, off, line, "exit_status"}
}

// pythonRun recognises a Python program's own failure: a traceback at
// column 0 (an indented one is a warning quoting it, such as site.py's
// report of a broken .pth file, which every interpreter start in such an
// environment prints) or a compile error of the script. Its first frame
// names the script, the target of the run's family.
type pythonRun struct {
	inPth     bool
	inTrace   bool
	failed    evidence
	lastFail  int // line of the last traceback or compile error
	script    string
	lastFrame string
}

var (
	pthErrorRe = regexp.MustCompile(`^Error processing line \d+ of .*\.pth:$`)
	compileRe  = regexp.MustCompile(`^(SyntaxError|IndentationError|TabError): `)
)

// skip reports whether line belongs to site.py's report of a broken .pth
// file, which says nothing about the program that was run.
func (p *pythonRun) skip(line string) bool {
	switch {
	case p.inPth:
		p.inPth = strings.TrimSpace(line) != "Remainder of file ignored"
		return true
	case pthErrorRe.MatchString(line):
		p.inPth = true
		return true
	}
	return false
}

func (p *pythonRun) feed(line string, lineNo int, off int64) {
	switch {
	case strings.HasPrefix(line, runners.PyTracebackStart):
		// A chained exception prints the inner traceback first; the last
		// one starts at the program's own frame.
		p.inTrace, p.lastFail, p.script = true, lineNo, ""
		p.failed.setOnce(lineNo, off, line, "failure_marker")
	default:
		file, ok := pyFrame(line)
		switch {
		case ok && p.inTrace && !strings.HasSuffix(file, "/runpy.py"):
			// python -m runs through runpy's frames before the module's.
			p.script, p.inTrace = file, false
		case ok:
			p.lastFrame = file
		case p.failed.reason == "" && p.lastFrame != "" && compileRe.MatchString(line):
			p.failed.setOnce(lineNo, off, line, "failure_marker")
			p.script, p.lastFail = p.lastFrame, lineNo
		}
	}
}

// pyFrame reads a traceback's frame line as Python prints it, two blanks
// in (the grammar is runners'): the file it names.
func pyFrame(line string) (string, bool) {
	if !strings.HasPrefix(line, "  File \"") {
		return "", false
	}
	file, _, ok := runners.PyFrame(line[2:])
	return file, ok
}

// failedAfter reports a Python failure after line n.
func (p *pythonRun) failedAfter(n int) bool { return p.lastFail > n }

// into adds a Python failure to the classifier's evidence, unless the
// text is some runner's run, which owns its tracebacks.
func (p *pythonRun) into(c *classifier) {
	if p.failed.reason == "" {
		return
	}
	e := p.failed
	if c.runner == "" && c.outer == "" {
		c.firstRun.setOnceEvidence(e)
		c.anchored = true
	}
	if c.firstFail.reason == "" || e.line < c.firstFail.line {
		c.firstFail = e
	}
}

func (e *evidence) setOnceEvidence(o evidence) {
	if e.reason == "" || o.line < e.line {
		*e = o
		e.reason = "run_marker"
	}
}

func (c *classifier) noteRunner(m marker) {
	if m.runner == "" || !m.run {
		return
	}
	if c.runner == "" {
		c.runner = m.runner
	}
	if m.outer && c.outer == "" {
		c.outer = m.runner
	}
}

// family is the run's command family: runner and target, flags and test
// selection left out. A test runner's target is the repository it runs
// in, the same across one transcript, so the runner names the family; a
// script's is its path, from the traceback's first frame. Code given on
// the command line (python -c, <stdin>) has no name to tell one snippet
// from another, so it has no family and is never superseded.
func (c *classifier) family() string {
	switch {
	case c.outer != "":
		return c.outer
	case c.runner != "":
		return c.runner
	case c.py.script == "" || strings.HasPrefix(c.py.script, "<"):
		return ""
	case runners.ScriptRunner(c.py.script) != "":
		return runners.ScriptRunner(c.py.script)
	}
	// The same script is named "repro.py" or "/testbed/repro.py" as it is
	// run from its directory or not: its file name is what stays.
	return "python " + path.Base(c.py.script)
}

var ansiRe = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// stripANSI removes colour codes, which pytest and others print when they
// think they write to a terminal, as agents' sandboxes often make them.
func stripANSI(line string) string {
	if !strings.Contains(line, "\x1b") {
		return line
	}
	return ansiRe.ReplaceAllString(line, "")
}
