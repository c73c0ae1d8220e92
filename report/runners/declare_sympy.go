package runners

import "regexp"

// sympy's bin/test (sympy.utilities.runtests) frames a run between
// "test process starts" and "tests finished: …", and ends a failed one
// with "DO *NOT* COMMIT!".
func init() {
	declare(Declaration{Runner: "sympy-bin-test", Lines: []LineRule{
		{Re: regexp.MustCompile(`^=+ test process starts =+$`), Run: true, Verdict: Ran},
		{Re: regexp.MustCompile(`^=+ tests finished: (.*?),? in [0-9.]+ seconds =+$`), Run: true, Total: true,
			Judge: judgeCounts("failed", "exception")},
		{Re: regexp.MustCompile(`^DO \*NOT\* COMMIT!$`), Run: true, Verdict: Failed},
	}, Targets: []*regexp.Regexp{regexp.MustCompile(`^([\w./-]+\.py)\[\d+\]`)},
		Scripts: []*regexp.Regexp{regexp.MustCompile(`(^|/)bin/test$`)}})
}
