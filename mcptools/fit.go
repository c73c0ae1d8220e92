package mcptools

import (
	"fmt"
	"strings"

	"github.com/runledger/runledger/report"
)

// envCut says how much of an envelope a result leaves out. Status rows and
// the overall status are never cut; everything cut leaves a marker.
type envCut struct {
	lines      int  // excerpt texts keep at most this many lines; 0: all
	clamp      int  // failure messages, notes and warnings cut to this; 0: none
	textless   int  // excerpts whose text becomes a pointer, lowest priority first
	superseded int  // superseded rows left out, last first
	excerpts   bool // excerpts left out entirely, listed as pointers
	bare       bool // failure lists and summary spans left out; counts stay
	runs       int  // runs left out, last first
}

// fitEnvelope renders env with the least cut whose result fits budget.
// keepRuns: no run row may go (the run tool's result is its one run); such
// a result exceeds the budget only when a bare run row alone does.
func fitEnvelope[T any](env *report.Envelope, budget int, keepRuns bool, render func(*report.Envelope, []string) (T, string)) (T, string) {
	var out T
	var text string
	for _, c := range envPlans(env) {
		if keepRuns && c.runs > 0 {
			break
		}
		e, leftOut := applyCut(env, c)
		out, text = render(e, leftOut)
		if size(text, out) <= budget {
			break
		}
	}
	return out, text
}

func envPlans(env *report.Envelope) []envCut {
	plans := []envCut{{}}
	for _, n := range []int{20, 8, 3} {
		plans = append(plans, envCut{lines: n, clamp: 1000})
	}
	p := envCut{lines: 3, clamp: 300}
	for _, k := range doubling(countExcerpts(env)) {
		p.textless = k
		plans = append(plans, p)
	}
	for _, k := range doubling(len(env.Superseded)) {
		p.superseded = k
		plans = append(plans, p)
	}
	p.excerpts, p.clamp = true, 120
	plans = append(plans, p)
	p.bare, p.clamp = true, 60
	plans = append(plans, p)
	for _, k := range doubling(len(env.Runs)) {
		p.runs = k
		plans = append(plans, p)
	}
	return plans
}

func countExcerpts(env *report.Envelope) int {
	n := 0
	for _, r := range env.Runs {
		n += len(r.Excerpts)
	}
	return n
}

// applyCut returns a copy of env with c applied, Omitted counting what went,
// and the markers for what was left out. env is not modified.
func applyCut(env *report.Envelope, c envCut) (*report.Envelope, []string) {
	e := *env
	om := report.Omitted{}
	if env.Omitted != nil {
		om = *env.Omitted
	}
	var leftOut []string
	e.Runs = make([]report.Run, len(env.Runs))
	textless := textlessSet(env, c.textless)
	for i, r := range env.Runs {
		e.Runs[i] = cutRun(r, c, textless[i], &om, &leftOut)
	}
	e.Warnings = clampAll(env.Warnings, c.clamp)
	if c.superseded > 0 {
		e.Superseded = env.Superseded[:len(env.Superseded)-c.superseded]
		om.Superseded += c.superseded
		leftOut = append(leftOut, fmt.Sprintf("…[%d superseded attempts left out for size: call report]", c.superseded))
	}
	if c.runs > 0 {
		leftOut = append(leftOut, runsLeftOut(e.Runs[len(e.Runs)-c.runs:]))
		e.Runs = e.Runs[:len(e.Runs)-c.runs]
	}
	if c != (envCut{}) {
		e.Omitted = &om
	}
	return &e, leftOut
}

// textlessSet picks the n excerpts whose text goes: the last runs' last
// (lowest priority) excerpts first.
func textlessSet(env *report.Envelope, n int) map[int]map[int]bool {
	set := map[int]map[int]bool{}
	for i := len(env.Runs) - 1; i >= 0 && n > 0; i-- {
		set[i] = map[int]bool{}
		for j := len(env.Runs[i].Excerpts) - 1; j >= 0 && n > 0; j-- {
			set[i][j] = true
			n--
		}
	}
	return set
}

func cutRun(r report.Run, c envCut, textless map[int]bool, om *report.Omitted, leftOut *[]string) report.Run {
	r.Warnings = clampAll(r.Warnings, c.clamp)
	r.Summary = cutSummary(r.Summary, c)
	if c.excerpts && len(r.Excerpts) > 0 {
		*leftOut = append(*leftOut, excerptsLeftOut(r))
		om.Excerpts += len(r.Excerpts)
		for _, x := range r.Excerpts {
			om.Bytes += int64(len(x.Text))
		}
		r.Excerpts = []report.Excerpt{}
		return r
	}
	xs := make([]report.Excerpt, len(r.Excerpts))
	for j, x := range r.Excerpts {
		before := len(x.Text)
		if textless[j] {
			x.Text = bytesLeftOut(x.Stream, x.Start, x.End, showCall(r.ID, x.Stream, x.Start, x.End))
		} else if c.lines > 0 {
			x.Text = trimLines(r.ID, x, c.lines)
		}
		om.Bytes += int64(max(0, before-len(x.Text)))
		xs[j] = x
	}
	r.Excerpts = xs
	return r
}

func cutSummary(s report.Summary, c envCut) report.Summary {
	if c.clamp == 0 {
		return s
	}
	s.Note = clamp(s.Note, c.clamp)
	if c.bare {
		s.FailuresOmitted += len(s.Failures)
		s.SpansOmitted += len(s.Spans)
		s.Failures, s.Spans = nil, nil
		return s
	}
	fs := s.Failures
	if c.excerpts && len(fs) > 3 {
		s.FailuresOmitted += len(fs) - 3
		fs = fs[:3]
	}
	s.Failures = make([]report.Failure, len(fs))
	for i, f := range fs {
		f.Name, f.Message = clamp(f.Name, c.clamp), clamp(f.Message, c.clamp)
		s.Failures[i] = f
	}
	if len(fs) == 0 {
		s.Failures = nil
	}
	return s
}

func clampAll(ss []string, n int) []string {
	if n == 0 || ss == nil {
		return ss
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clamp(s, n)
	}
	return out
}

// trimLines keeps the first n lines of an excerpt's text. Text has one
// line per raw line, so the rest is named by line numbers when they add
// up, else by the excerpt's byte range.
func trimLines(run string, x report.Excerpt, n int) string {
	lines := strings.SplitAfter(x.Text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) <= n+1 {
		return x.Text
	}
	call := showCall(run, x.Stream, x.Start, x.End)
	if x.LastLine-x.FirstLine+1 == int64(len(lines)) {
		from := x.FirstLine + int64(n)
		call = fmt.Sprintf("call show with run %q, stream %q, lines \"%d:%d\"", run, x.Stream, from, x.LastLine)
		return strings.Join(lines[:n], "") + fmt.Sprintf("…[lines %d–%d of %s left out: %s]\n", from, x.LastLine, x.Stream, call)
	}
	return strings.Join(lines[:n], "") + fmt.Sprintf("…[%d more lines of this excerpt left out: %s]\n", len(lines)-n, call)
}

func excerptsLeftOut(r report.Run) string {
	var where []string
	for i, x := range r.Excerpts {
		if i == 4 {
			where = append(where, fmt.Sprintf("and %d more", len(r.Excerpts)-i))
			break
		}
		where = append(where, fmt.Sprintf("%s range \"%d:%d\" (%s)", x.Stream, x.Start, x.End, x.Reason))
	}
	return fmt.Sprintf("…[%d excerpts of run %s left out for size: %s; call show with run %q, the stream and the range]",
		len(r.Excerpts), r.ID, strings.Join(where, ", "), r.ID)
}

func runsLeftOut(runs []report.Run) string {
	var names []string
	for i, r := range runs {
		if i == 10 {
			names = append(names, fmt.Sprintf("and %d more", len(runs)-i))
			break
		}
		names = append(names, fmt.Sprintf("%q (%s)", r.Name, r.Status))
	}
	return fmt.Sprintf("…[%d runs left out for size: %s; call report with names to see them]",
		len(runs), strings.Join(names, ", "))
}
