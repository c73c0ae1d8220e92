package runners

import "regexp"

// ExUnit's lines for compaction (its "Finished in … (… async, … sync)"
// line and its total) and its excerpts: a failure's numbered block, from
// its heading ("  1) test adds (MathTest)", a module's "  3) MathTest:
// failure on setup_all callback, …") to the next heading, --trace's next
// line, a line of progress dots or the run's "Finished in". Its summary,
// failures and test index are read by a parser of its own (exunit.go):
// its headings start with a digit and no banner precedes them, and
// --trace names passing tests.
func init() {
	register(Declaration{Runner: "exunit", Parser: &Parser{New: func(v bool) parser { return &exunitParser{verifier: v} }, Order: 150,
		Starts: []string{"test ", "===> Performing EUnit", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}, Want: exunitWants, WantEnds: ")s]"},
		Lines: []LineRule{
			{Re: regexp.MustCompile(`^Finished in [0-9.]+ seconds? \((?:[0-9.]+m?s on load, )?[0-9.]+m?s async, [0-9.]+m?s sync\)$`), Run: true, Verdict: Ran},
			{Re: exunitTotal, Run: true, Total: true, Judge: judgeExUnit},
		}, Evidence: &Evidence{
			Starts:  "0123456789",
			Open:    regexp.MustCompile(`^ +\d+\) (?:[A-Z][\w.]*: )?((?:test|doctest|property) .+?|failure on setup_all callback)(?: \([A-Z][\w.]*\)|, all tests have been invalidated)$`),
			Close:   regexp.MustCompile(`^(?: +\d+\) \S| +\* \S|Finished in |==> |[A-Z][\w.]* \[\S+\.exs\]$|[.*]+$)`),
			Verdict: regexp.MustCompile(`^(?:\d+ (?:doctests?|propert(?:y|ies)), )*\d+ tests?, (?:[1-9]\d* failures?|\d+ failures?, .*\b[1-9]\d* invalid)`),
		}})
}

// judgeExUnit reads "5 tests, 2 failures, 1 excluded, 1 invalid": failed
// when a test failed or was invalidated (its module's setup_all failed).
func judgeExUnit(m []string) Verdict {
	return verdictOf(m[4] != "0" || exunitInvalid.MatchString(m[5]), true)
}

var exunitInvalid = regexp.MustCompile(`, [1-9]\d* invalid`)
