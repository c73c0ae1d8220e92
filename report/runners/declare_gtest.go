package runners

import "regexp"

// GoogleTest's console output: its lines, for compaction, and the suites
// a run names as its targets ("[----------] 3 tests from SumTest"), so
// that a run of one test binary does not supersede another's. Its
// summary and its excerpts are read by code of their own (gtest.go, and
// report/evidence's gtest.go): what explains a failure comes before the
// verdict that names it, a test that never got a verdict is the one a
// crash stopped, and the total runs on past two lines, none of which a
// Declaration's Totals or Evidence can say.
//
// Only the total's failure lines are its verdict on the whole run:
// "[  PASSED  ] 3 tests." is printed by a run that failed too (above
// "[  FAILED  ] 2 tests, listed below:", or alone with --gtest_brief,
// after the failed tests' own lines), so it says passed only as a
// passing line, never as a total, and a run that crashed (no total at
// all) is no pass.
//
// A test's name is Suite.Test: cmocka prints the same [ RUN ] and verdict
// lines for tests named as C functions, with its own banner and total
// (declare_cmocka.go), and those lines are not gtest's.
func init() {
	register(Declaration{Runner: "gtest", Parser: &Parser{New: func(v bool) parser { return &gtestParser{verifier: v} }, Order: 130,
		Starts: []string{"["}, Ends: []string{": Failure"}},
		Lines: []LineRule{
			{Re: regexp.MustCompile(`^\[==========\] (?:Running )?\d+ tests? from \d+ test (?:suites?|cases?)(?:\.| ran\.)`), Run: true, Verdict: Ran},
			{Re: regexp.MustCompile(`^\[ RUN      \] [^\s.]+\.\S+$`), Run: true, Verdict: Ran},
			{Re: regexp.MustCompile(`^\[       OK \] [^\s.]+\.\S+(?: \(\d+ ms\))?$`), Run: true, Verdict: Ran},
			{Re: regexp.MustCompile(`^\[  PASSED  \] \d+ tests?\.$`), Run: true, Verdict: Passed},
			{Re: regexp.MustCompile(`^\[  FAILED  \] \d+ tests?, listed below:$`), Run: true, Total: true, Verdict: Failed},
			{Re: regexp.MustCompile(`^\[  FAILED  \] (?:[^\s.]+\.\S|\S+: SetUpTestSuite or TearDownTestSuite$)`), Run: true, Verdict: Failed},
			{Re: regexp.MustCompile(`^\d+ FAILED TESTS?$`), Run: true, Verdict: Failed},
		}, Targets: []*regexp.Regexp{regexp.MustCompile(`^\[----------\] \d+ tests? from ([^\s,]+)(?:, where .*)?$`)}})
}
