package render

import "github.com/runledger/runledger/report"

// CommentLadder is how a Markdown report gives way (comment, summary,
// terminal): failure messages and warnings over 2000 bytes are cut first
// (one such string must not squeeze out every excerpt), then excerpts
// quoting the same bytes as an earlier one go, then the embedded envelope
// names no more failing tests than the comment lists, then excerpts
// shrink: fewer and narrower lines of context (every failure keeps its
// evidence lines, see trimText), then a test's later excerpts, then each
// excerpt's evidence down to its eight best lines, six, five, four, three,
// two, its one best, excerpt by excerpt (every failure keeps its
// assertion before any keeps more), then whole
// excerpts, lowest priority first. Then superseded attempts go, then
// failure messages and warnings are cut further. Status rows are never
// dropped.
func CommentLadder(env *report.Envelope) []Step {
	return append(append([]Step{
		{Set: func(c *Cut, _ int) { c.Clamp = 2000 }, N: 1, InOrder: true},
		{Set: func(c *Cut, _ int) { c.DropDuplicates = true }, N: min(len(orderOf(env).dupes), 1), InOrder: true},
		{Set: func(c *Cut, _ int) { c.MaxFailures = listedFailures }, N: min(longLists(env), 1), InOrder: true},
		{Set: func(c *Cut, k int) { c.Lines, c.Width = trims[k-1][0], trims[k-1][1] }, N: len(trims), InOrder: true},
		{Set: func(c *Cut, k int) { c.DropRepeats = k }, N: len(orderOf(env).repeats)},
	}, evidenceSteps(countExcerpts(env))...), []Step{
		{Set: func(c *Cut, k int) { c.DropExcerpts = k }, N: countExcerpts(env)},
		{Set: func(c *Cut, k int) { c.DropSuperseded = k }, N: len(env.Superseded)},
		{Set: func(c *Cut, k int) { c.Clamp = []int{200, 60}[k-1] }, N: 2, InOrder: true},
	}...)
}

// evidenceSteps lower the excerpts' evidence caps one excerpt at a time,
// lowest priority first (dropOrder), before every excerpt takes the next
// cap: a body that fits with a few excerpts at four lines keeps six in the
// others rather than four in all.
func evidenceSteps(excerpts int) []Step {
	var steps []Step
	for i, capN := range evidenceCaps {
		steps = append(steps, Step{Set: func(c *Cut, _ int) { c.Evidence, c.Tighter = capN, 0 }, N: 1, InOrder: true})
		if i+1 < len(evidenceCaps) && excerpts > 1 {
			next := evidenceCaps[i+1]
			steps = append(steps, Step{Set: func(c *Cut, k int) { c.Evidence, c.NextCap, c.Tighter = capN, next, k }, N: excerpts - 1})
		}
	}
	return steps
}

// listedFailures is how many failing tests a comment lists per run; the
// embedded envelope names the rest until room runs short, and then their
// count stays (a run of 28 failures spent half of 16 KiB naming them,
// and its excerpts went).
const listedFailures = 10

// longLists counts the runs failing more tests than a comment lists.
func longLists(env *report.Envelope) int {
	n := 0
	for _, r := range env.Runs {
		if len(r.Summary.Failures) > listedFailures {
			n++
		}
	}
	return n
}

// trims are the excerpt shrinking steps: fewer context lines, narrower
// lines. They leave out context, not evidence, so they come before a
// test's later excerpts go (repeatOrder), which may hold evidence.
var trims = [][2]int{{40, 400}, {20, 200}, {10, 160}, {5, 120}, {2, 120}}

// evidenceCaps are how many evidence lines each excerpt keeps, once no
// context is left to cut.
var evidenceCaps = []int{8, 6, 5, 4, 3, 2, 1}

// AgentLadder is how an MCP result gives way: an agent can fetch every
// byte left out with one call, so excerpts shrink to a few lines first,
// then give their text way to pointers, then superseded attempts go, then
// the excerpts and the failure lists (the counts stay), then, unless
// keepRuns (the run tool's one run), runs from the last. Each rung is
// tried at 1, 2, 4, … of its size.
func AgentLadder(env *report.Envelope, keepRuns bool) []Step {
	pointers, superseded, runs := doubling(countExcerpts(env)), doubling(len(env.Superseded)), doubling(len(env.Runs))
	ladder := []Step{
		{Set: func(c *Cut, k int) { c.Lines, c.Clamp = []int{20, 8, 3}[k-1], 1000 }, N: 3, InOrder: true},
		{Set: func(c *Cut, k int) { c.Lines, c.Clamp, c.Pointers = 3, 300, pointers[k-1] }, N: len(pointers), InOrder: true},
		{Set: func(c *Cut, k int) { c.Lines, c.Clamp, c.DropSuperseded = 3, 300, superseded[k-1] }, N: len(superseded), InOrder: true},
		{Set: func(c *Cut, _ int) { c.DropExcerpts, c.MaxFailures, c.Clamp = countExcerpts(env), 3, 120 }, N: 1, InOrder: true},
		{Set: func(c *Cut, _ int) { c.Bare, c.Clamp = true, 60 }, N: 1, InOrder: true},
	}
	if !keepRuns {
		ladder = append(ladder, Step{Set: func(c *Cut, k int) { c.DropRuns = runs[k-1] }, N: len(runs), InOrder: true})
	}
	return ladder
}

// doubling is 1, 2, 4, … below n, then n.
func doubling(n int) []int {
	var ks []int
	for k := 1; k < n; k *= 2 {
		ks = append(ks, k)
	}
	if n > 0 {
		ks = append(ks, n)
	}
	return ks
}
