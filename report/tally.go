package report

import (
	"fmt"
	"strings"
)

// caseResult is one test case as a report file records it: one attempt of
// a test, with its failure's details when it did not pass.
type caseResult struct {
	ID      TestID
	Outcome string
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
// means is decided here, for all formats alike.
type tally struct {
	order   []TestID
	entries map[TestID]*tallyEntry
	// latest is, for each identity as the file gave it, the entry its
	// last attempt went to; base the reverse, for absorb.
	latest map[TestID]latestEntry
	base   map[TestID]TestID
	// fallback counts suites that list no test case, from their own
	// attributes; they have no identities and are never verified.
	fallback       counts
	fallbackSuites int
}

type tallyEntry struct {
	outcome          string
	passed, failedAt bool // some attempt passed, some failed or erred
	flaky            bool
	failure          *Failure
}

type counts struct{ tests, failed, errors, skipped int }

type latestEntry struct {
	id TestID
	n  int // invocations so far
}

func newTally() *tally {
	return &tally{entries: map[TestID]*tallyEntry{}, latest: map[TestID]latestEntry{}, base: map[TestID]TestID{}}
}

// add records an attempt. A repeat of a test whose last attempt failed is
// a rerun: the last attempt that ran decides the outcome (a rerun that
// passes makes the test passed and flaky), and a skip never hides an
// attempt that ran. A repeat after a pass or a skip is another
// invocation (a data provider, a test title used twice): a test of its
// own, its Params numbered "#2", "#3", … as the peers count it.
func (t *tally) add(c caseResult) {
	var f *Failure
	if c.Outcome == OutcomeFailed || c.Outcome == OutcomeError {
		f = &Failure{Name: c.ID.Name, Classname: c.ID.Classname, File: c.ID.File, Line: c.Line, Message: clip(c.Message, 1000)}
		if f.File == "" {
			f.File = c.SrcFile
		}
	}
	t.put(c.ID, tallyEntry{outcome: c.Outcome, passed: c.Outcome == OutcomePassed, failedAt: f != nil, flaky: c.Flaky, failure: f})
}

func (t *tally) put(id TestID, o tallyEntry) {
	last, seen := t.latest[id]
	if seen {
		if e := t.entries[last.id]; e.outcome == OutcomeFailed || e.outcome == OutcomeError {
			e.merge(o)
			return
		}
	}
	at := id
	for n := last.n + 1; ; n++ {
		if n > 1 {
			at.Params = strings.TrimSpace(fmt.Sprintf("%s #%d", id.Params, n))
		}
		if t.entries[at] == nil {
			t.latest[id] = latestEntry{at, n}
			break
		}
	}
	t.entries[at] = &o
	t.base[at] = id
	t.order = append(t.order, at)
}

func (e *tallyEntry) merge(o tallyEntry) {
	if o.outcome != OutcomeSkipped || e.outcome == OutcomeSkipped {
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
	for _, id := range o.order {
		t.put(o.base[id], *o.entries[id])
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
func (t *tally) each(fn func(id TestID, outcome string, flaky bool)) {
	for _, id := range t.order {
		e := t.entries[id]
		fn(id, e.outcome, e.isFlaky())
	}
}

// isFlaky: the test both failed and passed, or its file says so, and it
// did not end failing.
func (e *tallyEntry) isFlaky() bool {
	return e.outcome == OutcomePassed && (e.failedAt || e.flaky)
}

func (t *tally) summary(source string) Summary {
	s := Summary{Source: source}
	c := t.fallback
	passed := c.tests - c.failed - c.errors - c.skipped
	for _, id := range t.order {
		e := t.entries[id]
		c.tests++
		switch e.outcome {
		case OutcomePassed:
			passed++
		case OutcomeSkipped:
			c.skipped++
		case OutcomeFailed, OutcomeError:
			if e.outcome == OutcomeFailed {
				c.failed++
			} else {
				c.errors++
			}
			s.Failures = append(s.Failures, *e.failure)
		}
	}
	s.Tests, s.Passed, s.Failed, s.Skipped, s.Errors = &c.tests, &passed, &c.failed, &c.skipped, &c.errors
	// Fallback failures have no names to list; they are counted as omitted.
	s.FailuresOmitted = t.fallback.failed + t.fallback.errors
	bound(&s)
	return s
}

func (t *tally) flaky() []TestRef {
	var out []TestRef
	t.each(func(id TestID, _ string, flaky bool) {
		if flaky {
			out = append(out, TestRef{Name: id.Name, Classname: id.Classname})
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
