package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompactCacheFlags: a transcript grown by one turn replays its first
// turn's decisions (frozen) and leaves the earlier output as it was; a
// --cold-cache call decides it afresh and collapses the superseded run.
func TestCompactCacheFlags(t *testing.T) {
	fail := "<returncode>1</returncode>\n<output>\n===== test session starts =====\n" +
		strings.Repeat("t.py::test_x FAILED\n", 40) + "===== 40 failed in 0.1s =====\n</output>"
	pass := "<returncode>0</returncode>\n<output>\n===== 40 passed in 0.1s =====\n</output>"
	turn := func(texts ...string) string {
		var outs []map[string]string
		for i, s := range texts {
			outs = append(outs, map[string]string{"id": string(rune('a' + i)), "text": s})
		}
		b, _ := json.Marshal(outs)
		return string(b)
	}
	dir := t.TempDir()
	decisions := filepath.Join(dir, "d.json")
	read := func() []map[string]any {
		t.Helper()
		data, err := os.ReadFile(decisions)
		if err != nil {
			t.Fatal(err)
		}
		var ds []map[string]any
		if err := json.Unmarshal(data, &ds); err != nil {
			t.Fatal(err)
		}
		return ds
	}
	if code, _, stderr := runApp(t, dir, turn(fail), "compact", "--decisions", decisions); code != 0 {
		t.Fatalf("turn 1: exit %d: %s", code, stderr)
	}
	code, out, stderr := runApp(t, dir, turn(fail, pass), "compact", "--decisions", decisions, "--cache-ttl", "1h")
	if code != 0 || !strings.Contains(stderr, "0 of 2 outputs collapsed, 1 replayed") {
		t.Fatalf("turn 2: exit %d: %s", code, stderr)
	}
	if ds := read(); ds[0]["frozen"] != true || ds[0]["cold"] != nil || strings.Contains(out, "<<cg:") {
		t.Fatalf("turn 2 decisions %v", ds)
	}
	code, out, stderr = runApp(t, dir, turn(fail, pass), "compact", "--decisions", decisions, "--cold-cache")
	if code != 0 || !strings.Contains(out, "<<cg:") {
		t.Fatalf("cold turn: exit %d: %s\n%s", code, stderr, out)
	}
	if ds := read(); ds[0]["decision"] != "collapsed" || ds[0]["cold"] != true {
		t.Fatalf("cold turn decisions %v", ds)
	}
	if code, _, stderr := runApp(t, dir, "[]", "compact", "--cache-prefix", "-2"); code != 2 || !strings.Contains(stderr, "--cache-prefix") {
		t.Fatalf("--cache-prefix -2: exit %d: %s", code, stderr)
	}
}
