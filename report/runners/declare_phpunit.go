package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// PHPUnit opens a run with "PHPUnit 9.6.7 by Sebastian Bergmann and
// contributors.", lists its failing tests in sections ("There was 1
// error:", "There were 3 failures:") of numbered items ("1)
// CalcTest::testMultiplies", the assertion on the next line), and ends
// with "OK (5 tests, 8 assertions)" or a verdict ("FAILURES!", "ERRORS!",
// "WARNINGS!", "OK, but incomplete, skipped, or risky tests!") with the
// counts right under it ("Tests: 6, Assertions: 2, Errors: 1, Failures:
// 1, Skipped: 1.").
//
// Risky, incomplete and skipped tests are numbered the same way in
// sections of their own, so a failure is named only inside a failure,
// error or warning section (Within), and only inside a run (after the
// banner). The counts are read wherever the total is, banner or not.
func init() {
	register(Declaration{Runner: "phpunit", Lines: []LineRule{
		{Re: phpunitBanner, Run: true, Verdict: Ran},
		{Re: phpunitOK, Run: true, Total: true, Verdict: Passed},
		{Re: phpunitCounts, Run: true, Total: true, Judge: judgePHPUnit},
		{Re: regexp.MustCompile(`^(?:FAILURES|ERRORS)!$`), Run: true, Verdict: Failed},
	}, Scripts: []*regexp.Regexp{regexp.MustCompile(`(^|/)(?:vendor/bin/)?phpunit$`)},
		Totals: &Totals{
			Prefixes: []string{"PHPUnit ", "OK (", "OK, but ", "FAILURES!", "ERRORS!", "WARNINGS!"},
			Begin:    phpunitBanner,
			Line:     phpunitOK,
			Open:     regexp.MustCompile(`^(?:FAILURES|ERRORS|WARNINGS|OK, but [a-z, ]+)!$`),
			Close:    phpunitCounts,
			Count:    countPHPUnit,
			Within: &Section{
				Open:  regexp.MustCompile(`^There (?:was|were) \d+ (?:failures?|errors?|warnings?):$`),
				Close: regexp.MustCompile(`^There (?:was|were) \d+ `),
			},
			Failure: regexp.MustCompile(`^\d+\) ([A-Za-z_\\][\w\\]*)::(\w+(?: with data set (?:#\d+|"[^"]*"))?)`),
			Name:    func(m []string) Failure { return Failure{Name: m[2], Classname: m[1]} },
			Message: func() messageReader { return &phpunitMessage{} },
		}})
}

var (
	phpunitBanner = regexp.MustCompile(`^PHPUnit \d+\.\d+\S* by Sebastian Bergmann and contributors\.$`)
	phpunitOK     = regexp.MustCompile(`^OK \((\d+) tests?, \d+ assertions?\)$`)
	phpunitCounts = regexp.MustCompile(`^Tests: (\d+), (Assertions: \d+(?:, [A-Za-z ]+: \d+)*)\.$`)
	phpunitItem   = regexp.MustCompile(`([A-Za-z][A-Za-z ]*): (\d+)`)
)

// judgePHPUnit: the "Tests: …" line fails a run when it counts errors,
// failures or warnings.
func judgePHPUnit(m []string) Verdict {
	for _, it := range phpunitItem.FindAllStringSubmatch(m[2], -1) {
		switch it[1] {
		case "Errors", "Failures", "Warnings":
			if it[2] != "0" {
				return Failed
			}
		}
	}
	return Passed
}

// countPHPUnit reads "OK (N tests, M assertions)", or a verdict and the
// "Tests: …" line under it. PHPUnit prints no pass count: passed is the
// tests minus failures, errors, warnings, skipped and incomplete ones
// (PHPUnit 9 fails a run for a warning and lists it as it lists a
// failure, so warnings count as failed). A count it does not know
// (PHPUnit 10's Deprecations, Notices: issues, not tests) leaves passed
// unknown.
func countPHPUnit(m ...[]string) (Counts, bool) {
	if len(m) == 1 { // OK (N tests, M assertions)
		tests, err := strconv.Atoi(m[0][1])
		if err != nil {
			return Counts{}, false
		}
		passed, failed, errors, skipped := tests, 0, 0, 0
		return Counts{Tests: &tests, Passed: &passed, Failed: &failed, Errors: &errors, Skipped: &skipped}, true
	}
	if m[1] == nil {
		return Counts{}, false // a verdict with no counts under it
	}
	tests, err := strconv.Atoi(m[1][1])
	if err != nil {
		return Counts{}, false
	}
	n, known := map[string]int{}, true
	for _, it := range phpunitItem.FindAllStringSubmatch(m[1][2], -1) {
		c, err := strconv.Atoi(it[2])
		if err != nil {
			return Counts{}, false
		}
		switch it[1] {
		case "Assertions", "Errors", "Failures", "Warnings", "Skipped", "Incomplete", "Risky":
		default:
			known = false
		}
		n[it[1]] += c
	}
	failed, errors := n["Failures"]+n["Warnings"], n["Errors"]
	skipped := n["Skipped"] + n["Incomplete"]
	c := Counts{Tests: &tests, Failed: &failed, Errors: &errors, Skipped: &skipped,
		Note: "PHPUnit prints no pass count: passed is Tests minus failures, errors, warnings, skipped and incomplete tests (risky ones passed)"}
	if passed := tests - failed - errors - skipped; known && passed >= 0 {
		c.Passed = &passed
	} else {
		c.Note = "PHPUnit's counts include issues that are not tests (deprecations, notices): passed is unknown"
	}
	return c, true
}

// firstLine reads a failure's message as the first non-blank line under
// its heading: PHPUnit's and minitest's assertion ("Failed asserting that
// 6 is identical to 7.", "RuntimeException: division by zero").
type firstLine struct{ msg string }

func (f *firstLine) line(text string) {
	if f.msg == "" {
		f.msg = clipMessage(strings.TrimSpace(text))
	}
}

func (f *firstLine) message() string { return f.msg }

// phpunitMessage is the first line under a PHPUnit failure, and its place
// from the stack PHPUnit lists after the message.
type phpunitMessage struct {
	firstLine
	frame
}

func (p *phpunitMessage) line(text string) {
	p.firstLine.line(text)
	p.phpLine(strings.TrimSpace(text))
}
