package runners

import "regexp"

// cargo's build failure; its "test result:" lines are ResultLine's.
func init() {
	register(Declaration{Runner: "cargo", Parser: &Parser{New: func(bool) parser { return &cargoParser{} }, Order: 40,
		Starts: []string{"---- ", "Doc-tests ", "Running ", "test ", "thread '", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}},
		Lines: []LineRule{
			{Re: regexp.MustCompile(`^error: could not compile\b`), Verdict: Failed},
		}})
}
