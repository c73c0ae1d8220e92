package runners

import (
	"slices"
	"strings"

	"github.com/runledger/runledger/report/testindex"
)

// The test index (report/testindex) wants every test's outcome, not only
// the failures. Runners name passing tests only sometimes (go test -v and
// -json do; a plain go test names packages; pytest without -v names
// nothing that passed), so a summary gives what its log gives: named
// tests, and the units that ran them with whether all their tests are
// named.

// maxIndexed bounds the passing tests named in one scan, so a log of 12
// million tiny tests keeps memory flat; past it, units stand for their
// tests and the index says it is incomplete. Each named pass is held three
// times on the way to the index (the parser's list, the runner index, the
// test index): 200,000 of them peaked at 146 MiB of RSS for a 70 MB dense
// go -v log and cost a third of its report's time; 50,000 peak at 43 MiB.
// A variable so tests can lower it.
var maxIndexed = 50_000

// Outcomes of IndexEntry: the test index's own vocabulary.
const (
	OutcomePassed  = testindex.Passed
	OutcomeFailed  = testindex.Failed
	OutcomeSkipped = testindex.Skipped
)

// IndexEntry is one test, or a unit (Name "") of a runner summary.
type IndexEntry struct {
	Unit, Classname, Name string
	Outcome               testindex.Outcome
	Flaky                 bool
	// Named, for a unit: every test it ran is an entry too.
	Named bool
}

// Index is what a log says of each test. Incomplete: some test that ran is
// neither named nor covered by a named unit.
type Index struct {
	Entries    []IndexEntry
	Incomplete bool
}

// passList is the passing and skipped tests a Go package attempt ran:
// their names one after the other in one byte arena, and where each ends.
// A dense log names 50,000 of them; a string and a struct of pointers
// each cost an allocation apiece and a heap the collector has to scan.
type passList struct {
	names []byte
	ends  []namedPass
}

// namedPass is where one name ends in passList.names, and its verdict.
// A name is at most MaxLineKeep bytes and a scan keeps at most maxIndexed
// of them, so an end fits 32 bits with room to spare.
type namedPass struct {
	end  uint32
	skip bool
}

func (pl *passList) add(name []byte, skip bool) {
	pl.names = append(pl.names, name...)
	pl.ends = append(pl.ends, namedPass{uint32(len(pl.names)), skip})
}

// each calls f with every name, made from one string of the whole arena.
func (pl *passList) each(f func(name string, skip bool)) {
	all, start := string(pl.names), uint32(0)
	for _, e := range pl.ends {
		f(all[start:e.end], e.skip)
		start = e.end
	}
}

// keep names a passing or skipped test of acc while the budget lasts. A
// verifier names none: the index is the scan's, and Verify compares
// counts and failures only.
func (p *goParser) keep(acc *goAcc, skip bool, name []byte) {
	if p.verifier {
		return
	}
	if p.kept >= maxIndexed {
		acc.unnamed = true
		return
	}
	p.kept++
	acc.passes.add(name, skip)
}

// entries is how many entries indexPart adds for p, to size the list once.
func entries(p part, order []string, last map[string]int, flaky []TestRef) int {
	n := len(flaky) + 1
	for _, u := range order {
		fin := p.attempts[last[u]]
		n += len(fin.failures) + len(fin.passes.ends) + 1
	}
	return n
}

// indexPart adds one runner part's units' final attempts to x.
func indexPart(x *Index, p part, order []string, last map[string]int, flaky []TestRef) {
	x.Entries = slices.Grow(x.Entries, entries(p, order, last, flaky))
	// The whole run is a unit whose tests are all named when every block
	// of it named its tests (gtest's without --gtest_brief).
	whole := IndexEntry{Outcome: OutcomePassed, Named: true}
	hasWhole := false
	for _, u := range order {
		fin := p.attempts[last[u]]
		bad := val(fin.failed)+val(fin.errors) > 0
		if fin.omitted > 0 {
			x.Incomplete = true
		}
		for _, f := range fin.failures {
			x.Entries = append(x.Entries, IndexEntry{Unit: fin.name, Classname: f.Classname, Name: f.Name, Outcome: OutcomeFailed})
		}
		fin.passes.each(func(name string, skip bool) {
			o := OutcomePassed
			if skip {
				o = OutcomeSkipped
			}
			class := fin.name
			if c, n, ok := strings.Cut(name, "\x00"); ok { // a class of its own (ExUnit's module)
				class, name = c, n
			}
			x.Entries = append(x.Entries, IndexEntry{Unit: fin.name, Classname: class, Name: name, Outcome: o})
		})
		if fin.name == "" {
			hasWhole, whole.Named = true, whole.Named && fin.named
			if bad {
				whole.Outcome = OutcomeFailed
			}
			whole.Named = whole.Named && fin.named // Catch2 with -s heads every test case it ran
			continue
		}
		unit := IndexEntry{Unit: fin.name, Outcome: OutcomePassed, Named: fin.named}
		if bad {
			unit.Outcome = OutcomeFailed
		}
		x.Entries = append(x.Entries, unit)
	}
	if hasWhole {
		x.Entries = append(x.Entries, whole)
	}
	for _, t := range flaky {
		x.Entries = append(x.Entries, IndexEntry{Unit: t.Classname, Classname: t.Classname, Name: t.Name, Outcome: OutcomePassed, Flaky: true})
	}
}

// oneWhole merges the whole-run units that several runners' parts add
// (ctest's and gtest's in one log) into one: failed when one failed,
// named when each named all its tests.
func oneWhole(es []IndexEntry) []IndexEntry {
	first := -1
	out := es[:0]
	for _, e := range es {
		if e.Unit != "" || e.Name != "" {
			out = append(out, e)
			continue
		}
		if first < 0 {
			first = len(out)
			out = append(out, e)
			continue
		}
		w := &out[first]
		w.Named = w.Named && e.Named
		if e.Outcome == OutcomeFailed {
			w.Outcome = OutcomeFailed
		}
	}
	return out
}
