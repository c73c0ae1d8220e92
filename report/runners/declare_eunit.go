package runners

import "regexp"

// EUnit's lines for compaction: rebar3's banner for it, EUnit's *failed*
// lines and its totals (its own under the rule, and rebar3's progress
// total, which ExUnit's shape shares and which therefore is no Run line).
// Its summary and failures are read by a parser of its own (eunit.go): a
// total counts only right under its "Finished in" or its rule, and a
// failure's message is the lines under it.
func init() {
	register(Declaration{Runner: "eunit", Parser: &Parser{New: func(v bool) parser { return &eunitParser{} }, Order: 180,
		Starts: []string{"===> Performing EUnit", "=======", "Finished in ", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"},
		Ends:   []string{"*failed*", "*timed out*"}},
		Lines: []LineRule{
			{Re: regexp.MustCompile(`^===> Performing EUnit tests\.\.\.$`), Run: true, Verdict: Ran},
			{Re: EUnitFailed, Run: true, Verdict: Failed},
			{Re: EUnitTimedOut, Run: true, Verdict: Failed},
			{Re: regexp.MustCompile(`^One or more tests were cancelled\.$`), Verdict: Failed},
			{Re: eunitTotal, Run: true, Total: true, Judge: judgeEUnit},
			{Re: regexp.MustCompile(`^All \d+ tests passed\.$`), Total: true, Verdict: Passed},
		}})
}

// judgeEUnit reads "Failed: 2.  Skipped: 0.  Passed: 3.[  Cancelled: 1.]":
// failed when a test failed or was cancelled.
func judgeEUnit(m []string) Verdict {
	return verdictOf(m[1] != "0" || m[4] != "" && m[4] != "0", true)
}
