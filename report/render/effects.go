package render

import (
	"fmt"
	"strings"

	"github.com/runledger/runledger/report"
)

// effectsList says, one line an attempt, what each attempt changed in its
// workspace and whether that stopped a retry. Attempts that changed
// nothing and retried nothing are left out. Paths come from the
// workspace, so each is a code span.
func effectsList(b *strings.Builder, e *report.Envelope) {
	var lines []string
	item := func(name string, attempt int, eff *report.Effects, note string) {
		what := effectsWords(eff)
		if what == "" && note == "" {
			return
		}
		line := fmt.Sprintf("- %s · attempt %d", CodeSpan(short(name, 100), false), attempt)
		if what != "" {
			line += " · " + what
		}
		if note != "" {
			line += " · " + EscapeInline(short(note, 400))
		}
		lines = append(lines, line)
	}
	for _, r := range e.Runs {
		item(r.Name, r.Attempt, r.Effects, r.RetryRefused)
	}
	for _, s := range e.Superseded {
		item(s.Name, s.Attempt, s.Effects, s.RetryAllowed)
	}
	if len(lines) == 0 {
		return
	}
	b.WriteString("**Workspace effects**\n\n" + strings.Join(lines, "\n") + "\n\n")
}

// effectsWords is report.EffectsLine with paths as code spans; "" when
// the attempt changed nothing.
func effectsWords(eff *report.Effects) string {
	switch {
	case eff == nil || (eff.Method != "none" && eff.Total == 0):
		return ""
	case eff.Method == "none":
		return "changes not known: " + EscapeInline(short(eff.Reason, 200))
	}
	const show = 5
	var parts []string
	named := 0
	for _, l := range []struct {
		verb  string
		paths []string
	}{{"modified", eff.Modified}, {"deleted", eff.Deleted}, {"created", eff.Created}} {
		var spans []string
		for _, p := range l.paths {
			if named == show {
				break
			}
			spans, named = append(spans, CodeSpan(short(p, 160), false)), named+1
		}
		if len(spans) > 0 {
			parts = append(parts, l.verb+" "+strings.Join(spans, ", "))
		}
	}
	line := fmt.Sprintf("changed %s (%s): %s", plural(eff.Total, "file"), EscapeInline(short(eff.Method, 20)), strings.Join(parts, "; "))
	if eff.Total > named {
		line += fmt.Sprintf("; and %d more", eff.Total-named)
	}
	return line
}
