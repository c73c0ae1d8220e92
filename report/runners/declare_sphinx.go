package runners

import "regexp"

// sphinx-build: "Running Sphinx v4.1.0", then "build succeeded" or, on a
// crash, "Exception occurred:" with the traceback it saved. Its banner
// comes first, so a build is its run without its being outer; and it runs
// no other runner, while a test runner runs it: Sphinx's own tests under
// pytest -s print its banner between pytest's lines, and that is
// pytest's run, which only a later pytest run supersedes.
func init() {
	register(Declaration{Runner: "sphinx-build", Lines: []LineRule{
		{Re: regexp.MustCompile(`^Running Sphinx v\d`), Run: true, Verdict: Ran},
		{Re: regexp.MustCompile(`^Exception occurred:$`), Run: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^build succeeded\b`), Run: true, Total: true, Verdict: Passed},
		{Re: regexp.MustCompile(`^build finished with problems\b`), Run: true, Total: true, Verdict: Failed},
	},
		// The crash report it saves opens with the versions, then quotes
		// the build's last messages and the traceback; an agent reads it
		// with cat, and two such reads are two crashes, not a re-run.
		Reports: []*regexp.Regexp{regexp.MustCompile(`^# Sphinx version: \S`)}})
}
