package report

import (
	"fmt"
	"path/filepath"

	"github.com/runledger/runledger/report/history"
	"github.com/runledger/runledger/report/testindex"
	"github.com/runledger/runledger/store"
)

// Past is a run name's history as the baseline's lookup found it: the
// base run's (or, on a re-run, the earlier attempt's) history.tsv.gz.
type Past struct {
	// History is nil when there is none to carry forward; Reason says why.
	History *history.History
	Reason  string
	// Unusable: a history was there and failed a check (its hash, its
	// format); the run's history then restarts, and says so.
	Unusable bool
	// Commit and WorkflowRunID say whose history it is.
	Commit, WorkflowRunID string
}

// History is what a run's failures were judged against, and where its own
// history (the past carried forward by this run) was written.
type History struct {
	// State: read (a past was carried forward), started (there was none:
	// the history starts at this run) or unavailable (there was one and it
	// could not be used).
	State string `json:"state"`
	// Runs counts the runs the run's own history holds, this one included.
	Runs int `json:"runs"`
	// Commit is the commit of the run whose history was read.
	Commit string `json:"commit,omitempty"`
	// WorkflowRunID is that run's GitHub workflow run.
	WorkflowRunID string `json:"workflow_run_id,omitempty"`
	// Branch is the branch the history's runs are on, when known.
	Branch string `json:"branch,omitempty"`
	// Reason says why no history was read (state started or unavailable).
	Reason string `json:"reason,omitempty"`
	// File is the run's own history in its directory and artifact, once
	// written.
	File string `json:"file,omitempty"`
	// Path is that file on this machine.
	Path string `json:"path,omitempty"`
	// SHA256 is that file's sha256.
	SHA256 string `json:"sha256,omitempty"`
}

// carryForward merges the run's outcomes into its past and judges each
// failure by it: a failure with no base verdict against it (new, new_test,
// unknown) is flaky when the history shows a flip or two failure streaks.
// A pre-existing failure stays pre-existing. Every failure whose test
// failed at all in the history gets its evidence.
func carryForward(run *Run, b *Baselines, window int, c *testindex.Comparison) map[[2]string]*history.Evidence {
	if window <= 0 || run.index == nil {
		return nil
	}
	past, ok := b.History[run.Name]
	if !ok {
		past = Past{Reason: b.Reason}
		if past.Reason == "" {
			past.Reason = fmt.Sprintf("the base has no run named %q", run.Name)
		}
	}
	x := run.index
	merged := history.Merge(past.History, x, history.Column{Commit: x.Commit, WorkflowRunID: x.CIRunID, Attempt: run.ciAttempt, RunID: x.RunID}, window, b.Branch)
	run.history = merged
	h := &History{State: "read", Runs: len(merged.Columns), Commit: past.Commit, WorkflowRunID: past.WorkflowRunID,
		Branch: merged.Branch, Reason: past.Reason}
	switch {
	case past.Unusable:
		h.State = "unavailable"
	case past.History == nil:
		h.State = "started"
	}
	run.History = h
	evidence := map[[2]string]*history.Evidence{}
	for _, e := range x.Entries {
		if e.Kind != testindex.Test || !e.Outcome.Bad() {
			continue
		}
		row, ok := merged.Find(e.Key)
		if !ok {
			continue
		}
		ev := merged.Evidence(row)
		if !ev.Failing() {
			continue
		}
		evidence[e.Loose()] = &ev
		if o := c.Origins[e.Key]; ev.Flaky() && (o == testindex.New || o == testindex.NewTest || o == testindex.Unknown) {
			c.Relabel(e.Key, testindex.Flaky)
		}
	}
	return evidence
}

// saveHistory writes the run's history beside its index (whose file's
// sha256 is indexSHA: the history names the index it follows).
func saveHistory(st *store.Store, run *Run, indexSHA string) error {
	if run.history == nil || run.History == nil {
		return nil
	}
	path := filepath.Join(st.Dir, run.ID, history.FileName)
	sum, err := history.WriteFile(path, run.history, run.index, indexSHA)
	if err != nil {
		return err
	}
	run.History.File, run.History.Path, run.History.SHA256 = history.FileName, path, sum
	return nil
}
