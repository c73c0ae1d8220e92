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

// Cut says how much of an envelope a rendering leaves out to fit.
type Cut struct {
	Lines, Width   int  // excerpt Text limits; 0 means none
	DropRepeats    int  // a test's second and later excerpts left out, lowest priority first
	DropExcerpts   int  // excerpts left out, lowest priority first
	DropSuperseded int  // superseded attempts left out, last first
	Clamp          int  // untrusted summary and warning strings cut to this; 0 means none
	Over           bool // nothing more can go: say the budget is exceeded
}

// View is an envelope as one rendering shows it.
type View struct {
	// Env is a copy of the envelope with Cut applied, Omitted counting
	// the cuts (Bytes: left-out text bytes); with nothing cut, the
	// envelope exactly. A rendering embeds or returns this one.
	Env *report.Envelope
	// Dropped holds the excerpts left out, by run index, so that a
	// rendering can point at their bytes.
	Dropped map[int][]report.Excerpt
	Cut     Cut
	Budget  int
}

// A Renderer formats a view. It decides nothing about size: Plan does.
type Renderer func(View) (string, error)

// trims are the excerpt shrinking steps: fewer context lines, narrower
// lines. Before any of them, a test's later excerpts go (repeatOrder):
// cutting excerpts to fewer lines would drop the assertion and location
// lines the evidence planner chose for each test's first one.
var trims = [][2]int{{40, 400}, {20, 200}, {10, 160}, {5, 120}, {2, 120}}

// Plan finds the least cut of env whose rendering fits budget bytes and
// returns that view with its rendering. env itself is not modified.
//
// The ladder: failure messages and warnings over 2000 bytes are cut first
// (one such string must not squeeze out every excerpt), then excerpts
// shrink (a test's later excerpts left out, then fewer and narrower lines,
// then whole excerpts left out, lowest priority first), then superseded
// attempts go, then failure messages and warnings are cut further. Every
// cut leaves a marker saying how many bytes went and where they are.
// Status rows are never dropped: when nothing more can go, the view says
// Over and the renderer says so.
func Plan(env *report.Envelope, budget int, r Renderer) (View, string, error) {
	try := func(c Cut) (View, string, error) {
		e, dropped := apply(env, c)
		v := View{Env: e, Dropped: dropped, Cut: c, Budget: budget}
		out, err := r(v)
		return v, out, err
	}
	fits := func(c Cut) (View, string, bool, error) {
		v, out, err := try(c)
		return v, out, err == nil && len(out) <= budget, err
	}
	var c Cut
	if v, out, ok, err := fits(c); ok || err != nil {
		return v, out, err
	}
	// A huge untrusted string (a 100 KiB assertion diff as a failure
	// message) would otherwise squeeze out every excerpt: cut those first.
	c.Clamp = 2000
	if v, out, ok, err := fits(c); ok || err != nil {
		return v, out, err
	}
	steps := []struct {
		set     func(*Cut, int)
		n       int
		inOrder bool // try 1…n in turn: a step need not shrink every body
	}{
		{func(c *Cut, k int) { c.DropRepeats = k }, len(repeatOrder(env)), false},
		{func(c *Cut, k int) { c.Lines, c.Width = trims[k-1][0], trims[k-1][1] }, len(trims), true},
		{func(c *Cut, k int) { c.DropExcerpts = k }, countExcerpts(env), false},
		{func(c *Cut, k int) { c.DropSuperseded = k }, len(env.Superseded), false},
		{func(c *Cut, k int) { c.Clamp = []int{200, 60}[k-1] }, 2, true},
	}
	for _, s := range steps {
		k, err := least(fits, c, s.set, s.n, s.inOrder)
		if err != nil {
			return View{}, "", err
		}
		if k == 0 {
			if s.n > 0 {
				s.set(&c, s.n) // all of this step, and on to the next
			}
			continue
		}
		s.set(&c, k)
		v, out, _, err := fits(c)
		return v, out, err
	}
	c.Over = true
	return try(c)
}

// least finds the least k in [1, n] for which cut c with set(k) fits,
// or 0 when none does: in turn when inOrder, else by bisection, size
// falling as k grows.
func least(fits func(Cut) (View, string, bool, error), c Cut, set func(*Cut, int), n int, inOrder bool) (int, error) {
	var firstErr error
	try := func(k int) bool {
		q := c
		set(&q, k)
		_, _, ok, err := fits(q)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return ok
	}
	k := 1
	if inOrder {
		for k <= n && !try(k) {
			k++
		}
	} else {
		k += sort.Search(n, func(i int) bool { return try(i + 1) })
	}
	if firstErr != nil || k > n {
		return 0, firstErr
	}
	return k, nil
}

func countExcerpts(env *report.Envelope) int {
	n := 0
	for _, r := range env.Runs {
		n += len(r.Excerpts)
	}
	return n
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
func repeatOrder(env *report.Envelope) [][2]int {
	var out [][2]int
	for _, x := range dropOrder(env) {
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

// apply returns a copy of env with cut p applied and Omitted
// counting them, and the excerpts left out per run index.
func apply(env *report.Envelope, p Cut) (*report.Envelope, map[int][]report.Excerpt) {
	e := *env
	var om report.Omitted
	if env.Omitted != nil {
		om = *env.Omitted
	}
	changed := false
	drop := map[[2]int]bool{}
	for _, x := range dropOrder(env)[:p.DropExcerpts] {
		drop[x] = true
	}
	if p.DropRepeats > 0 {
		for _, x := range repeatOrder(env)[:p.DropRepeats] {
			drop[x] = true
		}
	}
	dropped := map[int][]report.Excerpt{}
	if env.Runs != nil {
		e.Runs = make([]report.Run, len(env.Runs))
	}
	for i, src := range env.Runs {
		r := src
		if src.Excerpts != nil {
			r.Excerpts = make([]report.Excerpt, 0, len(src.Excerpts))
		}
		for j, x := range src.Excerpts {
			if drop[[2]int{i, j}] {
				dropped[i] = append(dropped[i], x)
				om.Excerpts++
				om.Bytes += int64(len(x.Text))
				changed = true
				continue
			}
			if t, n := trimText(x, p.Lines, p.Width); n > 0 {
				x.Text = t
				om.Bytes += n
				changed = true
			}
			r.Excerpts = append(r.Excerpts, x)
		}
		if p.Clamp > 0 {
			n := clampRun(&r, p.Clamp)
			om.Bytes += n
			changed = changed || n > 0
		}
		e.Runs[i] = r
	}
	if p.DropSuperseded > 0 {
		e.Superseded = append([]report.Superseded{}, env.Superseded[:len(env.Superseded)-p.DropSuperseded]...)
		om.Superseded += p.DropSuperseded
		changed = true
	}
	if p.Clamp > 0 {
		var n int64
		e.Warnings, n = clampAll(env.Warnings, p.Clamp)
		om.Bytes += n
		changed = changed || n > 0
	}
	if changed {
		e.Omitted = &om
	}
	return &e, dropped
}

// clampRun cuts a run's long untrusted strings, returning bytes left out.
func clampRun(r *report.Run, limit int) int64 {
	var total, n int64
	r.Warnings, n = clampAll(r.Warnings, limit)
	total += n
	r.Summary.Note, n = clamp(r.Summary.Note, limit)
	total += n
	if r.Summary.Failures != nil {
		fs := make([]report.Failure, len(r.Summary.Failures))
		for i, f := range r.Summary.Failures {
			f.Name, n = clamp(f.Name, limit)
			total += n
			f.Message, n = clamp(f.Message, limit)
			total += n
			fs[i] = f
		}
		r.Summary.Failures = fs
	}
	return total
}

func clampAll(ss []string, limit int) ([]string, int64) {
	if ss == nil {
		return nil, 0
	}
	out := make([]string, len(ss))
	var total int64
	for i, s := range ss {
		var n int64
		out[i], n = clamp(s, limit)
		total += n
	}
	return out, total
}

// clamp cuts s to about limit bytes on a rune boundary, with a marker.
func clamp(s string, limit int) (string, int64) {
	if len(s) <= limit {
		return s, 0
	}
	k := runeCut(s, limit)
	return s[:k] + fmt.Sprintf("…[%d bytes omitted]…", len(s)-k), int64(len(s) - k)
}

func runeCut(s string, n int) int {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// trimText keeps at most maxLines lines of x.Text, each at most width
// bytes, and returns the text and how many bytes it left out. The marker
// for dropped lines names the stream lines and the excerpt's byte range,
// where the full bytes can be read.
func trimText(x report.Excerpt, maxLines, width int) (string, int64) {
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
			b.WriteString(linesMarker(x, i, len(lines), rest))
			break
		}
		if width > 0 && len(ln) > width+1 {
			body := strings.TrimSuffix(ln, "\n")
			k := runeCut(body, width)
			omitted += int64(len(body) - k)
			ln = body[:k] + fmt.Sprintf("…[%d bytes omitted]…", len(body)-k) + ln[len(body):]
		}
		b.WriteString(ln)
	}
	if omitted == 0 {
		return x.Text, 0
	}
	return b.String(), omitted
}

func linesMarker(x report.Excerpt, from, total int, n int64) string {
	where := fmt.Sprintf("%s bytes %d–%d", terminal.Clean(x.Stream, true), x.Start, x.End)
	if x.LastLine-x.FirstLine+1 == int64(total) {
		where = fmt.Sprintf("lines %d–%d of %s", x.FirstLine+int64(from), x.LastLine, where)
	}
	return fmt.Sprintf("…[%d bytes omitted: %s]…\n", n, where)
}
