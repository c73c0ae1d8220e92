package runners

import "regexp"

// Catch2's lines for compaction: its banner, a failed assertion's place
// and its totals. Its summary and failures are read by a parser of its own
// (catch2.go), and its excerpts by report/evidence's catch2Grammar: a
// failing test case is named by the header printed over its FAILED line,
// over several lines, which a declaration's one Failure line cannot say.
func init() {
	register(Declaration{Runner: "catch2", Parser: &Parser{New: func(v bool) parser { return &catch2Parser{verifier: v} }, Order: 140,
		Starts: []string{"test ", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}, Want: catch2Wants, WantEnds: ".:-)]"},
		Lines: []LineRule{
			{Re: catch2Banner, Run: true, Verdict: Ran},
			{Re: regexp.MustCompile(`^\S+(?::\d+|\(\d+\)): FAILED:$`), Run: true, Verdict: Failed},
			{Re: catch2Cases, Run: true, Total: true, Judge: judgeCatch2},
			{Re: catch2All, Run: true, Total: true, Verdict: Passed},
		}})
}

// judgeCatch2 reads "test cases: 4 | 1 passed | 3 failed": failed when a
// test case failed (not one that failed as expected).
func judgeCatch2(m []string) Verdict {
	return verdictOf(catch2FailedCount.MatchString(m[2]), true)
}

var catch2FailedCount = regexp.MustCompile(`\| [1-9]\d* failed(?: \||$)`)
