package render

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/runledger/runledger/report"
)

// originTag labels each failure of r with its origin as a reader asks
// it: did this change break it? Plain words, for a tag after the name.
func originTag(r report.Run) func(report.Failure) string {
	commit := ""
	if r.Baseline != nil {
		commit = commitID(r.Baseline.Commit)
	}
	compared := r.Baseline != nil && r.Baseline.State == "compared"
	return func(f report.Failure) string {
		switch {
		case f.Origin == "flaky":
			return "flaky"
		case !compared:
			return "" // the run's baseline line says why nothing is known
		}
		switch f.Origin {
		case "new":
			return "new"
		case "new_test":
			return "new test"
		case "pre_existing":
			if commit != "" {
				return "also fails on " + commit
			}
			return "also fails on the base"
		case "flaky":
			return "flaky"
		case "unknown":
			return "origin unknown"
		}
		return ""
	}
}

// baselineLine says what a run was compared with and what the comparison
// found beyond its failures: tests fixed, tests that did not run here.
func baselineLine(b *strings.Builder, r report.Run) {
	bl := r.Baseline
	if bl == nil {
		return
	}
	if bl.State != "compared" {
		fmt.Fprintf(b, "Not compared with the base: %s\n\n", EscapeInline(short(bl.Reason, 300)))
		return
	}
	what := "the base"
	switch c := shortCommit(bl.Commit); {
	case c != "":
		what = c
	case bl.RunID != "":
		what = "run " + CodeSpan(short(bl.RunID, 60), false)
	}
	if l := linkTo("run", bl.URL); l != "" {
		what += " (" + l + ")"
	}
	parts := []string{fmt.Sprintf("Compared with %s: %s there", what, plural(bl.Tests, "test"))}
	if n := bl.Regressions; n != nil {
		parts = append(parts, plural(*n, "new failure"))
	}
	if bl.Missing > 0 {
		parts = append(parts, fmt.Sprintf("**%d missing here** (ran on the base, not here%s)", bl.Missing, namesOf(bl.MissingTests, bl.Missing)))
	}
	if n := len(bl.Fixed) + bl.FixedOmitted; n > 0 {
		parts = append(parts, fmt.Sprintf("%d fixed%s", n, namesOf(bl.Fixed, n)))
	}
	b.WriteString(strings.Join(parts, " · ") + "\n")
	if bl.Note != "" {
		b.WriteString("\n" + EscapeInline(short(bl.Note, 300)) + "\n")
	}
	b.WriteString("\n")
}

// namesOf lists the first few names of n tests.
func namesOf(ts []report.TestRef, n int) string {
	const show = 5
	var names []string
	for i, t := range ts {
		if i == show {
			break
		}
		names = append(names, CodeSpan(short(t.Name, 80), false))
	}
	if len(names) == 0 {
		return ""
	}
	more := ""
	if n > len(names) {
		more = fmt.Sprintf(" and %d more", n-len(names))
	}
	return ": " + strings.Join(names, ", ") + more
}

// regressionsText is the status line's word on what this change broke.
func regressionsText(e *report.Envelope) string {
	asked := false
	for _, r := range e.Runs {
		asked = asked || r.Baseline != nil
	}
	switch {
	case !asked:
		return ""
	case e.Regressions == nil:
		return "new failures unknown"
	}
	return plural(*e.Regressions, "new failure")
}

// originCounts is ": 2 new, 1 pre-existing" for the failing-tests heading.
func originCounts(r report.Run) string {
	if r.Baseline == nil || r.Baseline.State != "compared" {
		return ""
	}
	var parts []string
	for _, o := range []struct{ key, word string }{{"new", "new"}, {"new_test", "new test"}, {"unknown", "of unknown origin"}, {"flaky", "flaky"}, {"pre_existing", "pre-existing"}} {
		n := r.Baseline.Origins[o.key]
		switch {
		case n == 0:
		case o.key == "new_test":
			parts = append(parts, plural(n, o.word))
		default:
			parts = append(parts, fmt.Sprintf("%d %s", n, o.word))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, ", ")
}

var commitRE = regexp.MustCompile(`^[0-9a-f]{7,64}$`)

// commitID is a commit id as git shows it (7 hex digits); "" for anything
// that is not one.
func commitID(c string) string {
	if !commitRE.MatchString(c) {
		return ""
	}
	return c[:7]
}

// shortCommit is commitID in a code span, or "".
func shortCommit(c string) string {
	if id := commitID(c); id != "" {
		return "`" + id + "`"
	}
	return ""
}

// baselineText is baselineLine for a terminal: plain and on one line.
func baselineText(bl *report.Baseline) string {
	switch {
	case bl == nil:
		return ""
	case bl.State != "compared":
		return "not compared with the base: " + plain(bl.Reason, 300)
	}
	what := "the base"
	switch {
	case commitID(bl.Commit) != "":
		what = commitID(bl.Commit)
	case bl.RunID != "":
		what = "run " + plain(bl.RunID, 60)
	}
	parts := []string{fmt.Sprintf("compared with %s (%s there)", what, plural(bl.Tests, "test"))}
	if bl.Missing > 0 {
		parts = append(parts, fmt.Sprintf("%d missing here", bl.Missing))
	}
	if n := len(bl.Fixed) + bl.FixedOmitted; n > 0 {
		parts = append(parts, fmt.Sprintf("%d fixed", n))
	}
	if bl.Note != "" {
		parts = append(parts, plain(bl.Note, 200))
	}
	return strings.Join(parts, "; ")
}
