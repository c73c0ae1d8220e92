package runners

import "regexp"

// pytest: its session banner, its section headers and its padded final
// line, which is the verdict of the whole session.
func init() {
	declare(Declaration{Runner: "pytest", Lines: []LineRule{
		{Re: regexp.MustCompile(`^=+ test session starts =+$`), Run: true, Verdict: Ran},
		{Re: regexp.MustCompile(`^=+ (FAILURES|ERRORS) =+$`), Run: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^=+ ((?:\d+ \w+(?:, )?)+) in [0-9.]+s(?:econds)?(?: \([0-9:]+\))? =+$`), Run: true, Total: true,
			Judge: judgeCounts("failed", "error")},
		{Re: regexp.MustCompile(`^=+ no tests ran in [0-9.]+s(?:econds)? =+$`), Run: true, Total: true, Verdict: Ran},
	}, Scripts: []*regexp.Regexp{regexp.MustCompile(`(^|/)(bin/py\.?test|pytest\.py|pytest/__main__\.py)$`)}})
}
