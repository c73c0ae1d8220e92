package compaction

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/runledger/runledger/report/runners"
)

// Outcome is what the text of one output says about a test or build run.
// It is text evidence only: the run record's exit status outranks it, and
// OutcomePassed is never a success claim by itself.
type Outcome string

const (
	OutcomeNotRun  Outcome = "not_run" // no run markers, or a shape that only quotes them
	OutcomeFailed  Outcome = "failed"  // at least one failure marker or non-zero count
	OutcomePassed  Outcome = "passed"  // pass evidence and no failure evidence anywhere
	OutcomeUnknown Outcome = "unknown" // run-like, but no verdict either way
)

// Verdict is the result of Classify.
type Verdict struct {
	RunLike bool    `json:"run_like"`
	Outcome Outcome `json:"outcome"`
	// Reason names the rule that decided: a marker kind for runs
	// (failure_marker, failure_count, exit_status, pass_marker, pass_count,
	// run_marker, quoted_failure) or why the text is not a run (no_marker, indented_only,
	// numbered_source, diff, source_code, saved_report).
	Reason string `json:"reason"`
	// Family is the run's command family (runner, and for a script its
	// path): a run is superseded only by a later run of its family. ""
	// for a run whose family the text does not tell (python -c).
	Family string `json:"family,omitempty"`
	// Targets are the test files the run names (pytest's, sympy's): a
	// later run of the family supersedes it only if it names them all.
	// Empty when the text names none.
	Targets []string `json:"targets,omitempty"`
	// Line, Offset and Evidence locate the deciding line (1-based line, byte
	// offset of its start, its text); zero when no line decided.
	Line     int    `json:"line,omitempty"`
	Offset   int64  `json:"offset,omitempty"`
	Evidence string `json:"evidence,omitempty"`
}

// maxLine bounds how much of one line is examined, so a single huge line
// cannot make ClassifyReader hold a whole log. Markers start lines and
// summaries are short, so the head of a line is what matters.
const maxLine = 64 << 10

// Classify reports whether text is the output of a test or build run and,
// if so, whether it failed or passed.
func Classify(text string) Verdict {
	v, _ := ClassifyReader(strings.NewReader(text))
	return v
}

// ClassifyReader is Classify over a stream, holding at most one bounded line
// at a time, for logs too big to read whole.
func ClassifyReader(r io.Reader) (Verdict, error) {
	br := bufio.NewReaderSize(r, 32<<10)
	var c classifier
	for {
		line, n, err := readLine(br)
		if n > 0 {
			c.feed(line, n)
		}
		if err == io.EOF {
			return c.verdict(), nil
		}
		if err != nil {
			return c.verdict(), fmt.Errorf("classify: read line %d: %w", c.lineNo+1, err)
		}
	}
}

// readLine returns the head (up to maxLine bytes) of the next line without
// its newline, and the line's full length in bytes including the newline.
func readLine(br *bufio.Reader) (string, int64, error) {
	var head []byte
	var n int64
	for {
		frag, err := br.ReadSlice('\n')
		n += int64(len(frag))
		if room := maxLine - len(head); room > 0 {
			head = append(head, frag[:min(room, len(frag))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return strings.TrimRight(string(head), "\r\n"), n, err
	}
}

// evidence is one marker line.
type evidence struct {
	line   int
	offset int64
	text   string
	reason string
}

func (e *evidence) setOnce(lineNo int, off int64, text, reason string) {
	if e.reason == "" {
		*e = evidence{lineNo, off, text, reason}
	}
}

// classifier is the per-line state machine behind Classify. The counters
// decide whether the text as a whole is a run; the shapes that only quote
// run output (diffs, numbered reads, source files, Markdown) are recognised
// by the share of lines they take, so one stray line cannot flip a verdict.
type classifier struct {
	lineNo   int
	offset   int64
	nonBlank int

	numbered  int // cat -n / editor-style numbered lines
	patch     int // diff headers, hunk bodies, commit headers
	decls     int // column-0 source declarations
	shadowed  int // failure-looking lines in regions that do not count
	anchored  bool
	inFence   bool
	fence     string
	inCommit  bool
	hunkOld   int
	hunkNew   int
	firstRun  evidence
	firstFail evidence
	lastPass  evidence

	// report: the text opens as a file a runner saves (a crash report),
	// so it is that file read back.
	report bool
	// capturedEnd, while set, is the line that ends the stretch of a
	// test's own output a runner is repeating (pytest's captured stdout).
	capturedEnd *regexp.Regexp

	frame    harnessFrame
	py       pythonRun
	runner   string // the first runner whose line was seen
	outer    string // the first runner seen that drives others
	totals   int    // whole-run summaries seen
	totalBad int    // of which did not say passed
	badTotal evidence
	lastTot  int                        // line of the last whole-run summary
	failLate bool                       // a failure line came after it: something else ran and failed
	targets  map[string]map[string]bool // per runner, the targets its lines named
}

func (c *classifier) feed(line string, n int64) {
	c.lineNo++
	off := c.offset
	c.offset += n
	line = stripANSI(line)
	if strings.TrimSpace(line) == "" {
		c.blankInHunk()
		return
	}
	if c.frame.feed(line, c.lineNo, off) {
		return
	}
	c.nonBlank++
	if c.nonBlank == 1 && runners.ReportHeader(strings.TrimSpace(line)) {
		c.report = true
	}
	if c.py.skip(line) {
		return
	}
	if c.skipped(line) {
		if m, ok := matchMarker(line); ok && m.polarity == failing {
			c.shadowed++
		}
		return
	}
	c.py.feed(line, c.lineNo, off)
	c.noteTarget(line)
	if isDecl(line) {
		c.decls++
	}
	m, ok := matchMarker(line)
	if !ok {
		return
	}
	if m.run && indent(line) < 4 {
		c.anchored = true
	}
	if m.run {
		c.firstRun.setOnce(c.lineNo, off, line, "run_marker")
	}
	c.noteRunner(m)
	if m.polarity == failing && c.totals > 0 {
		c.failLate = true
	}
	if m.total {
		c.totals++
		c.lastTot, c.failLate = c.lineNo, false
		if m.polarity != passing {
			c.totalBad++
			c.badTotal.setOnce(c.lineNo, off, line, m.reason)
		}
	}
	switch m.polarity {
	case failing:
		c.firstFail.setOnce(c.lineNo, off, line, m.reason)
	case passing:
		c.lastPass = evidence{c.lineNo, off, line, m.reason}
	}
}

// skipped reports whether the line belongs to a region whose markers are
// quoted rather than produced: a Markdown fence, a diff, a numbered read,
// a test's captured output.
func (c *classifier) skipped(line string) bool {
	if c.fenceLine(line) {
		return true
	}
	if c.capturedLine(line) {
		return true
	}
	if c.diffLine(line) {
		c.patch++
		return true
	}
	if numberedRe.MatchString(line) {
		c.numbered++
		return true
	}
	return false
}

// capturedLine tracks the stretches a runner copies from a test's own
// output (declared in report/runners): a test of a tool prints that tool's
// banner, and a pytest run of Sphinx's tests is still pytest's run. The
// line that ends a stretch is the runner's again, and may open the next.
func (c *classifier) capturedLine(line string) bool {
	t := strings.TrimSpace(line)
	if c.capturedEnd != nil {
		if !c.capturedEnd.MatchString(t) {
			return true
		}
		c.capturedEnd = nil
	}
	if end, ok := runners.CapturedSection(t); ok {
		c.capturedEnd = end
		return true
	}
	return false
}

func (c *classifier) fenceLine(line string) bool {
	if indent(line) < 4 {
		t := strings.TrimLeft(line, " ")
		for _, f := range []string{"```", "~~~"} {
			if !strings.HasPrefix(t, f) {
				continue
			}
			switch {
			case !c.inFence:
				c.inFence, c.fence = true, f
			case c.fence == f:
				c.inFence = false
			}
			return true
		}
	}
	return c.inFence
}

// diffLine tracks git show / git diff / diff -u structure. Hunk bodies are
// counted exactly from the @@ header, so a test that prints a small diff
// does not make the rest of its output invisible.
func (c *classifier) diffLine(line string) bool {
	if c.hunkOld > 0 || c.hunkNew > 0 {
		switch line[0] {
		case ' ':
			c.hunkOld, c.hunkNew = c.hunkOld-1, c.hunkNew-1
			return true
		case '-':
			c.hunkOld--
			return true
		case '+':
			c.hunkNew--
			return true
		case '\\':
			return true
		}
		c.hunkOld, c.hunkNew = 0, 0
	}
	if m := hunkRe.FindStringSubmatch(line); m != nil {
		c.hunkOld, c.hunkNew = hunkLen(m[1]), hunkLen(m[2])
		c.inCommit = false
		return true
	}
	if commitRe.MatchString(line) {
		c.inCommit = true
		return true
	}
	if patchHeaderRe.MatchString(line) {
		if strings.HasPrefix(line, "diff ") {
			c.inCommit = false
		}
		return true
	}
	return c.inCommit
}

// blankInHunk treats an empty line inside a hunk as context whose leading
// space was stripped, as some tools and editors do.
func (c *classifier) blankInHunk() {
	if c.hunkOld > 0 || c.hunkNew > 0 {
		c.hunkOld, c.hunkNew = c.hunkOld-1, c.hunkNew-1
	}
}

func (c *classifier) verdict() Verdict {
	if reason, ok := c.quotingShape(); ok {
		return Verdict{Outcome: OutcomeNotRun, Reason: reason}
	}
	c.py.into(c)
	if c.firstRun.reason == "" {
		return Verdict{Outcome: OutcomeNotRun, Reason: "no_marker"}
	}
	if !c.anchored {
		return Verdict{Outcome: OutcomeNotRun, Reason: "indented_only"}
	}
	v := c.outcome()
	v.Family = c.family()
	for t := range c.targets[v.Family] {
		v.Targets = append(v.Targets, t)
	}
	sort.Strings(v.Targets)
	return v
}

func (c *classifier) noteTarget(line string) {
	// Python's test files, and the suites a gtest run names.
	if !strings.Contains(line, ".py") && !strings.HasPrefix(strings.TrimLeft(line, " "), "[----------] ") {
		return
	}
	runner, target, ok := runners.LineTarget(strings.TrimSpace(stripANSI(line)))
	if !ok {
		return
	}
	if c.targets == nil {
		c.targets = map[string]map[string]bool{}
	}
	if c.targets[runner] == nil {
		c.targets[runner] = map[string]bool{}
	}
	c.targets[runner][target] = true
}

// outcome decides a run. What the run says about itself as a whole — the
// harness's exit status, the runner's own summary — outranks any line
// printed along the way, in the direction of passing: a run whose exit
// status is 0 or whose every summary passed is never a failure, whatever
// tracebacks its warnings print.
func (c *classifier) outcome() Verdict {
	exit := c.frame.exit
	switch {
	case exit.reason != "" && c.frame.code == 0 && c.totalBad > 0:
		// Exit 0 with a failing summary (pytest | tail): never a failure,
		// but no pass to claim either.
		return exit.verdict(OutcomeUnknown)
	case exit.reason != "" && c.frame.code == 0:
		e := exit
		if c.lastPass.reason != "" {
			e = c.lastPass
		}
		return e.verdict(OutcomePassed)
	case c.totals > 0 && c.totalBad == 0 && !c.failLate && !c.py.failedAfter(c.lastTot):
		return c.lastPass.verdict(OutcomePassed)
	case exit.reason != "":
		for _, e := range []evidence{c.firstFail, c.badTotal, exit} {
			if e.reason != "" {
				return e.verdict(OutcomeFailed)
			}
		}
	case c.firstFail.reason != "":
		return c.firstFail.verdict(OutcomeFailed)
	case c.lastPass.reason != "" && c.shadowed == 0:
		return c.lastPass.verdict(OutcomePassed)
	case c.lastPass.reason != "":
		// A failure line in a fence or hunk may be quoted or may be real;
		// either way it forbids calling the run a pass.
		e := c.lastPass
		e.reason = "quoted_failure"
		return e.verdict(OutcomeUnknown)
	}
	return c.firstRun.verdict(OutcomeUnknown)
}

// quotingShape recognises texts that merely contain run output: when most
// lines are diff or numbered lines, the text declares source code, or it
// is a report file a runner saved.
func (c *classifier) quotingShape() (string, bool) {
	switch {
	case c.nonBlank == 0:
		return "no_marker", true
	case c.report:
		return "saved_report", true
	case 2*c.numbered > c.nonBlank:
		return "numbered_source", true
	case 2*c.patch > c.nonBlank:
		return "diff", true
	case c.decls >= 2:
		return "source_code", true
	}
	return "", false
}

func (e evidence) verdict(o Outcome) Verdict {
	return Verdict{RunLike: true, Outcome: o, Reason: e.reason,
		Line: e.line, Offset: e.offset, Evidence: e.text}
}

// indent is the width of the line's leading blanks, a tab counting as 4.
func indent(line string) int {
	w := 0
	for _, r := range line {
		switch r {
		case ' ':
			w++
		case '\t':
			w += 4
		default:
			return w
		}
	}
	return w
}
