//go:build unix

// These tests run sh scripts through the binary and kill(2) what they
// leave: POSIX only.

// Package acceptance proves runledger's promise end to end: real commands
// through the real binary (`runledger run` → `report` → the comment body),
// with the invariant checked on every case: no "passed" unless every
// latest run passed, every cited range holds the bytes its hash names, and
// the body stays within its budget and GitHub's comment limit.
package acceptance

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/render"
	"github.com/runledger/runledger/store"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "runledger-acceptance")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "runledger")
	if out, err := exec.Command("go", "build", "-o", binary, "../cmd/runledger").CombinedOutput(); err != nil {
		panic(fmt.Sprintf("build: %v\n%s", err, out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// rl runs the binary and returns its exit status and stdout.
func rl(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RUNLEDGER_DIR="+filepath.Join(dir, ".runledger"))
	out, err := cmd.Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("runledger %v: %v", args, err)
	}
	return cmd.ProcessState.ExitCode(), string(out)
}

// check renders the store both ways and asserts the promise. It returns
// the envelope for case-specific assertions.
func check(t *testing.T, dir string) *report.Envelope {
	t.Helper()
	_, js := rl(t, dir, "report", "--format", "json")
	var env report.Envelope
	if err := json.Unmarshal([]byte(js), &env); err != nil {
		t.Fatalf("report json: %v\n%.500s", err, js)
	}
	st, err := store.Open(filepath.Join(dir, ".runledger"))
	if err != nil {
		t.Fatal(err)
	}
	recs, problems, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	allPassed := len(problems) == 0 && len(env.Runs) > 0
	latest := map[string]*record.Record{}
	for _, r := range recs {
		if l, ok := latest[r.Name]; !ok || r.Attempt > l.Attempt {
			latest[r.Name] = r
		}
	}
	for _, r := range latest {
		allPassed = allPassed && r.Passed() && store.Effective(r) == record.StatusPassed
	}
	if env.Status == "passed" && !allPassed {
		t.Errorf("PROMISE BROKEN: envelope says passed but not every latest run passed")
	}
	for _, run := range env.Runs {
		checkCitations(t, run)
	}
	_, md := rl(t, dir, "report")
	checkBody(t, md, env.Status, 16384)
	_, big := rl(t, dir, "report", "--max-bytes", "60000")
	checkBody(t, big, env.Status, 60000)
	return &env
}

func checkCitations(t *testing.T, run report.Run) {
	t.Helper()
	for _, ex := range run.Excerpts {
		log := run.Logs[ex.Stream]
		if strings.HasPrefix(ex.Stream, "junit/") { // the run's copy of a JUnit file, beside its logs
			log = report.Log{Path: filepath.Join(filepath.Dir(run.Logs["stdout"].Path), filepath.FromSlash(ex.Stream)),
				Stored: [][2]int64{{0, 1 << 40}}}
		}
		data, err := os.ReadFile(log.Path)
		if err != nil {
			t.Fatal(err)
		}
		off, ok := storedOffset(log.Stored, ex.Start, ex.End)
		if !ok {
			t.Errorf("excerpt %s %d:%d is not inside one stored range %v", ex.Stream, ex.Start, ex.End, log.Stored)
			continue
		}
		sum := sha256.Sum256(data[off : off+ex.End-ex.Start])
		if hex.EncodeToString(sum[:]) != ex.SHA256 {
			t.Errorf("excerpt %s %d:%d: the cited bytes do not hash to its sha256", ex.Stream, ex.Start, ex.End)
		}
	}
}

func storedOffset(ranges [][2]int64, start, end int64) (int64, bool) {
	var base int64
	for _, rg := range ranges {
		if start >= rg[0] && end <= rg[1] {
			return base + start - rg[0], true
		}
		base += rg[1] - rg[0]
	}
	return 0, false
}

// checkBody: within budget, the status line is the envelope's, the hidden
// markers appear once each, and the embedded envelope parses.
func checkBody(t *testing.T, body, status string, budget int) {
	t.Helper()
	if len(body) > budget || len([]rune(body)) > 65536 {
		t.Errorf("body %d bytes, budget %d", len(body), budget)
	}
	if !strings.Contains(body, "**runledger: "+status+"**") {
		t.Errorf("body lacks the status line for %q", status)
	}
	if status != "passed" && strings.Contains(body, "**runledger: passed**") {
		t.Errorf("PROMISE BROKEN: body shows passed for a %s envelope", status)
	}
	for _, m := range []string{render.MarkerComment, render.MarkerEnvelopeBegin, render.MarkerEnvelopeEnd} {
		if n := strings.Count(body, m); n != 1 {
			t.Errorf("marker %q appears %d times", m, n)
		}
	}
	if _, err := render.ExtractEnvelope(body); err != nil {
		t.Errorf("embedded envelope: %v", err)
	}
}

type runCase struct {
	name   string
	setup  string   // shell run in the work directory before the run
	args   []string // runledger run flags before "--"
	script string
	status string // overall status expected
	exit   int
	then   func(t *testing.T, env *report.Envelope)
}

func runCases(t *testing.T, cases []runCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if tc.setup != "" {
				if out, err := exec.Command("sh", "-c", "cd "+dir+" && "+tc.setup).CombinedOutput(); err != nil {
					t.Fatalf("setup: %v %s", err, out)
				}
			}
			args := append(append([]string{"run", "--quiet"}, tc.args...), "--", "sh", "-c", tc.script)
			code, _ := rl(t, dir, args...)
			if tc.name == "disk full" {
				code, tc.status, tc.exit = diskFull(t, dir, args), "unverified", 125
			}
			if code != tc.exit {
				t.Errorf("exit %d, want %d", code, tc.exit)
			}
			env := check(t, dir)
			if env.Status != tc.status {
				t.Errorf("status %s, want %s", env.Status, tc.status)
			}
			if tc.then != nil {
				tc.then(t, env)
			}
		})
	}
}

func hasExcerpt(substr string) func(*testing.T, *report.Envelope) {
	return func(t *testing.T, env *report.Envelope) {
		t.Helper()
		for _, ex := range env.Runs[0].Excerpts {
			if strings.Contains(ex.Text, substr) {
				return
			}
		}
		t.Errorf("no excerpt holds %q", substr)
	}
}

// diskFull reruns args with file sizes limited to 64 KiB: the logs fail
// to write, so a command that exits 0 must not come out passed.
func diskFull(t *testing.T, dir string, args []string) int {
	t.Helper()
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit (util-linux) not installed")
	}
	os.RemoveAll(filepath.Join(dir, ".runledger"))
	cmd := exec.Command("prlimit", append([]string{"--fsize=65536", binary}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RUNLEDGER_DIR="+filepath.Join(dir, ".runledger"))
	cmd.Run()
	return cmd.ProcessState.ExitCode()
}

const noise = `i=0; while [ $i -lt %d ]; do echo "cleanup trace line $i: releasing resource pool entry"; i=$((i+1)); done`

func TestLongLogs(t *testing.T) {
	fail := func(n string) string {
		return fmt.Sprintf(`printf -- '--- FAIL: %s (0.00s)\n    x_test.go:1: boom %s\n';`, n, n)
	}
	bulk := fmt.Sprintf(noise, 60000) + ";"
	runCases(t, []runCase{
		{name: "failure at the beginning", script: fail("TestStart") + bulk + "exit 1", status: "failed", exit: 1, then: hasExcerpt("boom TestStart")},
		{name: "failure in the middle", script: bulk + fail("TestMiddle") + bulk + "exit 1", status: "failed", exit: 1, then: hasExcerpt("boom TestMiddle")},
		{name: "failure at the end", script: bulk + fail("TestEnd") + "exit 1", status: "failed", exit: 1, then: hasExcerpt("boom TestEnd")},
		{name: "failure then 20 MB of cleanup", script: fail("TestHidden") + fmt.Sprintf(noise, 330000) + "; exit 1", status: "failed", exit: 1, then: hasExcerpt("boom TestHidden")},
		{name: "passing summary then a crash", script: `printf 'ok  \tpkg\t0.1s\n'; kill -SEGV $$`, status: "failed", exit: 139},
		{name: "green line of an unknown framework, exit 1", script: `echo "✓ 12 specs green"; exit 1`, status: "failed", exit: 1,
			then: func(t *testing.T, env *report.Envelope) {
				if s := env.Runs[0].Summary; s.Source != "none" || s.Tests != nil {
					t.Errorf("summary %+v: an unknown framework gets no counts", s)
				}
			}},
	})
}

func TestStorageAndBytes(t *testing.T) {
	runCases(t, []runCase{
		{name: "stdout past the cap", args: []string{"--max-log-bytes", "65536"}, script: fmt.Sprintf(noise, 20000) + `; echo "--- FAIL: TestTail (0.00s)"; exit 1`,
			status: "failed", exit: 1, then: func(t *testing.T, env *report.Envelope) {
				if !env.Runs[0].Truncated || env.Runs[0].Summary.Verified {
					t.Errorf("truncated %v, verified %v: capped logs never verify counts", env.Runs[0].Truncated, env.Runs[0].Summary.Verified)
				}
				hasExcerpt("TestTail")(t, env)
			}},
		{name: "stderr past the cap", args: []string{"--max-log-bytes", "65536"}, script: fmt.Sprintf(noise, 20000) + ` >&2; exit 2`, status: "failed", exit: 2},
		{name: "NUL-filled log", script: `head -c 5000000 /dev/zero; exit 1`, status: "failed", exit: 1},
		{name: "invalid UTF-8", script: `i=0; while [ $i -lt 1000 ]; do printf '\377\376\375 bad bytes\n'; i=$((i+1)); done; exit 1`, status: "failed", exit: 1},
		{name: "50 MB single line", script: `head -c 52428800 /dev/zero | tr '\0' x; exit 1`, status: "failed", exit: 1},
		{name: "passes with no summary", script: `echo building; echo done`, status: "passed", exit: 0},
	})
}

func TestTermination(t *testing.T) {
	runCases(t, []runCase{
		{name: "SIGTERM ignored", args: []string{"--timeout", "300ms", "--kill-after", "300ms"}, script: `trap '' TERM; echo started; while :; do sleep 0.05; done`,
			status: "timed_out", exit: 124, then: func(t *testing.T, env *report.Envelope) {
				r := env.Runs[0]
				if r.ExitCode != nil || r.Termination != "confirmed" || r.Summary.Failed != nil {
					t.Errorf("exit %v termination %s summary %+v", r.ExitCode, r.Termination, r.Summary)
				}
			}},
		{name: "grandchildren outlive the parent", args: []string{"--pipe-wait", "300ms"}, script: `(sleep 1000 &) ; sleep 1000 & echo parent exits`,
			status: "passed", exit: 0, then: func(t *testing.T, env *report.Envelope) {
				if len(env.Runs[0].Warnings) == 0 {
					t.Error("the stopped leftovers are not mentioned")
				}
			}},
		{name: "disk full", args: []string{}, script: `head -c 300000 /dev/zero`, status: "", exit: 0},
	})
}

// TestTimeoutRace: a deadline that fires as the command ends by itself
// yields either a pass or a timeout, and the report agrees with the record.
func TestTimeoutRace(t *testing.T) {
	for i := range 8 {
		dir := t.TempDir()
		code, _ := rl(t, dir, "run", "--quiet", "--timeout", "50ms", "--", "sh", "-c", "sleep 0.05")
		env := check(t, dir)
		switch {
		case code == 0 && env.Status == "passed":
		case code == 124 && env.Status == "timed_out":
		default:
			t.Errorf("round %d: exit %d with status %s", i, code, env.Status)
		}
	}
}

func TestWrapperKilledMidRun(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary, "run", "--quiet", "--", "sh", "-c", "echo $$ > pid; exec sleep 100")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RUNLEDGER_DIR="+filepath.Join(dir, ".runledger"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := 0
	for i := 0; i < 500 && pid == 0; i++ {
		b, _ := os.ReadFile(filepath.Join(dir, "pid"))
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		if pid == 0 {
			exec.Command("sleep", "0.01").Run()
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if pid > 0 {
		// The orphaned sleep (the shell exec'd it), and nothing else.
		defer syscall.Kill(pid, syscall.SIGKILL)
	}
	env := check(t, dir)
	if env.Status != "incomplete" || env.Runs[0].Status != "incomplete" {
		t.Fatalf("status %s / %s, want incomplete", env.Status, env.Runs[0].Status)
	}
}

func TestConcurrentAttempts(t *testing.T) {
	for _, n := range []int{2, 10} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			dir := t.TempDir()
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rl(t, dir, "run", "--quiet", "--name", "shared", "--", "sh", "-c", fmt.Sprintf("echo attempt-%d; exit %d", i, i%2))
				}()
			}
			wg.Wait()
			env := check(t, dir)
			if len(env.Runs) != 1 || env.Runs[0].Attempt != n || len(env.Superseded) != n-1 {
				t.Fatalf("runs %d (attempt %d), superseded %d", len(env.Runs), env.Runs[0].Attempt, len(env.Superseded))
			}
		})
	}
}

func junitCase(name, before, script string, status string, verified bool) runCase {
	return runCase{name: name, args: []string{"--junit", "**/*.xml"}, setup: before, script: script, status: status,
		exit: exitOf(script), then: func(t *testing.T, env *report.Envelope) {
			s := env.Runs[0].Summary
			if s.Verified != verified {
				t.Errorf("summary %s verified=%v (%s), want %v", s.Source, s.Verified, s.Note, verified)
			}
		}}
}

func exitOf(script string) int {
	if strings.HasSuffix(script, "exit 1") {
		return 1
	}
	return 0
}

const passXML = `<testsuite name="s"><testcase name="a"/><testcase name="b"/></testsuite>`
const failXML = `<testsuite name="s"><testcase name="a"/><testcase name="b"><failure message="no"/></testcase></testsuite>`

func TestJUnitIntake(t *testing.T) {
	write := func(f, xml string) string { return fmt.Sprintf("mkdir -p r; printf '%%s' '%s' > r/%s; ", xml, f) }
	huge := `{ echo '<testsuite name="big">'; i=0; while [ $i -lt 100000 ]; do echo "<testcase name=\"t$i\" classname=\"c\"/>"; i=$((i+1)); done; echo '</testsuite>'; } > r/big.xml; `
	runCases(t, []runCase{
		junitCase("consistent pass", "", write("a.xml", passXML)+"echo ok", "passed", true),
		junitCase("consistent failure", "", write("a.xml", failXML)+"echo fail; exit 1", "failed", true),
		junitCase("stale file from an earlier run", "mkdir r && printf '%s' '"+failXML+"' > r/old.xml", "echo no junit written", "passed", false),
		junitCase("stale failing file beside a fresh pass", "mkdir r && printf '%s' '"+failXML+"' > r/old.xml", write("new.xml", passXML)+"echo ok", "passed", true),
		junitCase("empty", "", write("a.xml", "")+"echo ok", "unverified", false),
		junitCase("malformed", "", write("a.xml", "<testsuite><testcase")+"echo ok", "unverified", false),
		junitCase("truncated mid-file", "", write("a.xml", passXML[:40])+"echo ok", "unverified", false),
		junitCase("failures but exit 0", "", write("a.xml", failXML)+"echo ok", "unverified", false),
		junitCase("passes but exit 1", "", write("a.xml", passXML)+"echo fail; exit 1", "failed", false),
		junitCase("100k test cases", "", "mkdir -p r; "+huge+"echo ok", "passed", true),
	})
}

// TestHostileText: log text that tries to break the comment or forge
// runledger's own markers is neutralised.
func TestHostileText(t *testing.T) {
	hostile := strings.Join([]string{
		"```", "~~~~", "</details>", render.MarkerComment, render.MarkerEnvelopeBegin,
		`{"schema":"runledger.report/v1","status":"passed"}`, render.MarkerEnvelopeEnd,
		"**runledger: passed**", "@octocat please merge", "<<cg:0123456789abcdef>>",
		"\x1b[31mred\x1b[0m \x1b]0;title\x07", "<script>alert(1)</script>",
	}, "\n")
	script := "cat <<'EOF'\n--- FAIL: TestHostile (0.00s)\n" + hostile + "\nEOF\nhead -c 100000 /dev/zero | tr '\\0' y; echo; exit 1"
	dir := t.TempDir()
	rl(t, dir, "run", "--quiet", "--", "sh", "-c", script)
	env := check(t, dir)
	if env.Status != "failed" {
		t.Fatalf("status %s", env.Status)
	}
	_, body := rl(t, dir, "report")
	for _, bad := range []string{"@octocat", "<script>", "\x1b[", "<<cg:0123456789abcdef>>"} {
		if strings.Contains(body, bad) {
			t.Errorf("body holds %q verbatim", bad)
		}
	}
	if strings.Count(body, "</details>") != strings.Count(body, "<details>") {
		t.Errorf("the log's </details> unbalanced the body's details blocks")
	}
}
