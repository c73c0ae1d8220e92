package runners

import "regexp"

// make and CMake. make's "*** [target] Error N" ends a failed build but
// not a passed one, so make is not outer: a run of `make test` belongs to
// the runner it ran, whether it failed or passed, and make owns only the
// builds no other runner's line shows.
func init() {
	register(Declaration{Runner: "make", Lines: []LineRule{
		{Re: regexp.MustCompile(`^g?make(\[\d+\])?: \*\*\* `), Run: true, Verdict: Failed},
	}})
	register(Declaration{Runner: "cmake", Lines: []LineRule{
		{Re: regexp.MustCompile(`^CMake Error\b`), Run: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^-- Configuring incomplete, errors occurred!$`), Run: true, Total: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^-- Build files have been written to: `), Run: true, Total: true, Verdict: Passed},
	}})
}
