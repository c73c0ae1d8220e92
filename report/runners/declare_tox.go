package runners

import "regexp"

// tox 3 ("py39: commands succeeded", "congratulations :)") and tox 4
// ("py39: OK (1.2 seconds)", "py39: FAIL code 1 (…)"). tox runs another
// runner inside, so it is outer.
func init() {
	register(Declaration{Runner: "tox", Outer: true, Lines: []LineRule{
		{Re: regexp.MustCompile(`^congratulations :\)`), Run: true, Total: true, Verdict: Passed},
		{Re: regexp.MustCompile(`^evaluation failed :\(`), Run: true, Total: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^ERROR: +[\w.-]+: commands failed$`), Run: true, Total: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^ERROR: InvocationError for command `), Run: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^[\w.-]+: commands succeeded$`), Run: true, Verdict: Passed},
		{Re: regexp.MustCompile(`^[\w.-]+: FAIL code \d+ \(`), Run: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^[\w.-]+: OK \([0-9.]+(=setup.*)? seconds\)$`), Run: true, Verdict: Passed},
	}})
}
