// Package history is each test's outcomes over a run's last runs on its
// branch, carried forward from run to run in the runs' own artifacts, and
// the judgement a failure gets from it: flaky (it flipped on one commit,
// or failed in two separate streaks) or not. It is pure: reading the
// predecessor's file is the caller's business.
//
// The file (FileName, beside the test index in the run's directory and
// its artifact) is gzip'd text: a first line "#" followed by a JSON
// Header, whose runs list the columns oldest to newest and whose
// index_sha256 names the run's test index (report/testindex) it belongs
// to. Then one line per entry of that index, in the index's order, that
// holds only the entry's outcomes: the names are the index's, never
// written twice. Then one line per test or unit that ran in the window
// but not in this run, with its names as the index writes them:
//
//	<outcomes>
//	<kind> TAB outcomes TAB suite TAB class TAB name TAB file
//
// outcomes holds one byte a column: P passed, F failed, E error, S
// skipped, "." not run; lower case (p, f, e) when the test had the other
// verdict too on that column's commit (a flip: a retry, a re-run attempt
// of the same workflow run). A run of three or more of one outcome is
// written as its count and the outcome: "28PfP" is 28 passes, a flip and
// a pass. A test that passes every run costs a line like "30P", which
// gzip keeps to a few bits: the file is a small fraction of the index's
// size.
package history

import (
	"github.com/runledger/runledger/report/testindex"
)

// Schema is Header.Schema.
const Schema = "runledger.history/v1"

// FileName is the history's file in a run directory.
const FileName = "history.tsv.gz"

// DefaultWindow is how many runs a history keeps unless told.
const DefaultWindow = 30

// Absent marks a column where the test did not run.
const Absent = '.'

// Column is one run of the history.
type Column struct {
	// Commit is the commit it ran on; runs of one commit share a column.
	Commit        string `json:"commit,omitempty"`
	WorkflowRunID string `json:"workflow_run_id,omitempty"`
	// Attempt is the workflow run's attempt (GITHUB_RUN_ATTEMPT) the
	// column's latest outcomes come from.
	Attempt int `json:"attempt,omitempty"`
	// RunID is runledger's run id (of that attempt).
	RunID string `json:"run_id,omitempty"`
}

// Label names the column for a reader: its commit, else its run id.
func (c Column) Label() string {
	if c.Commit != "" {
		return c.Commit
	}
	return "run " + c.RunID
}

// Header describes a history.
type Header struct {
	Schema string `json:"schema"`
	// Run is the run name the history follows.
	Run string `json:"run"`
	// Branch is the branch its runs are on, when known.
	Branch string `json:"branch,omitempty"`
	// Window is how many columns it keeps at most.
	Window int `json:"window"`
	// Columns are its runs, oldest first.
	Columns []Column `json:"runs"`
	// Index is the sha256 of the test index (its file) whose entries
	// the first Tests lines follow.
	Index string `json:"index_sha256"`
	Tests int    `json:"tests"`
}

// Entry is one test's (or unit's) outcomes, a byte per column.
type Entry struct {
	Kind     testindex.Kind
	Outcomes string
	testindex.Key
}

// History is a run name's recent past: Rows are the outcomes of its run's
// index's entries, in the index's order (the keys are the index's, held
// once); Extra (sorted) ran in the window but not in the run.
type History struct {
	Header
	Rows  []string
	Extra []Entry
	index *testindex.Index
}

// Entries lists every row with its key: the index's, then Extra.
func (h *History) Entries() []Entry {
	out := make([]Entry, 0, len(h.Rows)+len(h.Extra))
	for i, o := range h.Rows {
		e := h.index.Entries[i]
		out = append(out, Entry{Kind: e.Kind, Outcomes: o, Key: e.Key})
	}
	return append(out, h.Extra...)
}

// flipped is the lower-case byte of an outcome that also had the other
// verdict on its commit.
func flipped(o byte) byte { return o | 0x20 }

// final is an outcome byte's verdict, in upper case.
func final(o byte) byte {
	if o == Absent {
		return o
	}
	return o &^ 0x20
}

func isFlip(o byte) bool { return o >= 'a' && o <= 'z' }

// bad reports a column where the test failed (finally or not).
func bad(o byte) bool {
	f := final(o)
	return f == 'F' || f == 'E' || isFlip(o)
}

// code is an index entry's byte.
func code(e testindex.Entry) byte {
	o := byte(e.Outcome)
	if e.Flaky && e.Outcome != testindex.Skipped {
		return flipped(o)
	}
	return o
}
