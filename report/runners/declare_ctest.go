package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// CTest (cmake's test driver) opens a run with "Test project /build/dir",
// prints a status line per test ("2/7 Test #2: subtracts ....***Failed
// 0.00 sec"), with --output-on-failure the failing test's output under it,
// then "50% tests passed, 3 tests failed out of 6" and, after the total,
// "The following tests FAILED:" with "  2 - subtracts (Failed)" lines.
//
// The total starts with a digit, as many other runners' lines do, so it is
// read only inside a run (after the "Test project" banner): the prefilter
// sends only lines starting "Test project " to the regexps, never every
// digit-led line of another runner's log. A log cut before the banner
// (ctest | tail) gets no summary. The failing tests are named from their
// status lines, which come before the total (the FAILED list comes after
// it, too late to belong to the run it follows); disabled tests ("***Not
// Run (Disabled)") and skipped ones ("***Skipped") are not failures.
func init() {
	register(Declaration{Runner: "ctest", Lines: []LineRule{
		{Re: ctestBegin, Run: true, Verdict: Ran},
		{Re: ctestTotal, Run: true, Total: true, Judge: judgeCTest},
		{Re: regexp.MustCompile(`^The following tests FAILED:$`), Run: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^Errors while running CTest$`), Run: true, Verdict: Failed},
	}, Totals: &Totals{
		Prefixes: []string{"Test project "},
		Begin:    ctestBegin,
		Line:     ctestTotal,
		Count:    countCTest,
		Failure:  ctestFailed,
		Name:     func(m []string) Failure { return Failure{Name: m[1]} },
		Message:  func() messageReader { return &ctestOutput{} },
	}})
}

var (
	ctestBegin = regexp.MustCompile(`^Test project \S`)
	ctestTotal = regexp.MustCompile(`^\d+% tests passed, (\d+) tests? failed out of (\d+)$`)
	// ctestFailed is a failing test's status line: Failed (maybe with the
	// reason a PASS/FAIL_REGULAR_EXPRESSION gives), Timeout, an Exception
	// (a crash) or Not Run (its executable is missing), then its time. A
	// disabled test's "Not Run (Disabled)" has no time right after it.
	ctestFailed = regexp.MustCompile(`^\d+/\d+ +Test +#\d+: (.+?) \.*\s*\*\*\*(?:Failed(?:  .*?)?|Timeout|Exception: .*?|Not Run)\s+[0-9.]+ sec$`)
	// ctestNext ends a failing test's output: the next test starting or
	// finishing, or the total.
	ctestNext = regexp.MustCompile(`^\s*(?:Start +\d+: |\d+/\d+ +Test +#|\d+% tests passed, )`)
	// ctestAssert is an output line that reads as the failure's reason.
	ctestAssert = regexp.MustCompile(`(?i)assert|fail|error|expected|exception|abort`)
)

func judgeCTest(m []string) Verdict { return verdictOf(m[1] != "0", true) }

// countCTest reads "N% tests passed, F tests failed out of T". ctest's
// percentage is of the tests that did not fail, which include the ones
// skipped at run time (SKIP_RETURN_CODE): passed is T minus F, as ctest's
// own percentage counts it, and the note says so.
func countCTest(m ...[]string) (Counts, bool) {
	failed, err1 := strconv.Atoi(m[0][1])
	tests, err2 := strconv.Atoi(m[0][2])
	if err1 != nil || err2 != nil || failed > tests {
		return Counts{}, false
	}
	passed, errors := tests-failed, 0
	return Counts{Tests: &tests, Passed: &passed, Failed: &failed, Errors: &errors,
		Note: "ctest prints no pass count: passed is the tests run minus those failed, as its percentage counts them (tests skipped at run time among them)"}, true
}

// ctestOutput reads the output --output-on-failure prints under a failing
// test's status line: the message is its first line that reads as a
// failure's reason, else its first line. Without --output-on-failure
// there is none.
type ctestOutput struct {
	first, reason string
	done          bool
	// at is the place: the reason's own leading `file.c:18:`, else the
	// first frame of a sanitizer's stack in the project's code.
	at frame
}

var (
	// cPlace: a C or C++ `file.c:18:` (or `file.cpp:18:5:`) starting a line.
	cPlace = regexp.MustCompile(`^([^\s:]+\.(?:c|cc|cpp|cxx|h|hh|hpp)):(\d+):`)
	// asanFrame: `#0 0x5640 in ring_push /src/ring.c:13` (and `:13:5`).
	asanFrame = regexp.MustCompile(`^#\d+ 0x[0-9a-f]+ in \S+ (\S+?):(\d+)(?::\d+)?$`)
)

func (c *ctestOutput) line(text string) {
	if c.done {
		return
	}
	if ctestNext.MatchString(text) {
		c.done = true
		return
	}
	t := strings.TrimSpace(text)
	if t == "" {
		return
	}
	if c.reason != "" {
		c.frame(t)
		return
	}
	if c.first == "" {
		c.first = clipMessage(t)
	}
	if ctestAssert.MatchString(t) {
		c.reason = clipMessage(t)
		if m := cPlace.FindStringSubmatch(t); m != nil {
			c.at.offer(m[1], m[2], true)
		}
	}
}

// frame reads a sanitizer's stack under the reason for the first frame
// outside the sanitizer's runtime and the system's libraries.
func (c *ctestOutput) frame(t string) {
	if c.at.file != "" || !strings.HasPrefix(t, "#") {
		return
	}
	m := asanFrame.FindStringSubmatch(t)
	if m == nil || strings.Contains(m[1], "sanitizer") || strings.HasPrefix(m[1], "/usr/") || strings.HasPrefix(m[1], "../") {
		return
	}
	c.at.offer(m[1], m[2], true)
}

func (c *ctestOutput) place() (string, int) { return c.at.place() }

func (c *ctestOutput) message() string {
	if c.reason != "" {
		return c.reason
	}
	return c.first
}

// clipMessage bounds a message read from a runner's output.
func clipMessage(s string) string {
	if len(s) > 300 {
		s = s[:300]
		for len(s) > 0 && s[len(s)-1]&0xC0 == 0x80 { // do not cut a UTF-8 character
			s = s[:len(s)-1]
		}
		if len(s) > 0 && s[len(s)-1] >= 0xC0 {
			s = s[:len(s)-1]
		}
	}
	return s
}
