package history

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/runledger/runledger/report/testindex"
)

func tst(o testindex.Outcome, name string) testindex.Entry {
	return testindex.Entry{Kind: testindex.Test, Outcome: o, Key: testindex.Key{Suite: "pkg", Name: name}}
}

func idx(es ...testindex.Entry) *testindex.Index {
	return &testindex.Index{Header: testindex.Header{Run: "unit"}, Entries: es}
}

// play merges one index a commit, as runs on a branch carry it forward.
func play(window int, runs ...*testindex.Index) *History {
	var h *History
	for i, x := range runs {
		testindex.SortIfNeeded(x)
		h = Merge(h, x, Column{Commit: fmt.Sprintf("c%02d", i), RunID: fmt.Sprint(i)}, window, "main")
	}
	return h
}

func rows(h *History) map[string]string {
	out := map[string]string{}
	for _, e := range h.Entries() {
		out[e.Name] = e.Outcomes
	}
	return out
}

func TestMerge(t *testing.T) {
	flaky := tst(testindex.Failed, "TestRetry")
	flaky.Flaky = true
	tests := []struct {
		name   string
		window int
		runs   []*testindex.Index
		want   map[string]string
		cols   int
	}{
		{"starts at one run", 30, []*testindex.Index{idx(tst('P', "A"), tst('F', "B"))},
			map[string]string{"A": "P", "B": "F"}, 1},
		{"appends and marks absent", 30, []*testindex.Index{
			idx(tst('P', "A"), tst('F', "B")), idx(tst('P', "A"), tst('S', "C"))},
			map[string]string{"A": "PP", "B": "F.", "C": ".S"}, 2},
		{"drops the oldest past the window", 2, []*testindex.Index{
			idx(tst('F', "A"), tst('P', "B")), idx(tst('P', "A")), idx(tst('P', "A"))},
			map[string]string{"A": "PP"}, 2},
		{"a flaky verdict is a flip", 30, []*testindex.Index{idx(flaky), idx(tst('P', "TestRetry"))},
			map[string]string{"TestRetry": "fP"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := play(tt.window, tt.runs...)
			if got := rows(h); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("rows %v, want %v", got, tt.want)
			}
			if len(h.Columns) != tt.cols {
				t.Errorf("%d columns, want %d", len(h.Columns), tt.cols)
			}
		})
	}
}

// TestMergeSameCommit: a re-run attempt joins its commit's column, and a
// verdict that differs from the earlier attempt's is a flip there.
func TestMergeSameCommit(t *testing.T) {
	h := play(30, idx(tst('P', "A"), tst('P', "B")))
	first := Merge(h, idx(tst('F', "A"), tst('P', "B"), tst('F', "C")), Column{Commit: "c01", WorkflowRunID: "7", Attempt: 1, RunID: "r1"}, 30, "")
	second := Merge(first, idx(tst('P', "A"), tst('P', "B"), tst('F', "C")), Column{Commit: "c01", WorkflowRunID: "7", Attempt: 2, RunID: "r2"}, 30, "")
	want := map[string]string{"A": "Pp", "B": "PP", "C": ".F"}
	if got := rows(second); !reflect.DeepEqual(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	if len(second.Columns) != 2 || second.Columns[1].RunID != "r2" {
		t.Errorf("columns %+v, want two, the newest r2's", second.Columns)
	}
	// Another workflow run of the commit (a pull request's naming its
	// base) is a column of its own, and so is each local run.
	other := Merge(first, idx(tst('P', "A")), Column{Commit: "c01", WorkflowRunID: "8", Attempt: 2}, 30, "")
	if got := rows(other)["A"]; got != "PFP" {
		t.Errorf("another workflow run of the commit: %q, want PFP", got)
	}
	again := Merge(first, idx(tst('P', "A")), Column{Commit: "c01", WorkflowRunID: "7", Attempt: 1}, 30, "")
	if got := rows(again)["A"]; got != "PFP" {
		t.Errorf("the same attempt again (a harness reusing its ids): %q, want PFP", got)
	}
	local := Merge(Merge(nil, idx(tst('P', "A")), Column{RunID: "x"}, 30, ""), idx(tst('F', "A")), Column{RunID: "y"}, 30, "")
	if got := rows(local)["A"]; got != "PF" {
		t.Errorf("runs without a commit: %q, want PF", got)
	}
}

// TestMergeMovedTest: a test whose file changed keeps its past, as the
// index's comparison pairs it.
func TestMergeMovedTest(t *testing.T) {
	a := tst('F', "A")
	a.File = "old_test.go"
	b := tst('P', "A")
	b.File = "new_test.go"
	h := play(30, idx(a), idx(b))
	if es := h.Entries(); len(es) != 1 || es[0].Outcomes != "FP" || es[0].File != "new_test.go" {
		t.Errorf("entries %+v, want one, FP, in new_test.go", h.Entries())
	}
}

func TestEvidence(t *testing.T) {
	cols := make([]Column, 6)
	for i := range cols {
		cols[i] = Column{Commit: fmt.Sprintf("sha%d", i)}
	}
	h := &History{Header: Header{Columns: cols}}
	tests := []struct {
		row   string
		want  Evidence
		flaky bool
	}{
		{"PPPPPF", Evidence{Runs: 5, Flips: []string{}}, false},
		{"PFFFPF", Evidence{Runs: 5, Failed: 3, Streaks: 1, Flips: []string{}, LastFailed: "sha3"}, false},
		{"FPP.FF", Evidence{Runs: 5, Failed: 2, Streaks: 2, Flips: []string{}, LastFailed: "sha4"}, true},
		{"F.SFPF", Evidence{Runs: 5, Failed: 2, Streaks: 1, Flips: []string{}, LastFailed: "sha3"}, false},
		{"PPpPPF", Evidence{Runs: 5, Failed: 1, Streaks: 1, Flips: []string{"sha2"}, LastFailed: "sha2"}, true},
		{"PPPPPf", Evidence{Runs: 5, Flips: []string{"sha5"}, Now: true}, true},
		{"pFPPPF", Evidence{Runs: 5, Failed: 2, Streaks: 2, Flips: []string{"sha0"}, LastFailed: "sha1"}, true},
	}
	for _, tt := range tests {
		got := h.Evidence(Entry{Outcomes: tt.row})
		if !reflect.DeepEqual(got, tt.want) || got.Flaky() != tt.flaky {
			t.Errorf("%s: %+v flaky %v, want %+v flaky %v", tt.row, got, got.Flaky(), tt.want, tt.flaky)
		}
	}
}

// TestEvidenceUnitRule: a test past the index's name bound is named only
// where it failed; where it was not named, its unit (the package) says
// whether it passed. Two failures with a passing unit between them are
// two streaks; with the unit failing or absent, one.
func TestEvidenceUnitRule(t *testing.T) {
	unit := func(o testindex.Outcome) testindex.Entry {
		return testindex.Entry{Kind: testindex.Unit, Outcome: o, Key: testindex.Key{Suite: "pkg"}}
	}
	for _, tt := range []struct {
		between testindex.Outcome
		streaks int
	}{{testindex.Passed, 2}, {testindex.Failed, 1}} {
		h := play(30, idx(unit('F'), tst('F', "TestFar")), idx(unit(tt.between)), idx(unit('F'), tst('F', "TestFar")), idx(unit('F'), tst('F', "TestFar")))
		row, ok := h.Find(testindex.Key{Suite: "pkg", Name: "TestFar"})
		if !ok || row.Outcomes != "F.FF" {
			t.Fatalf("row %+v, want F.FF", row)
		}
		if ev := h.Evidence(row); ev.Streaks != tt.streaks || ev.Flaky() != (tt.streaks > 1) {
			t.Errorf("unit %c between: %+v, want %d streaks", tt.between, ev, tt.streaks)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	x := idx(tst('E', "a\tb"), tst('P', "z"))
	h := play(3, idx(tst('P', "a\tb"), tst('F', "x\\y")), x)
	var buf bytes.Buffer
	if err := Write(&buf, h, x, "sha"); err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(buf.Bytes()), x, "sha")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, h) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, h)
	}
	if want := map[string]string{"a\tb": "PE", "x\\y": "F.", "z": ".P"}; !reflect.DeepEqual(rows(got), want) {
		t.Errorf("rows %v, want %v", rows(got), want)
	}
	// Runs of one outcome are written as counts, and read back.
	long := play(40, idx(tst('P', "a")), idx(tst('P', "a")), idx(tst('P', "a")), idx(tst('F', "a")), idx(tst('P', "a")), idx(tst('P', "a")), idx(tst('P', "a")))
	buf.Reset()
	if err := Write(&buf, long, idx(tst('P', "a")), "s"); err != nil {
		t.Fatal(err)
	}
	if back, err := Read(bytes.NewReader(buf.Bytes()), idx(tst('P', "a")), "s"); err != nil || back.Rows[0] != "PPPFPPP" {
		t.Errorf("read back %+v, %v; want PPPFPPP", back, err)
	}
	buf.Reset()
	if err := Write(&buf, h, x, "sha"); err != nil {
		t.Fatal(err)
	}
	// The history of another index is not this one's.
	if _, err := Read(bytes.NewReader(buf.Bytes()), x, "other"); err == nil || !strings.Contains(err.Error(), "not of this one") {
		t.Errorf("another index's history: %v", err)
	}
	if err := Write(&buf, h, idx(tst('P', "q")), "sha"); err == nil {
		t.Errorf("wrote a history that does not follow its index")
	}
}

func TestReadRejects(t *testing.T) {
	head := `#{"schema":"runledger.history/v1","run":"u","window":30,"runs":[{"commit":"a"},{"commit":"b"}],"index_sha256":"sha","tests":1}`
	tests := []struct{ text, want string }{
		{"", "empty"},
		{`#{"schema":"runledger.tests/v1","window":1,"runs":[{}]}`, "schema"},
		{`#{"schema":"runledger.history/v1","window":1,"runs":[]}`, "0 runs"},
		{`#{"schema":"runledger.history/v1","window":1,"runs":[{},{}]}`, "window 1"},
		{head, "0 lines of outcomes"},
		{head + "\nPPP", "line 2: 3 outcomes"},
		{head + "\nPX", "outcome 'X'"},
		{head + "\nPP\nt\tPPP\tpkg\t\tA\t", "line 3: 3 outcomes"},
		{head + "\nPP\nx\tPP\tpkg\t\tA\t", "kind"},
		{head + "\nPP\nt\tPP\tpkg\t\tA", "5 fields"},
		{head + "\nPP\nt\tPP\tpkg\t\tA\\q\t", "unknown escape"},
		{strings.Replace(head, `"tests":1`, `"tests":2`, 1) + "\nPP", "2 tests, its index has 1"},
		{head + "\n3P", "line 2: 3 outcomes"},
		{head + "\nP2", "end in a count"},
		{head + "\n99999999999999999999P", "is not one of at most"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		zipText(&buf, tt.text)
		_, err := Read(&buf, idx(tst('P', "A")), "sha")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one saying %q", tt.text, err, tt.want)
		}
	}
}
