package render

import (
	"sort"

	"github.com/runledger/runledger/report"
)

// Cut says how much of an envelope a view leaves out to fit a budget.
// Every surface's ladder (ladder.go) is a sequence of cuts.
type Cut struct {
	Lines, Width   int // excerpt Text limits; 0 means none (evidence lines stay past Lines)
	Evidence       int // at most this many of an excerpt's evidence lines stay, its best; 0 means all
	Tighter        int // this many excerpts, lowest priority first, keep at most NextCap evidence lines instead
	NextCap        int
	DropDuplicates bool // excerpts quoting the same bytes as an earlier one of their run left out
	DropRepeats    int  // a test's second and later excerpts left out, lowest priority first
	DropExcerpts   int  // excerpts left out, lowest priority first
	Pointers       int  // excerpts whose text gives way to a pointer to its bytes, lowest priority first
	DropSuperseded int  // superseded attempts left out, last first
	Clamp          int  // untrusted summary and warning strings cut to this; 0 means none
	MaxFailures    int  // failing tests listed per run; 0 means all (the counts stay)
	Bare           bool // failure lists and spans left out (the counts stay)
	DropRuns       int  // runs left out, last first (the overall status stays)
	Over           bool // nothing more can go: say the budget is exceeded
}

// View is an envelope as one rendering shows it.
type View struct {
	// Env is a copy of the envelope with Cut applied, Omitted counting
	// the cuts (Bytes: left-out text bytes); with nothing cut, the
	// envelope exactly. A rendering embeds or returns this one.
	Env *report.Envelope
	// Dropped holds the excerpts left out, by run index, and DroppedRuns
	// the runs, so that a rendering can say where they are.
	Dropped     map[int][]report.Excerpt
	DroppedRuns []report.Run
	Cut         Cut
	Budget      int
}

// Step is one rung of a ladder: Set applies k of it, k in [1, N].
type Step struct {
	Set func(c *Cut, k int)
	N   int
	// InOrder tries k = 1…N in turn (a rung need not shrink every
	// rendering); otherwise the least k that fits is bisected, size
	// falling as k grows.
	InOrder bool
}

// Plan finds the least cut of env, climbing ladder, whose rendering
// fits budget, and returns that view with its rendering. A rung that
// cannot fit is applied whole and the next one climbed; when the last
// cannot fit either, the view says Over and is rendered as it is. words
// are the surface's markers for what went. r formats a view and measures
// its rendering; it decides nothing about size. env is not modified.
func Plan[T any](env *report.Envelope, budget int, ladder []Step, words Words, r func(View) (T, int, error)) (View, T, error) {
	ord := orderOf(env)
	try := func(c Cut) (View, T, bool, error) {
		e, dropped, runs := apply(env, c, words, ord)
		v := View{Env: e, Dropped: dropped, DroppedRuns: runs, Cut: c, Budget: budget}
		out, size, err := r(v)
		return v, out, err == nil && size <= budget, err
	}
	var c Cut
	if v, out, ok, err := try(c); ok || err != nil {
		return v, out, err
	}
	for _, s := range ladder {
		k, fit, err := least(try, c, s)
		if err != nil {
			var zero T
			return View{}, zero, err
		}
		if k > 0 {
			return fit.view, fit.out, nil
		}
		if s.N > 0 {
			s.Set(&c, s.N) // all of this rung, and on to the next
		}
	}
	c.Over = true
	v, out, _, err := try(c)
	return v, out, err
}

// fitted is a rendering that fit, kept so that it is not made twice.
type fitted[T any] struct {
	view View
	out  T
}

// least finds the least k in [1, s.N] for which cut c with s.Set(k)
// fits and returns it with its rendering, or 0 when none does.
func least[T any](try func(Cut) (View, T, bool, error), c Cut, s Step) (int, fitted[T], error) {
	var firstErr error
	fits := map[int]fitted[T]{}
	ok := func(k int) bool {
		q := c
		s.Set(&q, k)
		v, out, fit, err := try(q)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		if fit {
			fits[k] = fitted[T]{v, out}
		}
		return fit
	}
	k := 1
	if s.InOrder {
		for k <= s.N && !ok(k) {
			k++
		}
	} else {
		k += sort.Search(s.N, func(i int) bool { return ok(i + 1) })
	}
	f, found := fits[k]
	if firstErr != nil || k > s.N || !found {
		return 0, fitted[T]{}, firstErr
	}
	return k, f, nil
}
