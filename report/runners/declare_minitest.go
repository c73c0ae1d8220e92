package runners

import (
	"path"
	"regexp"
	"strconv"
	"strings"
)

// minitest (Ruby's, and Rails' test runner, which prints through it)
// prints "Finished in 0.001s, 3837.39 runs/s, 1918.69 assertions/s.",
// then each failure as "  1) Failure:" over "CalcTest#test_x
// [test_calc.rb:4]:" and the assertion ("Expected: 7" / "  Actual: 6"),
// or "  2) Error:" over "CalcTest#test_y:" and the exception with its
// backtrace (with --verbose also "  3) Skipped:" items, which are not
// failures), then "4 runs, 2 assertions, 1 failures, 1 errors, 1 skips".
//
// The total starts with a digit, as many other runners' lines do, so it
// is read only inside a run, after the "Finished in" line: the prefilter
// sends only lines starting "Finished in " to the regexps.
func init() {
	register(Declaration{Runner: "minitest", Lines: []LineRule{
		{Re: minitestFinished, Run: true, Verdict: Ran},
		{Re: minitestTotal, Run: true, Total: true, Judge: judgeMinitest},
	}, Totals: &Totals{
		Prefixes: []string{"Finished "},
		Begin:    minitestFinished,
		Line:     minitestTotal,
		Count:    countMinitest,
		// --verbose lists the skipped tests too, as "3) Skipped:".
		Within: &Section{
			Open:  regexp.MustCompile(`^\d+\) (?:Failure|Error):$`),
			Close: regexp.MustCompile(`^\d+\) \w+:$`),
		},
		Failure: regexp.MustCompile(`^([A-Z][\w:]*)#(\S+?)(?: \[([^\]]+?):(\d+)\])?:$`),
		Name:    nameMinitest,
		Message: func() messageReader { return &minitestMessage{} },
	}})
}

var (
	minitestFinished = regexp.MustCompile(`^Finished(?: tests)? in [0-9.]+s, [0-9.]+ (?:runs|tests)/s, [0-9.]+ assertions/s\.$`)
	minitestTotal    = regexp.MustCompile(`^(\d+) (?:runs|tests), (\d+) assertions, (\d+) failures, (\d+) errors, (\d+) skips$`)
)

func judgeMinitest(m []string) Verdict { return verdictOf(m[3] != "0" || m[4] != "0", true) }

// countMinitest reads "N runs, A assertions, F failures, E errors, S
// skips". minitest prints no pass count: passed is N minus the others.
func countMinitest(m ...[]string) (Counts, bool) {
	var n [6]int
	for i := 1; i <= 5; i++ {
		c, err := strconv.Atoi(m[0][i])
		if err != nil {
			return Counts{}, false
		}
		n[i] = c
	}
	tests, failed, errors, skipped := n[1], n[3], n[4], n[5]
	passed := tests - failed - errors - skipped
	if passed < 0 {
		return Counts{}, false
	}
	return Counts{Tests: &tests, Passed: &passed, Failed: &failed, Errors: &errors, Skipped: &skipped,
		Note: "minitest prints no pass count: passed is the runs minus failures, errors and skips"}, true
}

// minitestMessage reads the lines under a failure's name up to a blank
// line, without the backtrace ("    test_calc.rb:5:in `test_x'"), joined:
// "Expected: 7 Actual: 6", "ZeroDivisionError: divided by 0".
type minitestMessage struct {
	parts []string
	done  bool
	// at: an error's heading gives no place; its backtrace's first frame
	// in a test file does (`test/stack_test.rb:21:in 'test_pop'`).
	at frame
}

var minitestFrame = regexp.MustCompile(`^\s+(\S+?):(\d+):in `)

func (r *minitestMessage) line(text string) {
	t := strings.TrimSpace(text)
	if m := minitestFrame.FindStringSubmatch(text); m != nil {
		r.at.offer(m[1], m[2], rubyTestFile(m[1]))
		return
	}
	switch {
	case r.done:
	case t == "":
		r.done = len(r.parts) > 0
	case len(r.parts) < 6:
		r.parts = append(r.parts, strings.Join(strings.Fields(t), " "))
	}
}

func (r *minitestMessage) place() (string, int) { return r.at.place() }

// rubyTestFile reports a path that names a minitest file, as rake's test
// task finds them: test/…, …_test.rb, test_….rb.
func rubyTestFile(p string) bool {
	return strings.HasSuffix(p, "_test.rb") || strings.HasPrefix(path.Base(p), "test_") || strings.Contains("/"+p, "/test/")
}

func (r *minitestMessage) message() string { return clipMessage(strings.Join(r.parts, " ")) }

// nameMinitest reads "CalcTest#test_add [test/calc_test.rb:12]:", the
// place given for a failed assertion (an error's heading has none).
func nameMinitest(m []string) Failure {
	f := Failure{Name: m[2], Classname: m[1], File: m[3]}
	f.Line, _ = strconv.Atoi(m[4])
	return f
}
