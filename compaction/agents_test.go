package compaction

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// agentLabels is testdata/agent-transcripts.labels.json: what should
// become of each run in the real agent transcripts, by transcript and
// output id.
type agentLabels struct {
	Transcripts map[string]map[string]string `json:"transcripts"`
}

// maxAgentMisses bounds the labelled collapses compaction leaves undone.
// It is a run whose family the text does not show: a script re-run that
// printed no runner line when it passed. (A test module that failed as a
// script, python test_requests.py, and later ran as a unittest suite was
// the other, until unittest declared test_*.py as its scripts.)
const maxAgentMisses = 1

// agentTranscriptsDir finds ../shared/data/agent-transcripts above the
// package, or $RUNLEDGER_AGENT_TRANSCRIPTS; the data stays outside the
// repository.
func agentTranscriptsDir(t *testing.T) string {
	if d := os.Getenv("RUNLEDGER_AGENT_TRANSCRIPTS"); d != "" {
		return d
	}
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		d := filepath.Join(dir, "shared", "data", "agent-transcripts")
		if _, err := os.Stat(filepath.Join(d, "SOURCES.md")); err == nil {
			return d
		}
	}
	t.Skip("no shared/data/agent-transcripts above this package; set RUNLEDGER_AGENT_TRANSCRIPTS")
	return ""
}

type agentScore struct {
	outputs, runs, collapsed, misses int
	falseByKind                      map[string]int
}

// TestAgentTranscripts checks compaction against labels of 33 real
// coding-agent transcripts (mini-swe-agent, SWE-agent, OpenHands): no
// false collapse of any kind, at most maxAgentMisses misses, every
// collapse expands exactly, and compacting the result changes nothing.
//
//	go test ./compaction -run TestAgentTranscripts -v
func TestAgentTranscripts(t *testing.T) {
	dir := agentTranscriptsDir(t)
	labels := loadAgentLabels(t)
	names := make([]string, 0, len(labels.Transcripts))
	for n := range labels.Transcripts {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) != 33 {
		t.Fatalf("%d labelled transcripts, want 33", len(names))
	}
	total := agentScore{falseByKind: map[string]int{}}
	var rows strings.Builder
	for _, name := range names {
		s := scoreAgent(t, filepath.Join(dir, name, "input.json"), labels.Transcripts[name])
		fmt.Fprintf(&rows, "%-45s outputs %4d runs %3d collapsed %3d misses %d false %v\n",
			name, s.outputs, s.runs, s.collapsed, s.misses, s.falseByKind)
		total.outputs += s.outputs
		total.runs += s.runs
		total.collapsed += s.collapsed
		total.misses += s.misses
		for k, n := range s.falseByKind {
			total.falseByKind[k] += n
		}
	}
	t.Logf("\n%stotal: outputs %d runs %d collapsed %d misses %d false collapses %v",
		rows.String(), total.outputs, total.runs, total.collapsed, total.misses, total.falseByKind)
	if len(total.falseByKind) != 0 {
		t.Errorf("false collapses: %v", total.falseByKind)
	}
	if total.misses > maxAgentMisses {
		t.Errorf("%d misses, want at most %d", total.misses, maxAgentMisses)
	}
}

// loadAgentLabels reads testdata/agent-transcripts.labels.json.
func loadAgentLabels(t *testing.T) agentLabels {
	t.Helper()
	var labels agentLabels
	data, err := os.ReadFile("testdata/agent-transcripts.labels.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &labels); err != nil {
		t.Fatalf("labels: %v", err)
	}
	return labels
}

func scoreAgent(t *testing.T, path string, want map[string]string) agentScore {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var in []Output
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	opts := Options{MinTokens: -1}
	store := &DirStore{Dir: t.TempDir()}
	out, ds, err := Compact(in, opts, store)
	if err != nil {
		t.Fatal(err)
	}
	s := agentScore{outputs: len(in), runs: len(want), falseByKind: map[string]int{}}
	for i, d := range ds {
		checkDecision(t, store, in[i], out[i], d, opts)
		label, listed := want[d.ID]
		if !listed {
			label = "not_run"
		}
		switch {
		case d.Decision == Collapsed && label != "collapse":
			s.falseByKind[label]++
			t.Errorf("%s %s: collapsed, labelled %s (family %q, evidence %q)", filepath.Base(filepath.Dir(path)), d.ID, label, d.Family, d.Evidence)
		case d.Decision == Collapsed:
			s.collapsed++
		case label == "collapse" && d.Reason != ReasonNoGain:
			s.misses++
			t.Logf("%s %s: miss, kept as %s (family %q)", filepath.Base(filepath.Dir(path)), d.ID, d.Reason, d.Family)
		}
	}
	again, _, err := Compact(out, opts, store)
	if err != nil {
		t.Fatal(err)
	}
	for i := range out {
		if again[i].Text != out[i].Text {
			t.Errorf("%s %s: compacting twice changed the output", path, out[i].ID)
		}
	}
	return s
}
