package runners

import "strings"

// Verdict is what a runner's own result line says.
type Verdict int

const (
	// NoVerdict: not a result line of any runner known here.
	NoVerdict Verdict = iota
	// Passed: a passing result or a summary counting no failure.
	Passed
	// Failed: a failing result or a summary counting failures.
	Failed
	// Ran: a result line with no verdict either way (a skip).
	Ran
)

// ResultLine reports whether a line, its leading blanks trimmed, is a
// result line exactly as a runner prints it — the lines the summary
// parsers count — and what it says. Shape matters: Go's `--- FAIL: name
// (0.00s)` needs its real duration and `FAIL\tpkg\t0.01s` its package
// form, so the expected output a test file quotes (`--- FAIL: x
// (N.NNs)`), a grep hit or a note that merely starts with the words is
// not one. Other packages (compaction) tell a run from a text quoting one
// by it, so there is one list of what each runner prints.
func ResultLine(t string) Verdict {
	switch {
	case strings.HasPrefix(t, "--- "):
		if v, _, ok := ParseGoResult([]byte(t)); ok {
			return verdictOf(v == "FAIL", v == "PASS")
		}
	case strings.HasPrefix(t, "ok"):
		if goPkgOK.MatchString(t) {
			return Passed
		}
	case strings.HasPrefix(t, "FAIL"):
		if goPkgFail.MatchString(t) {
			return Failed
		}
	case strings.HasPrefix(t, "test result: "):
		if m := cargoResult.FindStringSubmatch(t); m != nil {
			return verdictOf(m[2] != "0", true)
		}
	case strings.HasPrefix(t, "DONE "):
		if m := gotestsumDone.FindStringSubmatch(t); m != nil {
			return verdictOf(m[4] != "" && m[4] != "0" || m[5] != "" && m[5] != "0", true)
		}
	}
	return NoVerdict
}

func verdictOf(failed, passed bool) Verdict {
	switch {
	case failed:
		return Failed
	case passed:
		return Passed
	}
	return Ran
}
