package runners

import "regexp"

// cmocka's lines for compaction: its banner and total, which say "N
// test(s)" where GoogleTest says "N tests from M test suites", and its
// verdicts on tests named as C functions are (no "Suite." in them). Its
// summary, failures and test index are read by a parser of its own
// (cmocka.go): a failure's message and place come before the verdict that
// names it, and the total runs on over several lines.
func init() {
	register(Declaration{Runner: "cmocka", Parser: &Parser{New: func(v bool) parser { return &cmockaParser{verifier: v} }, Order: 170,
		Starts: []string{"["}},
		Lines: []LineRule{
			{Re: cmockaBanner, Run: true, Verdict: Ran},
			{Re: cmockaRan, Run: true, Verdict: Ran},
			{Re: regexp.MustCompile(`^\[  PASSED  \] \d+ test\(s\)\.$`), Run: true, Verdict: Passed},
			{Re: regexp.MustCompile(`^\[  FAILED  \] \d+ test\(s\), listed below:$`), Run: true, Total: true, Verdict: Failed},
			{Re: regexp.MustCompile(`^\[   LINE   \] --- .+:\d+: error: `), Run: true, Verdict: Failed},
			{Re: regexp.MustCompile(`^\d+ FAILED TEST\(S\)$`), Run: true, Verdict: Failed},
			{Re: regexp.MustCompile(`^\[  FAILED  \] GROUP (?:SETUP|TEARDOWN)$`), Run: true, Verdict: Failed},
		}})
}
