package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runledger/runledger/compaction"
)

// transcriptsDir finds ../shared/data/agent-transcripts above the
// package, or $RUNLEDGER_AGENT_TRANSCRIPTS, as compaction's tests do.
func transcriptsDir(t *testing.T) string {
	d := findTranscripts()
	if d == "" {
		t.Skip("no shared/data/agent-transcripts above this package; set RUNLEDGER_AGENT_TRANSCRIPTS")
	}
	return d
}

func findTranscripts() string {
	if d := os.Getenv("RUNLEDGER_AGENT_TRANSCRIPTS"); d != "" {
		return d
	}
	dir, err := filepath.Abs(".")
	if err != nil {
		return ""
	}
	for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		d := filepath.Join(dir, "shared", "data", "agent-transcripts")
		if _, err := os.Stat(filepath.Join(d, "SOURCES.md")); err == nil {
			return d
		}
	}
	return ""
}

// replayScore is what one replay of a transcript through the proxy did.
type replayScore struct {
	turns, collapsedLast         int
	sent, forwarded              int64 // bytes over every turn
	lastSent, lastForwarded      int64 // the last turn's
	prefixChanges, falseCollapse int
}

// TestProxyReplaysAgentTranscripts replays the 33 real agent transcripts
// turn by turn through the proxy as Messages bodies with a cache
// breakpoint on each turn's last tool result: with the cache warm, no
// prefix the provider cached changes; warm or cold, nothing the labels
// keep collapses. The bytes saved are logged.
//
//	go test ./proxy -run TestProxyReplaysAgentTranscripts -v
func TestProxyReplaysAgentTranscripts(t *testing.T) {
	if testing.Short() {
		t.Skip("short: replays 1,696 turns twice")
	}
	dir := transcriptsDir(t)
	var labels struct {
		Transcripts map[string]map[string]string `json:"transcripts"`
	}
	data, err := os.ReadFile(filepath.Join("..", "compaction", "testdata", "agent-transcripts.labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &labels); err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range labels.Transcripts {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) != 33 {
		t.Fatalf("%d labelled transcripts, want 33", len(names))
	}
	for _, cold := range []bool{false, true} {
		var total replayScore
		var rows strings.Builder
		scores := make([]replayScore, len(names))
		// The store fsyncs every decision it freezes: transcripts replay
		// side by side so that the disk's waits overlap.
		var wg sync.WaitGroup
		sem := make(chan struct{}, 8)
		for i, name := range names {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				scores[i] = replayTranscript(t, filepath.Join(dir, name, "input.json"), labels.Transcripts[name], cold)
			}()
		}
		wg.Wait()
		for i, name := range names {
			s := scores[i]
			fmt.Fprintf(&rows, "%-45s turns %3d last turn %8d -> %8d bytes, %3d collapsed; all turns %10d -> %10d\n",
				name, s.turns, s.lastSent, s.lastForwarded, s.collapsedLast, s.sent, s.forwarded)
			total.turns += s.turns
			total.sent += s.sent
			total.forwarded += s.forwarded
			total.lastSent += s.lastSent
			total.lastForwarded += s.lastForwarded
			total.collapsedLast += s.collapsedLast
			total.prefixChanges += s.prefixChanges
			total.falseCollapse += s.falseCollapse
		}
		t.Logf("cache cold at every turn: %v\n%stotal: %d turns; last turns %d -> %d bytes (%.1f%% saved, %d outputs collapsed); all turns %d -> %d bytes (%.1f%% saved); prefix changes %d; false collapses %d",
			cold, rows.String(), total.turns, total.lastSent, total.lastForwarded, pct(total.lastSent, total.lastForwarded),
			total.collapsedLast, total.sent, total.forwarded, pct(total.sent, total.forwarded), total.prefixChanges, total.falseCollapse)
		if total.falseCollapse != 0 {
			t.Errorf("cold %v: %d false collapses", cold, total.falseCollapse)
		}
		if !cold && total.prefixChanges != 0 {
			t.Errorf("warm cache: %d changes to a cached prefix", total.prefixChanges)
		}
		if cold && total.collapsedLast == 0 {
			t.Error("cold cache: nothing collapsed in any transcript")
		}
	}
}

func pct(before, after int64) float64 {
	if before == 0 {
		return 0
	}
	return 100 * float64(before-after) / float64(before)
}

// replayTranscript sends the transcript turn by turn, each turn with one
// more output, and checks what the upstream got.
func replayTranscript(t *testing.T, path string, labels map[string]string, cold bool) replayScore {
	t.Helper()
	var s replayScore
	data, err := os.ReadFile(path)
	if err != nil {
		t.Error(err)
		return s
	}
	var in []compaction.Output
	if err := json.Unmarshal(data, &in); err != nil {
		t.Errorf("%s: %v", path, err)
		return s
	}
	up := newUpstream(t, answerJSON(`{}`))
	p := newTestProxy(t, up.URL, func(c *Config) {
		if cold {
			c.TTL = time.Nanosecond // idle past the TTL before every turn
		}
	})
	var prev []byte
	name := filepath.Base(filepath.Dir(path))
	for k := 1; k <= len(in); k++ {
		body := transcriptTurn(in[:k])
		resp, err := http.Post(p.URL+"/v1/messages", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Error(err)
			return s
		}
		resp.Body.Close()
		got := up.last(t).Body
		s.turns++
		s.sent += int64(len(body))
		s.forwarded += int64(len(got))
		if prev != nil && !cold {
			s.prefixChanges += samePrefix(t, prev, got)
		}
		prev = got
		collapsed := collapsedIDs(t, got)
		for id := range collapsed {
			if labels[id] != "collapse" {
				s.falseCollapse++
				t.Errorf("%s turn %d: %s collapsed, labelled %q", name, k, id, labels[id])
			}
		}
		if k == len(in) {
			s.lastSent, s.lastForwarded, s.collapsedLast = int64(len(body)), int64(len(got)), len(collapsed)
		}
	}
	return s
}

// transcriptTurn is a Messages body holding outputs as tool results of
// one bash tool, the breakpoint on the last.
func transcriptTurn(outputs []compaction.Output) []byte {
	msgs := []any{map[string]any{"role": "user", "content": "Fix the issue."}}
	for i, o := range outputs {
		result := map[string]any{"type": "tool_result", "tool_use_id": o.ID, "content": o.Text}
		if i == len(outputs)-1 {
			result["cache_control"] = map[string]any{"type": "ephemeral"}
		}
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": o.ID, "name": "bash", "input": map[string]any{"command": "…"}}}},
			map[string]any{"role": "user", "content": []any{result}})
	}
	b, _ := json.Marshal(map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 4096, "messages": msgs})
	return b
}

// collapsedIDs are the tool results the body carries as pointer lines.
func collapsedIDs(t *testing.T, body []byte) map[string]bool {
	t.Helper()
	var b struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, m := range b.Messages {
		var blocks []struct {
			Type      string `json:"type"`
			ToolUseID string `json:"tool_use_id"`
			Content   string `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, bl := range blocks {
			if bl.Type == "tool_result" && strings.HasPrefix(bl.Content, "[superseded by a later run] <<cg:") {
				ids[bl.ToolUseID] = true
			}
		}
	}
	return ids
}
