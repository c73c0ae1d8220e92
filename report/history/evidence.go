package history

import "github.com/runledger/runledger/report/testindex"

// Evidence is what a history says of one test, for a reader to judge by:
// over Runs earlier runs, how many it failed in, in how many separate
// streaks, the commits where it both failed and passed, and the newest
// commit where it failed.
type Evidence struct {
	// Runs counts the runs before this one the history holds.
	Runs int `json:"runs"`
	// Failed counts those where the test failed (finally, or before a
	// pass on that commit).
	Failed int `json:"failed"`
	// Streaks counts its separate runs of consecutive failures.
	Streaks int `json:"streaks"`
	// Flips are the commits where it both failed and passed, oldest
	// first; this run's commit last when it flipped here.
	Flips []string `json:"flips"`
	// LastFailed is the newest commit where it failed.
	LastFailed string `json:"last_failed,omitempty"`
	// Now: the newest column's flip is this run's (it also passed on
	// this commit, in this run or an earlier attempt of it).
	Now bool `json:"-"`
}

// Flaky is the rule: a flip on one commit, or two separate failure
// streaks. One streak of consecutive failures is a breakage that was
// fixed, not flakiness.
func (e Evidence) Flaky() bool { return len(e.Flips) > 0 || e.Streaks >= 2 }

// Failing reports any failure in the history, flip or not.
func (e Evidence) Failing() bool { return e.Failed > 0 || len(e.Flips) > 0 }

// Evidence reads a test's row of a history whose newest column is the
// run being judged: the earlier columns are its past; of the newest only
// a flip counts (the run's own failure is what is judged, not evidence).
// A column where the test did not run or was skipped neither adds to a
// streak nor ends one, unless the unit that stands for its unnamed tests
// (the index's unit rule: a Go package, or the whole run, past the name
// bound) passed there: then the test passed too.
func (h *History) Evidence(e Entry) Evidence {
	unit := h.unitOf(e.Suite)
	ev := Evidence{Runs: len(h.Columns) - 1, Flips: []string{}}
	in := false
	for i := 0; i < len(e.Outcomes); i++ {
		o := e.Outcomes[i]
		if o == Absent && unit != "" && final(unit[i]) == 'P' {
			o = 'P'
		}
		if isFlip(o) && final(o) != 'S' {
			ev.Flips = append(ev.Flips, h.Columns[i].Label())
			ev.Now = ev.Now || i == len(e.Outcomes)-1
		}
		if i == len(e.Outcomes)-1 {
			break
		}
		switch {
		case bad(o):
			ev.Failed++
			ev.LastFailed = h.Columns[i].Label()
			if !in {
				ev.Streaks++
			}
			in = final(o) != 'P'
		case final(o) == 'P':
			in = false
		}
	}
	return ev
}

// unitOf is the outcomes of the unit (kind u: its tests not all named)
// that stands for suite's unnamed tests: its own, else the whole run's.
func (h *History) unitOf(suite string) string {
	for _, s := range []string{suite, ""} {
		want := Entry{Kind: testindex.Unit, Key: testindex.Key{Suite: s}}
		if e, ok := h.find(want); ok {
			return e.Outcomes
		}
	}
	return ""
}
