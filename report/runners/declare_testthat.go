package runners

import "regexp"

// testthat's lines for compaction: its total, which no other runner
// prints, and its problems' headings. Its summary and failures are read by
// a parser of its own (testthat.go): the check reporter prints its total
// twice, and a failure's message is the lines under its heading.
func init() {
	register(Declaration{Runner: "testthat", Parser: &Parser{New: func(v bool) parser { return &testthatParser{} }, Order: 190,
		Starts: []string{"[ FAIL ", "══ ", "── ", "Failure (", "Error (", "Skip (", "Warning (", "✔ | F W "}},
		Lines: []LineRule{
			{Re: testthatTotalRe, Run: true, Total: true, Judge: judgeTestthat},
			{Re: regexp.MustCompile(`^(?:── )?(?:\d+\. )?(?:Failure|Error) \((?:'[^']+'|[^\s'()]+\.[Rr]:\d+(?::\d+)?|\?\?\?)\): .+$`), Verdict: Failed},
		}})
}

// judgeTestthat reads "[ FAIL 2 | WARN 1 | SKIP 2 | PASS 10 ]": failed
// when an expectation failed or erred.
func judgeTestthat(m []string) Verdict { return verdictOf(m[1] != "0", true) }
