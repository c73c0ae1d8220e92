package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// sympy's bin/test (sympy.utilities.runtests) frames a run between "test
// process starts" and "tests finished: …", names each failing test in a
// centred "____ path.py:test_name ____" heading over its traceback, and
// ends a failed run with "DO *NOT* COMMIT!".
//
// The total is centred in '=' too, but a total wider than the terminal
// loses its padding (" tests finished: 97 passed, …, in 1.41 seconds =")
// and one wider still is wrapped after a comma, its last line "in 0.21
// seconds" or "2 exceptions, in 0.21 seconds": a total of two lines.
func init() {
	register(Declaration{Runner: "sympy-bin-test", Lines: []LineRule{
		{Re: sympyBegin, Run: true, Verdict: Ran},
		{Re: sympyTotal, Run: true, Total: true, Judge: judgeCounts("failed", "exception")},
		{Re: sympyDoNotCommit, Run: true, Verdict: Failed},
	}, Targets: []*regexp.Regexp{regexp.MustCompile(`^([\w./-]+\.py)\[\d+\]`)},
		Scripts: []*regexp.Regexp{regexp.MustCompile(`(^|/)bin/test$`)},
		Totals: &Totals{
			// Its unpadded total and its headings are read inside a run.
			Prefixes: []string{"="},
			Begin:    sympyBegin,
			Line:     sympyTotal,
			Open:     regexp.MustCompile(`^(?:=+ )?tests finished: (\d+ [a-z][a-z0-9, ]*,)$`),
			Close:    regexp.MustCompile(`^((?:\d+ [a-z][a-z0-9, ]*, )?)in [0-9.]+ seconds(?: =+)?$`),
			Count:    countSympy,
			Failure:  sympyHeading,
			Name:     nameSympy,
			Message:  newPythonTraceback,
		},
		Evidence: &Evidence{
			Starts:  "_D",
			Open:    regexp.MustCompile(`^_{3,} ([\w./-]+\.py:\w+) _{3,}$`),
			Close:   regexp.MustCompile(`^(?:_{10,}$| ?(?:=+ )?tests finished: |DO \*NOT\* COMMIT!$)`),
			Verdict: sympyDoNotCommit,
		},
	})
}

var (
	sympyBegin       = regexp.MustCompile(`^=+ test process starts =+$`)
	sympyTotal       = regexp.MustCompile(`^(?:=+ )?tests finished: (.*?),? in [0-9.]+ seconds(?: =+)?$`)
	sympyDoNotCommit = regexp.MustCompile(`^DO \*NOT\* COMMIT!$`)
	sympyHeading     = regexp.MustCompile(`^_{3,} ([\w./-]+\.py):(\w+) _{3,}$`)
	// sympyItem is one count of a total; "expected to fail, but passed"
	// (an xpass) before "expected to fail" (an xfail).
	sympyItem = regexp.MustCompile(`(\d+) (passed|failed|skipped|expected to fail, but passed|expected to fail|exceptions?)\b`)
)

// nameSympy reads a heading: the test, its module, its file.
func nameSympy(m []string) Failure {
	module := strings.ReplaceAll(strings.TrimSuffix(m[1], ".py"), "/", ".")
	return Failure{Name: m[2], Classname: module, File: m[1]}
}

// countSympy reads a total of one line, or of an Open and a Close line.
// bin/test prints every count it has: passed is printed, not derived;
// expected failures count as skipped and xpasses as passed, as pytest's
// xfailed and xpassed do.
func countSympy(m ...[]string) (Counts, bool) {
	text := m[0][1]
	if len(m) > 1 {
		if m[1] == nil {
			return Counts{}, false // cut after its first line: no time, maybe no counts
		}
		text += " " + m[1][1]
	}
	n := map[string]int{}
	for _, it := range sympyItem.FindAllStringSubmatch(text, -1) {
		c, err := strconv.Atoi(it[1])
		if err != nil {
			return Counts{}, false
		}
		n[strings.TrimSuffix(it[2], "s")] += c // "failed" twice: tests and doctests
	}
	passed := n["passed"] + n["expected to fail, but passed"]
	skipped := n["skipped"] + n["expected to fail"]
	failed, errors := n["failed"], n["exception"]
	tests := passed + skipped + failed + errors
	return Counts{Tests: &tests, Passed: &passed, Failed: &failed, Skipped: &skipped, Errors: &errors}, true
}
