package runners

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// prove, Perl's TAP harness (TAP::Harness), prints a line per test file
// ("t/calc.t .. ok", or "Dubious, test returned 1" and "Failed 1/4
// subtests" under it), then, when a file failed, a "Test Summary Report"
// naming each failing file ("t/calc.t (Wstat: 256 (exited 1) Tests: 4
// Failed: 1)", padded to the longest name under -j) with what went
// wrong indented under it, and always
// "Files=3, Tests=7,  0 wallclock secs (…)" followed by "Result: PASS" or
// "Result: FAIL".
//
// The units prove reports on are files: "Failed 1/4 subtests" is one
// file's, and its Test Summary Report names files, never the failed tests
// across them (a file that died after its first test failed none). So the
// summary counts files: tests is Files=, failed the files the report
// names, passed the rest; Tests= (the TAP tests the files ran, skipped and
// TODO ones among them) is in the note.
func init() {
	declare(Declaration{Runner: "prove", Lines: []LineRule{
		{Re: proveFiles, Run: true, Verdict: Ran},
		{Re: proveResult, Run: true, Total: true, Judge: judgeProve},
		{Re: proveReport, Run: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^Dubious, test returned \d+ \(wstat \d+, 0x[0-9a-f]+\)$`), Run: true, Verdict: Failed},
	}, Targets: []*regexp.Regexp{regexp.MustCompile(`^([\w./-]+\.t) \.+ ?(?:ok|skipped: .*|$)`)},
		Scripts: []*regexp.Regexp{regexp.MustCompile(`(^|/)prove$`)},
		Totals: &Totals{
			// Its failing files are named only in the report block.
			Prefixes: []string{"Test Summary Report", "Files="},
			Begin:    proveReport,
			Open:     proveFiles,
			Close:    proveResult,
			Count:    countProve,
			Named:    nameProve,
			Failure:  regexp.MustCompile(`^(\S.*?) +\(Wstat: \d+ .*?Tests: \d+ Failed: \d+\)$`),
			Name:     func(m []string) Failure { return Failure{Name: m[1], File: m[1]} },
			Message:  func() messageReader { return &proveDetails{} },
		}})
}

var (
	proveFiles  = regexp.MustCompile(`^Files=(\d+), Tests=(\d+), `)
	proveResult = regexp.MustCompile(`^Result: (PASS|FAIL|NOTESTS)$`)
	proveReport = regexp.MustCompile(`^Test Summary Report$`)
)

func judgeProve(m []string) Verdict {
	if m[1] == "NOTESTS" {
		return Ran
	}
	return verdictOf(m[1] == "FAIL", m[1] == "PASS")
}

// countProve reads "Files=F, Tests=N, …" and the Result line under it:
// F files, none failed on PASS; on FAIL, nameProve counts the named ones.
func countProve(m ...[]string) (Counts, bool) {
	files, err1 := strconv.Atoi(m[0][1])
	tap, err2 := strconv.Atoi(m[0][2])
	if err1 != nil || err2 != nil {
		return Counts{}, false
	}
	note := fmt.Sprintf("prove counts test files: tests is Files=%d, failed the files its Test Summary Report names; they ran Tests=%d TAP tests", files, tap)
	if len(m) < 2 || m[1] == nil {
		return Counts{Tests: &files, Note: note + "; the Files= line has no Result line under it"}, true
	}
	if m[1][1] == "FAIL" {
		return Counts{Tests: &files, Note: note}, true
	}
	passed, failed, errors := files, 0, 0
	return Counts{Tests: &files, Passed: &passed, Failed: &failed, Errors: &errors, Note: note}, true
}

// nameProve counts a failed run's failing files from the Test Summary
// Report's names; a failed run that named none (its report was cut)
// keeps an unknown failure count.
func nameProve(c *Counts, named int) {
	if c.Failed != nil || named == 0 || c.Tests == nil || named > *c.Tests {
		return
	}
	failed, passed, errors := named, *c.Tests-named, 0
	c.Failed, c.Passed, c.Errors = &failed, &passed, &errors
}

// proveDetails reads the indented lines the Test Summary Report prints
// under a failing file ("Failed test:  2", "Non-zero exit status: 1",
// "Parse errors: Bad plan.  You planned 3 tests but ran 1."), joined.
type proveDetails struct {
	parts []string
	done  bool
}

func (p *proveDetails) line(text string) {
	if p.done {
		return
	}
	if !strings.HasPrefix(text, " ") && !strings.HasPrefix(text, "\t") {
		p.done = true
		return
	}
	if t := strings.Join(strings.Fields(text), " "); t != "" {
		p.parts = append(p.parts, t)
	}
}

func (p *proveDetails) message() string { return clipMessage(strings.Join(p.parts, "; ")) }
