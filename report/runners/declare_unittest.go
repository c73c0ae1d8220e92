package runners

import "regexp"

// Python's unittest, and Django's runtests.py which drives it: "Ran N
// tests in 0.3s", then "OK" or "FAILED (failures=1, errors=2)". Django's
// test runner is told apart by the test database lines it prints, so its
// runs form their own family.
func init() {
	declare(Declaration{Runner: "django-runtests", Outer: true, Lines: []LineRule{
		{Re: regexp.MustCompile(`^(Creating|Destroying|Cloning) test database for alias '\w+'`), Run: true, Verdict: Ran},
		{Re: regexp.MustCompile(`^Testing against Django installed in `), Run: true, Verdict: Ran},
	}, Scripts: []*regexp.Regexp{regexp.MustCompile(`(^|/)tests/runtests\.py$`)}})
	declare(Declaration{Runner: "unittest", Lines: []LineRule{
		{Re: regexp.MustCompile(`^Ran \d+ tests? in [0-9.]+s$`), Run: true, Verdict: Ran},
		{Re: regexp.MustCompile(`^OK(?: \((?:skipped|expected failures|unexpected successes)=\d+.*\))?$`), Total: true, Verdict: Passed},
		{Re: regexp.MustCompile(`^FAILED \(((?:failures|errors|skipped|expected failures|unexpected successes)=\d+.*)\)$`), Run: true, Total: true, Verdict: Failed},
	}})
}
