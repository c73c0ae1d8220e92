package testreport

import (
	"fmt"
	"hash/maphash"
	"strings"

	"github.com/runledger/runledger/report/internal/clip"
	"github.com/runledger/runledger/report/testindex"
)

// caseResult is one test case as a report file records it: one attempt of
// a test, with its failure's details when it did not pass.
type caseResult struct {
	ID      TestID
	Outcome testindex.Outcome
	// Flaky: the file itself records failed attempts before a pass
	// (Surefire's flakyFailure, CTRF's flaky, rerun counts).
	Flaky   bool
	Message string
	// SrcFile and Line locate the failure when the format says where;
	// SrcFile is not part of the identity.
	SrcFile string
	Line    int
}

// tally keeps every test of a run with its final outcome: what a count
// means is decided here, for all formats alike. It holds one small entry
// per test, found by a hash of its identity, never a test's output: about
// 200 bytes a test.
type tally struct {
	// entries in chunks: growing never copies them, so there is no
	// moment with two copies of every entry.
	chunks [][]tallyEntry
	count  int32
	byHash map[uint64]int32 // identity hash → first entry with that hash
	seed   maphash.Seed
	// fallback counts suites that list no test case, from their own
	// attributes; they have no identities and are never verified.
	fallback       counts
	fallbackSuites int
}

type tallyEntry struct {
	// key is the identity packed into one string, its fields joined by
	// NUL: a fifth of the five string headers of a TestID.
	key string
	// base is the entry of the first invocation of the identity this one
	// numbers (itself, for a first invocation); on a first invocation,
	// latest is the entry of the last invocation and n their number.
	base, latest, n  int32
	nextSameHash     int32 // -1: none
	outcome          testindex.Outcome
	passed, failedAt bool // some attempt passed, some failed or erred
	flaky            bool
	failure          *Failure
}

type counts struct{ tests, failed, errors, skipped int }

// Counts are a run's tests by final outcome.
type Counts struct{ Tests, Passed, Failed, Skipped, Errors int }

// Failure is one failing test as its report file names it.
type Failure struct {
	Name, Classname, Suite, Params, File string
	Line                                 int
	Message                              string
}

// MaxFailures bounds the failures a Result lists; Result.FailuresOmitted
// counts the rest.
const MaxFailures = 100

const chunkSize = 1024

func (t *tally) at(i int32) *tallyEntry { return &t.chunks[i/chunkSize][i%chunkSize] }

func newTally() *tally { return &tally{byHash: map[uint64]int32{}, seed: maphash.MakeSeed()} }

func packID(id TestID) string {
	return strings.Join([]string{id.Suite, id.Classname, id.Name, id.Params, id.File}, "\x00")
}

func (e *tallyEntry) id() TestID {
	f := strings.SplitN(e.key, "\x00", 5)
	for len(f) < 5 {
		f = append(f, "")
	}
	return TestID{Suite: f[0], Classname: f[1], Name: f[2], Params: f[3], File: f[4]}
}

// find returns the entry of the packed identity key, or -1.
func (t *tally) find(key string) int32 {
	i, ok := t.byHash[maphash.String(t.seed, key)]
	for ok && i >= 0 {
		if t.at(i).key == key {
			return i
		}
		i = t.at(i).nextSameHash
	}
	return -1
}

func (t *tally) insert(e tallyEntry) int32 {
	i := t.count
	h := maphash.String(t.seed, e.key)
	e.nextSameHash = -1
	if j, ok := t.byHash[h]; ok {
		e.nextSameHash = j
	}
	t.byHash[h] = i
	if i%chunkSize == 0 {
		t.chunks = append(t.chunks, make([]tallyEntry, 0, chunkSize))
	}
	t.chunks[len(t.chunks)-1] = append(t.chunks[len(t.chunks)-1], e)
	t.count++
	return i
}

// add records an attempt. A repeat of a test whose last attempt failed is
// a rerun: the last attempt that ran decides the outcome (a rerun that
// passes makes the test passed and flaky), and a skip never hides an
// attempt that ran. A repeat after a pass or a skip is another
// invocation (a data provider, a test title used twice): a test of its
// own, its Params numbered "#2", "#3", … as the peers count it.
func (t *tally) add(c caseResult) {
	var f *Failure
	if c.Outcome == testindex.Failed || c.Outcome == testindex.Errored {
		f = &Failure{Name: c.ID.Name, Classname: c.ID.Classname, Suite: c.ID.Suite, Params: c.ID.Params,
			File: c.ID.File, Line: c.Line, Message: clip.String(c.Message, 1000)}
		if f.File == "" {
			f.File = c.SrcFile
		}
	}
	t.put(c.ID, tallyEntry{outcome: c.Outcome, passed: c.Outcome == testindex.Passed, failedAt: f != nil, flaky: c.Flaky, failure: f})
}

func (t *tally) put(id TestID, o tallyEntry) {
	key := packID(id)
	first := t.find(key)
	if first < 0 {
		o.key, o.n = key, 1
		o.base, o.latest = t.count, t.count
		t.insert(o)
		return
	}
	if e := t.at(t.at(first).latest); e.outcome == testindex.Failed || e.outcome == testindex.Errored {
		e.merge(o)
		return
	}
	at := id
	for {
		t.at(first).n++
		at.Params = strings.TrimSpace(fmt.Sprintf("%s #%d", id.Params, t.at(first).n))
		if t.find(packID(at)) < 0 {
			break
		}
	}
	o.key, o.base, o.n = packID(at), first, 0
	if o.failure != nil {
		o.failure.Params = at.Params
	}
	o.latest = t.count
	t.at(first).latest = t.insert(o)
}

func (e *tallyEntry) merge(o tallyEntry) {
	if o.outcome != testindex.Skipped || e.outcome == testindex.Skipped {
		e.outcome = o.outcome
	}
	e.passed, e.failedAt, e.flaky = e.passed || o.passed, e.failedAt || o.failedAt, e.flaky || o.flaky
	if o.failure != nil {
		e.failure = o.failure
	}
}

// absorb merges the tests of one file's tally into the run's, by the
// rules of add.
func (t *tally) absorb(o *tally) {
	if t.count == 0 && t.fallbackSuites == 0 {
		*t = *o // the first file: nothing to merge with
		return
	}
	for i := range o.count {
		e := *o.at(i)
		t.put(o.at(e.base).id(), e)
	}
	t.fallback.tests += o.fallback.tests
	t.fallback.failed += o.fallback.failed
	t.fallback.errors += o.fallback.errors
	t.fallback.skipped += o.fallback.skipped
	t.fallbackSuites += o.fallbackSuites
}

// each hands every test, in the order first seen, with its final outcome
// and whether its attempts disagreed. Fallback suite counts have no
// identities and are not handed.
func (t *tally) each(fn func(id TestID, outcome testindex.Outcome, flaky bool)) {
	for i := range t.count {
		e := t.at(i)
		fn(e.id(), e.outcome, e.isFlaky())
	}
}

// isFlaky: the test both failed and passed, or its file says so, and it
// did not end failing.
func (e *tallyEntry) isFlaky() bool {
	return e.outcome == testindex.Passed && (e.failedAt || e.flaky)
}

// summary counts every test by its final outcome, fallback suites
// included, and lists the first MaxFailures failures.
func (t *tally) summary() (Counts, []Failure, int) {
	c := Counts{Tests: t.fallback.tests, Failed: t.fallback.failed, Errors: t.fallback.errors, Skipped: t.fallback.skipped}
	c.Passed = c.Tests - c.Failed - c.Errors - c.Skipped
	// Fallback failures have no names to list; they are counted as omitted.
	omitted := t.fallback.failed + t.fallback.errors
	var failures []Failure
	for i := range t.count {
		e := t.at(i)
		c.Tests++
		switch e.outcome {
		case testindex.Passed:
			c.Passed++
		case testindex.Skipped:
			c.Skipped++
		case testindex.Failed, testindex.Errored:
			if e.outcome == testindex.Failed {
				c.Failed++
			} else {
				c.Errors++
			}
			if len(failures) < MaxFailures {
				failures = append(failures, *e.failure)
			} else {
				omitted++
			}
		}
	}
	return c, failures, omitted
}

func (t *tally) flaky() []TestID {
	var out []TestID
	t.each(func(id TestID, _ testindex.Outcome, flaky bool) {
		if flaky {
			out = append(out, id)
		}
	})
	return out
}

// addSuiteCounts takes a suite's own attributes when it lists no test
// case: negative or inconsistent attributes are clamped, never trusted
// into a pass.
func (t *tally) addSuiteCounts(tests, failed, errs, skipped int) error {
	if tests < 0 || failed < 0 || errs < 0 || skipped < 0 || failed+errs+skipped > tests {
		return fmt.Errorf("suite attributes tests=%d failures=%d errors=%d skipped=%d do not add up", tests, failed, errs, skipped)
	}
	t.fallback.tests += tests
	t.fallback.failed += failed
	t.fallback.errors += errs
	t.fallback.skipped += skipped
	t.fallbackSuites++
	return nil
}
