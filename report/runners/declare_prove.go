package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// prove, Perl's TAP harness (TAP::Harness), prints a line per test file
// ("t/calc.t .. ok", or "Dubious, test returned 1" and "Failed 1/4
// subtests" under it), then, when a file failed, a "Test Summary Report"
// naming each failing file ("t/calc.t (Wstat: 256 (exited 1) Tests: 4
// Failed: 1)") with what went wrong indented under it, and always
// "Files=3, Tests=7,  0 wallclock secs (…)" followed by "Result: PASS" or
// "Result: FAIL".
//
// Tests= counts the TAP tests the files ran (skipped and TODO ones among
// them), and the failing units prove names are files: so the summary has
// the number of tests, failed 0 on PASS, and on FAIL the failing files
// by name but no count of failed tests across them, which prove does not
// print (a file that died after its first test failed none of them).
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
			Failure:  regexp.MustCompile(`^(\S.*?) \(Wstat: \d+ .*?Tests: \d+ Failed: \d+\)$`),
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

// countProve reads "Files=F, Tests=N, …" and the Result line under it.
func countProve(m ...[]string) (Counts, bool) {
	tests, err := strconv.Atoi(m[0][2])
	if err != nil {
		return Counts{}, false
	}
	if len(m) < 2 || m[1] == nil {
		return Counts{Tests: &tests, Note: "prove's Files= line has no Result line under it: only the number of tests is known"}, true
	}
	switch m[1][1] {
	case "PASS", "NOTESTS":
		zero, zero2 := 0, 0
		return Counts{Tests: &tests, Failed: &zero, Errors: &zero2,
			Note: "prove prints no pass or skip count: Tests= counts the skipped and TODO tests too"}, true
	}
	return Counts{Tests: &tests,
		Note: "prove names the failing test files but prints no count of failed tests across them"}, true
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
