// Package testindex is every test of a run with its final outcome, kept
// for every run so that a later run can say what its change broke without
// reading the base's logs, and the comparison of two indexes.
//
// The file (FileName, in the run's directory and its artifact) is gzip'd
// text: a first line "#" followed by a JSON Header, then one line per test
// or unit, sorted:
//
//	<kind><outcome>[~] TAB suite TAB class TAB name TAB file
//
// kind is t (a test), u (a unit — a Go package, or with an empty suite the
// whole run — whose tests are not all named) or n (a unit whose tests are
// all named); outcome is P passed, F failed, E error, S skipped; "~" marks
// a test that had the other verdict too within the run (flaky). Tab,
// newline, carriage return and backslash in fields are written \t, \n, \r
// and \\. Sorted names share long prefixes, so gzip keeps a test to a few
// bytes.
package testindex

import (
	"cmp"
	"slices"
)

// Schema is Header.Schema.
const Schema = "runledger.tests/v1"

// FileName is the index's file in a run directory.
const FileName = "tests.tsv.gz"

// Kind says what an entry stands for.
type Kind byte

const (
	Test       Kind = 't'
	Unit       Kind = 'u' // a unit whose tests are not all named
	NamedUnit  Kind = 'n' // a unit whose tests are all named
	outcomeSep      = '~'
)

// Outcome is an entry's final verdict.
type Outcome byte

const (
	Passed  Outcome = 'P'
	Failed  Outcome = 'F'
	Errored Outcome = 'E'
	Skipped Outcome = 'S'
)

// Bad reports a failing verdict.
func (o Outcome) Bad() bool { return o == Failed || o == Errored }

// Key is what makes a test the same test across commits.
type Key struct {
	Suite, Class, Name, File string
}

// Entry is one test or unit.
type Entry struct {
	Kind    Kind
	Outcome Outcome
	// Flaky: the other verdict was seen too within the run (a retry, a
	// rerun, a Surefire flakyFailure).
	Flaky bool
	Key
}

// Header describes the run an index is of.
type Header struct {
	Schema string `json:"schema"`
	// Run is the run's name and ID: the name matches runs across commits.
	Run   string `json:"run"`
	RunID string `json:"run_id,omitempty"`
	// Status is the run's status in its report (passed, failed, …).
	Status string `json:"status"`
	// Source and Verified are the run summary's: where the outcomes come from.
	Source   string `json:"source"`
	Verified bool   `json:"verified"`
	// Tests is the summary's test count, when it gives one.
	Tests *int `json:"tests,omitempty"`
	// Complete: every failing test is named (none past a bound, none only
	// counted). Whether every passing test is named too is the units' to
	// say (kind n); a file format such as JUnit names them all and has no
	// units.
	Complete bool `json:"complete"`
	// Commit, CIRunID and URL say where the run ran, when known.
	Commit  string `json:"commit,omitempty"`
	CIRunID string `json:"ci_run_id,omitempty"`
	URL     string `json:"url,omitempty"`
}

// Index is a run's tests.
type Index struct {
	Header
	Entries []Entry
}

// Sort orders entries as the file holds them, by key then kind.
func (x *Index) Sort() { slices.SortFunc(x.Entries, compareEntries) }

func compareEntries(a, b Entry) int {
	return cmp.Or(compareKeys(a.Key, b.Key), cmp.Compare(a.Kind, b.Kind))
}

// CountTests is the number of test entries.
func (x *Index) CountTests() int {
	n := 0
	for _, e := range x.Entries {
		if e.Kind == Test {
			n++
		}
	}
	return n
}
