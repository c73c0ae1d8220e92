package render

import (
	"errors"
	"fmt"
	"strings"

	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/internal/terminal"
)

// TextOptions tunes Text.
type TextOptions struct {
	// Budget bounds the text in bytes, as Options.Budget does.
	Budget int
	// Color marks statuses and names with ANSI colours: only for a
	// terminal, and never when NO_COLOR is set (no-color.org).
	Color bool
}

// Text renders env for a person at a terminal: the verdict line, each
// failing test with its evidence, and where the logs are, plain and
// short. It has no markers, no envelope and no Markdown; scripts and
// agents read the Markdown or the JSON. It fits the budget as Markdown
// does (CommentLadder); the status line is never cut.
func Text(env *report.Envelope, opts TextOptions) (string, error) {
	if env == nil {
		return "", errors.New("render text: nil envelope")
	}
	budget := Options{Budget: opts.Budget}.budget()
	_, out, err := Plan(env, budget, CommentLadder(env), markdownWords{}, func(v View) (string, int, error) {
		s := text(v, opts.Color)
		return s, len(s), nil
	})
	if err != nil {
		return "", fmt.Errorf("render text: %w", err)
	}
	return out, nil
}

// paint applies ANSI styles when colour is on.
type paint bool

const (
	red, green, yellow, bold, dim = "31", "32", "33", "1", "2"
)

func (p paint) style(code, s string) string {
	if !p || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p paint) status(status, s string) string {
	switch Icon(status) {
	case "✅":
		return p.style(green, s)
	case "❌":
		return p.style(red, s)
	}
	return p.style(yellow, s)
}

// plain is untrusted text on one line, with nothing a terminal acts on.
func plain(s string, n int) string { return terminal.Clean(short(s, n), true) }

func text(v View, color bool) string {
	p := paint(color)
	e := v.Env
	var b strings.Builder
	b.WriteString(p.status(e.Status, textIcon(e.Status)+" runledger: "+textWord(e.Status)))
	b.WriteString(verdictRestText(e))
	b.WriteString("\n")
	if v.Cut.Over {
		fmt.Fprintf(&b, "(over the %d-byte budget: only the status is shown; `runledger report --format json` has every run)\n", v.Budget)
	}
	if o := e.Omitted; o != nil && (v.Cut != Cut{}) {
		fmt.Fprintf(&b, "(cut to fit %d bytes: %s and %d bytes of text left out; --max-bytes shows more)\n",
			v.Budget, plural(o.Excerpts, "excerpt"), o.Bytes)
	}
	for _, w := range e.Warnings {
		b.WriteString(p.style(yellow, "warning: ") + plain(w, 300) + "\n")
	}
	for i, r := range e.Runs {
		if v.Cut.Over {
			break
		}
		if len(e.Runs) > 1 || hasSection(r, len(v.Dropped[i])) {
			textRun(&b, p, r, v.Dropped[i], len(e.Runs) > 1)
		}
	}
	if len(e.Runs) > 0 && !v.Cut.Over {
		b.WriteString(p.style(dim, "\nread a log: runledger show RUN --lines A:B, runledger grep RUN PATTERN (RUN: a run name or id)") + "\n")
	}
	for _, s := range e.Superseded {
		line := fmt.Sprintf("earlier: %s attempt %d %s", plain(s.Name, 100), s.Attempt, textWord(s.Status))
		if markerRE.MatchString(s.Marker) {
			line += fmt.Sprintf(" (runledger expand %s)", s.Marker[5:21])
		}
		b.WriteString(p.style(dim, line) + "\n")
	}
	return b.String()
}

// verdictRestText is verdictRest without Markdown escapes.
func verdictRestText(e *report.Envelope) string {
	return strings.NewReplacer(`\_`, "_", `\*`, "*", `\[`, "[", `\]`, "]", `\|`, "|", `\\`, `\`, "&lt;", "<", "&gt;", ">", "&amp;", "&").
		Replace(verdictRest(e))
}

// textWord is statusWord for a terminal, without Markdown escapes.
func textWord(status string) string {
	if status != "" && !knownStatus[status] {
		return "unrecognised status " + plain(status, 40)
	}
	return statusWord(status)
}

// textIcon is Icon for a terminal: one column wide everywhere.
func textIcon(status string) string {
	switch Icon(status) {
	case "✅":
		return "✓"
	case "❌":
		return "✗"
	}
	return "!"
}

// textRun is one run: a heading (when there are several), its failing
// tests each with its evidence, other excerpts, and where its logs are.
func textRun(b *strings.Builder, p paint, r report.Run, dropped []report.Excerpt, heading bool) {
	b.WriteString("\n")
	if heading {
		head := textIcon(r.Status) + " " + plain(r.Name, 100) + " · " + textWord(r.Status)
		if how := ending(r); how != "" {
			head += " · " + how
		}
		if t := testTotals([]report.Run{r}); t != "" {
			head += " · " + t
		}
		b.WriteString(p.status(r.Status, head) + "\n")
	}
	for _, w := range r.Warnings {
		b.WriteString("  " + p.style(yellow, "warning: ") + plain(w, 300) + "\n")
	}
	if r.Summary.Note != "" && noteListed(r) {
		b.WriteString("  note: " + plain(r.Summary.Note, 300) + "\n")
	}
	if line := baselineText(r.Baseline); line != "" {
		b.WriteString("  " + line + "\n")
	}
	groups := excerptGroups(byTest(r.Excerpts))
	shown := map[int]bool{}
	if line := historyLine(r, func(s string) string { return plain(s, 300) }); line != "" {
		b.WriteString("  " + line + "\n")
	}
	list, folded := bullets(r.Summary.Failures, originTag(r), func(f report.Failure) string {
		return pastWords(r, f, commitID, func(s string) string { return plain(s, 60) })
	})
	for _, f := range list {
		line := "  " + p.style(red, "✗") + " " + p.style(bold, plain(f.Name, 120))
		if f.Tag != "" {
			line += " [" + plain(f.Tag, 40)
			if f.Past != "" {
				line += " — " + f.Past
			}
			line += "]"
		}
		if f.Where != "" {
			line += "  " + p.style(dim, plain(f.Where, 160))
		}
		b.WriteString(line + "\n")
		evidence := false
		for i, g := range groups {
			if g[0].Test == f.Name && !shown[i] {
				shown[i], evidence = true, true
				textGroup(b, p, g, "      ")
			}
		}
		if f.Message != "" && !evidence { // an excerpt holds the message
			b.WriteString("      " + plain(f.Message, 200) + "\n")
		}
	}
	if note := foldedNote(folded, func(s string) string { return plain(s, 120) }); note != "" {
		b.WriteString("  " + p.style(dim, note) + "\n")
	}
	if n := r.Summary.FailuresOmitted; n > 0 {
		fmt.Fprintf(b, "  … and %d more failing tests (runledger report --format json)\n", n)
	}
	for _, t := range r.Flaky {
		b.WriteString("  " + p.style(yellow, "~") + " " + plain(t.Name, 120) + " flaky: failed, then passed on retry\n")
	}
	for i, g := range groups {
		if !shown[i] {
			textGroup(b, p, g, "  ")
		}
	}
	if len(dropped) > 0 {
		fmt.Fprintf(b, "  (%s left out for size: runledger show %s --range START:END)\n", plural(len(dropped), "excerpt"), plain(r.ID, 80))
	}
	textLogs(b, p, r)
}

// textGroup prints a test's excerpts (or one excerpt of no test) under a
// one-line label saying where in the log they are.
func textGroup(b *strings.Builder, p paint, g []report.Excerpt, indent string) {
	var places []string
	for i, x := range g {
		place := lineRange(x.FirstLine, x.LastLine)
		if i == 0 || x.Stream != g[i-1].Stream {
			place = plain(x.Stream, 40) + " " + place
		}
		places = append(places, place)
	}
	label := strings.Join(places, ", ")
	if g[0].Test == "" {
		label = reasonText(g[0].Reason) + " · " + label
	}
	b.WriteString(indent + p.style(dim, label+":") + "\n")
	for _, ln := range strings.Split(strings.TrimRight(groupText(g), "\n"), "\n") {
		b.WriteString(indent + "  " + terminal.Clean(ln, true) + "\n")
	}
}

// textLogs says where the full logs are on this machine: the run's
// directory in the store, each stream's size.
func textLogs(b *strings.Builder, p paint, r report.Run) {
	var sizes []string
	dir := ""
	for _, s := range streamOrder(r.Logs) {
		l := r.Logs[s]
		if dir == "" && l.Path != "" {
			dir = dirOf(l.Path)
		}
		if !sizeShown(r.Logs, s) {
			continue
		}
		size := plain(s, 40) + " " + byteSize(l.Bytes)
		if l.Truncated {
			size += " truncated to its head and tail"
		}
		sizes = append(sizes, size)
	}
	if len(sizes) == 0 {
		return
	}
	line := "logs: " + strings.Join(sizes, ", ")
	if dir != "" {
		line += " in " + plain(dir, 200)
	}
	b.WriteString("  " + p.style(dim, line) + "\n")
}

// dirOf is the directory part of a path the envelope holds, with its own
// separator: the envelope may come from another OS than the reader's.
func dirOf(p string) string {
	return p[:strings.LastIndexAny(p, "/\\")+1]
}
