package render

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/evidence"
	"github.com/runledger/runledger/report/excerpt"
)

// Words are a surface's markers for what a cut left out, saying where
// the bytes can still be read in terms its reader can act on.
type Words interface {
	// Cut follows a string cut to fit: n bytes went.
	Cut(n int) string
	// Gap says where bytes [start, end) of stream, lines first–last, which
	// an excerpt shortened to fit left out, can be read in run: an
	// excerpt's Note, so one line and no brackets.
	Gap(run, stream string, start, end, first, last int64) string
}

// markdownWords point at stream byte ranges and lines, which show, grep
// and the artifact read back.
type markdownWords struct{}

func (markdownWords) Cut(n int) string { return fmt.Sprintf("…[%d bytes omitted]…", n) }

func (markdownWords) Gap(_, _ string, start, end, first, last int64) string {
	// The excerpt's stream heads it: its line numbers say which of its
	// bytes went, in half the bytes of a range.
	return fmt.Sprintf("%d bytes not quoted here: %s", end-start, lineRange(first, last))
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
	drop, point, tight := excerptCuts(c, ord)
	dropped := map[int][]report.Excerpt{}
	if env.Runs != nil {
		e.Runs = make([]report.Run, len(env.Runs))
	}
	// Cuts Omitted does not count (failure lists, spans, runs) still
	// make the view a cut one.
	changed := c.DropRuns > 0
	for i, src := range env.Runs {
		r, xs := cutRun(src, i, c, w, excerptSets{drop, point, tight}, &om)
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
func excerptCuts(c Cut, ord orders) (drop, point, tight map[[2]int]bool) {
	drop, point, tight = map[[2]int]bool{}, map[[2]int]bool{}, map[[2]int]bool{}
	for _, x := range ord.drop[:min(c.Tighter, len(ord.drop))] {
		tight[x] = true
	}
	for _, x := range ord.drop[:min(c.DropExcerpts, len(ord.drop))] {
		drop[x] = true
	}
	for _, x := range ord.repeats[:c.DropRepeats] {
		drop[x] = true
	}
	if c.DropDuplicates {
		for _, x := range ord.dupes {
			drop[x] = true
		}
	}
	for _, x := range ord.drop[:min(c.Pointers, len(ord.drop))] {
		point[x] = true
	}
	return drop, point, tight
}

// excerptSets are the excerpts a cut leaves out, points to, and caps at
// its next evidence cap, as [run, excerpt] indexes.
type excerptSets struct {
	drop, point, tight map[[2]int]bool
}

// cutRun applies c to run i: its excerpts, then its untrusted strings
// and failure lists. It returns the run and the excerpts left out.
func cutRun(src report.Run, i int, c Cut, w Words, sets excerptSets, om *report.Omitted) (report.Run, []report.Excerpt) {
	r := src
	if src.Excerpts != nil {
		r.Excerpts = make([]report.Excerpt, 0, len(src.Excerpts))
	}
	var dropped []report.Excerpt
	for j, x := range src.Excerpts {
		switch {
		case sets.drop[[2]int{i, j}]:
			dropped = append(dropped, x)
			om.Excerpts++
			om.Bytes += int64(len(x.Text))
			continue
		case sets.point[[2]int{i, j}]:
			// Its range is named where the dropped excerpts are listed:
			// a text that is not its bytes would not be evidence.
			dropped = append(dropped, x)
			om.Excerpts++
			om.Bytes += int64(len(x.Text))
			continue
		}
		xc := c
		if sets.tight[[2]int{i, j}] {
			xc.Evidence = c.NextCap
		}
		xc.Evidence *= failuresIn(x, src.Summary.Failures)
		xs, n := trimExcerpt(r.ID, x, xc, w)
		om.Bytes += n
		r.Excerpts = append(r.Excerpts, xs...)
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
	drop, repeats, dupes [][2]int
}

func orderOf(env *report.Envelope) orders {
	drop := dropOrder(env)
	return orders{drop: drop, repeats: repeatOrder(env, drop), dupes: duplicates(env)}
}

// duplicates lists the excerpts whose bytes an earlier excerpt of the same
// run already quotes (the same hash): a test run under several parents
// (TestA/x, TestB/x) fails with the same output, and showing it once
// loses nothing; the marker of what was left out still cites each.
func duplicates(env *report.Envelope) [][2]int {
	var out [][2]int
	for i, r := range env.Runs {
		seen := map[string]bool{}
		for j, x := range r.Excerpts {
			if x.SHA256 == "" {
				continue
			}
			if seen[x.SHA256] {
				out = append(out, [2]int{i, j})
			}
			seen[x.SHA256] = true
		}
	}
	return out
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

// repeatOrder lists, in dropOrder's order, the excerpts of a test that
// are not its best: the one that explains the test most directly stays
// (see explains), the others only grow it. The best is not always the
// first: a test that prints an error on purpose (a CLI's `Error: …` and
// usage) before its assertion has its output quoted in two pieces, and
// the piece with `x_test.go:191: Expected …` and `--- FAIL` comes last;
// a runner may quote a failure's marked message lines and its
// `file.py:197: AssertionError` location apart, and the message says it.
func repeatOrder(env *report.Envelope, drop [][2]int) [][2]int {
	best := map[[2]int]bool{}
	for i, r := range env.Runs {
		top := map[string]int{} // test: index of its best excerpt so far
		score := map[int]worth{}
		for j, x := range r.Excerpts {
			if x.Test == "" {
				continue
			}
			score[j] = explains(x.Text)
			if k, ok := top[x.Test]; !ok || score[k].less(score[j]) {
				top[x.Test] = j // at equal strength the first: a runner may repeat a failure in its summary
			}
		}
		for _, j := range top {
			best[[2]int{i, j}] = true
		}
	}
	var out [][2]int
	worths := map[[2]int]worth{}
	for _, x := range drop {
		r := env.Runs[x[0]]
		test := r.Excerpts[x[1]].Test
		if test == "" || best[x] {
			continue
		}
		out = append(out, x)
		w := explains(r.Excerpts[x[1]].Text)
		worths[x] = worth{w[1], w[2], w[3]}
	}
	// What says least goes first: a piece holding only a heading the
	// excerpt's label repeats, then a piece holding only where the test
	// failed, before a piece holding a message (marked message lines),
	// whatever their places.
	sort.SliceStable(out, func(a, b int) bool { return worths[out[a]].less(worths[out[b]]) })
	return out
}

// worth is how directly a text explains a failure (see explains),
// compared field by field.
type worth [4]int

func (a worth) less(b worth) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// explains scores how directly a text explains a failure, compared in
// order: assertion or error lines that carry their own location
// (`x_test.go:191: Expected …`) or their runner's mark (evidence.Quoted:
// the source listing around them holds `assert` too), then assertion or error lines of any
// kind, then bare locations (`file.py:57: AssertionError`: where, and
// the exception's type, not what went wrong), then verdict lines (`---
// FAIL`, `● name`), which the excerpt's label mostly repeats. Lines are
// scored by what they say, not by where they stand: a piece holding only
// a stack frame is not a failure's last words.
func explains(text string) worth {
	var s worth
	for _, ln := range strings.SplitAfter(text, "\n") {
		t := payload(ln)
		switch {
		case evidence.VerdictLine(t):
			s[3]++
		case evidence.LineKey(ln) == 2 && !detail(t) && evidence.WhereLine(t):
			s[2]++
		case evidence.LineKey(ln) == 2 && !detail(t):
			s[1]++
			if evidence.HasLocation(ln) || evidence.Quoted(t) {
				s[0]++
			}
		}
	}
	return s
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

// keptLines chooses which lines stay: every evidence line (or the
// evidence best ones, when capped), then the others by their distance
// to the nearest evidence line, later ones first at equal distance,
// until maxLines are kept. A single line left out is kept instead, as its
// marker would be no shorter.
func keptLines(lines []string, maxLines, evidenceCap int) []bool {
	keep := make([]bool, len(lines))
	if maxLines <= 0 && evidenceCap <= 0 || len(lines) <= max(maxLines, 1) && evidenceCap <= 0 {
		for i := range keep {
			keep[i] = true
		}
		return keep
	}
	ev, rank := evidenceRanks(lines)
	var order []int // evidence lines, best first
	for i := range lines {
		if ev[i] > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		if ra, rb := rank[order[a]], rank[order[b]]; ra != rb {
			return ra > rb
		}
		if firstFirst(rank[order[a]]) {
			return order[a] < order[b]
		}
		return order[a] > order[b]
	})
	if evidenceCap > 0 && len(order) > evidenceCap {
		order = order[:evidenceCap]
	}
	kept := 0
	for _, i := range order {
		keep[i] = true
		kept++
	}
	if evidenceCap == 0 {
		dist := distances(keep)
		rest := make([]int, 0, len(lines))
		for i := range lines {
			if !keep[i] {
				rest = append(rest, i)
			}
		}
		sort.SliceStable(rest, func(a, b int) bool {
			if dist[rest[a]] != dist[rest[b]] {
				return dist[rest[a]] < dist[rest[b]]
			}
			return rest[a] > rest[b]
		})
		for _, i := range rest {
			if kept >= maxLines {
				break
			}
			keep[i] = true
			kept++
		}
	}
	for i := 1; i+1 < len(lines); i++ {
		if !keep[i] && keep[i-1] && keep[i+1] {
			keep[i] = true
		}
	}
	return keep
}

// distances is each line's distance to the nearest kept one.
func distances(keep []bool) []int {
	d := make([]int, len(keep))
	far := len(keep) + 1
	last := -far
	for i := range keep {
		if keep[i] {
			last = i
		}
		d[i] = i - last
	}
	last = 2 * far
	for i := len(keep) - 1; i >= 0; i-- {
		if keep[i] {
			last = i
		}
		d[i] = min(d[i], last-i)
	}
	return d
}

// evidenceLines ranks the lines that carry a failure: 3 for an assertion
// or error message (or, with none, the last lines, where it stopped), 2
// for a verdict or heading line (`--- FAIL: TestX`, `FAIL pkg [build
// failed]`, `not ok 5`, `● name`, `____ name ____`: evidence.VerdictLine) and
// for a stack's head below an assertion, 1 for the location next to an
// assertion, 0 for the rest: a test's progress logging, source listings,
// the remaining frames. A text with no assertion at all keeps its last
// lines.
func evidenceLines(lines []string) []int {
	ev, _ := evidenceRanks(lines)
	return ev
}

// Ranks of evidence lines, best first, for choosing the few an excerpt
// keeps when it may keep only some (see evidenceRanks).
const (
	rankMessage = 6 // an assertion or error message in its own words
	rankWhere   = 5 // the verdict or heading naming the test, the stack's head
	rankDiff    = 4 // a diff line under the message (`+   got`, `E  - want`)
	rankDetail  = 3 // a diff's legend, a source line, the message's continuation
	rankNear    = 1 // a location next to the message
)

// firstFirst: ranks whose lines are best read from the top (a diff's
// first lines); the others from the bottom (a test's last words, its
// latest verdict).
func firstFirst(rank int) bool { return rank == rankDiff || rank == rankDetail }

// evidenceRanks is evidenceLines with each evidence line's rank: what
// says the failure first (`expect(received).toBe(expected)`, `x_test.go:9:
// got 1, want 2`), then what says which test and where (`● name`, `---
// FAIL`, `at Object.<anonymous> (test/a.test.js:26:27)`), then the diff
// lines under the message (`+ received`, `> 26 | …`): a failure's
// thirty lines of diff and code frame must not outrank its heading and
// location, which a cap of a few lines would then leave out.
func evidenceRanks(lines []string) (ev, rank []int) {
	ev, rank = make([]int, len(lines)), make([]int, len(lines))
	keys := make([]int, len(lines))
	strong := false
	for i, ln := range lines {
		keys[i] = evidence.LineKey(ln)
		t := payload(ln)
		switch {
		case keys[i] == 2:
			ev[i], strong = 3, true
			rank[i] = rankMessage
			if evidence.WhereLine(t) {
				rank[i] = rankWhere // `file.py:485: AssertionError`: where, its `E` lines say what
			}
			if detail(t) {
				rank[i] = rankDiff
				if evidence.LineKey(strings.TrimLeft(evidence.Unquote(t), " ")[2:]) == 2 {
					rank[i] = rankDetail // `- Expected  - 2`, `> 26 |   expect(x).toBe(expected)`
				}
			}
		case evidence.VerdictLine(t):
			ev[i], rank[i] = 2, rankWhere
		}
		if i > 0 && rank[i] == rankDiff && evidence.BareMessage(payload(lines[i-1])) {
			// `E  +  where False = f(x)` says what `E  assert False` does not
			rank[i], rank[i-1] = rankMessage, rankDetail
		}
	}
	for i := range lines {
		if ev[i] != 3 {
			continue
		}
		if i > 0 && keys[i-1] == 1 && ev[i-1] == 0 {
			ev[i-1], rank[i-1] = 1, rankNear // `file:line:` above its message
		}
		if j := stackHead(lines, keys, ev, i); j > 0 {
			ev[j], rank[j] = max(ev[j], 2), rankWhere
		}
	}
	for i := 1; i < len(lines); i++ {
		heads := ev[i-1] == 3 && strings.HasSuffix(strings.TrimSpace(lines[i-1]), ":") // `Error:` over its message
		switch {
		case ev[i] == 0 && heads && strings.TrimSpace(lines[i]) != "":
			// the message under its heading (Rust's `panicked at src/lib.rs:293:59:`
			// over `index out of bounds: …`) says what the heading does not
			ev[i], rank[i] = 2, rankMessage
		case ev[i] == 0 && i+1 < len(lines) && ev[i-1] == 3 && ev[i+1] == 3:
			ev[i], rank[i] = 2, rankDetail // part of the message: between two of its lines
		}
	}
	last := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			last = i
			break
		}
	}
	if last >= 0 && !strong {
		// No assertion: where the output stops is what is known of it.
		ev[last], rank[last] = max(ev[last], 3), rankMessage
		for i := last - 1; i >= max(last-2, 0); i-- {
			if ev[i] < 1 {
				ev[i], rank[i] = 1, rankNear
			}
		}
	}
	return ev, rank
}

// payload is a line as a test printed it: trimmed, and for an event line
// (evidence.PayloadAt) what the test printed.
func payload(ln string) string {
	if _, at := evidence.PayloadAt(ln); at >= 0 {
		ln = ln[at:]
	}
	return strings.TrimLeft(ln, " \t")
}

// detail: a diff or source line (`+ …`, `- Expected - 2`, `> 26 | …`,
// a marked `E   +  where …`): it shows the failure, the message above it
// says it.
func detail(t string) bool {
	t = strings.TrimLeft(evidence.Unquote(t), " ")
	return strings.HasPrefix(t, "+ ") || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "> ")
}

// stackHead finds the first location line below the message at i (a
// stack's first frame, `at f (a.test.js:26:27)`, `File "t.py", line 3`),
// past its diff and code frame, before the next verdict or message; 0
// when there is none. A Go test's `x_test.go:21: …` lines are its own
// logging, not frames.
func stackHead(lines []string, keys, ev []int, i int) int {
	for j := i + 1; j < min(i+48, len(lines)); j++ {
		t := payload(lines[j])
		switch {
		case ev[j] == 2 && evidence.VerdictLine(t), keys[j] == 2 && !detail(t):
			return 0
		case keys[j] == 1 && !evidence.LogLine(t):
			return j
		}
	}
	return 0
}
