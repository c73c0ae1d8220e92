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

// anchored markers must start the line, after leading blanks and an
// optional log-level tag such as Maven's "[INFO] ".
var anchored = []struct {
	re *regexp.Regexp
	m  marker
}{
	{regexp.MustCompile(`^BUILD FAIL(ED|URE)?\b`), marker{true, failing, "failure_marker", "jvm", true, true}},
	{regexp.MustCompile(`^BUILD SUCCESS(FUL)?\b`), marker{true, passing, "pass_marker", "jvm", true, true}},
	{regexp.MustCompile(`^FAILED\b`), marker{true, failing, "failure_marker", "pytest", false, false}},
	{regexp.MustCompile(`^panic:`), marker{true, failing, "failure_marker", "go", false, false}},
	{regexp.MustCompile(`^npm (ERR!|error )`), marker{true, failing, "failure_marker", "npm", true, false}},
	{regexp.MustCompile(`^not ok \d+\b`), marker{true, failing, "failure_marker", "tap", false, false}},
	{regexp.MustCompile(`^FAIL$`), marker{false, failing, "failure_marker", "", false, false}},
	{regexp.MustCompile(`^PASS$`), marker{false, passing, "pass_marker", "", false, false}},
	{regexp.MustCompile(`^error: could not compile\b`), marker{false, failing, "failure_marker", "cargo", false, false}},
}

var (
	levelTagRe = regexp.MustCompile(`^\[(INFO|ERROR|WARNING|WARN)\] `)
	// exitRe: the status lines of go run, shells and CI wrappers.
	exitRe = regexp.MustCompile(`^(?i:exit status|exit code:?|exited with code|process exited with code) (-?\d+)\b`)
	// node's TAP ("# fail 1") and spec ("ℹ fail 1") reporters.
	tapRe = regexp.MustCompile(`^(?:#|ℹ) (pass|fail) (\d+)\s*$`)
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
	for _, a := range anchored {
		if a.re.MatchString(t) {
			return a.m, true
		}
	}
	if m := exitRe.FindStringSubmatch(t); m != nil {
		if m[1] != "0" {
			return marker{polarity: failing, reason: "exit_status"}, true
		}
		return marker{}, false
	}
	if m := tapRe.FindStringSubmatch(t); m != nil {
		fail := m[1] == "fail" && m[2] != "0"
		mk := countMarker(fail, m[1] == "pass" || m[2] == "0")
		mk.runner, mk.total = "node", true
		return mk, true
	}
	return countLine(t)
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
// (sympy's bin/test, unittest, Django, pytest, tox, make, CMake).
func declaredMarker(t string) (marker, bool) {
	dm, ok := runners.MatchLine(t)
	if !ok {
		return marker{}, false
	}
	m := marker{run: dm.Run, runner: dm.Runner, outer: dm.Outer, total: dm.Total, reason: "run_marker"}
	switch {
	case dm.Verdict == runners.Failed && dm.Total:
		m.polarity, m.reason = failing, "failure_count"
	case dm.Verdict == runners.Failed:
		m.polarity, m.reason = failing, "failure_marker"
	case dm.Verdict == runners.Passed && dm.Total:
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
	padRe      = regexp.MustCompile(`^=+ (.*?) =+$`)
	labelRe    = regexp.MustCompile(`^[A-Za-z]+:\s+`)
	durationRe = regexp.MustCompile(`( in [0-9.]+m?s\b.*| \([^)]*\))$`)
	itemRe     = regexp.MustCompile(`^(\d+) ([a-z]+)$`)
)

// countLine accepts the one shape that may sit mid-line: a runner summary
// made only of "N word" items, like pytest's padded
// "===== 1 failed, 2 passed in 0.1s =====", jest's "Tests: 1 failed, 3 total"
// or mocha's "2 passing (5ms)". Prose that happens to say "3 passed" is not
// such a line.
func countLine(t string) (marker, bool) {
	if m := padRe.FindStringSubmatch(t); m != nil {
		t = m[1]
	}
	runner := "pytest"
	if labelRe.MatchString(t) {
		runner = "jest"
	}
	t = labelRe.ReplaceAllString(t, "")
	t = durationRe.ReplaceAllString(t, "")
	var fail, pass, counted bool
	for _, item := range strings.Split(t, ", ") {
		m := itemRe.FindStringSubmatch(strings.TrimSpace(item))
		if m == nil {
			return marker{}, false
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			return marker{}, false
		}
		switch m[2] {
		case "failed", "failing", "error", "errors":
			counted = true
			fail = fail || n > 0
			pass = pass || (n == 0 && m[2] == "failed")
		case "passed", "passing":
			counted = true
			pass = pass || n > 0
		}
		if m[2] == "passing" || m[2] == "failing" {
			runner = "mocha"
		}
	}
	if !counted {
		return marker{}, false
	}
	mk := countMarker(fail, pass)
	mk.runner, mk.total = runner, true
	return mk, true
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
