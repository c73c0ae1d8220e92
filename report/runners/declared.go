package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// Declaration is one runner's registration (registry.go): what it prints
// that tells its run apart from a text quoting one, the lines only it
// writes, in the shape it writes them, how it sums a run up (a declared
// Totals or a Parser of its own), and what of its output explains a
// failure. Each runner registers once, from its own file, and that one
// declaration is read by compaction (Lines, Targets, Scripts), by the
// report's summary (Totals, Parser) and by its excerpts (Evidence, read by
// report/evidence), so a runner added here is known to all three. A
// runner whose excerpts need a grammar of their own registers it in
// report/evidence under the same name.
type Declaration struct {
	// Runner is the runner part of a run's family key ("pytest", "make").
	Runner string
	// Outer: the runner drives others and speaks whether they failed or
	// passed (tox runs pytest, Django's runtests.py runs unittest), so a
	// text showing both is its run and belongs to its family.
	Outer bool
	// Lines are matched against a line with its leading and trailing
	// blanks trimmed.
	Lines []LineRule
	// Targets match the lines that name what a run tested (submatch 1, a
	// test file): a run of the same runner supersedes an earlier one only
	// if it tested all the earlier one's targets.
	Targets []*regexp.Regexp
	// Scripts match the paths of the runner's entry point, for a run that
	// failed before the runner printed anything of its own: a traceback
	// whose outermost frame is /testbed/bin/test is sympy's runner's run.
	Scripts []*regexp.Regexp
	// Reports match the first line of a file the runner writes instead of
	// printing it (Sphinx saves a crash's traceback to
	// /tmp/sphinx-err-*.log): a text that opens with one is that file
	// read back, not a run, however many tracebacks it holds.
	Reports []*regexp.Regexp
	// Captured are the stretches of the runner's output that repeat what a
	// test printed (pytest's "Captured stdout call" sections). Another
	// program's lines there, a Sphinx build's banner in a test of Sphinx,
	// are that test's output, not this run's: they name neither the run's
	// runner nor its verdict.
	Captured []Section
	// Totals, when set, is how the runner sums up a run, for report's
	// summary (declared_totals.go).
	Totals *Totals
	// Evidence, when set, is what of its output explains a failure, for
	// report's excerpts (declared_evidence.go).
	Evidence *Evidence
	// Parser, when set, is the runner's hand-written summary parser
	// (registry.go), for output Totals cannot read.
	Parser *Parser
}

// LineRule is one kind of line a runner prints.
type LineRule struct {
	Re *regexp.Regexp
	// Run: the line alone makes a text this runner's run. Lines that other
	// programs print too (a bare "OK") only say how a run went.
	Run bool
	// Total: the line is the runner's summary of the whole run, so its
	// verdict outranks failure-looking lines printed along the way (a
	// warning's traceback, a test's expected error).
	Total bool
	// Verdict is the line's fixed verdict; Judge, when set, reads it from
	// the match instead (a count of failures).
	Verdict Verdict
	Judge   func(m []string) Verdict
}

// Section is a stretch of output from a line Open matches up to, and not
// including, the next line Close matches.
type Section struct {
	Open, Close *regexp.Regexp
}

// Match is what one declared line says.
type Match struct {
	Runner  string
	Outer   bool
	Run     bool
	Total   bool
	Counted bool // the verdict was read from counts (a Judge)
	Verdict Verdict
}

// declarations are the registered runners (registry.go), sorted by name.
var declarations []Declaration

// MatchLine reports the first declared rule matching t (a line with its
// blanks trimmed) and what it says.
func MatchLine(t string) (Match, bool) {
	for _, d := range declarations {
		for _, r := range d.Lines {
			m := r.Re.FindStringSubmatch(t)
			if m == nil {
				continue
			}
			v := r.Verdict
			if r.Judge != nil {
				v = r.Judge(m)
			}
			return Match{Runner: d.Runner, Outer: d.Outer, Run: r.Run, Total: r.Total, Counted: r.Judge != nil, Verdict: v}, true
		}
	}
	return Match{}, false
}

// LineTarget reports the runner and target a line (blanks trimmed) names,
// if any: the test file of a progress, verbose or failure line.
func LineTarget(t string) (runner, target string, ok bool) {
	for _, d := range declarations {
		for _, re := range d.Targets {
			if m := re.FindStringSubmatch(t); m != nil {
				return d.Runner, strings.TrimPrefix(m[1], "./"), true
			}
		}
	}
	return "", "", false
}

// ReportHeader reports whether t (a text's first line, blanks trimmed)
// opens a report file some runner writes.
func ReportHeader(t string) bool {
	for _, d := range declarations {
		for _, re := range d.Reports {
			if re.MatchString(t) {
				return true
			}
		}
	}
	return false
}

// CapturedSection reports whether t (a line, blanks trimmed) opens a
// stretch that some runner copies from a test's own output, and what the
// line that ends it looks like.
func CapturedSection(t string) (end *regexp.Regexp, ok bool) {
	for _, d := range declarations {
		for _, s := range d.Captured {
			if s.Open.MatchString(t) {
				return s.Close, true
			}
		}
	}
	return nil, false
}

// ScriptRunner names the runner whose entry point path is, or "".
func ScriptRunner(path string) string {
	for _, d := range declarations {
		for _, re := range d.Scripts {
			if re.MatchString(path) {
				return d.Runner
			}
		}
	}
	return ""
}

// judgeCounts reads a list of "N word" items (", "-separated) in
// submatch 1: failed when a word in bad has N > 0, passed when some other
// item counts, Ran when nothing was counted.
func judgeCounts(bad ...string) func(m []string) Verdict {
	return func(m []string) Verdict {
		failed, counted := false, false
		for _, item := range strings.Split(m[1], ",") {
			n, word, ok := strings.Cut(strings.TrimSpace(item), " ")
			c, err := strconv.Atoi(n)
			if !ok || err != nil {
				continue
			}
			counted = true
			for _, b := range bad {
				if strings.HasPrefix(word, b) && c > 0 {
					failed = true
				}
			}
		}
		return verdictOf(failed, counted)
	}
}
