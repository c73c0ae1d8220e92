package report

import (
	"testing"

	"github.com/runledger/runledger/report/history"
	"github.com/runledger/runledger/report/testindex"
)

func judgeIndex(outcomes map[string]testindex.Outcome, commit string) *testindex.Index {
	x := &testindex.Index{Header: testindex.Header{Run: "unit", Status: "failed", Source: "go", Verified: true, Complete: true,
		Commit: commit, CIRunID: "9" + commit}}
	for name, o := range outcomes {
		x.Entries = append(x.Entries, testindex.Entry{Kind: testindex.Test, Outcome: o, Key: testindex.Key{Suite: "pkg", Name: name}})
	}
	x.Sort()
	return x
}

// TestCarryForward: the history's state for each fault, and the origin it
// gives a failure the base run passed.
func TestCarryForward(t *testing.T) {
	P, F := testindex.Passed, testindex.Failed
	var past *history.History
	for i, o := range []testindex.Outcome{F, P, F, P} { // two streaks
		past = history.Merge(past, judgeIndex(map[string]testindex.Outcome{"TestX": o}, string(rune('a'+i))), history.Column{Commit: string(rune('a' + i))}, 30, "main")
	}
	base := judgeIndex(map[string]testindex.Outcome{"TestX": P}, "d")
	tests := []struct {
		name   string
		past   map[string]Past
		state  string
		runs   int
		origin testindex.Origin
	}{
		{"read", map[string]Past{"unit": {History: past, Commit: "d"}}, "read", 5, testindex.Flaky},
		{"no history there", map[string]Past{"unit": {Reason: "run x holds no history"}}, "started", 1, testindex.New},
		{"hash mismatch", map[string]Past{"unit": {Reason: "sha256 differs", Unusable: true}}, "unavailable", 1, testindex.New},
		{"no base run of that name", nil, "started", 1, testindex.New},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := &Run{Name: "unit", index: judgeIndex(map[string]testindex.Outcome{"TestX": F}, "e")}
			c := testindex.Compare(run.index, base)
			carryForward(run, &Baselines{Runs: map[string]*testindex.Index{"unit": base}, History: tt.past}, 30, c)
			h := run.History
			if h == nil || h.State != tt.state || h.Runs != tt.runs || (tt.state != "read") != (h.Reason != "") {
				t.Fatalf("history %+v, want %s with %d runs and a reason unless read", h, tt.state, tt.runs)
			}
			k := testindex.Key{Suite: "pkg", Name: "TestX"}
			if got := c.Origins[k]; got != tt.origin || c.Counts[tt.origin] != 1 || len(c.Counts) != 1 {
				t.Errorf("origin %s, counts %v; want %s counted once", got, c.Counts, tt.origin)
			}
		})
	}
}

// TestCarryForwardKeepsPreExisting: a failure the base run has too stays
// pre-existing whatever its history says, and carries the evidence.
func TestCarryForwardKeepsPreExisting(t *testing.T) {
	P, F := testindex.Passed, testindex.Failed
	var past *history.History
	for i, o := range []testindex.Outcome{F, P, F} {
		past = history.Merge(past, judgeIndex(map[string]testindex.Outcome{"TestX": o}, string(rune('a'+i))), history.Column{Commit: string(rune('a' + i))}, 30, "main")
	}
	base := judgeIndex(map[string]testindex.Outcome{"TestX": F}, "c")
	run := &Run{Name: "unit", index: judgeIndex(map[string]testindex.Outcome{"TestX": F}, "d")}
	c := testindex.Compare(run.index, base)
	ev := carryForward(run, &Baselines{Runs: map[string]*testindex.Index{"unit": base}, History: map[string]Past{"unit": {History: past}}}, 30, c)
	k := testindex.Key{Suite: "pkg", Name: "TestX"}
	if c.Origins[k] != testindex.PreExisting {
		t.Errorf("origin %s, want pre_existing", c.Origins[k])
	}
	if e := ev[k.Loose()]; e == nil || e.Failed != 2 || e.Streaks != 2 || e.Runs != 3 {
		t.Errorf("evidence %+v, want 2 failures in 2 streaks over 3 runs", e)
	}
}
