package runners

import "regexp"

// go test and go run, beyond the result lines ResultLine reads: a panic
// makes a run, and the bare PASS/FAIL go test prints only say how one went.
func init() {
	declare(Declaration{Runner: "go", Lines: []LineRule{
		{Re: regexp.MustCompile(`^panic:`), Run: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^FAIL$`), Verdict: Failed},
		{Re: regexp.MustCompile(`^PASS$`), Verdict: Passed},
	}})
}
