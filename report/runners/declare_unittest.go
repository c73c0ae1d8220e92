package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// Python's unittest, and Django's runtests.py which drives it: "Ran N
// tests in 0.3s", then "OK" or "FAILED (failures=1, errors=2)". Django's
// test runner is told apart by the test database lines it prints, so its
// runs form their own family in compaction; its totals are unittest's, and
// so is its summary's source.
//
// unittest prints no pass count: the summary's passed is derived, Ran N
// minus failures, errors, skipped, expected failures and unexpected
// successes, and its note says so. errors also counts errors outside any
// test (a setUpClass that raised), which Ran N does not: when the
// subtraction goes below zero, passed is left unknown.
func init() {
	register(Declaration{Runner: "django-runtests", Outer: true, Lines: []LineRule{
		{Re: regexp.MustCompile(`^(Creating|Destroying|Cloning) test database for alias '\w+'`), Run: true, Verdict: Ran},
		{Re: regexp.MustCompile(`^Testing against Django installed in `), Run: true, Verdict: Ran},
	}, Scripts: []*regexp.Regexp{regexp.MustCompile(`(^|/)tests/runtests\.py$`)}})
	register(Declaration{Runner: "unittest", Lines: []LineRule{
		{Re: unittestRan, Run: true, Verdict: Ran},
		{Re: regexp.MustCompile(`^OK(?: \((?:skipped|expected failures|unexpected successes)=\d+.*\))?$`), Total: true, Verdict: Passed},
		{Re: regexp.MustCompile(`^FAILED \(((?:failures|errors|skipped|expected failures|unexpected successes)=\d+.*)\)$`), Run: true, Total: true, Verdict: Failed},
	}, Scripts: []*regexp.Regexp{unittestScript}, Totals: &Totals{
		Prefixes: []string{"Ran ", "FAIL: ", "ERROR: ", "UNEXPECTED SUCCESS: "},
		Open:     unittestRan,
		Gap:      regexp.MustCompile(`^(?:|-{20,})$`),
		Close:    regexp.MustCompile(`^(OK|FAILED|NO TESTS RAN)(?: \(((?:[a-z ]+=\d+(?:, )?)+)\))?$`),
		Count:    countUnittest,
		Failure:  unittestFailure,
		Name:     nameUnittest,
		Message:  newPythonTraceback,
	}, Evidence: &Evidence{
		Starts:    "=F",
		After:     regexp.MustCompile(`^={60,}$`),
		Open:      regexp.MustCompile(`^(?:FAIL|ERROR|UNEXPECTED SUCCESS): (.+)$`),
		Underline: regexp.MustCompile(`^-{60,}$`),
		Close:     regexp.MustCompile(`^(?:={60,}$|Ran \d+ tests? in )`),
		Verdict:   regexp.MustCompile(`^FAILED \((?:failures|errors|unexpected successes)=`),
	}})
}

var (
	// unittestScript is a test module run as a script (python
	// test_requests.py): what makes a test file runnable is its
	// unittest.main(), so a run of it that died before unittest printed
	// anything (an import error) is unittest's.
	unittestScript = regexp.MustCompile(`(^|/)test_\w+\.py$`)
	unittestRan    = regexp.MustCompile(`^Ran (\d+) tests? in [0-9.]+s$`)
	// unittestFailure is the heading of a failure block: "FAIL: test_x
	// (pkg.mod.Class.test_x)" (Python 3.11 on), "(pkg.mod.Class)" before,
	// maybe followed by a subtest's parameters.
	unittestFailure = regexp.MustCompile(`^(FAIL|ERROR|UNEXPECTED SUCCESS): (\w+) \(([A-Za-z_][\w.]*)\)(?: \(.*\))?$`)
)

// nameUnittest reads a failure heading: the test and its class, without
// the test's name that Python 3.11 repeats after the class.
func nameUnittest(m []string) Failure {
	return Failure{Name: m[2], Classname: strings.TrimSuffix(m[3], "."+m[2])}
}

// countUnittest reads "Ran N tests" and the verdict line under it.
func countUnittest(m ...[]string) (Counts, bool) {
	ran, err := strconv.Atoi(m[0][1])
	if err != nil {
		return Counts{}, false
	}
	if len(m) < 2 || m[1] == nil {
		return Counts{Tests: &ran, Note: "unittest's Ran line has no OK or FAILED line under it: only the number of tests is known"}, true
	}
	n := map[string]int{}
	for _, item := range strings.Split(m[1][2], ", ") {
		k, v, ok := strings.Cut(item, "=")
		if c, err := strconv.Atoi(v); ok && err == nil {
			n[k] += c
		}
	}
	failed, errors := n["failures"], n["errors"]
	skipped := n["skipped"] + n["expected failures"]
	passed := ran - failed - errors - skipped - n["unexpected successes"]
	if m[1][1] == "FAILED" {
		failed += n["unexpected successes"] // Python 3.11 on fails a run for them
	} else {
		passed += n["unexpected successes"]
	}
	c := Counts{Tests: &ran, Failed: &failed, Errors: &errors, Skipped: &skipped,
		Note: "unittest prints no pass count: passed is Ran N minus failures, errors, skipped, expected failures and unexpected successes"}
	if passed >= 0 {
		c.Passed = &passed
	} else {
		c.Note = "unittest counted errors outside its tests (Ran N does not count them): passed is unknown"
	}
	return c, true
}
