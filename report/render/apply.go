package render

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/excerpt"
	"github.com/runledger/runledger/report/internal/terminal"
)

// Words are a surface's markers for what a cut left out, saying where
// the bytes can still be read in terms its reader can act on.
type Words interface {
	// Cut follows a string cut to fit: n bytes went.
	Cut(n int) string
	// Lines stands for an excerpt's lines from index from (0-based) of
	// total, n bytes, in run; it ends with a newline.
	Lines(run string, x report.Excerpt, from, total int, n int64) string
	// Pointer stands for an excerpt's whole text.
	Pointer(run string, x report.Excerpt) string
}

// markdownWords point at stream byte ranges and lines, which show, grep
// and the artifact read back.
type markdownWords struct{}

func (markdownWords) Cut(n int) string { return fmt.Sprintf("…[%d bytes omitted]…", n) }

func (markdownWords) Lines(_ string, x report.Excerpt, from, total int, n int64) string {
	where := fmt.Sprintf("%s bytes %d–%d", terminal.Clean(x.Stream, true), x.Start, x.End)
	if x.LastLine-x.FirstLine+1 == int64(total) {
		where = fmt.Sprintf("lines %d–%d of %s", x.FirstLine+int64(from), x.LastLine, where)
	}
	return fmt.Sprintf("…[%d bytes omitted: %s]…\n", n, where)
}

func (markdownWords) Pointer(_ string, x report.Excerpt) string {
	return fmt.Sprintf("…[%d bytes omitted: %s bytes %d–%d]…\n", len(x.Text), terminal.Clean(x.Stream, true), x.Start, x.End)
}

// apply returns a copy of env with cut c applied and Omitted counting
// what went, the excerpts left out by run index, and the runs left out.
func apply(env *report.Envelope, c Cut, w Words, ord orders) (*report.Envelope, map[int][]report.Excerpt, []report.Run) {
	e := *env
	var om report.Omitted
	if env.Omitted != nil {
		om = *env.Omitted
	}
	before := om
	drop, point := excerptCuts(c, ord)
	dropped := map[int][]report.Excerpt{}
	if env.Runs != nil {
		e.Runs = make([]report.Run, len(env.Runs))
	}
	// Cuts Omitted does not count (failure lists, spans, runs) still
	// make the view a cut one.
	changed := c.DropRuns > 0
	for i, src := range env.Runs {
		r, xs := cutRun(src, i, c, w, drop, point, &om)
		changed = changed || r.Summary.FailuresOmitted != src.Summary.FailuresOmitted ||
			r.Summary.SpansOmitted != src.Summary.SpansOmitted
		if len(xs) > 0 {
			dropped[i] = xs
		}
		e.Runs[i] = r
	}
	if c.DropSuperseded > 0 {
		e.Superseded = append([]report.Superseded{}, env.Superseded[:len(env.Superseded)-c.DropSuperseded]...)
		om.Superseded += c.DropSuperseded
	}
	if c.Clamp > 0 {
		var n int64
		e.Warnings, n = clampAll(env.Warnings, c.Clamp, w)
		om.Bytes += n
	}
	var runs []report.Run
	if c.DropRuns > 0 {
		runs = e.Runs[len(e.Runs)-c.DropRuns:]
		e.Runs = e.Runs[:len(e.Runs)-c.DropRuns]
	}
	if changed || om != before {
		e.Omitted = &om
	}
	return &e, dropped, runs
}

// excerptCuts picks the excerpts c leaves out and those whose text gives
// way to a pointer, as [run, excerpt] indexes.
func excerptCuts(c Cut, ord orders) (drop, point map[[2]int]bool) {
	drop, point = map[[2]int]bool{}, map[[2]int]bool{}
	for _, x := range ord.drop[:min(c.DropExcerpts, len(ord.drop))] {
		drop[x] = true
	}
	for _, x := range ord.repeats[:c.DropRepeats] {
		drop[x] = true
	}
	for _, x := range ord.drop[:min(c.Pointers, len(ord.drop))] {
		point[x] = true
	}
	return drop, point
}

// cutRun applies c to run i: its excerpts, then its untrusted strings
// and failure lists. It returns the run and the excerpts left out.
func cutRun(src report.Run, i int, c Cut, w Words, drop, point map[[2]int]bool, om *report.Omitted) (report.Run, []report.Excerpt) {
	r := src
	if src.Excerpts != nil {
		r.Excerpts = make([]report.Excerpt, 0, len(src.Excerpts))
	}
	var dropped []report.Excerpt
	for j, x := range src.Excerpts {
		switch {
		case drop[[2]int{i, j}]:
			dropped = append(dropped, x)
			om.Excerpts++
			om.Bytes += int64(len(x.Text))
			continue
		case point[[2]int{i, j}]:
			om.Bytes += int64(len(x.Text))
			x.Text = w.Pointer(r.ID, x)
		default:
			var n int64
			x.Text, n = trimText(r.ID, x, c.Lines, c.Width, w)
			om.Bytes += n
		}
		r.Excerpts = append(r.Excerpts, x)
	}
	if c.Clamp > 0 {
		om.Bytes += clampRun(&r, c.Clamp, w)
	}
	r.Summary = cutFailures(r.Summary, c)
	return r, dropped
}

// cutFailures shortens a run's failure list, or with Bare leaves out the
// list and the spans; the counts stay and the omissions are counted.
func cutFailures(s report.Summary, c Cut) report.Summary {
	switch {
	case c.Bare:
		s.FailuresOmitted += len(s.Failures)
		s.SpansOmitted += len(s.Spans)
		s.Failures, s.Spans = nil, nil
	case c.MaxFailures > 0 && len(s.Failures) > c.MaxFailures:
		s.FailuresOmitted += len(s.Failures) - c.MaxFailures
		s.Failures = s.Failures[:c.MaxFailures]
	}
	return s
}

func countExcerpts(env *report.Envelope) int {
	n := 0
	for _, r := range env.Runs {
		n += len(r.Excerpts)
	}
	return n
}

// orders are an envelope's excerpts in the order cuts take them, sorted
// once per plan rather than once per rendering tried.
type orders struct {
	drop, repeats [][2]int
}

func orderOf(env *report.Envelope) orders {
	drop := dropOrder(env)
	return orders{drop: drop, repeats: repeatOrder(env, drop)}
}

// dropOrder lists excerpts, as [run, excerpt] indexes, in the order they
// are left out: those of passed runs, then the weakest reasons, later runs
// and later excerpts first.
func dropOrder(env *report.Envelope) [][2]int {
	var order [][2]int
	for i, r := range env.Runs {
		for j := range r.Excerpts {
			order = append(order, [2]int{i, j})
		}
	}
	key := func(x [2]int) (bool, int) {
		r := env.Runs[x[0]]
		return r.Status == "passed", excerpt.Rank(r.Excerpts[x[1]].Reason)
	}
	sort.SliceStable(order, func(a, b int) bool {
		pa, ra := key(order[a])
		pb, rb := key(order[b])
		switch {
		case pa != pb:
			return pa
		case ra != rb:
			return ra > rb
		case order[a][0] != order[b][0]:
			return order[a][0] > order[b][0]
		}
		return order[a][1] > order[b][1]
	})
	return order
}

// repeatOrder lists, in dropOrder's order, the excerpts that are not
// their test's first: a test's first excerpt holds its evidence, the
// later ones grow it.
func repeatOrder(env *report.Envelope, drop [][2]int) [][2]int {
	var out [][2]int
	for _, x := range drop {
		r := env.Runs[x[0]]
		test := r.Excerpts[x[1]].Test
		for _, prev := range r.Excerpts[:x[1]] {
			if test != "" && prev.Test == test {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// clampRun cuts a run's long untrusted strings, returning bytes left out.
func clampRun(r *report.Run, limit int, w Words) int64 {
	var total, n int64
	r.Warnings, n = clampAll(r.Warnings, limit, w)
	total += n
	r.Summary.Note, n = clamp(r.Summary.Note, limit, w)
	total += n
	if r.Summary.Failures != nil {
		fs := make([]report.Failure, len(r.Summary.Failures))
		for i, f := range r.Summary.Failures {
			f.Name, n = clamp(f.Name, limit, w)
			total += n
			f.Message, n = clamp(f.Message, limit, w)
			total += n
			fs[i] = f
		}
		r.Summary.Failures = fs
	}
	return total
}

func clampAll(ss []string, limit int, w Words) ([]string, int64) {
	if ss == nil {
		return nil, 0
	}
	out := make([]string, len(ss))
	var total int64
	for i, s := range ss {
		var n int64
		out[i], n = clamp(s, limit, w)
		total += n
	}
	return out, total
}

// clamp cuts s to about limit bytes on a rune boundary, with a marker.
func clamp(s string, limit int, w Words) (string, int64) {
	if len(s) <= limit {
		return s, 0
	}
	k := runeCut(s, limit)
	return s[:k] + w.Cut(len(s)-k), int64(len(s) - k)
}

func runeCut(s string, n int) int {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// trimText keeps at most maxLines lines of x.Text, each at most width
// bytes, and returns the text and how many bytes it left out; w's
// markers say where the rest can be read.
func trimText(run string, x report.Excerpt, maxLines, width int, w Words) (string, int64) {
	lines := strings.SplitAfter(x.Text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	var omitted int64
	for i, ln := range lines {
		if maxLines > 0 && i == maxLines && len(lines) > maxLines+1 {
			rest := int64(len(strings.Join(lines[i:], "")))
			omitted += rest
			b.WriteString(w.Lines(run, x, i, len(lines), rest))
			break
		}
		if width > 0 && len(ln) > width+1 {
			body := strings.TrimSuffix(ln, "\n")
			k := runeCut(body, width)
			omitted += int64(len(body) - k)
			ln = body[:k] + w.Cut(len(body)-k) + ln[len(body):]
		}
		b.WriteString(ln)
	}
	if omitted == 0 {
		return x.Text, 0
	}
	return b.String(), omitted
}
