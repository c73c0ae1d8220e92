package compaction

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/runledger/runledger/report/runners"
)

type polarity int

const (
	neutral polarity = iota
	failing
	passing
)

// marker is what one line says. run markers make a text a run; the others
// (exit lines, a bare PASS/FAIL) only help decide the outcome of a text
// that is already a run, since a bare "exit status 1" is no test or build.
type marker struct {
	run      bool
	polarity polarity
	reason   string
	runner   string // the family key's runner part; "" for lines any program prints
	outer    bool   // the runner drives others: its family wins
	total    bool   // the runner's verdict on the whole run
}

var (
	levelTagRe = regexp.MustCompile(`^\[(INFO|ERROR|WARNING|WARN)\] `)
	// exitRe: the status lines of go run, shells and CI wrappers.
	exitRe = regexp.MustCompile(`^(?i:exit status|exit code:?|exited with code|process exited with code) (-?\d+)\b`)
)

// matchMarker reports the marker a line carries, if any.
func matchMarker(line string) (marker, bool) {
	t := strings.TrimSpace(line)
	t = levelTagRe.ReplaceAllString(t, "")
	if m, ok := resultMarker(t); ok {
		return m, true
	}
	if m, ok := declaredMarker(t); ok {
		return m, true
	}
	if m := exitRe.FindStringSubmatch(t); m != nil {
		if m[1] != "0" {
			return marker{polarity: failing, reason: "exit_status"}, true
		}
		return marker{}, false
	}
	return marker{}, false
}

// resultMarker reads the result lines the report's runner parsers count
// (go's `--- FAIL: x (0.00s)` and package lines, cargo's `test result:`,
// gotestsum's DONE), in the exact shape the runner prints them, so a test
// file's expected output or a note is not taken for a run.
func resultMarker(t string) (marker, bool) {
	v := runners.ResultLine(t)
	var m marker
	switch {
	case v == runners.NoVerdict:
		return marker{}, false
	case strings.HasPrefix(t, "test result: "):
		m = countMarker(v == runners.Failed, v == runners.Passed)
		m.runner = "cargo"
		return m, true
	case strings.HasPrefix(t, "DONE "):
		m = countMarker(v == runners.Failed, v == runners.Passed)
	case v == runners.Failed:
		m = marker{run: true, polarity: failing, reason: "failure_marker"}
	case v == runners.Passed:
		m = marker{run: true, polarity: passing, reason: "pass_marker"}
	default:
		m = marker{run: true, reason: "run_marker"}
	}
	m.runner = "go"
	return m, true
}

// declaredMarker reads the lines the runners declare in report/runners
// (declare_*.go: pytest, sympy's bin/test, unittest and Django, tox, make
// and CMake, sphinx-build, node, jest, mocha, npm, Maven and Gradle, go,
// cargo, ctest, prove, PHPUnit, RSpec, minitest), so compaction keeps no
// table of its own.
func declaredMarker(t string) (marker, bool) {
	dm, ok := runners.MatchLine(t)
	if !ok {
		return marker{}, false
	}
	m := marker{run: dm.Run, runner: dm.Runner, outer: dm.Outer, total: dm.Total, reason: "run_marker"}
	switch {
	case dm.Verdict == runners.Failed && dm.Counted:
		m.polarity, m.reason = failing, "failure_count"
	case dm.Verdict == runners.Failed:
		m.polarity, m.reason = failing, "failure_marker"
	case dm.Verdict == runners.Passed && dm.Counted:
		m.polarity, m.reason = passing, "pass_count"
	case dm.Verdict == runners.Passed:
		m.polarity, m.reason = passing, "pass_marker"
	}
	return m, true
}

func countMarker(fail, pass bool) marker {
	switch {
	case fail:
		return marker{run: true, polarity: failing, reason: "failure_count"}
	case pass:
		return marker{run: true, polarity: passing, reason: "pass_count"}
	}
	return marker{run: true, reason: "run_marker"}
}

var (
	// numberedRe: cat -n, nl, grep -n and editor reads ("  42→").
	numberedRe = regexp.MustCompile(`^ *\d+(\t|→|: |\| |│)`)
	hunkRe     = regexp.MustCompile(`^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@`)
	commitRe   = regexp.MustCompile(`^commit [0-9a-f]{7,64}\b`)
	// The "---"/"+++" headers are matched narrowly: Go prints "--- FAIL:".
	patchHeaderRe = regexp.MustCompile(`^(diff --git |diff -|index [0-9a-f]+\.\.[0-9a-f]+|--- (a/|/dev/null)|\+\+\+ (b/|/dev/null)|--- \S+\t|\+\+\+ \S+\t|new file mode |deleted file mode |similarity index |rename (from|to) |old mode |new mode |Binary files )`)
	// declRe: column-0 declarations, which source files have and runner
	// output does not (runners indent the source lines they quote).
	declRe = regexp.MustCompile(`^(package \w+\s*$|import\b|from [\w.]+ import\b|func\b|def \w|async def |class \w|type \w+ |const \w|var \w|let \w|export |fn \w|pub |use [\w:]+|#include|public class )`)
)

func isDecl(line string) bool { return declRe.MatchString(line) }

func hunkLen(s string) int {
	if s == "" {
		return 1
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}
