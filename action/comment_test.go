package action

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/runledger/runledger/internal/golden"
	"github.com/runledger/runledger/publish"
	"github.com/runledger/runledger/report/render"
)

// commentDir is where the rendered comments' golden files are; the
// browser test in internal/peers renders them as GitHub does.
var commentDir = filepath.Join("testdata", "comment")

// goSuite is a real go test suite: 2,005 tests, 6 of them failing (two
// parents through their subtests), as go test -v counts them.
const goSuite = `package demo

import (
	"fmt"
	"testing"
)

func TestMany(t *testing.T) {
	for i := 0; i < 1995; i++ {
		t.Run(fmt.Sprintf("case%d", i), func(t *testing.T) {})
	}
}

func TestTotal(t *testing.T) {
	for _, c := range []struct {
		name       string
		a, b, want int
	}{{"small", 1, 2, 3}, {"carry", 9, 1, 11}, {"negative", -1, -1, -3}} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.a + c.b; got != c.want {
				t.Errorf("Total(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	t.Fatalf("parse %q: unexpected token '|' at offset 1", "x|y")
}

func TestConfig(t *testing.T) {
	t.Run("defaults", func(t *testing.T) {})
	t.Run("missing_key", func(t *testing.T) {
		t.Error("config: key \"timeout\" is required")
	})
}

func TestPass(t *testing.T) {}
`

// step is one use of the action in a comment case.
type commentStep struct {
	env     map[string]string // over runnerEnv's
	inputs  map[string]string
	environ []string // the command's, beyond PATH
	cancel  bool
}

// TestCommentGolden runs the action with real commands, as a workflow's
// steps would, and writes the sticky comment GitHub would hold after
// them: one step, two steps of a job, a rerun, many failures (a real go
// test suite), a timeout, a cancelled step and a matrix. The comment must
// open with one verdict for all its sections, name steps as a reader
// would, keep internals (store paths, step ids, the latest run's marker)
// off the page, and fit GitHub's limit.
func TestCommentGolden(t *testing.T) {
	goDir := goModule(t)
	lint := map[string]string{"command": "echo 'lint: 3 problems' >&2; echo 'main.go:12:2: unused variable x' >&2; exit 1"}
	unit := map[string]string{"command": "echo ok; exit 0"}
	cases := []struct {
		name  string
		steps []commentStep
		want  string // the verdict line
	}{
		{"one_step", []commentStep{{inputs: lint}}, "## ❌ runledger: 1 of 1 step failed"},
		{"many_steps", []commentStep{{inputs: lint}, {env: map[string]string{"GITHUB_ACTION": "__run_2"}, inputs: unit}},
			"## ❌ runledger: 1 of 2 steps failed"},
		{"rerun", []commentStep{{inputs: map[string]string{"name": "lint", "command": lint["command"]}},
			{inputs: map[string]string{"name": "lint", "command": "echo 'lint: clean'"}}},
			"## ✅ runledger: 1 step passed"},
		{"many_failures", []commentStep{{environ: goEnviron(goDir), inputs: map[string]string{"command": `go -C "$DEMO" test -v .`}}},
			"## ❌ runledger: 1 of 1 step failed · 2,005 tests, 6 failed"},
		{"timeout", []commentStep{{inputs: map[string]string{"command": "echo 'waiting for server on :8080'; sleep 30", "timeout": "1s", "name": "e2e"}}},
			"## ⏱️ runledger: 1 of 1 step timed out"},
		{"cancelled", []commentStep{{inputs: map[string]string{"command": "echo 'started'; sleep 30"}, cancel: true}},
			"## 🚫 runledger: 1 of 1 step cancelled"},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			body := ""
			for _, st := range tt.steps {
				sec := runStep(t, st)
				var err error
				if body, err = publish.Body(body, []publish.Section{sec}); err != nil {
					t.Fatal(err)
				}
			}
			checkComment(t, body, tt.want)
			golden.Check(t, filepath.Join(commentDir, tt.name+".md"), []byte(normalize(body)))
		})
	}
	t.Run("matrix", func(t *testing.T) {
		legs := t.TempDir()
		for leg, command := range map[string]string{"unit-linux": "echo ok", "unit-macos": "echo ok",
			"unit-windows": "echo 'FAIL: path separator' >&2; exit 1"} {
			env, dir := runnerEnv(t, map[string]string{"command": command})
			runAction(t, env, fakeUploader{c: &calls{}}, &fakePublisher{c: &calls{}}, nil)
			data, err := os.ReadFile(filepath.Join(dir, "store", "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(legs, leg), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(legs, leg, "report.json"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		env, _ := runnerEnv(t, map[string]string{"mode": "aggregate"})
		env["INPUT_DIR"] = legs
		pub := &fakePublisher{c: &calls{}}
		runAction(t, env, fakeUploader{c: &calls{}}, pub, nil)
		body, err := publish.Body("", pub.sections)
		if err != nil {
			t.Fatal(err)
		}
		checkComment(t, body, "## ❌ runledger: 1 of 3 steps failed")
		golden.Check(t, filepath.Join(commentDir, "matrix.md"), []byte(normalize(body)))
	})
}

// runStep runs the action once and returns the section it last wrote.
func runStep(t *testing.T, st commentStep) publish.Section {
	t.Helper()
	env, _ := runnerEnv(t, st.inputs)
	for k, v := range st.env {
		env[k] = v
	}
	var cancel chan os.Signal
	if st.cancel {
		// The runner cancels once the command has said something, so
		// that the report has the same last lines every time.
		cancel = make(chan os.Signal, 1)
		go func() {
			for range 500 {
				if logs, _ := filepath.Glob(filepath.Join(env["INPUT_DIR"], "*", "stdout.log")); len(logs) == 1 {
					if fi, err := os.Stat(logs[0]); err == nil && fi.Size() > 0 {
						break
					}
				}
				time.Sleep(10 * time.Millisecond)
			}
			cancel <- syscall.SIGINT
		}()
	}
	pub := &fakePublisher{c: &calls{}}
	up := fakeUploader{c: &calls{}}
	_, err := Run(context.Background(), Env{
		Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: func(k string) string { return env[k] },
		Environ: func() []string { return append([]string{"PATH=" + os.Getenv("PATH")}, st.environ...) }, Version: "test", Cancel: cancel,
		NewUploader:  func(func(string) string, io.Writer, int) (Uploader, error) { return up, nil },
		NewPublisher: func(publish.Config) (Publisher, error) { return pub, nil },
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(pub.sections) == 0 {
		t.Fatal("the action wrote no section")
	}
	return pub.sections[len(pub.sections)-1]
}

// checkComment asserts what a reader of the PR page must get.
func checkComment(t *testing.T, body, verdict string) {
	t.Helper()
	if n := len([]rune(body)); n > publish.MaxCommentChars {
		t.Errorf("%d characters, over GitHub's %d", n, publish.MaxCommentChars)
	}
	lines := strings.SplitN(body, "\n", 3)
	if len(lines) < 2 || lines[0] != render.MarkerComment || !strings.HasPrefix(lines[1], verdict) {
		t.Errorf("the comment opens with %q, want %q", lines[min(1, len(lines)-1)], verdict)
	}
	visible := visibleText(body)
	for _, internal := range []string{"__run", ".runledger/", "stdout.log", "output 0 B"} {
		if strings.Contains(visible, internal) {
			t.Errorf("the page shows %q:\n%s", internal, visible)
		}
	}
	// The latest result's marker stays in the raw body, hidden, for agents.
	for _, l := range strings.Split(visible, "\n") {
		if strings.Contains(l, "<<cg:") && !strings.HasPrefix(l, "- ") {
			t.Errorf("a marker outside the history: %s", l)
		}
	}
	if _, err := render.ExtractEnvelope(body); err != nil {
		t.Errorf("no envelope for agents: %v", err)
	}
}

var (
	htmlComment = regexp.MustCompile(`(?m)^<!--.*-->\n`)
	envelope    = regexp.MustCompile(`(?s)<details><summary>envelope</summary>.*?</details>`)
)

// visibleText is the body less what GitHub hides: HTML comments and the
// folded envelope.
func visibleText(body string) string {
	return envelope.ReplaceAllString(htmlComment.ReplaceAllString(body, ""), "")
}

// normalize replaces what differs between runs (ids, hashes, timings,
// temporary paths) so that the golden files compare.
func normalize(body string) string {
	for _, r := range []struct{ re, with string }{
		{`\d{8}T\d{9}Z-[0-9a-f]{8}`, "RUN-ID"},
		{` h=[0-9a-f]{12} `, " h=HASH "},
		{`[0-9a-f]{64}`, "SHA256"},
		{`<<cg:[0-9a-f]{16}>>`, "<<cg:HASH>>"},
		{`"duration_ms":\d+`, `"duration_ms":1`},
		{`\b\d+(\.\d+)?m?s\b`, "1.0s"},
		{`\b\d+m\d\ds\b`, "1.0s"},
		{`"path":"[^"]*/store/`, `"path":"STORE/`},
		{`"bytes":\d+`, `"bytes":1`},
		{`"stored_ranges":\[[^"]*\]\]`, `"stored_ranges":[[0,1]]`},
		{`\d+(\.\d)? (B|KiB)\b`, "1 B"},
		{`/tmp/[^"\s]*`, "TMP"},
	} {
		body = regexp.MustCompile(r.re).ReplaceAllString(body, r.with)
	}
	return body
}

// goEnviron is what go needs to build and test the module in dir, offline.
func goEnviron(dir string) []string {
	env := []string{"DEMO=" + dir, "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off"}
	for _, k := range []string{"HOME", "GOCACHE", "GOPATH", "GOMODCACHE", "GOROOT"} {
		if v := os.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	if os.Getenv("GOCACHE") == "" {
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			env = append(env, "GOCACHE="+strings.TrimSpace(string(out)))
		}
	}
	return env
}

// goModule writes the go test suite into a module of its own; the test
// skips without a go command to run it.
func goModule(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("no go command for the go test case: %v", err)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module demo\n\ngo 1.22\n", "demo_test.go": goSuite} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSummaryOpensWithVerdict: the job summary is read on its own, so it
// opens with the verdict line the comment's sections leave out.
func TestSummaryOpensWithVerdict(t *testing.T) {
	env, dir := runnerEnv(t, map[string]string{"command": "echo 'lint: 3 problems' >&2; exit 1"})
	pub := &fakePublisher{c: &calls{}}
	runAction(t, env, fakeUploader{c: &calls{}}, pub, nil)
	summary, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "❌ **runledger: failed** · test · echo 'lint: 3 problems' &gt;&amp;2; exit 1 · exit 1"; !strings.HasPrefix(string(summary), render.MarkerComment+"\n"+want) {
		t.Errorf("summary opens with %q, want %q", strings.SplitN(string(summary), "\n", 3)[:2], want)
	}
	if len(pub.sections) != 1 || strings.Contains(pub.sections[0].Full, "**runledger:") {
		t.Errorf("the comment section repeats the verdict its status line gives")
	}
}
