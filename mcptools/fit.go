package mcptools

import (
	"fmt"
	"strings"

	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/render"
)

// fitEnvelope renders env with the least cut whose result fits budget:
// render.Plan climbs render.AgentLadder and r formats the view as the
// structured result and its text. keepRuns: no run row may go (the run
// tool's result is its one run); such a result exceeds the budget only
// when a bare run row alone does.
func fitEnvelope[T any](env *report.Envelope, budget int, keepRuns bool, r func(*report.Envelope, []string) (T, string)) (T, string) {
	type result struct {
		out  T
		text string
	}
	_, res, _ := render.Plan(env, budget, render.AgentLadder(env, keepRuns), words{}, func(v render.View) (result, int, error) {
		out, text := r(v.Env, leftOut(v))
		return result{out, text}, size(text, out), nil
	})
	return res.out, res.text
}

// leftOut names what a view left out and the call that fetches it.
func leftOut(v render.View) []string {
	var notes []string
	for i, r := range v.Env.Runs {
		if xs := v.Dropped[i]; len(xs) > 0 {
			notes = append(notes, excerptsLeftOut(r.ID, xs))
		}
	}
	if n := v.Cut.DropSuperseded; n > 0 {
		notes = append(notes, fmt.Sprintf("…[%d superseded attempts left out for size: call report]", n))
	}
	if len(v.DroppedRuns) > 0 {
		notes = append(notes, runsLeftOut(v.DroppedRuns))
	}
	return notes
}

// words are the MCP results' markers: each names the tool call that
// reads what went.
type words struct{}

var _ render.Words = words{}

func (words) Cut(n int) string { return fmt.Sprintf("…[%d bytes left out]", n) }

// Gap names the show call that reads what a shortened excerpt left out.
func (words) Gap(run, stream string, start, end, first, last int64) string {
	return fmt.Sprintf("lines %d–%d of %s not quoted here: %s", first, last, stream, showCall(run, stream, start, end))
}

func excerptsLeftOut(run string, xs []report.Excerpt) string {
	var where []string
	for i, x := range xs {
		if i == 4 {
			where = append(where, fmt.Sprintf("and %d more", len(xs)-i))
			break
		}
		where = append(where, fmt.Sprintf("%s range \"%d:%d\" (%s)", x.Stream, x.Start, x.End, x.Reason))
	}
	return fmt.Sprintf("…[%d excerpts of run %s left out for size: %s; call show with run %q, the stream and the range]",
		len(xs), run, strings.Join(where, ", "), run)
}

func runsLeftOut(runs []report.Run) string {
	// The note is both in the text and in the JSON, and with every run
	// left out it is most of the result: its names are bounded in bytes,
	// each cut to a head an agent can still recognise.
	const most, nameBytes = 240, 60
	var names []string
	used := 0
	for i, r := range runs {
		name, _ := cutText(r.Name, nameBytes)
		if name != r.Name {
			name += "…"
		}
		n := fmt.Sprintf("%q (%s)", name, r.Status)
		if i > 0 && used+len(n) > most {
			names = append(names, fmt.Sprintf("and %d more", len(runs)-i))
			break
		}
		names, used = append(names, n), used+len(n)
	}
	return fmt.Sprintf("…[%d runs left out for size: %s; call report with names to see them]",
		len(runs), strings.Join(names, ", "))
}
