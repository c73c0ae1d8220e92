package runners

import "regexp"

// busted's lines for compaction: its total, which no other runner prints,
// and its failures' and errors' headings. Its summary and failures are
// read by a parser of its own (busted.go): the total comes before the
// failures it counts, and a failure's test is named on the line under its
// heading.
func init() {
	register(Declaration{Runner: "busted", Parser: &Parser{New: func(v bool) parser { return &bustedParser{} }, Order: 200,
		Starts: []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "Failure ", "Error "}},
		Lines: []LineRule{
			{Re: bustedTotal, Run: true, Total: true, Judge: judgeBusted},
			{Re: regexp.MustCompile(`^(?:Failure|Error) (?:->|→) .+ @ \d+$`), Verdict: Failed},
		}})
}

// judgeBusted reads "6 successes / 1 failure / 1 error / 2 pending : 0.01
// seconds": failed when a test failed or an error was raised.
func judgeBusted(m []string) Verdict { return verdictOf(m[2] != "0" || m[3] != "0", true) }
