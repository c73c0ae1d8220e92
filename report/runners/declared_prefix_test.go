package runners

import "testing"

// TestDigitLedTotalsSkipPrefilter: the totals of ctest, RSpec and minitest
// start with a digit, as lines of many other runners' logs do (pytest -q's
// "7 passed in 0.01s", mocha's "2 passing", TAP's "1..4"). None of their
// declarations gives a digit prefix: each total is read only after a line
// that starts with a word, so outside their runs the prefilter sends no
// digit-led line to a declared regexp.
func TestDigitLedTotalsSkipPrefilter(t *testing.T) {
	for _, line := range []string{
		"95% tests passed, 1 tests failed out of 20", "10 examples, 2 failures, 1 pending",
		"4 runs, 2 assertions, 1 failures, 1 errors, 1 skips", "7 passed in 0.01s", "2 passing (5ms)", "1..4",
		"1/20 Test  #1: area_1 ......   Passed    0.00 sec", "1) CalcTest::testMultiplies",
	} {
		if totalPrefixes.match([]byte(line)) {
			t.Errorf("the prefilter passes %q", line)
		}
	}
	for _, line := range []string{"Test project /src/build", "Finished in 0.02 seconds (files took 0.1 seconds to load)",
		"Finished in 0.001s, 3837.39 runs/s, 1918.69 assertions/s.", "Files=3, Tests=7,  0 wallclock secs", "OK (5 tests, 8 assertions)"} {
		if !totalPrefixes.match([]byte(line)) {
			t.Errorf("the prefilter drops %q, which opens a run or a total", line)
		}
	}
}
