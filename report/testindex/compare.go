package testindex

import (
	"cmp"
	"slices"
	"strings"
)

// Origin says where a failing test's failure comes from, against a
// baseline: the run of the same name on the base commit.
type Origin string

const (
	New         Origin = "new"          // it ran on the base and passed
	PreExisting Origin = "pre_existing" // it failed on the base too
	NewTest     Origin = "new_test"     // the base has no such test
	Flaky       Origin = "flaky"        // it failed and passed within this run, or its history says it flips (report/history)
	Unknown     Origin = "unknown"      // the baseline cannot tell
)

// Regression reports an origin this change is answerable for.
func (o Origin) Regression() bool { return o == New || o == NewTest }

// MaxNamed bounds the names a Comparison lists; the counts cover all.
const MaxNamed = 20

// Comparison is one run compared with its baseline.
type Comparison struct {
	// Origins has the origin of every failing test of the run, by key.
	Origins map[Key]Origin
	// Counts counts the run's failing tests by origin.
	Counts map[Origin]int
	// Missing counts tests (and units not named by test) that ran on the
	// base and not here; MissingNames are the first of them.
	Missing      int
	MissingNames []Key
	// Fixed counts tests that failed on the base and pass here.
	Fixed      int
	FixedNames []Key
	// BaseTests is the base run's test count.
	BaseTests int

	uncounted map[Key]bool // parents of failing subtests: labelled, not counted
}

// Regressions counts the failing tests whose origin is new or new_test.
func (c *Comparison) Regressions() int { return c.Counts[New] + c.Counts[NewTest] }

// match pairs the test entries of two indexes: equal keys by a merge of
// the sorted entries (no map over 100,000 tests), then among the rest a
// key equal but for the file (a test that moved), then one with the same
// loose key (see Loose), each only when it is the one candidate.
type match struct {
	a, b   *Index
	ab, ba []int32 // a's entry i is b's entry ab[i], or -1; and back
}

func pairUp(a, b *Index) *match {
	sortIfNeeded(a)
	sortIfNeeded(b)
	m := &match{a: a, b: b, ab: fill(len(a.Entries)), ba: fill(len(b.Entries))}
	i, j := 0, 0
	for i < len(a.Entries) && j < len(b.Entries) {
		switch c := compareKeys(a.Entries[i].Key, b.Entries[j].Key); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			if a.Entries[i].Kind == Test && b.Entries[j].Kind == Test {
				m.ab[i], m.ba[j] = int32(j), int32(i)
			}
			i, j = i+1, j+1
		}
	}
	m.pairRest(func(k Key) [3]string { return [3]string{k.Suite, k.Class, k.Name} })
	m.pairRest(func(k Key) [3]string { l := k.Loose(); return [3]string{l[0], l[1]} })
	return m
}

// pairRest pairs the unpaired tests of each side whose key, by key, is
// that of exactly one unpaired test of the other.
func (m *match) pairRest(key func(Key) [3]string) {
	onB := map[[3]string][]int32{}
	for j, e := range m.b.Entries {
		if e.Kind == Test && m.ba[j] < 0 {
			onB[key(e.Key)] = append(onB[key(e.Key)], int32(j))
		}
	}
	if len(onB) == 0 {
		return
	}
	onA := map[[3]string]int{}
	for i, e := range m.a.Entries {
		if e.Kind == Test && m.ab[i] < 0 {
			onA[key(e.Key)]++
		}
	}
	for i, e := range m.a.Entries {
		k := key(e.Key)
		if e.Kind != Test || m.ab[i] >= 0 || onA[k] != 1 || len(onB[k]) != 1 {
			continue
		}
		j := onB[k][0]
		m.ab[i], m.ba[j] = j, int32(i)
	}
}

func fill(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = -1
	}
	return s
}

func compareKeys(a, b Key) int {
	return cmp.Or(cmp.Compare(a.Suite, b.Suite), cmp.Compare(a.Class, b.Class),
		cmp.Compare(a.Name, b.Name), cmp.Compare(a.File, b.File))
}

func sortIfNeeded(x *Index) {
	if !slices.IsSortedFunc(x.Entries, compareEntries) {
		x.Sort()
	}
}

// units indexes an index's units by suite ("" is the whole run) and the
// suites its tests belong to.
type units struct {
	bySuite map[string]Entry
	suites  map[string]bool
}

func unitsOf(x *Index) units {
	u := units{bySuite: map[string]Entry{}, suites: map[string]bool{}}
	last := "\x00"
	for _, e := range x.Entries {
		switch {
		case e.Kind != Test:
			u.bySuite[e.Suite] = e
		case e.Suite != last: // entries are sorted by suite: one write a suite
			u.suites[e.Suite], last = true, e.Suite
		}
	}
	return u
}

// unit is the unit that would have run a test of suite: its own, else the
// whole run's.
func (u units) unit(suite string) (Entry, bool) {
	if e, ok := u.bySuite[suite]; ok && suite != "" {
		return e, true
	}
	e, ok := u.bySuite[""]
	return e, ok
}

// Compare labels each failing test of cur against base, and counts what
// base ran that cur did not, and what cur fixed. A nil base labels every
// failure unknown, but for the flaky ones. Both indexes are sorted.
func Compare(cur, base *Index) *Comparison {
	c := &Comparison{Origins: map[Key]Origin{}, Counts: map[Origin]int{}}
	if base == nil {
		parents := failingParents(cur)
		for _, e := range cur.Entries {
			c.label(e, Unknown, parents[e.Key])
		}
		return c
	}
	c.BaseTests = base.CountTests()
	if base.Tests != nil && *base.Tests > c.BaseTests {
		c.BaseTests = *base.Tests
	}
	m := pairUp(cur, base)
	bu, cu := unitsOf(base), unitsOf(cur)
	parents := failingParents(cur)
	for i, e := range cur.Entries {
		c.label(e, origin(e, m.ab[i], base, bu), parents[e.Key])
	}
	c.baseSide(m, cu)
	c.countFallback(cur, base)
	return c
}

// label records the origin of e when it is a failing test; a flaky one
// is flaky whatever the base says. A parent that fails because a subtest
// does is labelled but not counted: its subtest is the failure.
func (c *Comparison) label(e Entry, o Origin, parent bool) {
	if e.Kind != Test || !e.Outcome.Bad() {
		return
	}
	if e.Flaky {
		o = Flaky
	}
	if _, seen := c.Origins[e.Key]; !seen && !parent {
		c.Counts[o]++
	}
	if parent {
		if c.uncounted == nil {
			c.uncounted = map[Key]bool{}
		}
		c.uncounted[e.Key] = true
	}
	c.Origins[e.Key] = o
}

// Relabel gives the failing test k origin o instead of the one Compare
// found (e.g. flaky, from the branch's history), and counts it there.
func (c *Comparison) Relabel(k Key, o Origin) {
	prev, ok := c.Origins[k]
	if !ok || prev == o {
		return
	}
	c.Origins[k] = o
	if c.uncounted[k] {
		return
	}
	if c.Counts[prev]--; c.Counts[prev] <= 0 {
		delete(c.Counts, prev)
	}
	c.Counts[o]++
}

// failingParents are the failing tests with a failing subtest (Go's
// "TestX/case", as go test names them): go test fails the parent of every
// failing subtest.
func failingParents(x *Index) map[Key]bool {
	var failing []Key
	for _, e := range x.Entries {
		if e.Kind == Test && e.Outcome.Bad() {
			failing = append(failing, e.Key)
		}
	}
	slices.SortFunc(failing, compareKeys)
	parents := map[Key]bool{}
	for _, k := range failing {
		sub := k
		sub.Name += "/"
		sub.File = ""
		i, _ := slices.BinarySearchFunc(failing, sub, compareKeys)
		for ; i < len(failing) && failing[i].Suite == k.Suite && failing[i].Class == k.Class; i++ {
			if strings.HasPrefix(failing[i].Name, sub.Name) {
				parents[k] = true
				break
			}
			if failing[i].Name > sub.Name+"\xff" {
				break
			}
		}
	}
	return parents
}

func origin(e Entry, paired int32, base *Index, bu units) Origin {
	if paired >= 0 {
		if base.Entries[paired].Outcome.Bad() {
			return PreExisting
		}
		return New
	}
	if u, ok := bu.unit(e.Suite); ok {
		switch {
		case u.Kind == NamedUnit:
			return NewTest // the unit named all its tests, and not this one
		case !u.Outcome.Bad() || base.Complete:
			// It ran there (or did not exist) and did not fail: the base's
			// failures are all named.
			return New
		}
		return Unknown
	}
	if base.Complete {
		return NewTest
	}
	return Unknown
}

// baseSide counts what the base ran that cur did not, and the base's
// failures that pass here.
func (c *Comparison) baseSide(m *match, cu units) {
	for j, e := range m.b.Entries {
		switch {
		case e.Kind == Test:
			var now Entry
			if i := m.ba[j]; i >= 0 {
				now = m.a.Entries[i]
			} else {
				u, covered := cu.unit(e.Suite)
				if !covered || u.Kind == NamedUnit {
					c.missing(e.Key)
					continue
				}
				if now = u; u.Outcome.Bad() {
					continue // cannot tell whether it still fails
				}
			}
			if e.Outcome.Bad() && !now.Outcome.Bad() {
				c.Fixed++
				if len(c.FixedNames) < MaxNamed {
					c.FixedNames = append(c.FixedNames, e.Key)
				}
			}
		case e.Suite != "":
			_, whole := cu.bySuite[""]
			if _, ok := cu.bySuite[e.Suite]; !ok && !cu.suites[e.Suite] && !whole {
				c.missing(Key{Suite: e.Suite})
			}
		}
	}
}

func (c *Comparison) missing(k Key) {
	c.Missing++
	if len(c.MissingNames) < MaxNamed {
		c.MissingNames = append(c.MissingNames, k)
	}
}

// countFallback: when names cannot show it (a runner that names no
// passing test), fewer tests than the base ran is still missing tests.
func (c *Comparison) countFallback(cur, base *Index) {
	if cur.Tests == nil || base.Tests == nil {
		return
	}
	if d := *base.Tests - *cur.Tests; d > c.Missing {
		c.Missing = d
	}
}

// Loose is a key as a list of failures names a test: its class, else its
// suite (a Go package), and its name. Two sources that split a test's
// identity differently (JUnit's classname, a runner's package) meet there.
func (k Key) Loose() [2]string {
	if k.Class != "" {
		return [2]string{k.Class, k.Name}
	}
	return [2]string{k.Suite, k.Name}
}
