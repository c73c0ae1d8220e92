package compaction

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// growTurns compacts texts turn by turn, as a harness does, with one
// store, and checks that every turn only appends to or replays the
// previous turn's output. cold[k] makes turn k's cache cold. It returns
// each turn's outputs and decisions.
func growTurns(t *testing.T, in []Output, cold map[int]bool) ([][]Output, [][]Decision) {
	t.Helper()
	store := &DirStore{Dir: t.TempDir()}
	var turns [][]Output
	var decisions [][]Decision
	for k := 1; k <= len(in); k++ {
		opts := Options{MinTokens: -1, Cache: &Cache{Store: store, Prefix: -1, Cold: cold[k]}}
		out, ds, err := Compact(in[:k], opts, store)
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range ds {
			checkDecision(t, store, in[i], out[i], d, opts)
			if d.Cold != cold[k] {
				t.Fatalf("turn %d output %d: cold %v, want %v", k, i, d.Cold, cold[k])
			}
		}
		if k > 1 && !cold[k] {
			prev := turns[len(turns)-1]
			for i := range prev {
				if out[i].Text != prev[i].Text {
					t.Fatalf("turn %d rewrote output %d (%s) of a cached prefix:\n%q\n→ %q", k, i, in[i].ID, prev[i].Text, out[i].Text)
				}
				if !ds[i].Frozen {
					t.Fatalf("turn %d output %d: not replayed", k, i)
				}
			}
		}
		turns = append(turns, out)
		decisions = append(decisions, ds)
	}
	return turns, decisions
}

func TestCacheGrowTurnByTurn(t *testing.T) {
	in := outputsOf(bigFail, "cat notes", bigFail, goPassed)
	turns, _ := growTurns(t, in, nil)
	last := turns[len(turns)-1]
	if last[0].Text != bigFail || last[2].Text != bigFail {
		t.Fatal("a run kept as latest on its turn changed on a warm later turn")
	}

	// turns[k-1] is turn k. Turn 3 may not touch output 0, which turn 1
	// emitted unchanged; cold turn 4 may collapse both superseded runs.
	cold, _ := growTurns(t, in, map[int]bool{4: true})
	if cold[2][0].Text != bigFail || cold[2][2].Text != bigFail {
		t.Fatal("warm turn 3 changed a run")
	}
	for _, i := range []int{0, 2} {
		if got := cold[3][i].Text; !strings.HasPrefix(got, supersededLinePrefx) {
			t.Fatalf("cold turn 4 did not collapse superseded output %d: %q", i, got)
		}
	}
	if cold[3][3].Text != goPassed {
		t.Fatal("cold turn 4 changed its latest run")
	}
}

func TestCachePrefixAndTTL(t *testing.T) {
	in := outputsOf(bigFail, "cat notes", bigFail)
	store := &DirStore{Dir: t.TempDir()}
	now := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	call := func(n, prefix int, ttl time.Duration) ([]Output, []Decision) {
		t.Helper()
		out, ds, err := Compact(in[:n], Options{MinTokens: -1, Cache: &Cache{Store: store, Prefix: prefix, TTL: ttl, Now: clock}}, store)
		if err != nil {
			t.Fatal(err)
		}
		return out, ds
	}
	call(1, -1, 0)
	// The harness says only the first output is cached: the rest is tail.
	out, ds := call(3, 1, 0)
	if out[0].Text != bigFail || !ds[0].Frozen {
		t.Fatalf("cached output 0 changed or not replayed: %+v", ds[0])
	}
	// With output 0 cached and warm, it stays; nothing else to collapse.
	if ds[2].Reason != ReasonLatest {
		t.Fatalf("output 2: %s, want latest", ds[2].Reason)
	}
	// Idle past the TTL: cold, so output 0 may collapse now.
	now = now.Add(10 * time.Minute)
	out, ds = call(3, -1, 5*time.Minute)
	if !ds[0].Cold || ds[0].Decision != Collapsed || out[2].Text != bigFail {
		t.Fatalf("cold call: %+v", ds[0])
	}
	// Within the TTL the collapse is replayed, frozen.
	now = now.Add(time.Minute)
	again, ds := call(3, -1, 5*time.Minute)
	if ds[0].Cold || !ds[0].Frozen || again[0].Text != out[0].Text {
		t.Fatalf("warm call after cold: %+v", ds[0])
	}
	// A cached output no call recorded stays as it came.
	fresh := &DirStore{Dir: t.TempDir()}
	got, ds, err := Compact(in, Options{MinTokens: -1, Cache: &Cache{Store: fresh, Prefix: 2}}, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Text != bigFail || ds[0].Reason != ReasonCached || ds[0].Frozen {
		t.Fatalf("unrecorded cached output: %+v", ds[0])
	}
}

// TestCacheAgentTranscriptsTurnByTurn replays real transcripts turn by
// turn, as a harness compacts before each model call: every warm turn only
// appends or replays; no turn collapses an output the labels keep (a run
// that is not superseded yet at that turn is latest there, and a passed
// run or a non-run never collapses); and the last turn, cold, decides just
// what one call on the whole transcript decides, collapses included.
func TestCacheAgentTranscriptsTurnByTurn(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	dir := agentTranscriptsDir(t)
	labels := loadAgentLabels(t)
	collapsed := 0
	for _, name := range []string{"12-mini-sympy-sympy-19346", "19-mini-sphinx-doc-sphinx-8595", "23-mini-scikit-learn-scikit-learn-14053", "31-openhands-ponylang-ponyc-4595"} {
		data, err := os.ReadFile(filepath.Join(dir, name, "input.json"))
		if err != nil {
			t.Fatal(err)
		}
		var in []Output
		if err := json.Unmarshal(data, &in); err != nil {
			t.Fatal(err)
		}
		want := labels.Transcripts[name]
		if want == nil {
			t.Fatalf("%s: no labels", name)
		}
		t.Run(name, func(t *testing.T) {
			turns, decisions := growTurns(t, in, map[int]bool{len(in): true})
			for k, ds := range decisions {
				for _, d := range ds {
					if d.Decision == Collapsed && want[d.ID] != "collapse" {
						label := want[d.ID]
						if label == "" {
							label = "not_run"
						}
						t.Errorf("turn %d collapsed %s, labelled %s", k+1, d.ID, label)
					}
				}
			}
			once, ods, err := Compact(in, Options{MinTokens: -1}, &DirStore{Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			last, lds := turns[len(turns)-1], decisions[len(decisions)-1]
			for i := range in {
				if last[i].Text != once[i].Text || lds[i].Decision != ods[i].Decision || lds[i].Reason != ods[i].Reason {
					t.Errorf("%s: cold last turn %s (%s), one call %s (%s)", in[i].ID, lds[i].Decision, lds[i].Reason, ods[i].Decision, ods[i].Reason)
				}
				if ods[i].Decision == Collapsed {
					collapsed++
				}
			}
		})
	}
	// Guard against a check that passes because nothing collapsed at all.
	if collapsed == 0 {
		t.Error("no output collapsed in any transcript's cold last turn")
	}
}

// TestCacheHarnessSendsBackOutput: a harness that sends back what compact
// emitted (the first item collapsed) keeps its transcript and replays.
func TestCacheHarnessSendsBackOutput(t *testing.T) {
	store := &DirStore{Dir: t.TempDir()}
	opts := Options{MinTokens: -1, Cache: &Cache{Store: store, Prefix: -1, Cold: true}}
	in := outputsOf(bigFail, "cat notes", bigFail, goPassed)
	out, _, err := Compact(in, opts, store)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out[0].Text, supersededLinePrefx) {
		t.Fatalf("cold call did not collapse output 0: %q", out[0].Text)
	}
	next := append(append([]Output(nil), out...), Output{ID: "o4", Text: "notes\n"})
	opts.Cache = &Cache{Store: store, Prefix: -1}
	again, ds, err := Compact(next, opts, store)
	if err != nil {
		t.Fatal(err)
	}
	for i := range out {
		if again[i].Text != out[i].Text {
			t.Fatalf("output %d changed when sent back: %q → %q", i, out[i].Text, again[i].Text)
		}
	}
	if !ds[1].Frozen || !ds[3].Frozen {
		t.Fatalf("decisions not replayed: the transcript lost its name (%+v)", ds[1])
	}
}

// TestCacheFrozenCollapseNeedsSupersession: a record from another
// transcript sharing the first item cannot collapse this one's latest run.
func TestCacheFrozenCollapseNeedsSupersession(t *testing.T) {
	store := &DirStore{Dir: t.TempDir()}
	a := outputsOf(bigFail, goPassed)
	if _, ds, err := Compact(a, Options{MinTokens: -1, Cache: &Cache{Store: store, Prefix: -1, Cold: true}}, store); err != nil || ds[0].Decision != Collapsed {
		t.Fatalf("session A: %v %+v", err, ds)
	}
	b := outputsOf(bigFail, "cat notes")
	out, ds, err := Compact(b, Options{MinTokens: -1, Cache: &Cache{Store: store, Prefix: -1}}, store)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Text != bigFail || ds[0].Decision == Collapsed {
		t.Fatalf("session B's only run was collapsed by A's record: %+v", ds[0])
	}
}
