package capture

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/runledger/runledger/record"
)

func TestWindowsExitStatuses(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.exe")
	if err := os.WriteFile(bad, []byte("not a program"), 0o755); err != nil {
		t.Fatal(err)
	}
	exit := func(code int64) ([]string, []string) { return helperArgv(t, "exit", code, 0) }
	tests := []struct {
		name   string
		argv   func() ([]string, []string)
		status record.Status
		code   int // the record's exit_code and the wrapper's exit status
	}{
		{"passed", func() ([]string, []string) { return exit(0) }, record.StatusPassed, 0},
		{"failed", func() ([]string, []string) { return exit(3) }, record.StatusFailed, 3},
		{"not found", func() ([]string, []string) { return []string{"runledger-no-such-command"}, nil }, record.StatusStartFailed, 127},
		{"not executable", func() ([]string, []string) { return []string{bad}, nil }, record.StatusStartFailed, 126},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			argv, env := tc.argv()
			r := runOne(t, newStore(t), Options{Argv: argv, Env: env})
			if r.Status != tc.status || r.ExitCode == nil || *r.ExitCode != tc.code || ExitCode(r) != tc.code {
				t.Fatalf("status %s exit_code %v ExitCode %d, want %s %d", r.Status, r.ExitCode, ExitCode(r), tc.status, tc.code)
			}
			if r.Signal != nil || r.Usage != nil || r.Termination != record.TerminationExited {
				t.Fatalf("signal %v usage %v termination %s: want no signal, no usage, exited", r.Signal, r.Usage, r.Termination)
			}
			if tc.status != record.StatusStartFailed && r.WaitStatus != "exit status "+strconv.Itoa(tc.code) {
				t.Fatalf("wait_status %q", r.WaitStatus)
			}
		})
	}
}

// TestWindowsStreamsAreExact: the blocking pipe reads keep every byte, in
// the plain logs and in the capped ones.
func TestWindowsStreamsAreExact(t *testing.T) {
	tests := []struct {
		name  string
		n     int64
		limit int64
	}{
		{"binary with NULs and invalid UTF-8", 3 << 20, 0},
		{"capped: head and tail kept", 3 << 20, 1 << 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore(t)
			argv, env := helperArgv(t, "random", tc.n, 2)
			r := runOne(t, st, Options{Argv: argv, Env: env, MaxLogBytes: tc.limit})
			want := expectRandom(tc.n, 2)
			checkStream(t, st, r, record.Stdout, want)
			checkStream(t, st, r, record.Output, want)
			checkStream(t, st, r, record.Stderr, nil)
			if truncated := r.Streams[record.Stdout].Truncated; truncated != (tc.limit > 0) {
				t.Fatalf("truncated = %v with a cap of %d", truncated, tc.limit)
			}
		})
	}
}

// TestWindowsJUnitWrittenDuringRun: a report the command rewrote is taken;
// one written just before the run and left alone is stale, however recent.
func TestWindowsJUnitWrittenDuringRun(t *testing.T) {
	st := newStore(t)
	work := t.TempDir()
	for _, name := range []string{"left.xml", "rewritten.xml"} {
		if err := os.WriteFile(filepath.Join(work, name), []byte("<testsuites/>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	argv, env := helperArgv(t, "rewrite", 0, 0)
	r := runOne(t, st, Options{Argv: argv, Env: env, Dir: work, Reports: []string{"*.xml"}})
	if len(r.JUnit) != 1 || r.JUnit[0].Path != "rewritten.xml" {
		t.Fatalf("junit = %+v, want only rewritten.xml", r.JUnit)
	}
	if len(r.JUnitSkip) != 1 || r.JUnitSkip[0].Path != "left.xml" || !strings.HasPrefix(r.JUnitSkip[0].Reason, "stale") {
		t.Fatalf("ignored = %+v, want left.xml as stale", r.JUnitSkip)
	}
}

// TestWindowsTimeout: CTRL_BREAK_EVENT first, TerminateJobObject after the
// grace period, and the job seen empty.
func TestWindowsTimeout(t *testing.T) {
	tests := []struct {
		name      string
		mode      string
		killAfter time.Duration
		minDur    time.Duration // at least the deadline plus this
		maxDur    time.Duration // at most this
	}{
		{"stops at CTRL_BREAK", "sleep", 20 * time.Second, 0, 10 * time.Second},
		{"ignores CTRL_BREAK", "ignore", 300 * time.Millisecond, 300 * time.Millisecond, 10 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.mode == "sleep" {
				skipWithoutCtrlBreak(t)
			}
			st := newStore(t)
			argv, env := helperArgv(t, tc.mode, 100_000, 0)
			r := runOne(t, st, Options{Argv: argv, Env: env, Timeout: 500 * time.Millisecond, KillAfter: tc.killAfter})
			if r.Status != record.StatusTimedOut || !r.TimedOut || r.ExitCode != nil || ExitCode(r) != 124 {
				t.Fatalf("status %s timed_out %v exit_code %v ExitCode %d: want timed_out, true, null, 124", r.Status, r.TimedOut, r.ExitCode, ExitCode(r))
			}
			if r.Termination != record.TerminationConfirmed {
				t.Fatalf("termination = %s, want confirmed", r.Termination)
			}
			got := time.Duration(*r.DurationMS) * time.Millisecond
			if got < 500*time.Millisecond+tc.minDur-20*time.Millisecond || got > tc.maxDur {
				t.Fatalf("duration %v, want between the deadline plus %v and %v", got, tc.minDur, tc.maxDur)
			}
			if alive(r.PID) {
				t.Fatalf("process %d still runs after a confirmed termination", r.PID)
			}
			checkStream(t, st, r, record.Stdout, []byte("started\n"))
			// Where the stop request could not be sent (Wine, or no shared
			// console), the record says so rather than implying the
			// command was asked to stop and ignored it.
			if underWine() && !slices.ContainsFunc(r.Errors, func(e string) bool {
				return strings.HasPrefix(e, "stop request: CTRL_BREAK_EVENT")
			}) {
				t.Fatalf("errors %q: want the failed CTRL_BREAK_EVENT named", r.Errors)
			}
		})
	}
}

// TestWindowsLeftovers: a child that outlives the command is in the job
// (it was started before the command could have been assigned to one,
// were the command not created suspended), and is stopped after the pipe
// wait, with or without holding the output.
func TestWindowsLeftovers(t *testing.T) {
	tests := []struct {
		name string
		hold uint64 // 1: the child holds stdout
		want record.Leftovers
	}{
		{"holding the pipe", 1, record.Leftovers{HeldPipes: true, Stopped: true, Termination: record.TerminationConfirmed}},
		{"not holding the pipe", 0, record.Leftovers{Processes: true, Stopped: true, Termination: record.TerminationConfirmed}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore(t)
			argv, env := helperArgv(t, "spawn", 100_000, tc.hold)
			start := time.Now()
			r := runOne(t, st, Options{Argv: argv, Env: env, PipeWait: 300 * time.Millisecond, KillAfter: 2 * time.Second})
			if took := time.Since(start); took > 15*time.Second {
				t.Fatalf("wrapper took %v: a lingering child must not hang it", took)
			}
			if r.Status != record.StatusPassed || r.Termination != record.TerminationExited {
				t.Fatalf("status %s termination %s: the command itself exited 0", r.Status, r.Termination)
			}
			if r.Leftovers != nil && underWine() {
				// Wine cannot send CTRL_BREAK_EVENT: the record says so, and
				// the leftovers were stopped all the same.
				if !strings.HasPrefix(r.Leftovers.StopError, "CTRL_BREAK_EVENT") {
					t.Fatalf("stop_error %q: want the failed CTRL_BREAK_EVENT named", r.Leftovers.StopError)
				}
				r.Leftovers.StopError = ""
			}
			if r.Leftovers == nil || *r.Leftovers != tc.want {
				t.Fatalf("leftovers = %+v, want %+v", r.Leftovers, tc.want)
			}
			out, err := os.ReadFile(filepath.Join(st.Dir, r.ID, r.Streams[record.Stdout].File))
			m := regexp.MustCompile(`child (\d+)`).FindSubmatch(out)
			if err != nil || m == nil {
				t.Fatalf("no child pid in stdout %q (%v)", out, err)
			}
			if pid, _ := strconv.Atoi(string(m[1])); alive(pid) {
				t.Fatalf("child %d still runs", pid)
			}
		})
	}
}

// TestWindowsCancel: the wrapper told to stop stops the command, by
// CTRL_BREAK_EVENT or, when the command ignores it, by TerminateJobObject
// after the grace period.
func TestWindowsCancel(t *testing.T) {
	tests := []struct {
		name      string
		mode      string
		killAfter time.Duration
	}{
		{"stops at CTRL_BREAK", "sleep", 20 * time.Second},
		{"ignores CTRL_BREAK", "ignore", 300 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.mode == "sleep" {
				skipWithoutCtrlBreak(t)
			}
			cancel := make(chan os.Signal, 1)
			live := &watchWriter{want: "started", seen: make(chan struct{})}
			go func() {
				<-live.seen
				cancel <- os.Interrupt
			}()
			argv, env := helperArgv(t, tc.mode, 100_000, 0)
			r := runOne(t, newStore(t), Options{Argv: argv, Env: env, Cancel: cancel, Stdout: live, KillAfter: tc.killAfter})
			if r.Status != record.StatusCancelled || r.Signal == nil || *r.Signal != "SIGINT" || r.ExitCode != nil {
				t.Fatalf("status %s signal %v exit_code %v, want cancelled SIGINT null", r.Status, r.Signal, r.ExitCode)
			}
			if r.Termination != record.TerminationConfirmed || ExitCode(r) != 130 {
				t.Fatalf("termination %s ExitCode %d, want confirmed 130", r.Termination, ExitCode(r))
			}
			if got := time.Duration(*r.DurationMS) * time.Millisecond; got > 10*time.Second {
				t.Fatalf("took %v: with a %v grace period", got, tc.killAfter)
			}
			if alive(r.PID) {
				t.Fatalf("process %d still runs after a confirmed termination", r.PID)
			}
		})
	}
}

// skipWithoutCtrlBreak skips under Wine: Wine 8.0's GenerateConsoleCtrlEvent
// fails (ERROR_INVALID_ACCESS without a console, ERROR_INVALID_HANDLE with
// one), so there runledger can only stop a command with TerminateJobObject.
func skipWithoutCtrlBreak(t *testing.T) {
	t.Helper()
	if underWine() {
		t.Skip("Wine cannot deliver CTRL_BREAK_EVENT (GenerateConsoleCtrlEvent fails under Wine 8.0)")
	}
}

// alive reports whether process pid runs: it opens and has no exit code.
func alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	return windows.GetExitCodeProcess(h, &code) == nil && code == 259 // STILL_ACTIVE
}

// watchWriter closes seen once want has been written.
type watchWriter struct {
	mu   sync.Mutex
	b    strings.Builder
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if strings.Contains(w.b.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

// underWine: ntdll exports wine_get_version only under Wine.
func underWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
