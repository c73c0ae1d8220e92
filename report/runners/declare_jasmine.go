package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// Jasmine's console reporter opens a run with "Started", prints a dot or
// F per spec, then "Failures:" with numbered items ("1) Suite spec name",
// its "Message:" lines and its "Stack:"), "Pending:" with the pending
// specs numbered the same way, and the total ("1605 specs, 8 failures, 2
// pending specs") followed by "Finished in 0.7 seconds".
//
// The total starts with a digit, so it counts only inside a run (after
// "Started"), and failures are named only in the "Failures:" section: the
// pending specs are numbered too.
func init() {
	register(Declaration{Runner: "jasmine", Lines: []LineRule{
		{Re: jasmineTotal, Run: true, Total: true, Judge: judgeJasmine},
	}, Scripts: []*regexp.Regexp{regexp.MustCompile(`(^|/)jasmine$`)},
		Totals: &Totals{
			Prefixes: []string{"Started"},
			Begin:    regexp.MustCompile(`^Started$`),
			Line:     jasmineTotal,
			Count:    countJasmine,
			Within: &Section{
				Open:  regexp.MustCompile(`^Failures:$`),
				Close: regexp.MustCompile(`^(?:Pending:|Suite error: |\d+ specs?, )`),
			},
			Failure: regexp.MustCompile(`^\d+\) (\S.*)$`),
			Name:    func(m []string) Failure { return Failure{Name: m[1]} },
			Message: func() messageReader { return &jasmineMessage{} },
		}})
}

var jasmineTotal = regexp.MustCompile(`^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?$`)

func judgeJasmine(m []string) Verdict { return verdictOf(m[2] != "0", true) }

// countJasmine reads "N specs, F failures, P pending specs". Jasmine
// prints no pass count: passed is the specs minus failed and pending ones.
func countJasmine(m ...[]string) (Counts, bool) {
	var n [4]int
	for i := 1; i <= 3; i++ {
		if m[0][i] == "" {
			continue
		}
		c, err := strconv.Atoi(m[0][i])
		if err != nil {
			return Counts{}, false
		}
		n[i] = c
	}
	tests, failed, skipped := n[1], n[2], n[3]
	passed := tests - failed - skipped
	if passed < 0 {
		return Counts{}, false
	}
	errors := 0
	return Counts{Tests: &tests, Passed: &passed, Failed: &failed, Skipped: &skipped, Errors: &errors,
		Note: "Jasmine prints no pass count: passed is the specs minus failed and pending ones"}, true
}

// jasmineMessage reads a failed spec's first "Message:" (the lines under
// it, up to its "Stack:") and, from its stack, the spec file's frame.
type jasmineMessage struct {
	parts []string
	state uint8 // 0: before Message:, 1: in it, 2: past it
	frame
}

func (r *jasmineMessage) line(text string) {
	t := strings.TrimSpace(text)
	switch {
	case t == "Message:":
		if r.state == 0 {
			r.state = 1
		}
	case t == "Stack:":
		if r.state == 1 {
			r.state = 2
		}
	case r.state == 1 && t != "" && len(r.parts) < 6:
		r.parts = append(r.parts, strings.Join(strings.Fields(t), " "))
	case r.state == 2:
		r.jsLine(t)
	}
}

func (r *jasmineMessage) message() string { return clipMessage(strings.Join(r.parts, " ")) }
