package runners

import "regexp"

// sphinx-build: "Running Sphinx v4.1.0", then "build succeeded" or, on a
// crash, "Exception occurred:" with the traceback it saved. It runs the
// project's code, so its tracebacks are its own: it is outer.
func init() {
	declare(Declaration{Runner: "sphinx-build", Outer: true, Lines: []LineRule{
		{Re: regexp.MustCompile(`^Running Sphinx v\d`), Run: true, Verdict: Ran},
		{Re: regexp.MustCompile(`^Exception occurred:$`), Run: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^build succeeded\b`), Run: true, Total: true, Verdict: Passed},
		{Re: regexp.MustCompile(`^build finished with problems\b`), Run: true, Total: true, Verdict: Failed},
	}})
}
