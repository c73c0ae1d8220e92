package runners

import "regexp"

// go test and go run, beyond the result lines ResultLine reads: a panic
// makes a run, and the bare PASS/FAIL go test prints only say how one went.
func init() {
	register(Declaration{Runner: "go", Parser: &Parser{New: func(v bool) parser { return &goParser{verifier: v} }, Order: 10,
		Starts: []string{"{", "=", "--- ", "ok", "FAIL", "panic: ", "WARNING: DATA RACE"}},
		Lines: []LineRule{
			{Re: regexp.MustCompile(`^panic:`), Run: true, Verdict: Failed},
			{Re: regexp.MustCompile(`^FAIL$`), Verdict: Failed},
			{Re: regexp.MustCompile(`^PASS$`), Verdict: Passed},
		}})
}
