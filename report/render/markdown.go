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
	// JobURL, when set, links the page of the job's log
	// (GITHUB_SERVER_URL/OWNER/REPO/actions/runs/ID/job/JOB_ID).
	JobURL string
	// Names maps a run's name, its identity (attempts of one name
	// supersede each other), to what a reader calls it; a run not in it
	// shows its name. The envelope keeps the names.
	Names map[string]string
	// InSection leaves out the verdict line: the caller shows one (a
	// comment section's status line, see Verdict).
	InSection bool
}

// label is what a reader calls run name.
func (o Options) label(name string) string {
	if l := o.Names[name]; l != "" {
		return l
	}
	return name
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
		body, err := markdown(v, opts)
		return body, len(body), err
	})
	if err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	return body, nil
}

// markdown formats a view.
func markdown(v View, opts Options) (string, error) {
	var b strings.Builder
	e := v.Env
	b.WriteString(MarkerComment + "\n")
	if !opts.InSection {
		statusLine(&b, e, opts)
	}
	notes(&b, v, opts)
	table(&b, e, opts)
	warningList(&b, e, opts)
	for i, r := range e.Runs {
		if v.Cut.Over {
			break
		}
		if hasSection(r, len(v.Dropped[i])) {
			runSection(&b, r, v.Dropped[i], opts, len(e.Runs) == 1)
		}
	}
	supersededList(&b, e, opts)
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
	return r.Status != "passed" || positive(r.Summary.Failed) || positive(r.Summary.Errors) || excerpts > 0 ||
		r.Baseline != nil && r.Baseline.Missing > 0 // a partial run must not read as a clean pass
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

// statusLine opens a body: the verdict, labelled as runledger's; one
// run's name follows the status, as its section has no heading then.
func statusLine(b *strings.Builder, e *report.Envelope, opts Options) {
	name := ""
	if len(e.Runs) == 1 {
		name = " · " + EscapeInline(short(opts.label(e.Runs[0].Name), 100))
	}
	fmt.Fprintf(b, "%s **runledger: %s**%s%s\n\n", Icon(e.Status), statusWord(e.Status), name, verdictRest(e))
}

// notes warns about an envelope contradicting itself and about cuts.
func notes(b *strings.Builder, v View, opts Options) {
	e, budget, p := v.Env, v.Budget, v.Cut
	if e.Status == "passed" {
		for _, r := range e.Runs {
			if r.Status != "passed" || r.ExitCode == nil || *r.ExitCode != 0 || r.TimedOut {
				fmt.Fprintf(b, "> **Warning:** the envelope says passed but run %s is %s; do not treat this as a pass.\n\n",
					EscapeInline(short(opts.label(r.Name), 100)), statusWord(r.Status))
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
		var what []string
		if o.Excerpts > 0 {
			what = append(what, plural(o.Excerpts, "excerpt"))
		}
		if o.Bytes > 0 {
			what = append(what, fmt.Sprintf("%d bytes of text", o.Bytes))
		}
		if o.Superseded > 0 {
			what = append(what, plural(o.Superseded, "superseded attempt"))
		}
		if len(what) == 0 {
			what = append(what, "failure lists")
		}
		fmt.Fprintf(b, "_Cut to fit %d bytes: %s left out; `omitted` in the envelope counts them._\n\n", budget, strings.Join(what, ", "))
	}
}

// table has one row per run when there are several; one run's verdict
// line already says all a row would.
func table(b *strings.Builder, e *report.Envelope, opts Options) {
	if len(e.Runs) < 2 {
		return
	}
	b.WriteString("| run | status | tests | duration |\n")
	b.WriteString("| --- | --- | --- | ---: |\n")
	for _, r := range e.Runs {
		status := Icon(r.Status) + " " + statusWord(r.Status)
		if how := ending(r); how != "" {
			status += ", " + how
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n",
			EscapeInline(short(opts.label(r.Name), 100)), status, testsText(r.Summary), duration(r.DurationMS))
	}
	b.WriteString("\n")
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
		if c.n != nil && *c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", *c.n, c.word))
		}
	}
	out := strings.Join(parts, ", ")
	if !s.Verified {
		out += " (" + EscapeInline(s.Source) + ", unverified)"
	}
	return out
}

func warningList(b *strings.Builder, e *report.Envelope, opts Options) {
	var lines []string
	for _, w := range e.Warnings {
		lines = append(lines, EscapeInline(short(w, 300)))
	}
	var notes []string
	for _, r := range e.Runs {
		// A comment section of one run is that run's: no name needed.
		name := ""
		if !opts.InSection || len(e.Runs) > 1 {
			name = EscapeInline(short(opts.label(r.Name), 100)) + ": "
		}
		for _, w := range r.Warnings {
			lines = append(lines, name+EscapeInline(short(w, 300)))
		}
		if r.Summary.Note != "" && noteListed(r) {
			notes = append(notes, name+EscapeInline(short(r.Summary.Note, 300)))
		}
	}
	if len(lines) > 0 {
		b.WriteString("**Warnings**\n\n")
		for _, l := range lines {
			b.WriteString("- " + l + "\n")
		}
		b.WriteString("\n")
	}
	// A summary's note says why counts are missing or unverified: a
	// remark beside the verdict, not an alarm.
	for _, n := range notes {
		b.WriteString("Note: " + n + "\n\n")
	}
}

// noteListed: a summary's note (why there are no counts, or why they are
// not verified) matters beside a verdict that rests on counts or on a run
// that did not pass; a passed run without counts claims none, so its note
// would be noise.
func noteListed(r report.Run) bool {
	return r.Status != "passed" || r.Summary.Source != "none"
}

func supersededList(b *strings.Builder, e *report.Envelope, opts Options) {
	dropped := 0
	if e.Omitted != nil {
		dropped = e.Omitted.Superseded
	}
	if len(e.Superseded) == 0 && dropped == 0 {
		return
	}
	fmt.Fprintf(b, "**Earlier attempts**\n\n")
	for _, s := range e.Superseded {
		exit := "—"
		if s.ExitCode != nil {
			exit = strconv.Itoa(*s.ExitCode)
		}
		line := fmt.Sprintf("- %s · attempt %d · %s · exit %s", EscapeInline(short(opts.label(s.Name), 100)), s.Attempt, statusWord(s.Status), exit)
		if markerRE.MatchString(s.Marker) {
			line += " · `" + s.Marker + "`"
		} else if s.Marker != "" {
			line += " · invalid marker " + EscapeInline(short(s.Marker, 40))
		}
		// A pointer into the run store means nothing on a PR page; the
		// envelope keeps it, and the marker expands.
		if link := linkTo("full text", s.Pointer); link != "" {
			line += " · " + link
		}
		b.WriteString(line + "\n")
	}
	if dropped > 0 {
		fmt.Fprintf(b, "- …[%s left out for size; counted in the envelope]…\n", plural(dropped, "superseded attempt"))
	}
	b.WriteString("\n")
}
