package evidence

import (
	"io"
	"sort"
)

// Input is one stored stream of a run and what Scan found in it.
type Input struct {
	Stream string
	RA     io.ReaderAt
	Res    *Result
}

// Budget bounds what Plan quotes for one run; zero fields take the
// defaults.
type Budget struct {
	// Bytes is the most quoted over all the run's streams (12 KiB); a run
	// whose logs fit is quoted whole.
	Bytes int64
	// Block is the most one failing test gets in the first round, when
	// every distinct failure gets its first block (3 KiB).
	Block int64
	// Ended is false for a run that did not exit by itself (signaled,
	// timed out, cancelled, incomplete): its last lines are always quoted.
	Ended bool
}

const (
	defaultBytes = 12 << 10
	defaultBlock = 3 << 10
	minShare     = 640 // the least a generic error's quote gets when it is all there is
	// minFirst is the least a failure's first quote gets: its heading,
	// assertion and location, not its context. More failures than the
	// budget has room for at that get it in order, so it stays small: a
	// larger floor spends on the first failures what the last ones need.
	minFirst     = 256
	secondRound  = 8 << 10 // the most one block grows to later
	genericShare = 1 << 10
	tailBytes    = 2 << 10
	tailCount    = 20
	maxExpected  = 3 // expected failures quoted
)

// Piece is one contiguous range to quote.
type Piece struct {
	Stream string
	Span
	// Reason: "failure" (a failing test's evidence), "error" (a crash or
	// an error line), "tail" (the last lines), "whole" (the log fits),
	// "summary" (a bare verdict line), "head".
	Reason string
	Runner string // the grammar that found it ("" for whole, head, tail)
	Test   string // the failing test or error it explains
	Role   string
}

// Plan chooses what to quote of a run's streams within the budget:
//   - logs that fit the budget are quoted whole;
//   - a run that did not end by itself gets its last lines first;
//   - every distinct failure (grouped by test) gets its first block,
//     cut to the lines that explain it (the heading, the assertion and
//     location lines, the end), before any gets more; then blocks grow,
//     then second blocks (a panic after the test's output) are added;
//   - generic error lines come after every runner's evidence;
//   - bare verdict lines only when nothing explains them, and head and
//     tail only when nothing at all was found.
//
// Pieces come best first; none overlaps another.
func Plan(in []Input, b Budget) ([]Piece, error) {
	b = b.withDefaults()
	p := &planner{budget: b.Bytes, block: b.Block, covered: map[string][]Span{}, in: in}
	var total int64
	for _, s := range in {
		total += s.Res.Size
	}
	if total <= b.Bytes {
		return p.whole(), nil
	}
	if !b.Ended {
		p.tails(tailBytes, nil)
	}
	groups, generic, verdicts, expected := p.classify()
	if err := p.failures(groups); err != nil {
		return nil, err
	}
	if err := p.generic(generic, len(groups) == 0); err != nil {
		return nil, err
	}
	if len(groups) == 0 {
		p.verdicts(verdicts)
	}
	switch c := crashedIn(groups); {
	case len(p.out) == 0:
		p.headTail() // nothing known: the first and last lines
	case len(groups) == 0:
		// what was printed last before an exit nothing explains
		p.tails(min(tailBytes, p.budget/int64(max(len(in), 1))), nil)
	case len(c) > 0:
		// what the other streams printed last before a crash (a script's
		// progress on stdout, its traceback on stderr)
		p.tails(min(tailBytes, p.budget/int64(max(len(in), 1))), c)
	}
	// What was meant to fail, last, and only a few: that they were seen,
	// not thirty tracebacks of a BDD suite's @xfail scenarios.
	if err := p.generic(expected[:min(len(expected), maxExpected)], false); err != nil {
		return nil, err
	}
	return p.out, nil
}

func (b Budget) withDefaults() Budget {
	if b.Bytes <= 0 {
		b.Bytes = defaultBytes
	}
	if b.Block <= 0 {
		b.Block = defaultBlock
	}
	return b
}

type planner struct {
	in      []Input
	budget  int64 // bytes left
	block   int64
	covered map[string][]Span // per stream, sorted, the ranges quoted so far
	out     []Piece
}

type ref struct {
	in *Input
	b  *Block
}

// group is one failure's blocks, best first, and its bare verdict lines
// in other streams (TAP's `not ok 5 - x` on stdout while its diagnostics
// went to stderr): a line each, quoted with the first block.
type group struct {
	test  string
	refs  []ref
	heads []ref
}

// classify splits the blocks: failures grouped by test in order of first
// appearance (stdout's, then stderr's), generic errors, bare verdicts.
func (p *planner) classify() (groups []*group, generic, verdicts, expected []ref) {
	byTest := map[string]*group{}
	for i := range p.in {
		s := &p.in[i]
		for _, b := range s.Res.Blocks {
			r := ref{s, b}
			switch {
			case len(b.Spans) == 0:
			case b.Kind == KindExpected:
				expected = append(expected, r)
			case b.Kind == KindVerdict || b.bare():
				verdicts = append(verdicts, r)
			case b.Kind == KindError:
				generic = append(generic, r)
			default:
				g := byTest[b.Test]
				if g == nil {
					g = &group{test: b.Test}
					byTest[b.Test] = g
					groups = append(groups, g)
				}
				g.refs = append(g.refs, r)
			}
		}
	}
	verdicts = attachHeads(groups, verdicts)
	// A block that says a test failed explains more than an error line
	// around it: the failures first, each group in log order.
	sort.SliceStable(generic, func(i, j int) bool { return generic[i].b.failure && !generic[j].b.failure })
	// A parent test that failed because a subtest did (go's TestA for
	// TestA/sub) mostly prints a tally; its subtests explain it, so their
	// groups go first.
	parents := parentTests(groups)
	sort.SliceStable(groups, func(i, j int) bool {
		return !parents[groups[i].test] && parents[groups[j].test]
	})
	return groups, generic, verdicts, expected
}

// attachHeads gives each group the bare verdicts of its test that another
// stream printed, and returns the other verdicts.
func attachHeads(groups []*group, verdicts []ref) []ref {
	var rest []ref
	for _, v := range verdicts {
		if g, ok := findGroup(groups, v.b.Test); ok && v.b.Kind == KindTest && v.b.Test != "" &&
			v.in != g.refs[0].in && len(g.heads) < 4 {
			g.heads = append(g.heads, v)
			continue
		}
		rest = append(rest, v)
	}
	return rest
}

// parentTests names the groups' tests that have a subtest among them.
func parentTests(groups []*group) map[string]bool {
	parents := map[string]bool{}
	for _, g := range groups {
		for i := len(g.test) - 1; i > 0; i-- {
			if g.test[i] == '/' {
				parents[g.test[:i]] = true
			}
		}
	}
	for t := range parents {
		if _, ok := findGroup(groups, t); !ok {
			delete(parents, t)
		}
	}
	return parents
}

func findGroup(groups []*group, test string) (*group, bool) {
	for _, g := range groups {
		if g.test == test {
			return g, true
		}
	}
	return nil, false
}

// failures quotes the groups in rounds: every first block, cut to a fair
// share; then the first blocks grown; then the other blocks.
func (p *planner) failures(groups []*group) error {
	for i, g := range groups {
		share := min(max(p.budget/int64(len(groups)-i), minFirst), p.block)
		if err := p.quote(g.refs[0], share, reasonOf(g.refs[0].b)); err != nil {
			return err
		}
		for _, h := range g.heads {
			if err := p.quote(h, min(share, 512), "failure"); err != nil {
				return err
			}
		}
	}
	for _, g := range groups {
		if err := p.quote(g.refs[0], secondRound, reasonOf(g.refs[0].b)); err != nil {
			return err
		}
	}
	for _, g := range groups {
		for _, r := range g.refs[1:] {
			if err := p.quote(r, p.block, reasonOf(r.b)); err != nil {
				return err
			}
		}
	}
	return nil
}

func reasonOf(b *Block) string {
	if b.Kind == KindTest {
		return "failure"
	}
	return "error"
}

// generic quotes generic error blocks: a fair share each when they are all
// there is, else a small one while the budget lasts.
func (p *planner) generic(refs []ref, alone bool) error {
	for i, r := range refs {
		share := int64(genericShare)
		if alone {
			share = min(max(p.budget/int64(len(refs)-i), minShare), p.block)
		}
		if err := p.quote(r, share, "error"); err != nil {
			return err
		}
	}
	return nil
}

// verdicts quotes the last few bare verdict lines.
func (p *planner) verdicts(refs []ref) {
	const keep = 8
	if len(refs) > keep {
		refs = refs[len(refs)-keep:]
	}
	for _, r := range refs {
		for _, s := range r.b.Spans {
			if p.budget < s.End-s.Start {
				return
			}
			p.add(Piece{Stream: r.in.Stream, Span: s, Reason: "summary", Runner: r.b.Runner, Test: r.b.Test, Role: "verdict"})
		}
	}
}

// whole quotes every stream entire, piece by piece of the stored file.
func (p *planner) whole() []Piece {
	for _, s := range p.in {
		if s.Res.Size == 0 {
			continue
		}
		for _, seg := range s.Res.Segments {
			if seg[1] > seg[0] {
				sp := Span{Start: seg[0], End: seg[1]}
				sp.First, sp.Last = lineRange(s.Res, seg)
				p.out = append(p.out, Piece{Stream: s.Stream, Span: sp, Reason: "whole"})
			}
		}
	}
	return p.out
}

// lineRange gives the line numbers a segment holds, from the head and tail
// the scan kept, or 0 when they do not reach it (the caller counts).
func lineRange(r *Result, seg [2]int64) (int64, int64) {
	var first, last int64
	for _, s := range append(append([]Span(nil), r.Head...), r.Tail...) {
		if s.Start == seg[0] {
			first = s.First
		}
		if s.End == seg[1] {
			last = s.Last
		}
	}
	return first, last
}

// crashedIn names the streams holding a crash (a panic, a traceback, a
// sanitizer report).
func crashedIn(groups []*group) map[string]bool {
	in := map[string]bool{}
	for _, g := range groups {
		for _, r := range g.refs {
			if r.b.Kind == KindCrash {
				in[r.in.Stream] = true
			}
		}
	}
	return in
}

// tails quotes the last lines of each stream but those skipped, at most
// limit bytes each.
func (p *planner) tails(limit int64, skip map[string]bool) {
	if limit <= 0 {
		return
	}
	for _, s := range p.in {
		if skip[s.Stream] {
			continue
		}
		t := s.Res.Tail
		var n int64
		k := len(t)
		for k > 0 && len(t)-k < tailCount && n+t[k-1].End-t[k-1].Start <= limit {
			k--
			n += t[k].End - t[k].Start
		}
		if k == len(t) && len(t) > 0 { // one last line longer than limit: its end
			last := t[len(t)-1]
			last.Start, last.cutStart = max(last.End-limit, last.Start), last.End-limit > last.Start
			p.add(Piece{Stream: s.Stream, Span: last, Reason: "tail"})
			continue
		}
		for _, sp := range merge(t[k:]) {
			p.add(Piece{Stream: s.Stream, Span: sp, Reason: "tail"})
		}
	}
}

// headTail is the fallback when nothing was found: the first and last lines.
func (p *planner) headTail() {
	for _, s := range p.in {
		for _, sp := range merge(s.Res.Head) {
			if sp.End-sp.Start > tailBytes {
				sp.End, sp.cutEnd = sp.Start+tailBytes, true
			}
			p.add(Piece{Stream: s.Stream, Span: sp, Reason: "head"})
		}
	}
	p.tails(tailBytes, nil)
}

// merge joins adjacent spans.
func merge(spans []Span) []Span {
	var out []Span
	for _, s := range spans {
		if n := len(out); n > 0 && out[n-1].End == s.Start {
			out[n-1].End, out[n-1].Last = s.End, s.Last
			continue
		}
		out = append(out, s)
	}
	return out
}

// add appends the parts of pc not yet quoted and charges them to the
// budget; it reports the bytes added.
func (p *planner) add(pc Piece) int64 {
	cov := p.covered[pc.Stream]
	var added int64
	for _, part := range subtract(pc.Span, cov) {
		np := pc
		np.Span = part
		p.out = append(p.out, np)
		added += part.End - part.Start
		cov = insert(cov, part)
	}
	p.covered[pc.Stream] = cov
	p.budget -= added
	return added
}

// subtract returns the parts of s outside the sorted spans cov. Quoted
// spans hold whole lines, so a part ends on the line before a covered span
// and starts on the line after one.
func subtract(s Span, cov []Span) []Span {
	out := []Span{s}
	for _, c := range cov {
		var next []Span
		for _, o := range out {
			if c.End <= o.Start || c.Start >= o.End {
				next = append(next, o)
				continue
			}
			if c.Start > o.Start {
				last := c.First - 1
				if c.cutStart {
					last = c.First
				}
				next = append(next, Span{Start: o.Start, End: c.Start, First: o.First, Last: last, cutStart: o.cutStart, cutEnd: c.cutStart})
			}
			if c.End < o.End {
				first := c.Last + 1
				if c.cutEnd {
					first = c.Last
				}
				next = append(next, Span{Start: c.End, End: o.End, First: first, Last: o.Last, cutStart: c.cutEnd, cutEnd: o.cutEnd})
			}
		}
		out = next
	}
	return out
}

func insert(cov []Span, s Span) []Span {
	i := sort.Search(len(cov), func(i int) bool { return cov[i].Start >= s.Start })
	cov = append(cov, Span{})
	copy(cov[i+1:], cov[i:])
	cov[i] = s
	return cov
}
