package report

import (
	"fmt"
	"slices"

	"github.com/runledger/runledger/report/history"
	"github.com/runledger/runledger/report/testindex"
)

// Baselines are the base runs to compare with, by run name. Finding them
// (another store, an artifact of the base commit's workflow run) is the
// caller's business; comparing is the report's.
type Baselines struct {
	Runs map[string]*testindex.Index
	// Reason says why Runs is empty: no base commit, no run there, an
	// expired artifact, no permission, ….
	Reason string
	// Note is said of every comparison, e.g. that the base commit had no
	// run and which commit was taken instead.
	Note string
	// History is each run name's past outcomes on the branch, read with
	// its baseline (report/history); Branch names the branch.
	History map[string]Past
	Branch  string
}

// compareAll labels each run's failures against its baseline and sets the
// envelope's regressions. Nothing here touches a status: a pre-existing
// failure is still a failure.
func compareAll(env *Envelope, b *Baselines, window int) {
	total := 0
	known := true
	for i := range env.Runs {
		run := &env.Runs[i]
		if b != nil {
			compareRun(run, b, len(env.Runs) == 1, window)
		}
		n := runRegressions(run)
		if n == nil {
			known = false
			continue
		}
		total += *n
	}
	if known {
		env.Regressions = &total
	}
}

// compareRun compares one run with the base run of its name, or, when
// each side has one run only, with that one.
func compareRun(run *Run, b *Baselines, solo bool, window int) {
	base, note := b.Runs[run.Name], b.Note
	if base == nil && solo && len(b.Runs) == 1 {
		for name, x := range b.Runs {
			base = x
			note = joinNote(note, fmt.Sprintf("the base has no run named %q; compared with its only run, %q", run.Name, name))
		}
	}
	reason := b.Reason
	switch {
	case base == nil && reason == "":
		reason = fmt.Sprintf("the base has no run named %q", run.Name)
	case base != nil:
		reason = unusable(base)
	}
	if reason != "" {
		run.Baseline = &Baseline{State: "unavailable", Reason: reason, Note: note, Fixed: []TestRef{}}
		testindex.SortIfNeeded(run.index) // as Compare with a base leaves it, for the history
		c := testindex.Compare(run.index, nil)
		labelFailures(run, c, carryForward(run, b, window, c))
		return
	}
	c := testindex.Compare(run.index, base)
	evidence := carryForward(run, b, window, c)
	bl := &Baseline{State: "compared", Commit: base.Commit, RunID: base.RunID, WorkflowRunID: base.CIRunID,
		URL: base.URL, Note: note, Tests: c.BaseTests, Missing: c.Missing, Fixed: refs(c.FixedNames),
		FixedOmitted: c.Fixed - len(c.FixedNames), MissingTests: refs(c.MissingNames), Origins: map[string]int{}}
	for o, n := range c.Counts {
		bl.Origins[string(o)] = n
	}
	run.Baseline = bl
	labelFailures(run, c, evidence)
}

// unusable says why a base run's outcomes cannot be compared with.
func unusable(base *testindex.Index) string {
	switch {
	case base.Status != "passed" && base.Status != "failed":
		return fmt.Sprintf("the base run %s is %s: the tests it names may be a part of those it would have run", base.RunID, base.Status)
	case base.Source == "none" || base.Source == "":
		return fmt.Sprintf("the base run %s names no tests (no JUnit file and no runner summary it recognises)", base.RunID)
	case !base.Verified:
		return fmt.Sprintf("the base run %s's test summary is not verified", base.RunID)
	}
	return ""
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// originRank orders failures for the reader: what this change broke first.
var originRank = map[string]int{"new": 0, "new_test": 1, "unknown": 2, "flaky": 3, "pre_existing": 4}

func labelFailures(run *Run, c *testindex.Comparison, evidence map[[2]string]*history.Evidence) {
	byFail := map[[2]string]testindex.Origin{}
	for k, o := range c.Origins {
		fk := k.Loose()
		if prev, ok := byFail[fk]; !ok || originRank[string(o)] < originRank[string(prev)] {
			byFail[fk] = o
		}
	}
	fs := run.Summary.Failures
	for i := range fs {
		o, ok := byFail[fs[i].Key().Loose()]
		if !ok {
			o = testindex.Unknown
		}
		fs[i].Origin = string(o)
		fs[i].History = evidence[fs[i].Key().Loose()]
	}
	slices.SortStableFunc(fs, func(a, b Failure) int { return originRank[a.Origin] - originRank[b.Origin] })
}

// runRegressions is a run's count of new failures: 0 for a run that
// passed, nil when a run that did not pass cannot be compared — no
// baseline, a run that did not end by itself, a summary not verified,
// failures that are not all named, or one whose origin is unknown.
func runRegressions(run *Run) *int {
	n := countRegressions(run)
	if bl := run.Baseline; bl != nil && bl.State == "compared" {
		bl.Regressions = n
	}
	return n
}

func countRegressions(run *Run) *int {
	zero := 0
	if run.Status == "passed" {
		return &zero
	}
	bl, s := run.Baseline, run.Summary
	switch {
	case bl == nil || bl.State != "compared",
		run.Status != "failed", run.Termination != "exited",
		!s.Verified, s.Source == "none", run.index == nil,
		bl.Origins["unknown"] > 0, named(run.index) < deref(s.Failed)+deref(s.Errors):
		return nil
	}
	n := bl.Origins["new"] + bl.Origins["new_test"]
	return &n
}

func refs(keys []testindex.Key) []TestRef {
	out := []TestRef{}
	for _, k := range keys {
		out = append(out, TestRef{Name: k.Name, Classname: k.Class, Suite: k.Suite, File: k.File})
	}
	return out
}

// named counts the failing tests an index names.
func named(x *testindex.Index) int {
	n := 0
	for _, e := range x.Entries {
		if e.Kind == testindex.Test && e.Outcome.Bad() {
			n++
		}
	}
	return n
}
