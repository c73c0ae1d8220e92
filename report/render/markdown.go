package render

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/runledger/runledger/report"
)

// Options tunes Markdown.
type Options struct {
	// Budget bounds the whole body, in bytes: one of the surfaces' budgets
	// (budget.go); 0 means TerminalBudget, and at most MaxBudget.
	Budget int
	// ArtifactURL, when set, links the artifact holding the full logs.
	ArtifactURL string
}

func (o Options) budget() int {
	switch {
	case o.Budget <= 0:
		return TerminalBudget
	case o.Budget > MaxBudget:
		return MaxBudget
	}
	return o.Budget
}

// Markdown renders env as a PR comment body of at most opts.Budget bytes:
// a status line showing exactly env.Status, a table with one row per run,
// excerpts of the runs that did not pass, pointers to the full logs,
// superseded attempts, and the envelope as JSON between
// MarkerEnvelopeBegin and MarkerEnvelopeEnd inside a <details> block (see
// ExtractEnvelope). Plan decides what fits, climbing CommentLadder; the embedded envelope is the
// view's, cuts counted in its Omitted.
//
// Status rows are never dropped: if the status table and envelope alone
// exceed the budget, the body is returned over budget with a note saying
// so, without the per-run sections (the envelope still points at every
// log). Such a body can exceed GitHub's 65,536-character limit when there
// are hundreds of runs; the caller must then fall back (e.g. job summary).
func Markdown(env *report.Envelope, opts Options) (string, error) {
	if env == nil {
		return "", errors.New("render markdown: nil envelope")
	}
	_, body, err := Plan(env, opts.budget(), CommentLadder(env), markdownWords{}, func(v View) (string, int, error) {
		body, err := markdown(v, opts.ArtifactURL)
		return body, len(body), err
	})
	if err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	return body, nil
}

// markdown formats a view.
func markdown(v View, artifactURL string) (string, error) {
	var b strings.Builder
	e := v.Env
	b.WriteString(MarkerComment + "\n")
	statusLine(&b, e)
	notes(&b, v)
	table(&b, e)
	warningList(&b, e)
	for i, r := range e.Runs {
		if v.Cut.Over {
			break
		}
		if hasSection(r, len(v.Dropped[i])) {
			runSection(&b, r, v.Dropped[i], artifactURL)
		}
	}
	supersededList(&b, e)
	effectsList(&b, e)
	if err := embedEnvelope(&b, e); err != nil {
		return "", err
	}
	return b.String(), nil
}

// MayShowLogs reports whether Markdown can give run r (of an envelope
// before any cut) a section of its own, where its log pointers and
// artifact link are: a run that did not pass, counts failures or errors,
// or carries excerpts (a passing run's section shows only when some were
// cut to fit). The renderer's own test is narrower, never wider.
func MayShowLogs(r report.Run) bool { return hasSection(r, len(r.Excerpts)) }

// hasSection: a run gets a section when it did not pass, counts failures
// or errors, or has excerpts to show (for a passing run, ones cut to fit).
func hasSection(r report.Run, excerpts int) bool {
	return r.Status != "passed" || positive(r.Summary.Failed) || positive(r.Summary.Errors) || excerpts > 0
}

// statusWord is what the status line shows for status: the word itself
// when the schema defines it, and otherwise a label that cannot be read as
// any defined status, so "passedX" or "passed\u200b" never shows as a pass.
func statusWord(status string) string {
	switch {
	case status == "":
		return "unknown"
	case knownStatus[status]:
		return status
	}
	return "unrecognised status " + EscapeInline(short(status, 40))
}

// knownStatus holds every status a record or envelope can carry.
var knownStatus = map[string]bool{
	"passed": true, "failed": true, "timed_out": true, "signaled": true,
	"cancelled": true, "start_failed": true, "running": true, "incomplete": true,
	"unverified": true, "no_runs": true,
}

func statusLine(b *strings.Builder, e *report.Envelope) {
	fmt.Fprintf(b, "**runledger: %s**", statusWord(e.Status))
	if e.Status == "" {
		b.WriteString(" (the envelope has no status)")
	}
	if len(e.Runs) == 0 {
		b.WriteString(" · no runs recorded\n\n")
		return
	}
	var order []string
	counts := map[string]int{}
	for _, r := range e.Runs {
		if counts[r.Status] == 0 {
			order = append(order, r.Status)
		}
		counts[r.Status]++
	}
	parts := make([]string, len(order))
	for i, s := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[s], statusWord(s))
	}
	fmt.Fprintf(b, " · %s: %s\n\n", plural(len(e.Runs), "run"), strings.Join(parts, ", "))
}

// notes warns about an envelope contradicting itself and about cuts.
func notes(b *strings.Builder, v View) {
	e, budget, p := v.Env, v.Budget, v.Cut
	if e.Status == "passed" {
		for _, r := range e.Runs {
			if r.Status != "passed" || r.ExitCode == nil || *r.ExitCode != 0 || r.TimedOut {
				fmt.Fprintf(b, "> **Warning:** the envelope says passed but run %s is %s; do not treat this as a pass.\n\n",
					CodeSpan(short(r.Name, 100), false), statusWord(r.Status))
				break
			}
		}
		if len(e.Runs) == 0 {
			b.WriteString("> **Warning:** the envelope says passed but records no run; do not treat this as a pass.\n\n")
		}
	}
	if p.Over {
		fmt.Fprintf(b, "> **Over budget:** this report exceeds its %d-byte budget even with every excerpt, superseded attempt and per-run section left out; status rows and the envelope are never dropped.\n\n", budget)
	}
	if o := e.Omitted; o != nil && (p != Cut{}) {
		fmt.Fprintf(b, "_Cut to fit %d bytes: %s, %d bytes of text and %s left out; `omitted` in the envelope counts them._\n\n",
			budget, plural(o.Excerpts, "excerpt"), o.Bytes, plural(o.Superseded, "superseded attempt"))
	}
}

func table(b *strings.Builder, e *report.Envelope) {
	if len(e.Runs) == 0 {
		return
	}
	b.WriteString("| run | attempt | status | exit | duration | tests | truncated | logs |\n")
	b.WriteString("| --- | ---: | --- | --- | ---: | --- | --- | --- |\n")
	for _, r := range e.Runs {
		status := statusWord(r.Status)
		if r.Termination != "" && r.Termination != "exited" {
			status += " (" + EscapeInline(r.Termination) + ")"
		}
		fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s | %s | %s |\n",
			CodeSpan(short(r.Name, 100), true), r.Attempt, status, exitText(r), duration(r.DurationMS),
			testsText(r.Summary), yesNo(r.Truncated), logSizes(r.Logs))
	}
	b.WriteString("\n")
}

func exitText(r report.Run) string {
	switch {
	case r.TimedOut:
		return "timed out"
	case r.ExitCode != nil:
		return strconv.Itoa(*r.ExitCode)
	case r.Signal != nil:
		return "signal " + EscapeInline(*r.Signal)
	}
	return "—"
}

func testsText(s report.Summary) string {
	if s.Source == "" || s.Source == "none" || (s.Tests == nil && s.Passed == nil && s.Failed == nil) {
		return "— (no summary)"
	}
	var parts []string
	switch {
	case s.Passed != nil && s.Tests != nil:
		parts = append(parts, fmt.Sprintf("%d/%d passed", *s.Passed, *s.Tests))
	case s.Passed != nil:
		parts = append(parts, fmt.Sprintf("%d passed", *s.Passed))
	case s.Tests != nil:
		parts = append(parts, fmt.Sprintf("%d tests", *s.Tests))
	}
	for _, c := range []struct {
		n    *int
		word string
	}{{s.Failed, "failed"}, {s.Errors, "errors"}, {s.Skipped, "skipped"}} {
		if c.n != nil && (*c.n > 0 || c.word != "errors") {
			parts = append(parts, fmt.Sprintf("%d %s", *c.n, c.word))
		}
	}
	verified := "unverified"
	if s.Verified {
		verified = "verified"
	}
	return fmt.Sprintf("%s (%s, %s)", strings.Join(parts, ", "), EscapeInline(s.Source), verified)
}

func warningList(b *strings.Builder, e *report.Envelope) {
	var lines []string
	for _, w := range e.Warnings {
		lines = append(lines, EscapeInline(short(w, 300)))
	}
	for _, r := range e.Runs {
		name := CodeSpan(short(r.Name, 100), false)
		for _, w := range r.Warnings {
			lines = append(lines, name+": "+EscapeInline(short(w, 300)))
		}
		if r.Summary.Note != "" {
			lines = append(lines, name+": "+EscapeInline(short(r.Summary.Note, 300)))
		}
	}
	if len(lines) == 0 {
		return
	}
	b.WriteString("**Warnings**\n\n")
	for _, l := range lines {
		b.WriteString("- " + l + "\n")
	}
	b.WriteString("\n")
}

func supersededList(b *strings.Builder, e *report.Envelope) {
	dropped := 0
	if e.Omitted != nil {
		dropped = e.Omitted.Superseded
	}
	if len(e.Superseded) == 0 && dropped == 0 {
		return
	}
	fmt.Fprintf(b, "**Superseded attempts**\n\n")
	for _, s := range e.Superseded {
		exit := "—"
		if s.ExitCode != nil {
			exit = strconv.Itoa(*s.ExitCode)
		}
		line := fmt.Sprintf("- %s · attempt %d · %s · exit %s", CodeSpan(short(s.Name, 100), false), s.Attempt, statusWord(s.Status), exit)
		if markerRE.MatchString(s.Marker) {
			line += " · `" + s.Marker + "`"
		} else if s.Marker != "" {
			line += " · invalid marker " + EscapeInline(short(s.Marker, 40))
		}
		if link := linkTo("full text", s.Pointer); link != "" {
			line += " · " + link
		} else if s.Pointer != "" {
			line += " · " + EscapeInline(short(s.Pointer, 200))
		}
		b.WriteString(line + "\n")
	}
	if dropped > 0 {
		fmt.Fprintf(b, "- …[%s left out for size; counted in the envelope]…\n", plural(dropped, "superseded attempt"))
	}
	b.WriteString("\n")
}
