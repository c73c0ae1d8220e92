package history

import (
	"cmp"
	"slices"
	"strings"

	"github.com/runledger/runledger/report/testindex"
)

// Merge carries past forward by one run: cur's outcomes become the newest
// column (on col's commit), the oldest columns go past window. A test is
// the same test as the index's comparison says (testindex.Pair), so a test
// that moved file keeps its past; a unit is matched by its exact key. When
// past's newest column is an earlier attempt of col's workflow run on the
// same commit (a re-run), cur joins that column instead: a test that
// failed in one and passed in the other flipped there. A nil
// past starts the history at cur.
func Merge(past *History, cur *testindex.Index, col Column, window int, branch string) *History {
	window = max(window, 1)
	out := &History{Header: Header{Schema: Schema, Run: cur.Run, Branch: branch, Window: window}}
	var k int
	same := false
	if past != nil {
		sortIfNeeded(past)
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

	m := merger{width: width, drop: drop, same: same}
	m.b.Grow((len(cur.Entries) + 16) * (width - drop))
	ab, used := pair(cur, past)
	for i, e := range cur.Entries {
		prev := ""
		if j := ab[i]; j >= 0 {
			prev = past.Entries[j].Outcomes
		}
		m.add(e.Kind, e.Key, prev, code(e))
	}
	if past != nil {
		for j, e := range past.Entries {
			if !used[j] {
				m.add(e.Kind, e.Key, e.Outcomes, 0)
			}
		}
	}
	out.Entries = m.finish()
	sortIfNeeded(out)
	return out
}

// sameRun: two columns are attempts of one workflow run on one commit (a
// re-run). Two workflow runs of one commit stay two columns: a pull
// request's run may name its base commit (a change with no diff, a test
// harness), and its outcomes are not the branch's.
func sameRun(a, b Column) bool {
	return a.Commit != "" && a.WorkflowRunID != "" && a.Commit == b.Commit && a.WorkflowRunID == b.WorkflowRunID
}

// merger builds every row in one buffer: 100,000 tests cost one
// allocation for their outcomes, not one each.
type merger struct {
	width, drop int
	same        bool
	b           strings.Builder
	rows        []row
}

type row struct {
	kind       testindex.Kind
	key        testindex.Key
	start, end int
}

// add appends a row: prev, the test's past outcomes (empty for a test
// new to the history), and now, its outcome in this run (0 when it did
// not run).
func (m *merger) add(kind testindex.Kind, key testindex.Key, prev string, now byte) {
	if prev == "" {
		prev = strings.Repeat(string(Absent), m.width-1)
		if m.same {
			prev += string(Absent)
		}
	}
	start := m.b.Len()
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
	m.rows = append(m.rows, row{kind: kind, key: key, start: start, end: m.b.Len()})
}

func (m *merger) finish() []Entry {
	all := m.b.String()
	out := make([]Entry, 0, len(m.rows))
	for _, r := range m.rows {
		o := all[r.start:r.end]
		if strings.Trim(o, string(Absent)) == "" {
			continue // out of the window
		}
		out = append(out, Entry{Kind: r.kind, Outcomes: o, Key: r.key})
	}
	return out
}

// combine is two runs of one commit in one column: the later verdict,
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
// past entries were taken: tests by the index's identity rules, units by
// their exact key.
func pair(cur *testindex.Index, past *History) ([]int32, []bool) {
	if past == nil {
		ab := make([]int32, len(cur.Entries))
		for i := range ab {
			ab[i] = -1
		}
		return ab, nil
	}
	keys := &testindex.Index{Entries: make([]testindex.Entry, len(past.Entries))}
	units := map[row]int32{}
	for j, e := range past.Entries {
		keys.Entries[j] = testindex.Entry{Kind: e.Kind, Outcome: testindex.Passed, Key: e.Key}
		if e.Kind != testindex.Test {
			units[row{kind: e.Kind, key: e.Key}] = int32(j)
		}
	}
	ab := testindex.Pair(cur, keys)
	used := make([]bool, len(past.Entries))
	for i, e := range cur.Entries {
		if e.Kind != testindex.Test {
			ab[i] = -1
			if j, ok := units[row{kind: e.Kind, key: e.Key}]; ok {
				ab[i] = j
			}
		}
		if ab[i] >= 0 {
			if used[ab[i]] { // a duplicate key: its second entry starts afresh
				ab[i] = -1
				continue
			}
			used[ab[i]] = true
		}
	}
	return ab, used
}

func compareEntries(a, b Entry) int {
	return cmp.Or(testindex.CompareKeys(a.Key, b.Key), cmp.Compare(a.Kind, b.Kind))
}

func sortIfNeeded(h *History) {
	if !slices.IsSortedFunc(h.Entries, compareEntries) {
		slices.SortFunc(h.Entries, compareEntries)
	}
}

// Find returns the test of key k, if the history has it.
func (h *History) Find(k testindex.Key) (Entry, bool) {
	i, ok := slices.BinarySearchFunc(h.Entries, Entry{Kind: testindex.Test, Key: k}, compareEntries)
	if !ok {
		return Entry{}, false
	}
	return h.Entries[i], true
}
