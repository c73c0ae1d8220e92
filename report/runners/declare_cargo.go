package runners

import "regexp"

// cargo's build failure; its "test result:" lines are ResultLine's.
func init() {
	declare(Declaration{Runner: "cargo", Lines: []LineRule{
		{Re: regexp.MustCompile(`^error: could not compile\b`), Verdict: Failed},
	}})
}
