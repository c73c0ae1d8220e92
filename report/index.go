package report

import (
	"path/filepath"
	"strconv"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report/runners"
	"github.com/runledger/runledger/report/testindex"
	"github.com/runledger/runledger/report/testreport"
	"github.com/runledger/runledger/store"
)

// reportIndex is every test the report files name (all of them: the
// index is complete and has no units), or nil when none was read. Tests
// counted only from a suite's attributes have no names, so their suite
// cannot be compared test by test: the index then says it is incomplete.
func reportIndex(rr testreport.Result) *testindex.Index {
	if rr.Read == 0 {
		return nil
	}
	x := &testindex.Index{Header: testindex.Header{Complete: rr.Complete()}}
	rr.Each(func(id testreport.TestID, outcome testindex.Outcome, flaky bool) {
		x.Entries = append(x.Entries, testindex.Entry{Kind: testindex.Test, Outcome: outcome, Flaky: flaky, Key: indexKey(id)})
	})
	return x
}

// indexKey is a report file's test identity as the index keys it: the
// parameters, where the format gives them apart, after the name.
func indexKey(id testreport.TestID) testindex.Key {
	return testindex.Key{Suite: id.Suite, Class: id.Classname, Name: withParams(id.Name, id.Params), File: id.File}
}

func withParams(name, params string) string {
	if params == "" {
		return name
	}
	return name + " " + params
}

// runnerIndex converts what a runner summary named. A test named twice
// (a flaky test is also among its unit's passes) is one entry, flaky.
func runnerIndex(in runners.Index) *testindex.Index {
	x := &testindex.Index{Header: testindex.Header{Complete: !in.Incomplete},
		Entries: make([]testindex.Entry, 0, len(in.Entries))}
	seen := newSeenEntries(len(in.Entries))
	for _, e := range in.Entries {
		out := testindex.Entry{Kind: testindex.Test, Outcome: e.Outcome,
			Key: testindex.Key{Suite: e.Unit, Class: e.Classname, Name: e.Name}}
		if out.Class == out.Suite {
			out.Class = ""
		}
		if e.Name == "" {
			out.Kind = testindex.Unit
			if e.Named {
				out.Kind = testindex.NamedUnit
			}
		}
		if i := seen.find(x.Entries, out); i >= 0 {
			x.Entries[i].Flaky = x.Entries[i].Flaky || e.Flaky
			continue
		}
		out.Flaky = e.Flaky
		seen.add(out.Key, len(x.Entries))
		x.Entries = append(x.Entries, out)
	}
	return x
}

// seenEntries finds an entry already in the list by its key, kind and
// outcome. It hashes the suite and name alone and chains the entries that
// share them (few do: a unit and its tests differ in name): a map keyed by
// the whole entry cost a dense log's 50,000 entries more than reading their
// log lines did.
type seenEntries struct {
	first map[[2]string]int32 // the first entry of each suite and name
	next  []int32             // by entry: the next one of the same suite and name, or -1
}

func newSeenEntries(n int) *seenEntries {
	return &seenEntries{first: make(map[[2]string]int32, n), next: make([]int32, 0, n)}
}

// find returns the index in list of an entry equal to e but for Flaky,
// or -1.
func (s *seenEntries) find(list []testindex.Entry, e testindex.Entry) int {
	i, ok := s.first[[2]string{e.Suite, e.Name}]
	for ok && i >= 0 {
		if o := list[i]; o.Kind == e.Kind && o.Outcome == e.Outcome && o.Key == e.Key {
			return int(i)
		}
		i = s.next[i]
	}
	return -1
}

// add records entry i, of key k, as the latest of its suite and name.
func (s *seenEntries) add(k testindex.Key, i int) {
	s.next = append(s.next, -1)
	if j, ok := s.first[[2]string{k.Suite, k.Name}]; ok {
		for s.next[j] >= 0 {
			j = s.next[j]
		}
		s.next[j] = int32(i)
		return
	}
	s.first[[2]string{k.Suite, k.Name}] = int32(i)
}

// wholeRun is the index of a run that names no test: the run as one unit.
func wholeRun(status string) *testindex.Index {
	o := testindex.Passed
	if status != "passed" {
		o = testindex.Failed
	}
	return &testindex.Index{Entries: []testindex.Entry{{Kind: testindex.Unit, Outcome: o}}}
}

// describe fills the index's header from the run it is of.
func describe(x *testindex.Index, r *record.Record, run *Run) {
	x.Run, x.RunID, x.Status = r.Name, r.ID, run.Status
	x.Source, x.Verified, x.Tests = run.Summary.Source, run.Summary.Verified, run.Summary.Tests
	if ci := r.CI; ci != nil {
		x.Commit, x.CIRunID = ci.SHA, ci.RunID
		run.ciAttempt, _ = strconv.Atoi(ci.RunAttempt)
		if ci.ServerURL != "" && ci.Repository != "" && ci.RunID != "" {
			x.URL = ci.ServerURL + "/" + ci.Repository + "/actions/runs/" + ci.RunID
		}
	}
}

// SaveIndexes writes each run's test index into its directory of st, where
// the artifact and a later --baseline find it, and says where in the
// envelope. A failure to write is the caller's to say: the report stands
// without it.
func SaveIndexes(st *store.Store, env *Envelope) []error {
	var errs []error
	for i := range env.Runs {
		run := &env.Runs[i]
		if run.index == nil {
			continue
		}
		path := filepath.Join(st.Dir, run.ID, testindex.FileName)
		sum, err := testindex.WriteFile(path, run.index)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		run.Tests = &TestsRef{File: testindex.FileName, Path: path, Entries: len(run.index.Entries), SHA256: sum}
		if err := saveHistory(st, run, sum); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// Index is every test of the run, as SaveIndexes writes it; nil for a run
// read back from JSON.
func (r *Run) Index() *testindex.Index { return r.index }

// retried marks what earlier attempts of a run (--retries) say of its
// tests: a test failing now that passed in one is flaky, and so is one
// passing now that failed in one. Only the earlier attempts' summaries
// are read, not their excerpts.
func retried(st *store.Store, run *Run, earlier []*record.Record) {
	if run.index == nil || len(earlier) == 0 {
		return
	}
	passed, failed := map[testindex.Key]bool{}, map[testindex.Key]bool{}
	for _, r := range earlier {
		var ignored []string
		_, _, x := summarize(filepath.Join(st.Dir, r.ID), r, nil, nil, &ignored)
		if x == nil {
			continue
		}
		for _, e := range x.Entries {
			if e.Kind == testindex.Test && e.Outcome.Bad() {
				failed[e.Key] = true
			} else if e.Kind == testindex.Test && e.Outcome == testindex.Passed {
				passed[e.Key] = true
			}
		}
	}
	flaky := map[[2]string]bool{}
	for _, t := range run.Flaky {
		flaky[[2]string{t.Classname, t.Name}] = true
	}
	for i, e := range run.index.Entries {
		switch {
		case e.Kind != testindex.Test:
		case e.Outcome.Bad() && passed[e.Key]:
			run.index.Entries[i].Flaky = true
		case e.Outcome == testindex.Passed && failed[e.Key]:
			run.index.Entries[i].Flaky = true
			if ref := e.Loose(); !flaky[ref] {
				flaky[ref] = true
				run.Flaky = append(run.Flaky, TestRef{Name: e.Name, Classname: ref[0]})
			}
		}
	}
}

// Key is the failure's test identity as the index keys it.
func (f Failure) Key() testindex.Key {
	return testindex.Key{Suite: f.Suite, Class: f.Classname, Name: withParams(f.Name, f.Params), File: f.File}
}
