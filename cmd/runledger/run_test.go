package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

// binary is runledger built once for the tests that need a real wrapper
// process: killing it, signalling it, limiting its file sizes.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "runledger-bin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "runledger")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestParseRunFlags(t *testing.T) {
	env := func(k string) string {
		if k == "RUNLEDGER_DIR" {
			return "/from/env"
		}
		return ""
	}
	tests := []struct {
		args    []string
		wantErr string
		check   func(*runOptions) bool
	}{
		{[]string{"--", "go", "test", "./..."}, "", func(o *runOptions) bool {
			return o.dir == "/from/env" && strings.Join(o.argv, " ") == "go test ./..." && o.killAfter == 10*time.Second
		}},
		{[]string{"--timeout", "5m", "--kill-after=2s", "--junit", "a.xml", "--junit", "b/**/*.xml", "make"}, "", func(o *runOptions) bool {
			return o.timeout == 5*time.Minute && o.killAfter == 2*time.Second && len(o.reports) == 2 && o.argv[0] == "make"
		}},
		// --reports names the files; --junit, its old name, is an alias: both add up.
		{[]string{"--reports", "a.trx", "--junit", "b.xml", "--reports", "c.json", "make"}, "", func(o *runOptions) bool {
			return strings.Join(o.reports, " ") == "a.trx b.xml c.json" && o.argv[0] == "make"
		}},
		{[]string{"--name", "unit", "--retries", "2", "--dir", "d", "--", "sh", "-c", "--timeout"}, "", func(o *runOptions) bool {
			return o.name == "unit" && o.retries == 2 && o.dir == "d" && o.argv[2] == "--timeout"
		}},
		{[]string{"--retries", "1", "--", "make"}, "", func(o *runOptions) bool { return o.retryEff == "refuse" }},
		{[]string{"--retry-effects", "allow", "make"}, "", func(o *runOptions) bool { return o.retryEff == "allow" }},
		{[]string{"--retry-effects", "always", "make"}, `--retry-effects "always": want refuse or allow`, nil},
		{[]string{}, "no command given", nil},
		{[]string{"--timeout", "soon", "true"}, `invalid value "soon"`, nil},
		{[]string{"--timeout", "-1s", "true"}, "--timeout -1s: must not be negative", nil},
		{[]string{"--kill-after", "0s", "true"}, "--kill-after 0s: must be positive", nil},
		{[]string{"--max-log-bytes", "1", "true"}, "--max-log-bytes 1", nil},
		{[]string{"--retries", "-2", "true"}, "--retries -2", nil},
		{[]string{"--bogus", "true"}, "flag provided but not defined: -bogus", nil},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			o, err := parseRunFlags(tc.args, env, &bytes.Buffer{})
			if tc.wantErr != "" {
				var ue *usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want usage error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !tc.check(o) {
				t.Fatalf("parse %v: %+v, %v", tc.args, o, err)
			}
		})
	}
}

// TestExitStatusPassThrough runs the real binary and checks the statuses a
// workflow step sees.
func TestExitStatusPassThrough(t *testing.T) {
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"run", "--", "true"}, 0},
		{[]string{"run", "--", "sh", "-c", "exit 7"}, 7},
		{[]string{"run", "--timeout", "100ms", "--", "sleep", "10"}, 124},
		{[]string{"run", "--", "sh", "-c", "kill -TERM $$"}, 143},
		{[]string{"run", "--", "/nonexistent/tool"}, 127},
		{[]string{"run", "--timeout", "never", "--", "true"}, 125},
		{[]string{"run"}, 125},
		{[]string{"nonsense"}, 2},
		{[]string{"version"}, 0},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			cmd := exec.Command(binary, tc.args...)
			cmd.Env = append(os.Environ(), "RUNLEDGER_DIR="+t.TempDir())
			out, _ := cmd.CombinedOutput()
			if got := cmd.ProcessState.ExitCode(); got != tc.want {
				t.Fatalf("exit %d, want %d; output:\n%s", got, tc.want, out)
			}
		})
	}
}

// TestWrapperKilled: a wrapper killed with SIGKILL leaves its record
// "running", which every reader must take as incomplete, never passed.
// TestDiskFull: when the logs cannot be written, a command that exited 0
// does not make the wrapper exit 0, and the record says why.
func TestDiskFull(t *testing.T) {
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit (util-linux) not installed: cannot limit file sizes")
	}
	dir := t.TempDir()
	cmd := exec.Command("prlimit", "--fsize=65536", binary, "run", "--quiet", "--dir", dir, "--",
		"sh", "-c", "head -c 300000 /dev/zero")
	out, _ := cmd.CombinedOutput()
	if got := cmd.ProcessState.ExitCode(); got != 125 {
		t.Fatalf("exit %d, want 125; output:\n%s", got, out)
	}
	st, _ := store.Open(dir)
	recs, _, _ := st.List()
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	s := recs[0].Streams[record.Stdout]
	if s.WriteError == "" || s.Bytes != 300000 || s.StoredBytes > 65536 || recs[0].Passed() {
		t.Fatalf("stdout stream %+v; Passed %v: want a write error, all bytes counted, not passed", s, recs[0].Passed())
	}
	if !strings.Contains(string(out), "file too large") {
		t.Fatalf("the write error was not reported on stderr:\n%s", out)
	}
}

// TestRunFitsThreadsAroundCapture: the runtime is fitted for the capture
// only; the report that follows (--report) runs with it undone.
func TestRunFitsThreadsAroundCapture(t *testing.T) {
	dir := t.TempDir()
	var fitted, restored int
	var out, errb bytes.Buffer
	reportedBefore := -1 // bytes of the report written when the runtime was restored
	a := &app{stdout: &out, stderr: &errb,
		getenv: func(k string) string {
			if k == "RUNLEDGER_DIR" {
				return dir
			}
			return ""
		},
		fitThreads: func(func(string) string) func() {
			fitted++
			return func() { restored++; reportedBefore = out.Len() }
		}}
	if code := a.main([]string{"run", "--quiet", "--report", "--format", "json", "--", "sh", "-c", "echo hi"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if fitted != 1 || restored != 1 {
		t.Errorf("fitted %d times, restored %d times; want once each", fitted, restored)
	}
	if reportedBefore != 0 {
		t.Errorf("restored with %d bytes of the report written, want before the report", reportedBefore)
	}
	if !strings.Contains(out.String(), `"status": "passed"`) {
		t.Errorf("report after the capture: %s", out.String())
	}
}
