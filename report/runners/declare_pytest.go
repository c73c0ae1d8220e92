package runners

import "regexp"

// pytest: its session banner, its section headers, its short summary and
// its final line, which is the verdict of the whole session.
func init() {
	register(Declaration{Runner: "pytest", Parser: &Parser{New: func(v bool) parser { return &pytestParser{verifier: v} }, Order: 30,
		Starts: []string{"=", "ERROR ", "E ", "Expected:", "___", "worker '", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}, Ends: []string{" FAILED"}},
		Lines: []LineRule{
			{Re: regexp.MustCompile(`^=+ test session starts =+$`), Run: true, Verdict: Ran},
			{Re: regexp.MustCompile(`^=+ (FAILURES|ERRORS) =+$`), Run: true, Verdict: Failed},
			{Re: regexp.MustCompile(`^=+ ((?:\d+ \w+(?:, )?)+) in [0-9.]+s(?:econds)?(?: \([0-9:]+\))? =+$`), Run: true, Total: true,
				Judge: judgeCounts("failed", "error")},
			{Re: regexp.MustCompile(`^=+ no tests ran in [0-9.]+s(?:econds)? =+$`), Run: true, Total: true, Verdict: Ran},
			// -q prints the final line bare: "7 passed in 0.01s".
			{Re: regexp.MustCompile(`^((?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|warnings?|errors?|rerun)(?:, )?)+) in [0-9.]+s(?:econds)?(?: \([0-9:]+\))?$`), Run: true, Total: true,
				Judge: judgeCounts("failed", "error")},
			// The short summary's "FAILED path::test - message".
			{Re: regexp.MustCompile(`^FAILED [^\s(]`), Run: true, Verdict: Failed},
		}, Targets: []*regexp.Regexp{
			regexp.MustCompile(`^([\w./-]+\.py) [.FEsxX]+\s*(?:\[\s*\d+%\])?$`),
			regexp.MustCompile(`^([\w./-]+\.py)::\S.* (?:PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b`),
			regexp.MustCompile(`^(?:FAILED|ERROR) ([\w./-]+\.py)(?:::|\s|$)`),
			regexp.MustCompile(`^_+ ERROR collecting ([\w./-]+\.py) _+$`),
			regexp.MustCompile(`^ERROR: file not found: ([\w./-]+\.py)`),
		}, Scripts: []*regexp.Regexp{regexp.MustCompile(`(^|/)(bin/py\.?test|pytest\.py|pytest/__main__\.py)$`)},
		// A failing test's report ends with what it printed, under a
		// "--- Captured stdout call ---" rule, up to the next test's
		// "___ name ___" header, the next "=== section ===" or the next
		// captured stream. What is in it is the test's: compaction reads
		// no runner's line there.
		Captured: []Section{{
			Open: regexp.MustCompile(`^-+ Captured (?:stdout|stderr|log)(?: (?:setup|call|teardown))? -+$`),
			// A rule shrinks to one character around a long title.
			Close: regexp.MustCompile(`^(?:_+ .+ _+|=+ .+ =+|-+ Captured .+ -+)$`),
		}}})
}
