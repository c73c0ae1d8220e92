//go:build unix

// These tests run sh scripts and check process groups with kill(2):
// POSIX only.

package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runledger/runledger/compaction"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

// session serves opts in-process and returns a connected client.
func session(t *testing.T, opts Options) *mcp.ClientSession {
	t.Helper()
	if opts.StoreDir == "" {
		opts.StoreDir = filepath.Join(t.TempDir(), "store")
	}
	if opts.WorkDir == "" {
		opts.WorkDir = t.TempDir()
	}
	srv, err := NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// call calls a tool and decodes its structured content into out; it
// returns the result's text and whether it is a tool error.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", tool, err)
	}
	text := resultText(res)
	if !res.IsError && out != nil {
		data, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s: structured content: %v\n%s", tool, err, data)
		}
	}
	return text, res.IsError
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// resultSize is what the bound covers: text plus structured JSON.
func resultSize(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) int {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %s", tool, err, resultText(res))
	}
	data, _ := json.Marshal(res.StructuredContent)
	return len(resultText(res)) + len(data)
}

const failingScript = `echo "setup ok"; printf -- '--- FAIL: TestParse (0.00s)\n    parse_test.go:42: got 1, want 2\nFAIL\nFAIL\texample.com/pkg\t0.01s\n'; echo "oops" >&2; exit 1`

func TestToolList(t *testing.T) {
	for _, allow := range []bool{true, false} {
		cs := session(t, Options{AllowRun: allow})
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			if tool.InputSchema == nil || tool.OutputSchema == nil {
				t.Errorf("%s: no input or output schema", tool.Name)
			}
		}
		sort.Strings(names)
		want := "expand grep report show"
		if allow {
			want = "expand grep report run show"
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("allow-run %v: tools %s, want %s", allow, got, want)
		}
		if !allow {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "true"}})
			if err == nil && !res.IsError {
				t.Error("run without --allow-run was executed")
			}
		}
	}
}

// TestRunThenShow: a failing command reports failed with its exit code and
// an excerpt whose cited range show returns, byte for byte.
func TestRunThenShow(t *testing.T) {
	cs := session(t, Options{AllowRun: true})
	var out RunOutput
	text, isErr := call(t, cs, "run", map[string]any{"command": failingScript, "name": "unit"}, &out)
	if isErr {
		t.Fatal(text)
	}
	r := out.Run
	if out.Status != "failed" || r.Status != "failed" || r.ExitCode == nil || *r.ExitCode != 1 || r.Termination != "exited" {
		t.Fatalf("status %s run %+v", out.Status, r)
	}
	if !strings.HasPrefix(text, "status: failed") || len(r.Excerpts) == 0 {
		t.Fatalf("text %q, %d excerpts", text, len(r.Excerpts))
	}
	x := r.Excerpts[0]
	var shown ShowOutput
	text, isErr = call(t, cs, "show", map[string]any{"run": r.ID, "stream": x.Stream,
		"range": fmt.Sprintf("%d:%d", x.Start, x.End), "sha256": x.SHA256}, &shown)
	if isErr || shown.SHA256 != x.SHA256 || shown.Start != x.Start || shown.End != x.End || len(shown.LeftOut) > 0 {
		t.Fatalf("show: %+v\n%s", shown, text)
	}
	if !strings.Contains(shown.Text, "--- FAIL: TestParse") || !strings.Contains(text, shown.Text) {
		t.Fatalf("show text %q", shown.Text)
	}
	var lines ShowOutput
	call(t, cs, "show", map[string]any{"run": "unit", "stream": "stdout", "lines": "2:3"}, &lines)
	if lines.Text != "--- FAIL: TestParse (0.00s)\n    parse_test.go:42: got 1, want 2\n" {
		t.Fatalf("lines 2:3: %q", lines.Text)
	}
	var rep ReportOutput
	call(t, cs, "report", nil, &rep)
	if rep.Schema != "runledger.report/v1" || rep.Status != "failed" || len(rep.Runs) != 1 || rep.Runs[0].ID != r.ID {
		t.Fatalf("report %+v", rep.Envelope)
	}
}

func TestGrep(t *testing.T) {
	cs := session(t, Options{AllowRun: true})
	var out RunOutput
	call(t, cs, "run", map[string]any{"argv": []string{"sh", "-c", `i=1; while [ $i -le 300 ]; do echo "line $i"; i=$((i+1)); done`}}, &out)
	var g GrepOutput
	text, isErr := call(t, cs, "grep", map[string]any{"run": out.Run.ID, "pattern": `^line 1[0-9]$`, "stream": "stdout", "max": 3, "context": 1}, &g)
	if isErr || len(g.Matches) != 3 || !g.More || len(g.LeftOut) != 1 {
		t.Fatalf("grep: %+v\n%s", g, text)
	}
	m := g.Matches[0]
	if len(m) != 3 || m[1].Line != 10 || !m[1].Match || m[1].Text != "line 10" || m[0].Line != 9 {
		t.Fatalf("first group %+v", m)
	}
	var shown ShowOutput
	call(t, cs, "show", map[string]any{"run": out.Run.ID, "stream": "stdout", "range": fmt.Sprintf("%d:%d", m[1].Start, m[1].End)}, &shown)
	if shown.Text != "line 10\n" {
		t.Fatalf("show of grep's range: %q", shown.Text)
	}
}

// TestBadArguments: each is a tool error with a message saying what is
// wrong, never a protocol error and never a crash.
func TestBadArguments(t *testing.T) {
	work := t.TempDir()
	os.Symlink("/", filepath.Join(work, "root"))
	cs := session(t, Options{AllowRun: true, WorkDir: work})
	var out RunOutput
	call(t, cs, "run", map[string]any{"command": "echo hi", "name": "hi"}, &out)
	id := out.Run.ID
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"show", map[string]any{"run": "nope"}, `no run with that id or name`},
		{"show", map[string]any{"run": id, "stream": "stdin"}, `"stdin"`},
		{"show", map[string]any{"run": id, "range": "0:999"}, "ends past the end"},
		{"show", map[string]any{"run": id, "range": "5:2"}, "want A:B"},
		{"show", map[string]any{"run": id, "range": "0:1", "lines": "1:1"}, "exclude each other"},
		{"show", map[string]any{"run": id, "lines": "9:10"}, "fewer than 9 lines"},
		{"show", map[string]any{"run": id, "range": "0:2", "sha256": strings.Repeat("0", 64)}, "not the cited"},
		{"show", map[string]any{"run": id, "repo": "o/r"}, "artifact_id"},
		{"show", map[string]any{}, "run"},
		{"grep", map[string]any{"run": id, "pattern": "("}, "pattern"},
		{"grep", map[string]any{"run": id, "pattern": "x", "max": 1000}, "max"},
		{"expand", map[string]any{"marker": "zzz"}, "marker"},
		{"expand", map[string]any{"marker": "<<cg:0123456789abcdef>>"}, "no run's output"},
		{"run", map[string]any{}, "no command"},
		{"run", map[string]any{"command": "true", "argv": []string{"true"}}, "not both"},
		{"run", map[string]any{"command": "true", "dir": ".."}, "outside"},
		{"run", map[string]any{"command": "true", "dir": "/"}, "outside"},
		{"run", map[string]any{"command": "true", "dir": "root"}, "outside"},
		{"run", map[string]any{"command": "true", "dir": "missing"}, "missing"},
		{"run", map[string]any{"command": "true", "timeout": "soon"}, "timeout"},
	}
	for _, tc := range tests {
		text, isErr := call(t, cs, tc.tool, tc.args, nil)
		if !isErr || !strings.Contains(text, tc.want) {
			t.Errorf("%s %v: error %v %q, want a tool error containing %q", tc.tool, tc.args, isErr, text, tc.want)
		}
	}
}

func TestRunDir(t *testing.T) {
	work := t.TempDir()
	os.Mkdir(filepath.Join(work, "sub"), 0o755)
	cs := session(t, Options{AllowRun: true, WorkDir: work})
	var out RunOutput
	call(t, cs, "run", map[string]any{"command": "pwd", "dir": "sub/../sub"}, &out)
	var shown ShowOutput
	call(t, cs, "show", map[string]any{"run": out.Run.ID, "stream": "stdout"}, &shown)
	if out.Status != "passed" || !strings.HasSuffix(strings.TrimSpace(shown.Text), string(filepath.Separator)+"sub") {
		t.Fatalf("status %s, pwd %q", out.Status, shown.Text)
	}
}

func TestTimedOut(t *testing.T) {
	cs := session(t, Options{AllowRun: true})
	var out RunOutput
	text, isErr := call(t, cs, "run", map[string]any{"command": "sleep 100", "timeout": "500ms"}, &out)
	r := out.Run
	if isErr || out.Status == "passed" || r.Status != "timed_out" || !r.TimedOut || r.Termination != "confirmed" || r.ExitCode != nil {
		t.Fatalf("timed-out run: status %s %+v\n%s", out.Status, r, text)
	}
	if !strings.Contains(text, "timed out") || strings.Contains(text, "passed") {
		t.Fatalf("text %q", text)
	}
}

// TestCancel cancels the call while the command sleeps: the record says
// cancelled and the command's whole process group is gone.
func TestCancel(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	cs := session(t, Options{AllowRun: true, StoreDir: dir})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "sleep 100 & sleep 100; wait"}})
		done <- err
	}()
	waitRecord(t, dir, func(r *record.Record) bool { return r.Status == record.StatusRunning && r.PID > 0 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call returned %v", err)
	}
	rec := waitRecord(t, dir, func(r *record.Record) bool { return r.Status != record.StatusRunning })
	if rec.Status != record.StatusCancelled || rec.Termination != record.TerminationConfirmed || rec.Passed() {
		t.Fatalf("record after cancel: status %s termination %s", rec.Status, rec.Termination)
	}
	if err := syscall.Kill(-rec.PID, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("process group %d after cancel: kill 0 gave %v, want ESRCH", rec.PID, err)
	}
}

func waitRecord(t *testing.T, dir string, ok func(*record.Record) bool) *record.Record {
	t.Helper()
	st, _ := store.Open(dir)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		recs, _, _ := st.List()
		if len(recs) == 1 && ok(recs[0]) {
			return recs[0]
		}
	}
	t.Fatal("no record in the wanted state within 20s")
	return nil
}

// TestBounds: every result stays within the bound, and following the
// omission markers of show reads the whole log back, matching its hash.
func TestBounds(t *testing.T) {
	// Above what the run tool cannot cut: its one run row, bare (status,
	// counts, three log paths under t.TempDir()), is about 2 KiB. At 2048
	// it sat on the bound and went over by a byte when the temp dir's
	// random name or the duration had one digit more.
	const budget = 2560
	cs := session(t, Options{AllowRun: true, MaxResultBytes: budget})
	script := `i=1; while [ $i -le 3000 ]; do echo "--- FAIL: TestN$i (0.00s) error: bad value $i"; i=$((i+1)); done; exit 1`
	var first, out RunOutput
	call(t, cs, "run", map[string]any{"command": script, "name": "big"}, &first)
	call(t, cs, "run", map[string]any{"command": script, "name": "big"}, &out)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"run", map[string]any{"command": script, "name": "big"}},
		{"report", nil},
		{"show", map[string]any{"run": "big"}},
		{"grep", map[string]any{"run": "big", "pattern": "FAIL", "max": 200, "context": 5}},
		{"expand", map[string]any{"marker": first.Run.Logs["output"].SHA256[:16]}},
	}
	for _, c := range calls {
		if n := resultSize(t, cs, c.tool, c.args); n > budget {
			t.Errorf("%s: result of %d bytes, bound %d", c.tool, n, budget)
		}
	}
	if out.Omitted == nil || len(out.LeftOut) == 0 || out.Status != "failed" {
		t.Fatalf("a cut run result must keep its status and name what it left out: %s %+v %q", out.Status, out.Omitted, out.LeftOut)
	}
	assertReadBack(t, cs, out.Run.ID, out.Run.Logs["stdout"].SHA256)
}

// assertReadBack reads a stream from byte 0 to its end in bounded
// chunks, each cut marked with the range that comes next.
func assertReadBack(t *testing.T, cs *mcp.ClientSession, run, want string) {
	t.Helper()
	var all []byte
	args := map[string]any{"run": run, "stream": "stdout"}
	for i := 0; ; i++ {
		var s ShowOutput
		text, isErr := call(t, cs, "show", args, &s)
		if isErr || i > 1000 || int64(len(all)) != s.Start {
			t.Fatalf("show %v after %d bytes: %s", args, len(all), text)
		}
		all = append(all, s.Text...)
		if s.End == s.StreamBytes {
			break
		}
		next := fmt.Sprintf(`range "%d:`, s.End)
		if len(s.LeftOut) != 1 || !strings.Contains(s.LeftOut[0], next) || !strings.Contains(text, s.LeftOut[0]) {
			t.Fatalf("cut at %d of %d without a marker for %s: %q", s.End, s.StreamBytes, next, s.LeftOut)
		}
		args["range"] = fmt.Sprintf("%d:%d", s.End, s.StreamBytes)
	}
	if got := sha256Hex(all); got != want {
		t.Fatalf("read back %d bytes with sha256 %s, the record says %s", len(all), got, want)
	}
}

func TestExpand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	cs := session(t, Options{AllowRun: true, StoreDir: dir})
	var out RunOutput
	call(t, cs, "run", map[string]any{"command": failingScript, "name": "unit"}, &out)
	call(t, cs, "run", map[string]any{"command": failingScript, "name": "unit"}, &out)
	if len(out.Superseded) != 1 || out.Superseded[0].Marker == "" {
		t.Fatalf("superseded %+v", out.Superseded)
	}
	var ex ExpandOutput
	text, isErr := call(t, cs, "expand", map[string]any{"marker": out.Superseded[0].Marker}, &ex)
	if isErr || ex.Kind != "run_output" || !strings.Contains(ex.Text, "--- FAIL: TestParse") || !strings.HasPrefix(ex.SHA256, ex.Hash) {
		t.Fatalf("expand run output: %+v\n%s", ex, text)
	}
	compacted := []byte("earlier failing output\n")
	hash := compaction.Hash(compacted)
	if err := (&compaction.DirStore{Dir: filepath.Join(dir, CompactedDir)}).Put(hash, compacted); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "expand", map[string]any{"marker": compaction.Marker(hash)}, &ex)
	if ex.Kind != "compacted" || ex.Text != string(compacted) {
		t.Fatalf("expand compacted: %+v", ex)
	}
}

func ExampleNewServer() {
	dir, _ := os.MkdirTemp("", "runledger-example")
	defer os.RemoveAll(dir)
	srv, _ := NewServer(Options{StoreDir: dir, WorkDir: dir})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, _ := srv.Connect(ctx, st, nil)
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(ctx, ct, nil)
	res, _ := cs.ListTools(ctx, nil)
	for _, tool := range res.Tools {
		fmt.Println(tool.Name)
	}
	cs.Close()
	ss.Wait()
	// Output:
	// expand
	// grep
	// report
	// show
}

// TestRunAndReportCarryEffects: what a command changed in the work
// directory reaches both tools, structured and as text.
func TestRunAndReportCarryEffects(t *testing.T) {
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "golden.txt"), []byte("v0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := session(t, Options{AllowRun: true, WorkDir: work})
	var out RunOutput
	text, _ := call(t, cs, "run", map[string]any{"command": "echo v1 > golden.txt; echo n > made.txt; exit 1"}, &out)
	e := out.Run.Effects
	if e == nil || e.Total != 2 || e.Modified[0] != "golden.txt" || e.Created[0] != "made.txt" {
		t.Fatalf("run effects %+v", e)
	}
	want := "effects: changed 2 files (" + e.Method + "): modified golden.txt; created made.txt"
	if !strings.Contains(text, want) {
		t.Errorf("run text lacks %q:\n%s", want, text)
	}
	var rep ReportOutput
	text, _ = call(t, cs, "report", map[string]any{}, &rep)
	if len(rep.Runs) != 1 || rep.Runs[0].Effects == nil || rep.Runs[0].Effects.Line != e.Line || !strings.Contains(text, want) {
		t.Errorf("report: runs %+v\n%s", rep.Runs, text)
	}
}
