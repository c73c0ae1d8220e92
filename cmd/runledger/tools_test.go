package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/compaction"
	"github.com/runledger/runledger/internal/artifacttest"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/render"
	"github.com/runledger/runledger/store"
)

// runApp runs runledger in-process with injected I/O.
func runApp(t *testing.T, dir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	a := &app{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb,
		getenv: func(k string) string {
			if k == "RUNLEDGER_DIR" {
				return dir
			}
			return ""
		}}
	code := a.main(args)
	return code, out.String(), errb.String()
}

// TestAgentLoop walks what an agent does: run with a JSON report, read the
// cited excerpt back with show, grep for more, expand a superseded attempt.
func TestAgentLoop(t *testing.T) {
	dir := t.TempDir()
	script := `echo "setup"; printf -- '--- FAIL: TestX (0.00s)\n    x_test.go:3: bad\nFAIL\tpkg\t0.01s\n'; exit 1`
	runApp(t, dir, "", "run", "--quiet", "--name", "unit", "--", "sh", "-c", script)
	code, out, stderr := runApp(t, dir, "", "run", "--report", "--format", "json", "--quiet", "--name", "unit", "--", "sh", "-c", script)
	if code != 1 {
		t.Fatalf("run --report exit %d, want the command's 1; stderr %s", code, stderr)
	}
	var env report.Envelope
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatalf("stdout is not the JSON envelope: %v\n%s", err, out)
	}
	if env.Status != "failed" || len(env.Runs) != 1 || env.Runs[0].Attempt != 2 || len(env.Superseded) != 1 {
		t.Fatalf("envelope status %s runs %d superseded %d", env.Status, len(env.Runs), len(env.Superseded))
	}
	run := env.Runs[0]
	ex := run.Excerpts[0]
	code, shown, stderr := runApp(t, dir, "", "show", run.ID, "--stream", ex.Stream,
		"--range", jsonRange(ex.Start, ex.End))
	if code != 0 || !strings.Contains(shown, "--- FAIL: TestX") {
		t.Fatalf("show exit %d: %q %s", code, shown, stderr)
	}
	code, grepped, _ := runApp(t, dir, "", "grep", "unit", `^\s+x_test`, "--stream", "stdout")
	if code != 0 || !strings.HasPrefix(grepped, "3:") {
		t.Fatalf("grep exit %d: %q", code, grepped)
	}
	if code, _, _ := runApp(t, dir, "", "grep", "unit", "no such text"); code != 1 {
		t.Fatalf("grep with no match: exit %d, want 1", code)
	}
	marker := env.Superseded[0].Marker
	code, expanded, stderr := runApp(t, dir, "", "expand", marker)
	if code != 0 || !strings.HasPrefix(expanded, "setup\n--- FAIL") {
		t.Fatalf("expand %s: exit %d %q %s", marker, code, expanded, stderr)
	}
}

func jsonRange(a, b int64) string {
	return strings.TrimSpace(strings.Join([]string{itoa64(a), itoa64(b)}, ":"))
}

func itoa64(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestToolErrors(t *testing.T) {
	dir := t.TempDir()
	runApp(t, dir, "", "run", "--quiet", "--name", "x", "--", "sh", "-c", "echo hello")
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"show", "nope"}, 1, `run "nope": no run`},
		{[]string{"show", "x", "--stream", "stdin"}, 1, `stream "stdin"`},
		{[]string{"show", "x", "--range", "5:2"}, 2, "want A:B with 0 <= A <= B"},
		{[]string{"show", "x", "--range", "0:999"}, 1, "past the stream's 6 bytes"},
		{[]string{"grep", "x", "("}, 2, "REGEX"},
		{[]string{"grep", "x", "a", "--repo", "o/r"}, 2, "--repo and --artifact together"},
		{[]string{"grep", "x", "a", "--artifact", "3"}, 2, "--repo and --artifact together"},
		{[]string{"grep", "x", "a", "--repo", "o/r", "--artifact", "3", "--artifact-file", "a.zip"}, 2, "excludes --artifact"},
		{[]string{"show", "x", "--artifact-file", "a.zip"}, 2, "needs --range or --lines"},
		{[]string{"grep", "x", "a", "--artifact-file", "missing.zip"}, 1, "missing.zip"},
		{[]string{"expand", "zz"}, 2, "zz"},
		{[]string{"expand", "0123456789abcdef"}, 1, "no run's output"},
		{[]string{"report", "--format", "yaml"}, 2, `--format "yaml"`},
		{[]string{"report", "--max-bytes", "70000"}, 2, "--max-bytes 70000"},
		{[]string{"compact", "--marker-mode", "loud"}, 2, `--marker-mode "loud"`},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, stderr := runApp(t, dir, "", tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.msg) {
				t.Fatalf("exit %d stderr %q, want %d and %q", code, stderr, tc.code, tc.msg)
			}
		})
	}
}

// output is one tool output as compact reads it.
type output struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// readTranscript reads a recorded transcript of compaction/testdata: its
// outputs as compact takes them, and which of them were command runs.
func readTranscript(t *testing.T, name string) ([]output, []bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../compaction/testdata/transcripts", name))
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		Outputs []struct {
			output
			Run bool `json:"run"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal(data, &tr); err != nil || len(tr.Outputs) == 0 {
		t.Fatalf("transcript %s: %v", name, err)
	}
	outs, runs := make([]output, len(tr.Outputs)), make([]bool, len(tr.Outputs))
	for i, o := range tr.Outputs {
		outs[i], runs[i] = o.output, o.Run
	}
	return outs, runs
}

func TestCompactFilter(t *testing.T) {
	outputs, _ := readTranscript(t, "go-add-fix.json")
	in, _ := json.Marshal(outputs)
	dir := t.TempDir()
	code, out, stderr := runApp(t, dir, string(in), "compact")
	if code != 0 || !strings.Contains(out, "<<cg:") {
		t.Fatalf("compact exit %d, stderr %s, out %.300s", code, stderr, out)
	}
	i := strings.Index(out, "<<cg:")
	code, text, stderr := runApp(t, dir, "", "expand", out[i:i+23])
	found := false
	for _, o := range outputs {
		found = found || o.Text == text
	}
	if code != 0 || !found {
		t.Fatalf("expand of a compacted marker: exit %d %s %q", code, stderr, text)
	}
}

// TestRunReportMarkdownBinary: the README's main command shape, through the
// real binary, on a passing command.
func TestRunReportMarkdownBinary(t *testing.T) {
	cmd := exec.Command(binary, "run", "--report", "--quiet", "--dir", t.TempDir(), "--", "sh", "-c", "echo fine")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.Contains(string(out), "**runledger: passed**") || !strings.Contains(string(out), render.MarkerEnvelopeBegin) {
		t.Fatalf("markdown report:\n%s", out)
	}
}

// TestShowFromArtifactZip: a cited range read back from a downloaded
// artifact, and the --sha256 check that prints nothing on a mismatch.
func TestShowFromArtifactZip(t *testing.T) {
	dir := t.TempDir()
	runApp(t, dir, "", "run", "--quiet", "--name", "z", "--", "sh", "-c", "echo first; echo second")
	st, _ := store.Open(dir)
	rec, runDir, _ := st.Find("z")
	zipPath := artifacttest.ZipRun(t, runDir, rec.ID, artifacttest.Options{NoManifest: true})
	sum := sha256.Sum256([]byte("second\n"))
	code, out, stderr := runApp(t, dir, "", "show", rec.ID[:12], "--stream", "stdout", "--artifact-file", zipPath,
		"--range", "6:13", "--sha256", hex.EncodeToString(sum[:]))
	if code != 0 || out != "second\n" {
		t.Fatalf("exit %d out %q stderr %s", code, out, stderr)
	}
	code, out, stderr = runApp(t, dir, "", "show", rec.ID, "--stream", "stdout", "--artifact-file", zipPath,
		"--range", "0:6", "--sha256", hex.EncodeToString(sum[:]))
	if code != 1 || out != "" || !strings.Contains(stderr, "nothing printed") {
		t.Fatalf("a hash mismatch: exit %d out %q stderr %s", code, out, stderr)
	}
	// grep and show by lines read the artifact's log, not the store's.
	other := t.TempDir()
	code, out, stderr = runApp(t, other, "", "grep", rec.ID, "^sec", "--stream", "stdout", "--artifact-file", zipPath)
	if code != 0 || out != "2:6-13: second\n--\n" {
		t.Fatalf("grep in the artifact: exit %d out %q stderr %s", code, out, stderr)
	}
	// This zip has no manifest: nothing ties its log to the record.
	if !strings.Contains(stderr, "stdout.log: NOT checked against the record") {
		t.Errorf("grep in an artifact without a manifest does not say so: %q", stderr)
	}
	code, out, stderr = runApp(t, other, "", "show", rec.ID, "--lines", "2:2", "--artifact-file", zipPath)
	if code != 0 || out != "second\n" {
		t.Fatalf("show --lines from the artifact: exit %d out %q stderr %s", code, out, stderr)
	}
	// A marker resolves from the artifact when the local store is gone.
	marker := "<<cg:" + rec.Streams["output"].SHA256[:16] + ">>"
	code, out, stderr = runApp(t, t.TempDir(), "", "expand", marker, "--artifact-file", zipPath)
	if code != 0 || out != "first\nsecond\n" {
		t.Fatalf("expand from the artifact: exit %d out %q stderr %s", code, out, stderr)
	}
}

// TestCompactStoreRoundTrip: compact into a store that is not the default,
// through the real binary, then get every collapsed text back by every
// documented way — the hint the marker line gives, run as it reads;
// expand --store; the MCP expand tool of a server started with the same
// --store — byte for byte. The traps in the transcript (Go's own
// sub_test.go read with sed, grep hits, a JSON body, Markdown notes) keep
// their text, and compacting the result again changes nothing.
func TestCompactStoreRoundTrip(t *testing.T) {
	in, runs := readTranscript(t, "go-stdlib-source-traps.json")
	byText := map[string]bool{}
	for _, o := range in {
		byText[o.Text] = true
	}
	input, _ := json.Marshal(in)
	work, cg := t.TempDir(), filepath.Join(t.TempDir(), "agent cg")
	decisions := filepath.Join(work, "decisions.json")
	compact := func(stdin []byte) ([]byte, string) {
		cmd := exec.Command(binary, "compact", "--store", cg, "--decisions", decisions)
		cmd.Dir, cmd.Env, cmd.Stdin = work, append(os.Environ(), "RUNLEDGER_DIR="), bytes.NewReader(stdin)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("compact: %v, stderr %q", err, stderr.String())
		}
		return out, stderr.String()
	}
	out, stderr := compact(input)
	if !strings.Contains(stderr, "compact: 1 of 7 outputs collapsed") {
		t.Errorf("compact's note on stderr: %q", stderr)
	}
	var got []output
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(in) {
		t.Fatalf("compact did not write the input's array shape: %v\n%s", err, out)
	}
	hints := 0
	for i, o := range got {
		if o.ID != in[i].ID {
			t.Errorf("output %d: id %q, want %q", i, o.ID, in[i].ID)
		}
		if !strings.Contains(o.Text, "<<cg:") {
			if o.Text != in[i].Text {
				t.Errorf("%s was changed but carries no marker", o.ID)
			}
			continue
		}
		if !runs[i] || i == len(in)-2 {
			t.Errorf("%s collapsed: only the earlier failing run may be", o.ID)
		}
		m := regexp.MustCompile(`; (runledger expand --store .+ ([0-9a-f]{16}))\)`).FindStringSubmatch(o.Text)
		if m == nil {
			t.Fatalf("the pointer line does not name the store: %q", o.Text)
		}
		hints++
		hint, hash := m[1], m[2]
		sh := exec.Command("sh", "-c", strings.Replace(hint, "runledger", binary, 1))
		sh.Dir, sh.Env = t.TempDir(), append(os.Environ(), "RUNLEDGER_DIR=")
		text, err := sh.Output()
		if err != nil || string(text) != in[i].Text {
			t.Errorf("the hint %q, run as it reads, did not restore %s: %v", hint, o.ID, err)
		}
		code, text2, stderr := runApp(t, t.TempDir(), "", "expand", "--store", cg, hash)
		if code != 0 || text2 != in[i].Text {
			t.Errorf("expand --store: exit %d %s", code, stderr)
		}
		if mcpText := mcpExpand(t, cg, hash); mcpText != in[i].Text {
			t.Errorf("MCP expand with --store restored %d bytes, want the %d of %s", len(mcpText), len(in[i].Text), o.ID)
		}
		code, _, stderr = runApp(t, t.TempDir(), "", "expand", hash)
		if code == 0 || !strings.Contains(stderr, "--store") {
			t.Errorf("expand in the default store found it, or its error does not point at --store: %s", stderr)
		}
	}
	if hints != 1 {
		t.Errorf("%d collapsed outputs, want 1", hints)
	}
	var ds []compaction.Decision
	if raw, err := os.ReadFile(decisions); err != nil || json.Unmarshal(raw, &ds) != nil || len(ds) != len(in) {
		t.Errorf("--decisions wrote no decision per output: %v", err)
	}
	if again, _ := compact(out); !bytes.Equal(again, out) {
		t.Errorf("compacting twice changed the output:\n%s", again)
	}
}

// mcpExpand calls the expand tool of `runledger mcp --store cg` with the
// Go SDK's client over stdio and returns the text it restored.
func mcpExpand(t *testing.T, cg, hash string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(binary, "mcp", "--dir", t.TempDir(), "--store", cg)
	client := mcp.NewClient(&mcp.Implementation{Name: "runledger-test", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "expand", Arguments: map[string]any{"marker": hash}})
	if err != nil || res.IsError {
		t.Fatalf("MCP expand: %v %+v", err, res)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Text    string   `json:"text"`
		LeftOut []string `json:"left_out"`
	}
	if err := json.Unmarshal(raw, &out); err != nil || len(out.LeftOut) > 0 {
		t.Fatalf("MCP expand result: %v, left out %v", err, out.LeftOut)
	}
	return out.Text
}

// TestShowTamperedArtifactBlock: the CLI refuses bytes of a block that
// does not match the manifest's hash, with and without --sha256, in show
// and in grep, and prints nothing of it.
func TestShowTamperedArtifactBlock(t *testing.T) {
	dir := t.TempDir()
	runApp(t, dir, "", "run", "--quiet", "--name", "z", "--", "seq", "1", "200000")
	st, _ := store.Open(dir)
	rec, runDir, _ := st.Find("z")
	at := int64(artifact.HashBlockSize + 1000)
	zipPath := artifacttest.ZipRun(t, runDir, rec.ID, artifacttest.Options{TamperAt: at})
	log, err := os.ReadFile(filepath.Join(runDir, "stdout.log"))
	if err != nil {
		t.Fatal(err)
	}
	rng := fmt.Sprintf("%d:%d", at-10, at+10)
	sum := sha256.Sum256(log[at-10 : at+10])
	for _, extra := range [][]string{nil, {"--sha256", hex.EncodeToString(sum[:])}} {
		args := append([]string{"show", rec.ID, "--stream", "stdout", "--artifact-file", zipPath, "--range", rng}, extra...)
		code, out, stderr := runApp(t, t.TempDir(), "", args...)
		if code == 0 || out != "" || !strings.Contains(stderr, "block 1 ") {
			t.Errorf("show %v of a tampered block: exit %d out %q stderr %s", extra, code, out, stderr)
		}
	}
	code, out, stderr := runApp(t, t.TempDir(), "", "grep", rec.ID, "^199999$", "--stream", "stdout", "--artifact-file", zipPath)
	if code == 0 || strings.Contains(out, "199999") || !strings.Contains(stderr, "does not match the manifest") {
		t.Errorf("grep over a tampered block: exit %d out %q stderr %s", code, out, stderr)
	}
	code, out, stderr = runApp(t, t.TempDir(), "", "show", rec.ID, "--stream", "stdout", "--artifact-file", zipPath, "--range", "0:4")
	if code != 0 || out != "1\n2\n" || !strings.Contains(stderr, "every byte read is checked") {
		t.Errorf("an untouched block: exit %d out %q stderr %s", code, out, stderr)
	}
	_, pin, _ := artifact.HashBlocks(bytes.NewReader(log))
	for _, c := range []struct {
		pin  string
		code int
		say  string
	}{{pin, 0, "matches the blocks_sha256 given"}, {strings.Repeat("cd", 32), 1, "not to the blocks_sha256 given"}} {
		code, _, stderr = runApp(t, t.TempDir(), "", "show", rec.ID, "--stream", "stdout", "--artifact-file", zipPath,
			"--range", "0:4", "--blocks-sha256", c.pin)
		if code != c.code || !strings.Contains(stderr, c.say) {
			t.Errorf("--blocks-sha256 %.8s…: exit %d stderr %s", c.pin, code, stderr)
		}
	}
}

// TestShowJUnitExcerpt: an excerpt quoted from a run's JUnit file reads
// back with show --stream junit/NNN-name.xml, checked against the record's
// hash of the file and the excerpt's own.
func TestShowJUnitExcerpt(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(t.TempDir()) // the command writes junit.xml where it runs
	xml := `<testsuite><testcase classname="c" name="testDivide"><failure message="expected 2 but was 3">at Calc.java:14</failure></testcase></testsuite>`
	runApp(t, dir, "", "run", "--quiet", "--name", "g", "--junit", "junit.xml", "--", "sh", "-c",
		`echo "testDivide() FAILED"; printf '%s' "$1" > junit.xml; exit 1`, "sh", xml)
	code, out, stderr := runApp(t, dir, "", "report", "--format", "json")
	var env report.Envelope
	if err := json.Unmarshal([]byte(out), &env); err != nil || len(env.Runs) != 1 {
		t.Fatalf("report: exit %d %v %s", code, err, stderr)
	}
	var x *report.Excerpt
	for i := range env.Runs[0].Excerpts {
		if strings.HasPrefix(env.Runs[0].Excerpts[i].Stream, "junit/") {
			x = &env.Runs[0].Excerpts[i]
		}
	}
	if x == nil {
		t.Fatalf("no JUnit excerpt: %+v", env.Runs[0].Excerpts)
	}
	code, out, stderr = runApp(t, dir, "", "show", "g", "--stream", x.Stream, "--range", fmt.Sprintf("%d:%d", x.Start, x.End), "--sha256", x.SHA256)
	if code != 0 || !strings.Contains(out, "at Calc.java:14") || !strings.HasPrefix(out, "<failure") {
		t.Fatalf("show --stream %s: exit %d out %q stderr %s", x.Stream, code, out, stderr)
	}
	if code, _, stderr = runApp(t, dir, "", "show", "g", "--stream", "junit/../record.json", "--range", "0:1"); code == 0 || !strings.Contains(stderr, "has none") {
		t.Errorf("a junit/ path the record does not list: exit %d %s", code, stderr)
	}
}

// TestReportFormatByTerminal: the real binary on a real terminal (a pty
// from util-linux's script) prints the text format, coloured unless
// NO_COLOR is set; into a pipe it prints the Markdown for scripts, and
// --format text asks for the text anywhere, never coloured off a terminal.
func TestReportFormatByTerminal(t *testing.T) {
	dir := t.TempDir()
	runApp(t, dir, "", "run", "--quiet", "--name", "lint", "--", "sh", "-c", "echo 'lint: 3 problems' >&2; exit 1")
	pipe, err := exec.Command(binary, "report", "--dir", dir).Output()
	if err != nil || !strings.HasPrefix(string(pipe), render.MarkerComment) {
		t.Fatalf("report into a pipe: %v\n%s", err, pipe)
	}
	text, err := exec.Command(binary, "report", "--dir", dir, "--format", "text").Output()
	if err != nil || !strings.HasPrefix(string(text), "✗ runledger: failed") || strings.Contains(string(text), "\x1b[") {
		t.Fatalf("--format text into a pipe: %v\n%q", err, text)
	}
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("no script(1) to give the binary a terminal")
	}
	for _, noColor := range []string{"", "1"} {
		cmd := exec.Command("script", "-qec", binary+" report --dir "+dir, "/dev/null")
		cmd.Env = append(os.Environ(), "NO_COLOR="+noColor, "TERM=dumb")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("script: %v\n%s", err, out)
		}
		s := string(out)
		if strings.Contains(s, "<!--") || !strings.Contains(s, "runledger: failed") || !strings.Contains(s, "lint: 3 problems") {
			t.Errorf("NO_COLOR=%q: a terminal got no text report:\n%q", noColor, s)
		}
		if colored := strings.Contains(s, "\x1b[31m"); colored != (noColor == "") {
			t.Errorf("NO_COLOR=%q: coloured %v", noColor, colored)
		}
	}
}
