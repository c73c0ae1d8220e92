package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// RSpec lists its failing examples under "Failures:" as numbered items
// ("  1) Calc multiplies", then "Failure/Error: …" and the expectation),
// then prints "Finished in 0.02 seconds (files took 0.1 seconds to load)"
// with the total right under it ("5 examples, 2 failures, 2 pending"),
// and after it "rspec ./spec/calc_spec.rb:5 # Calc multiplies" per
// failing example.
//
// The total starts with a digit, as many other runners' lines do, so it
// counts only right under its "Finished in" line: the prefilter sends
// only lines starting "Finished in " or "Failures:" to the regexps. The
// failing examples are named from the numbered items under "Failures:"
// (its "Pending:" section, before it, numbers the pending ones), which
// come before the total; the "rspec ./spec/…" lines come after it, too
// late to belong to the run they follow, and are read by compaction.
func init() {
	register(Declaration{Runner: "rspec", Lines: []LineRule{
		{Re: rspecFinished, Run: true, Verdict: Ran},
		{Re: rspecTotal, Run: true, Total: true, Judge: judgeRSpec},
		{Re: regexp.MustCompile(`^rspec \./\S+:\d+ # `), Run: true, Verdict: Failed},
	}, Targets: []*regexp.Regexp{regexp.MustCompile(`^rspec \./(\S+_spec\.rb):\d+ # `)},
		Scripts: []*regexp.Regexp{regexp.MustCompile(`(^|/)rspec$`)},
		Totals: &Totals{
			Prefixes: []string{"Finished in ", "Failures:"},
			Begin:    regexp.MustCompile(`^Failures:$`),
			Open:     rspecFinished,
			Close:    rspecTotal,
			Count:    countRSpec,
			Failure:  regexp.MustCompile(`^\d+\) (\S.*)$`),
			Name:     func(m []string) Failure { return Failure{Name: m[1]} },
			Message:  func() messageReader { return &rspecMessage{} },
		}})
}

var (
	rspecFinished = regexp.MustCompile(`^Finished in [0-9.]+ (?:seconds?|minutes? [0-9.]+ seconds?)(?: \(files took .*\))?$`)
	rspecTotal    = regexp.MustCompile(`^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?$`)
)

func judgeRSpec(m []string) Verdict {
	return verdictOf(m[2] != "0" || m[4] != "" && m[4] != "0", true)
}

// countRSpec reads "N examples, F failures, P pending, E errors occurred
// outside of examples" under "Finished in". RSpec prints no pass count:
// passed is N minus failures and pending examples.
func countRSpec(m ...[]string) (Counts, bool) {
	if m[1] == nil {
		return Counts{}, false // Finished in, and no total under it
	}
	var n [5]int
	for i := 1; i <= 4; i++ {
		if m[1][i] == "" {
			continue
		}
		c, err := strconv.Atoi(m[1][i])
		if err != nil {
			return Counts{}, false
		}
		n[i] = c
	}
	tests, failed, skipped, errors := n[1], n[2], n[3], n[4]
	passed := tests - failed - skipped
	if passed < 0 {
		return Counts{}, false
	}
	return Counts{Tests: &tests, Passed: &passed, Failed: &failed, Skipped: &skipped, Errors: &errors,
		Note: "RSpec prints no pass count: passed is the examples minus failures and pending ones; errors are errors outside of examples"}, true
}

// rspecMessage reads a failing example's message: what RSpec prints
// under its "Failure/Error: <source line>" up to the backtrace ("expected:
// 7 got: 6 (compared using ==)", "ZeroDivisionError: divided by 0"), or
// the Failure/Error line itself when nothing is under it.
type rspecMessage struct {
	source string
	parts  []string
	done   bool
	frame
}

func (r *rspecMessage) line(text string) {
	t := strings.TrimSpace(text)
	r.rspecLine(t)
	switch {
	case r.done || t == "":
	case strings.HasPrefix(t, "# ") || len(r.parts) >= 6:
		r.done = r.source != "" || len(r.parts) > 0
	case r.source == "":
		// aggregate_failures numbers its expectations: "1.1) Failure/Error:".
		if i := strings.Index(t, "Failure/Error:"); i >= 0 {
			r.source = t[i:]
		}
	case strings.Trim(t, "^") == "" && len(r.parts) > 0:
		// Ruby's error_highlight: the source line it quotes, and carets
		// under the call that failed; the message was before them.
		r.parts, r.done = r.parts[:len(r.parts)-1], true
	default:
		r.parts = append(r.parts, strings.Join(strings.Fields(t), " "))
	}
}

func (r *rspecMessage) message() string {
	if len(r.parts) == 0 {
		return clipMessage(r.source)
	}
	return clipMessage(strings.Join(r.parts, " "))
}
