package testindex

// Origin says where a failing test's failure comes from, against a
// baseline: the run of the same name on the base commit.
type Origin string

const (
	New         Origin = "new"          // it ran on the base and passed
	PreExisting Origin = "pre_existing" // it failed on the base too
	NewTest     Origin = "new_test"     // the base has no such test
	Flaky       Origin = "flaky"        // it failed and passed within this run
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
}

// Regressions counts the failing tests whose origin is new or new_test.
func (c *Comparison) Regressions() int { return c.Counts[New] + c.Counts[NewTest] }

// lookup finds what an index knows of a key: the entry itself (matched
// without the file when the file alone differs, as when a test moved), or
// the unit that ran it.
type lookup struct {
	x      *Index
	exact  map[Key]Entry
	noFile map[Key][]Entry
	loose  map[[2]string][]Entry // by Loose
	units  map[string]Entry      // by suite; "" is the whole run
	suites map[string]bool       // suites that have test entries
}

func newLookup(x *Index) *lookup {
	l := &lookup{x: x, exact: make(map[Key]Entry, len(x.Entries)), noFile: map[Key][]Entry{}, loose: map[[2]string][]Entry{}, units: map[string]Entry{}, suites: map[string]bool{}}
	for _, e := range x.Entries {
		if e.Kind != Test {
			l.units[e.Suite] = e
			continue
		}
		l.exact[e.Key] = e
		l.suites[e.Suite] = true
		l.loose[e.Loose()] = append(l.loose[e.Loose()], e)
		if e.File != "" {
			k := e.Key
			k.File = ""
			l.noFile[k] = append(l.noFile[k], e)
		}
	}
	return l
}

// test is the entry for k: exact, or the one entry that differs by file.
func (l *lookup) test(k Key) (Entry, bool) {
	if e, ok := l.exact[k]; ok {
		return e, true
	}
	nk := k
	nk.File = ""
	if e, ok := l.exact[nk]; ok && k.File != "" {
		return e, true
	}
	if es := l.noFile[nk]; len(es) == 1 {
		return es[0], true
	}
	if es := l.loose[k.Loose()]; len(es) == 1 {
		return es[0], true
	}
	return Entry{}, false
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

// unit is the unit that would have run a test of suite: its own, else the
// whole run's.
func (l *lookup) unit(suite string) (Entry, bool) {
	if e, ok := l.units[suite]; ok && suite != "" {
		return e, true
	}
	e, ok := l.units[""]
	return e, ok
}

// Compare labels each failing test of cur against base, and counts what
// base ran that cur did not, and what cur fixed. A nil base labels every
// failure unknown, but for the flaky ones.
func Compare(cur, base *Index) *Comparison {
	c := &Comparison{Origins: map[Key]Origin{}, Counts: map[Origin]int{}}
	var b *lookup
	if base != nil {
		b = newLookup(base)
		c.BaseTests = base.CountTests()
		if base.Tests != nil && *base.Tests > c.BaseTests {
			c.BaseTests = *base.Tests
		}
	}
	for _, e := range cur.Entries {
		if e.Kind != Test || !e.Outcome.Bad() {
			continue
		}
		o := Flaky
		if !e.Flaky {
			o = origin(e, b)
		}
		if _, seen := c.Origins[e.Key]; !seen {
			c.Counts[o]++
		}
		c.Origins[e.Key] = o
	}
	if b != nil {
		c.baseSide(newLookup(cur), base)
	}
	return c
}

func origin(e Entry, b *lookup) Origin {
	if b == nil {
		return Unknown
	}
	if was, ok := b.test(e.Key); ok {
		if was.Outcome.Bad() {
			return PreExisting
		}
		return New
	}
	if u, ok := b.unit(e.Suite); ok {
		switch {
		case u.Kind == NamedUnit:
			return NewTest // the unit named all its tests, and not this one
		case !u.Outcome.Bad() || b.x.Complete:
			// It ran there (or did not exist) and did not fail: the base's
			// failures are all named.
			return New
		}
		return Unknown
	}
	if b.x.Complete {
		return NewTest
	}
	return Unknown
}

// baseSide counts what the base ran that cur did not, and the base's
// failures that pass here.
func (c *Comparison) baseSide(cur *lookup, base *Index) {
	for _, e := range base.Entries {
		switch {
		case e.Kind == Test:
			now, ok := cur.test(e.Key)
			if !ok {
				u, covered := cur.unit(e.Suite)
				if !covered || u.Kind == NamedUnit {
					c.missing(e.Key)
					continue
				}
				now = Entry{Outcome: u.Outcome}
				if u.Outcome.Bad() {
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
			if _, ok := cur.units[e.Suite]; !ok && !cur.hasSuite(e.Suite) && !hasWhole(cur) {
				c.missing(Key{Suite: e.Suite})
			}
		}
	}
	c.countFallback(cur.x, base)
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

func (l *lookup) hasSuite(suite string) bool { return l.suites[suite] }

func hasWhole(l *lookup) bool {
	_, ok := l.units[""]
	return ok
}
