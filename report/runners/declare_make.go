package runners

import "regexp"

// make and CMake. make's "*** [target] Error N" ends a failed build
// whatever ran under it (cmake, a test runner), so make is outer.
func init() {
	declare(Declaration{Runner: "make", Outer: true, Lines: []LineRule{
		{Re: regexp.MustCompile(`^g?make(\[\d+\])?: \*\*\* `), Run: true, Verdict: Failed},
	}})
	declare(Declaration{Runner: "cmake", Lines: []LineRule{
		{Re: regexp.MustCompile(`^CMake Error\b`), Run: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^-- Configuring incomplete, errors occurred!$`), Run: true, Total: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^-- Build files have been written to: `), Run: true, Total: true, Verdict: Passed},
	}})
}
