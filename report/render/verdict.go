package render

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/runledger/runledger/report"
)

// Icon is the mark a status line opens with: a reader scanning a PR
// tells pass from fail before reading a word. Anything not a pass or a
// plain failure gets its own mark, never the pass's.
func Icon(status string) string {
	switch status {
	case "passed":
		return "✅"
	case "failed", "start_failed", "signaled":
		return "❌"
	case "timed_out":
		return "⏱️"
	case "cancelled":
		return "🚫"
	}
	return "⚠️"
}

// Verdict is the one line that says what an envelope's runs came to,
// e.g. "❌ **failed** · 1 of 2 runs failed · 2,005 tests, 6 failed ·
// 12.3s": the status word exactly as the envelope has it, in bold, then
// what a reader would ask next. A single run's line names how it ended
// (exit code, timeout) instead of counting runs. ParseVerdict reads the
// line back.
func Verdict(e *report.Envelope) string {
	return Icon(e.Status) + " **" + statusWord(e.Status) + "**" + verdictRest(e)
}

// verdictRest is what follows the status word, each part after " · ".
func verdictRest(e *report.Envelope) string {
	var parts []string
	if e.Status == "" {
		parts = append(parts, "the envelope has no status")
	}
	switch len(e.Runs) {
	case 0:
		parts = append(parts, "no runs recorded")
	case 1:
		if how := ending(e.Runs[0]); how != "" {
			parts = append(parts, how)
		}
	default:
		parts = append(parts, runCounts(e.Runs, e.Status))
	}
	if t := testTotals(e.Runs); t != "" {
		parts = append(parts, t)
	}
	if r := regressionsText(e); r != "" {
		parts = append(parts, r)
	}
	if d := totalDuration(e.Runs); d != "" {
		parts = append(parts, d)
	}
	if len(parts) == 0 {
		return ""
	}
	return " · " + strings.Join(parts, " · ")
}

// ending says how one run ended, for a reader: "exit 1", "timed out",
// "signal SIGKILL", with a truncated log and a later attempt said.
func ending(r report.Run) string {
	var how string
	switch {
	case r.TimedOut && r.Status == "timed_out": // the status says it
	case r.TimedOut:
		how = "timed out"
	case r.ExitCode != nil && *r.ExitCode == 0 && r.Status == "passed":
	case r.ExitCode != nil:
		how = "exit " + strconv.Itoa(*r.ExitCode)
	case r.Signal != nil:
		how = "signal " + EscapeInline(*r.Signal)
	case r.Status != "passed":
		how = "no exit code"
	}
	if r.Termination == "unconfirmed" {
		how += ", its processes not confirmed gone"
	}
	if r.Truncated {
		how += ", log truncated"
	}
	if r.Attempt > 1 {
		how += fmt.Sprintf(" (attempt %d)", r.Attempt)
	}
	return strings.TrimPrefix(strings.TrimPrefix(how, ", "), " ")
}

// runCounts: "1 of 2 runs failed", or for mixed outcomes "2 of 3 runs did
// not pass (1 failed, 1 timed out)", or "3 runs passed".
func runCounts(runs []report.Run, overall string) string {
	var order []string
	counts := map[string]int{}
	bad := 0
	for _, r := range runs {
		if r.Status == "passed" {
			continue
		}
		bad++
		if counts[r.Status] == 0 {
			order = append(order, r.Status)
		}
		counts[r.Status]++
	}
	switch {
	case bad == 0 && overall != "passed":
		// The runs' own statuses, not the report's verdict.
		return fmt.Sprintf("%s passed by exit status", plural(len(runs), "run"))
	case bad == 0:
		return fmt.Sprintf("%s passed", plural(len(runs), "run"))
	case len(order) == 1:
		return fmt.Sprintf("%d of %s %s", bad, plural(len(runs), "run"), readable(order[0]))
	}
	parts := make([]string, len(order))
	for i, s := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[s], readable(s))
	}
	return fmt.Sprintf("%d of %s did not pass (%s)", bad, plural(len(runs), "run"), strings.Join(parts, ", "))
}

// readable is a status as a reader says it ("timed out"); an unknown one
// is labelled so that it cannot pass for a defined one.
func readable(status string) string {
	if knownStatus[status] {
		return strings.ReplaceAll(status, "_", " ")
	}
	return statusWord(status)
}

// testTotals sums the runs' test counts: "2,005 tests, 6 failed, 3
// skipped", "(unverified)" when any count is not cross-checked, and
// nothing when no run counted tests.
func testTotals(runs []report.Run) string {
	var tests, failed, skipped, errs int
	counted, unverified := false, false
	for _, r := range runs {
		s := r.Summary
		if s.Source == "" || s.Source == "none" || s.Tests == nil {
			continue
		}
		counted = true
		unverified = unverified || !s.Verified
		tests += *s.Tests
		failed += deref(s.Failed)
		skipped += deref(s.Skipped)
		errs += deref(s.Errors)
	}
	if !counted {
		return ""
	}
	out := thousands(tests) + " tests"
	if tests == 1 {
		out = "1 test"
	}
	for _, c := range []struct {
		n    int
		word string
	}{{failed, "failed"}, {errs, "errors"}, {skipped, "skipped"}} {
		if c.n == 1 && c.word == "errors" {
			out += ", 1 error"
		} else if c.n > 0 {
			out += ", " + thousands(c.n) + " " + c.word
		}
	}
	if unverified {
		out += " (unverified)"
	}
	return out
}

func totalDuration(runs []report.Run) string {
	var ms int64
	for _, r := range runs {
		if r.DurationMS == nil {
			return ""
		}
		ms += *r.DurationMS
	}
	if len(runs) == 0 {
		return ""
	}
	return duration(&ms)
}

func deref(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

// thousands writes n with comma separators, as GitHub's own pages do.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// verdictRE reads a line Verdict wrote: its status word and test counts.
var (
	verdictRE = regexp.MustCompile(`^\S+ \*\*([a-z_]+)\*\*`)
	testsRE   = regexp.MustCompile(` · ([0-9,]+) tests?(?:, ([0-9,]+) failed)?`)
)

// Tally is what a verdict line counts.
type Tally struct {
	Status        string
	Tests, Failed int
}

// ParseVerdict reads a line Verdict wrote back into its status and test
// counts; ok is false for any other line (an older comment's), whose
// status is then unknown.
func ParseVerdict(line string) (t Tally, ok bool) {
	m := verdictRE.FindStringSubmatch(line)
	if m == nil || !knownStatus[m[1]] {
		return Tally{}, false
	}
	t.Status = m[1]
	if c := testsRE.FindStringSubmatch(line); c != nil {
		t.Tests, _ = strconv.Atoi(strings.ReplaceAll(c[1], ",", ""))
		t.Failed, _ = strconv.Atoi(strings.ReplaceAll(c[2], ",", ""))
	}
	return t, true
}
