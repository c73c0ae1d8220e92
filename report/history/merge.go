package history

import (
	"cmp"
	"slices"
	"strings"

	"github.com/runledger/runledger/report/testindex"
)

// Merge carries past forward by one run: cur's outcomes become the newest
// column (on col's commit), the oldest columns go past window. A test is
// the same test as the index's comparison says (the same key; else, for
// the few left over, testindex.Pair's looser rules), so a test that moved
// file keeps its past; a unit is matched by its exact key. When past's
// newest column is an earlier attempt of col's workflow run on the same
// commit (a re-run), cur joins that column instead: a test that failed in
// one and passed in the other flipped there. A nil past starts the
// history at cur. cur is sorted, as testindex.Compare leaves it; the
// result's first entries are cur's, in cur's order.
func Merge(past *History, cur *testindex.Index, col Column, window int, branch string) *History {
	window = max(window, 1)
	out := &History{Header: Header{Schema: Schema, Run: cur.Run, Branch: branch, Window: window}}
	k, same := 0, false
	if past != nil {
		k = len(past.Columns)
		same = sameRun(past.Columns[k-1], col)
		out.Columns = slices.Clone(past.Columns)
		if out.Branch == "" {
			out.Branch = past.Branch
		}
	}
	if same {
		out.Columns[k-1] = col
	} else {
		out.Columns = append(out.Columns, col)
	}
	width := len(out.Columns)
	drop := max(0, width-window)
	out.Columns = out.Columns[drop:]

	m := merger{width: width, drop: drop, same: same, rows: make([]string, 0, len(cur.Entries)),
		ends: make([]int, 0, len(cur.Entries))}
	ab, used := pair(cur, past)
	for i, e := range cur.Entries {
		prev := ""
		if j := ab[i]; j >= 0 {
			prev = past.outcomes(int(j))
		}
		m.add(prev, code(e))
	}
	var gone []Entry // past rows that did not run here, in past's order
	if past != nil {
		for j := range used {
			if !used[j] {
				e := past.entry(j)
				m.add(e.Outcomes, 0)
				gone = append(gone, e)
			}
		}
	}
	rows := m.finish()
	out.Rows, out.index, out.Tests = rows[:len(cur.Entries)], cur, len(cur.Entries)
	for k, e := range gone {
		if o := rows[len(cur.Entries)+k]; strings.Trim(o, string(Absent)) != "" { // else out of the window
			e.Outcomes = o
			out.Extra = append(out.Extra, e)
		}
	}
	slices.SortFunc(out.Extra, compareEntries)
	return out
}

// outcomes is row j of h: an index entry's, then Extra's.
func (h *History) outcomes(j int) string {
	if j < len(h.Rows) {
		return h.Rows[j]
	}
	return h.Extra[j-len(h.Rows)].Outcomes
}

// entry is row j of h with its key.
func (h *History) entry(j int) Entry {
	if j < len(h.Rows) {
		e := h.index.Entries[j]
		return Entry{Kind: e.Kind, Outcomes: h.Rows[j], Key: e.Key}
	}
	return h.Extra[j-len(h.Rows)]
}

func (h *History) len() int { return len(h.Rows) + len(h.Extra) }

// sameRun: b is a later attempt of a's workflow run on a's commit (a
// re-run). Two workflow runs of one commit stay two columns: a pull
// request's run may name its base commit (a change with no diff, a test
// harness), and its outcomes are not the branch's.
func sameRun(a, b Column) bool {
	return a.Commit != "" && a.WorkflowRunID != "" && a.Commit == b.Commit && a.WorkflowRunID == b.WorkflowRunID &&
		b.Attempt > a.Attempt
}

// merger builds every row in one buffer: 100,000 tests cost one
// allocation for their outcomes, not one each.
type merger struct {
	width, drop int
	same        bool
	b           strings.Builder
	rows        []string
	ends        []int // where each row's outcomes end in b; -1 for a row given whole
	// uniform caches, by outcome, a row of that one outcome before and
	// after the merge: most tests pass every run, and their rows are
	// one shared string, not 100,000 copies.
	uniform map[byte][2]string
}

// add appends a row: prev, the test's past outcomes (empty for a test
// new to the history), and now, its outcome in this run (0 when it did
// not run).
func (m *merger) add(prev string, now byte) {
	if prev == "" {
		prev = strings.Repeat(string(Absent), m.width-1)
		if m.same {
			prev += string(Absent)
		}
	}
	if !m.same && now != 0 && len(prev) == m.width-1 {
		if u := m.uniformRow(now); prev == u[0] {
			m.rows = append(m.rows, u[1])
			m.ends = append(m.ends, -1)
			return
		}
	}
	switch {
	case m.same && now != 0:
		m.b.WriteString(prev[min(m.drop, len(prev)-1) : len(prev)-1])
		m.b.WriteByte(combine(prev[len(prev)-1], now))
	case m.same:
		m.b.WriteString(prev[min(m.drop, len(prev)):])
	case now != 0:
		m.b.WriteString(prev[min(m.drop, len(prev)):])
		m.b.WriteByte(now)
	default:
		m.b.WriteString(prev[min(m.drop, len(prev)):])
		m.b.WriteByte(Absent)
	}
	m.rows = append(m.rows, "")
	m.ends = append(m.ends, m.b.Len())
}

// uniformRow is the row of outcome o alone before the merge and after.
func (m *merger) uniformRow(o byte) [2]string {
	u, ok := m.uniform[o]
	if !ok {
		if m.uniform == nil {
			m.uniform = map[byte][2]string{}
		}
		before := strings.Repeat(string(o), m.width-1)
		u = [2]string{before, (before + string(o))[m.drop:]}
		m.uniform[o] = u
	}
	return u
}

// finish gives each row its outcomes.
func (m *merger) finish() []string {
	all := m.b.String()
	start := 0
	for i, end := range m.ends {
		if end >= 0 {
			m.rows[i], start = all[start:end], end
		}
	}
	return m.rows
}

// combine is two attempts of one run in one column: the later verdict,
// flipped when either was or when one failed and the other passed.
func combine(earlier, later byte) byte {
	if earlier == Absent {
		return later
	}
	e, l := final(earlier), final(later)
	pass := func(o byte) bool { return o == 'P' }
	fail := func(o byte) bool { return o == 'F' || o == 'E' }
	if isFlip(earlier) || isFlip(later) || pass(e) && fail(l) || fail(e) && pass(l) {
		if l == 'S' {
			return flipped(e)
		}
		return flipped(l)
	}
	return later
}

// pair maps each entry of cur to its past entry, or -1, and says which
// past entries were taken: the same kind and key by a walk of the two
// sorted lists (and a look-up among past's rows not in its index); then
// among the tests left on both sides, testindex.Pair's rules.
func pair(cur *testindex.Index, past *History) ([]int32, []bool) {
	ab := make([]int32, len(cur.Entries))
	for i := range ab {
		ab[i] = -1
	}
	if past == nil {
		return ab, nil
	}
	used := make([]bool, past.len())
	aligned := past.index.Entries
	for i, j := 0, 0; i < len(cur.Entries) && j < len(aligned); {
		a, b := cur.Entries[i], aligned[j]
		switch c := cmp.Or(compareKeys(a.Key, b.Key), cmp.Compare(a.Kind, b.Kind)); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			ab[i], used[j] = int32(j), true
			i, j = i+1, j+1
		}
	}
	extra := map[Entry]int32{}
	for k, e := range past.Extra {
		extra[Entry{Kind: e.Kind, Key: e.Key}] = int32(len(past.Rows) + k)
	}
	for i, e := range cur.Entries {
		if ab[i] < 0 && len(extra) > 0 {
			if j, ok := extra[Entry{Kind: e.Kind, Key: e.Key}]; ok && !used[j] {
				ab[i], used[j] = j, true
			}
		}
	}
	pairLoose(cur, past, ab, used)
	return ab, used
}

// pairLoose pairs the tests left on both sides as a comparison would (a
// test that moved file, or is named more loosely on one side).
func pairLoose(cur *testindex.Index, past *History, ab []int32, used []bool) {
	var a, b testindex.Index
	var ai, bj []int32
	for i, e := range cur.Entries {
		if ab[i] < 0 && e.Kind == testindex.Test {
			a.Entries, ai = append(a.Entries, e), append(ai, int32(i))
		}
	}
	if len(ai) == 0 {
		return
	}
	for j := range used {
		if !used[j] && past.entry(j).Kind == testindex.Test {
			bj = append(bj, int32(j))
		}
	}
	if len(bj) == 0 {
		return
	}
	// Sorted here, Pair keeps a's and b's order: its answer indexes them.
	slices.SortFunc(bj, func(x, y int32) int { return compareEntries(past.entry(int(x)), past.entry(int(y))) })
	for _, j := range bj {
		b.Entries = append(b.Entries, testindex.Entry{Kind: testindex.Test, Outcome: testindex.Passed, Key: past.entry(int(j)).Key})
	}
	for k, l := range testindex.Pair(&a, &b) {
		if l >= 0 {
			ab[ai[k]], used[bj[l]] = bj[l], true
		}
	}
}

// compareKeys orders keys as the index does, stopping at the first field
// that differs.
func compareKeys(a, b testindex.Key) int {
	if c := strings.Compare(a.Suite, b.Suite); c != 0 {
		return c
	}
	if c := strings.Compare(a.Class, b.Class); c != 0 {
		return c
	}
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return strings.Compare(a.File, b.File)
}

func compareEntries(a, b Entry) int {
	return cmp.Or(compareKeys(a.Key, b.Key), cmp.Compare(a.Kind, b.Kind))
}

// Find returns the test of key k, if the history has it.
func (h *History) Find(k testindex.Key) (Entry, bool) {
	return h.find(Entry{Kind: testindex.Test, Key: k})
}

// find returns the row of want's kind and key.
func (h *History) find(want Entry) (Entry, bool) {
	if h.index != nil {
		i, ok := slices.BinarySearchFunc(h.index.Entries, want, func(e testindex.Entry, w Entry) int {
			return cmp.Or(compareKeys(e.Key, w.Key), cmp.Compare(e.Kind, w.Kind))
		})
		if ok && i < len(h.Rows) {
			return h.entry(i), true
		}
	}
	if i, ok := slices.BinarySearchFunc(h.Extra, want, compareEntries); ok {
		return h.Extra[i], true
	}
	return Entry{}, false
}
