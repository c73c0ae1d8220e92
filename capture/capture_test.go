//go:build unix

// These tests run sh scripts and check process groups with kill(2):
// POSIX only. capture_windows_test.go covers Windows.

package capture

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/runledger/runledger/record"
)

func TestExitStatuses(t *testing.T) {
	dir := t.TempDir()
	noexec := filepath.Join(dir, "noexec.sh")
	if err := os.WriteFile(noexec, []byte("#!/bin/sh\nexit 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		argv   []string
		status record.Status
		code   *int // nil: exit_code must be null
		signal string
		exit   int
	}{
		{"passed", []string{"sh", "-c", "exit 0"}, record.StatusPassed, ptr(0), "", 0},
		{"failed", []string{"sh", "-c", "exit 3"}, record.StatusFailed, ptr(3), "", 3},
		{"signaled", []string{"sh", "-c", "kill -SEGV $$"}, record.StatusSignaled, nil, "SIGSEGV", 139},
		{"not found", []string{"no-such-command-runledger"}, record.StatusStartFailed, ptr(127), "", 127},
		{"not executable", []string{noexec}, record.StatusStartFailed, ptr(126), "", 126},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore(t)
			r := runOne(t, st, Options{Argv: tc.argv})
			if r.Status != tc.status {
				t.Errorf("status = %s, want %s", r.Status, tc.status)
			}
			if (r.ExitCode == nil) != (tc.code == nil) || (r.ExitCode != nil && *r.ExitCode != *tc.code) {
				t.Errorf("exit_code = %v, want %v", deref(r.ExitCode), deref(tc.code))
			}
			if got := strOf(r.Signal); got != tc.signal {
				t.Errorf("signal = %q, want %q", got, tc.signal)
			}
			if got := ExitCode(r); got != tc.exit {
				t.Errorf("ExitCode = %d, want %d", got, tc.exit)
			}
			if r.Passed() != (tc.status == record.StatusPassed) {
				t.Errorf("Passed() = %v for status %s", r.Passed(), r.Status)
			}
			if r.EndedAt == nil || r.DurationMS == nil || r.Termination != record.TerminationExited {
				t.Errorf("ended_at %v, duration %v, termination %q: want all set", r.EndedAt, r.DurationMS, r.Termination)
			}
		})
	}
}

func TestStreamsAreExact(t *testing.T) {
	tests := []struct {
		name string
		mode string
		n    int64
	}{
		{"binary with NULs and invalid UTF-8", "random", 3 << 20},
		{"50 MB log, failures at start, middle and end", "lines", 50 << 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore(t)
			argv, env := helperArgv(t, tc.mode, tc.n, 2)
			r := runOne(t, st, Options{Argv: argv, Env: env})
			want := expectRandom(tc.n, 2)
			if tc.mode == "lines" {
				want = genLines(tc.n)
			}
			checkStream(t, st, r, record.Stdout, want)
			checkStream(t, st, r, record.Output, want)
			checkStream(t, st, r, record.Stderr, nil)
		})
	}
}

func TestShellShapes(t *testing.T) {
	long := strings.Repeat("x", 10<<20)
	tests := []struct {
		name   string
		script string
		stdout string
	}{
		{"10 MB line without newline", "head -c 10485760 /dev/zero | tr '\\0' x", long},
		{"CR-only progress bar", `for i in 1 2 3; do printf '\r%s%%' $i; done`, "\r1%\r2%\r3%"},
		{"NUL bytes", `printf 'a\000b\000'`, "a\x00b\x00"},
		{"invalid UTF-8", `printf '\377\376ok\n'`, "\xff\xfeok\n"},
		{"no output", `true`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore(t)
			var live bytes.Buffer
			r := runOne(t, st, Options{Argv: []string{"sh", "-c", tc.script}, Stdout: &live})
			checkStream(t, st, r, record.Stdout, []byte(tc.stdout))
			if live.String() != tc.stdout {
				t.Errorf("live passthrough got %d bytes, want %d", live.Len(), len(tc.stdout))
			}
		})
	}
}

func TestStdoutAndStderrApart(t *testing.T) {
	st := newStore(t)
	argv, env := helperArgv(t, "both", 200_000, 1)
	var liveOut, liveErr bytes.Buffer
	r := runOne(t, st, Options{Argv: argv, Env: env, Stdout: &liveOut, Stderr: &liveErr})
	if r.Status != record.StatusFailed || *r.ExitCode != 1 {
		t.Fatalf("status %s exit %v, want failed 1", r.Status, deref(r.ExitCode))
	}
	// What the helper prints, known apart from the code under test.
	var wantOut, wantErr strings.Builder
	for i := 0; i < 200_000; i += 1000 {
		fmt.Fprintf(&wantOut, "out %d\n", i)
		fmt.Fprintf(&wantErr, "err %d\n", i)
	}
	if liveOut.String() != wantOut.String() || liveErr.String() != wantErr.String() {
		t.Fatalf("passthrough differs from what the command printed: stdout starts %q, stderr %q", liveOut.String()[:6], liveErr.String()[:6])
	}
	checkStream(t, st, r, record.Stdout, []byte(wantOut.String()))
	checkStream(t, st, r, record.Stderr, []byte(wantErr.String()))
	out, _ := os.ReadFile(filepath.Join(st.Dir, r.ID, "output.log"))
	if int64(len(out)) != int64(liveOut.Len()+liveErr.Len()) {
		t.Fatalf("output.log has %d bytes, streams %d", len(out), liveOut.Len()+liveErr.Len())
	}
	// Each line of output.log is whole: chunks interleave, bytes do not.
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if !strings.HasPrefix(line, "out ") && !strings.HasPrefix(line, "err ") {
			t.Fatalf("output.log has a torn line %q", line)
		}
	}
}

func TestCapKeepsHeadAndTail(t *testing.T) {
	const n, limit = 5<<20 + 12345, 1 << 20
	for _, stream := range []string{record.Stdout, record.Stderr} {
		t.Run(stream, func(t *testing.T) {
			st := newStore(t)
			argv, env := helperArgv(t, "random", n, 4)
			if stream == record.Stderr {
				argv = []string{"sh", "-c", `exec "$@" 1>&2`, "sh"}
				a2, _ := helperArgv(t, "random", n, 4)
				argv = append(argv, a2...)
			}
			r := runOne(t, st, Options{Argv: argv, Env: env, MaxLogBytes: limit})
			s := r.Streams[stream]
			if !s.Truncated || s.Bytes != n || s.StoredBytes != limit {
				t.Fatalf("truncated=%v bytes=%d stored=%d, want true %d %d", s.Truncated, s.Bytes, s.StoredBytes, n, limit)
			}
			want := [][2]int64{{0, limit / 2}, {n - limit/2, n}}
			if s.StoredRanges[0] != want[0] || s.StoredRanges[1] != want[1] {
				t.Fatalf("stored_ranges = %v, want %v", s.StoredRanges, want)
			}
			checkStream(t, st, r, stream, expectRandom(n, 4))
			checkStream(t, st, r, record.Output, expectRandom(n, 4))
		})
	}
}

func TestTimeout(t *testing.T) {
	tests := []struct {
		name      string
		script    string
		killAfter time.Duration
		minDur    time.Duration
	}{
		{"stops on SIGTERM", "echo started; sleep 100", time.Second, 0},
		{"ignores SIGTERM", "trap '' TERM; echo started; while :; do sleep 0.05; done", 300 * time.Millisecond, 300 * time.Millisecond},
		{"grandchild ignores SIGTERM", "sh -c \"trap '' TERM; sleep 100\" & echo started; wait", 300 * time.Millisecond, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore(t)
			r := runOne(t, st, Options{Argv: []string{"sh", "-c", tc.script},
				Timeout: 300 * time.Millisecond, KillAfter: tc.killAfter})
			if r.Status != record.StatusTimedOut || !r.TimedOut || r.ExitCode != nil {
				t.Fatalf("status %s timed_out %v exit %v: want timed_out, true, null", r.Status, r.TimedOut, deref(r.ExitCode))
			}
			if r.Termination != record.TerminationConfirmed {
				t.Fatalf("termination = %s, want confirmed", r.Termination)
			}
			if ExitCode(r) != 124 || r.Passed() {
				t.Fatalf("ExitCode %d Passed %v, want 124 false", ExitCode(r), r.Passed())
			}
			if got := time.Duration(*r.DurationMS) * time.Millisecond; got < 300*time.Millisecond+tc.minDur-20*time.Millisecond {
				t.Fatalf("duration %v: ended before the deadline plus grace", got)
			}
			if syscall.Kill(-r.PID, 0) != syscall.ESRCH {
				t.Fatalf("process group %d still exists after a confirmed termination", r.PID)
			}
			checkStream(t, st, r, record.Stdout, []byte("started\n"))
		})
	}
}

func TestLeftoverHoldingPipe(t *testing.T) {
	st := newStore(t)
	start := time.Now()
	r := runOne(t, st, Options{Argv: []string{"sh", "-c", "sleep 1000 & echo parent done"},
		PipeWait: 200 * time.Millisecond, KillAfter: time.Second})
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("wrapper took %v: a grandchild holding the pipe must not hang it", took)
	}
	if r.Status != record.StatusPassed || r.Termination != record.TerminationExited {
		t.Fatalf("status %s termination %s: the command itself exited 0", r.Status, r.Termination)
	}
	lo := r.Leftovers
	if lo == nil || !lo.HeldPipes || !lo.Stopped || lo.Termination != record.TerminationConfirmed {
		t.Fatalf("leftovers = %+v, want held pipes, stopped, confirmed", lo)
	}
	if syscall.Kill(-r.PID, 0) != syscall.ESRCH {
		t.Fatal("the sleeping grandchild survived")
	}
	checkStream(t, st, r, record.Stdout, []byte("parent done\n"))
}

func TestLeftoverNotHoldingPipe(t *testing.T) {
	st := newStore(t)
	r := runOne(t, st, Options{Argv: []string{"sh", "-c", "sleep 1000 >/dev/null 2>&1 & exit 1"}})
	if r.Status != record.StatusFailed || r.Leftovers == nil || !r.Leftovers.Processes || !r.Leftovers.Stopped {
		t.Fatalf("status %s leftovers %+v: want failed with a stopped leftover", r.Status, r.Leftovers)
	}
	if syscall.Kill(-r.PID, 0) != syscall.ESRCH {
		t.Fatal("the background sleep survived")
	}
}

func TestCancel(t *testing.T) {
	st := newStore(t)
	cancel := make(chan os.Signal, 1)
	var live syncBuffer
	go func() {
		for !strings.Contains(live.String(), "ready") {
			time.Sleep(10 * time.Millisecond)
		}
		cancel <- syscall.SIGINT
	}()
	r := runOne(t, st, Options{Argv: []string{"sh", "-c", "trap 'echo got INT; exit 5' INT; echo ready; while :; do sleep 0.05; done"},
		Cancel: cancel, Stdout: &live})
	if r.Status != record.StatusCancelled || strOf(r.Signal) != "SIGINT" || r.ExitCode != nil {
		t.Fatalf("status %s signal %v exit %v, want cancelled SIGINT null", r.Status, deref(r.Signal), deref(r.ExitCode))
	}
	if r.Termination != record.TerminationConfirmed || ExitCode(r) != 130 {
		t.Fatalf("termination %s exit %d, want confirmed 130", r.Termination, ExitCode(r))
	}
	if !strings.Contains(r.WaitStatus, "exit status 5") {
		t.Fatalf("wait_status %q: the command's own exit while stopping should be kept", r.WaitStatus)
	}
}

func TestRetries(t *testing.T) {
	st := newStore(t)
	counter := filepath.Join(t.TempDir(), "n")
	// Fails twice, then passes.
	script := `n=$(cat "$1" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$1"; echo "attempt $n"; [ $n -ge 3 ]`
	// Its own directory: the retries must not hang on what else changes
	// in the tree the tests run in.
	recs, err := Run(st, Options{Name: "flaky", Argv: []string{"sh", "-c", script, "sh", counter}, Retries: 5, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Fatalf("%d attempts, want 3", len(recs))
	}
	for i, r := range recs {
		wantStatus := record.StatusFailed
		if i == 2 {
			wantStatus = record.StatusPassed
		}
		if r.Attempt != i+1 || r.Status != wantStatus || r.Name != "flaky" {
			t.Errorf("attempt %d: got attempt %d status %s name %q", i+1, r.Attempt, r.Status, r.Name)
		}
		if i > 0 && r.Limits.RetryOfRunID != recs[i-1].ID {
			t.Errorf("attempt %d: retry_of %q, want %q", i+1, r.Limits.RetryOfRunID, recs[i-1].ID)
		}
	}
	// A cancelled run is never retried.
	cancel := make(chan os.Signal, 1)
	cancel <- syscall.SIGTERM
	recs, _ = Run(st, Options{Argv: []string{"sleep", "100"}, Retries: 3, Cancel: cancel})
	if len(recs) != 1 || recs[0].Status != record.StatusCancelled {
		t.Fatalf("cancelled run: %d attempts, status %s", len(recs), recs[0].Status)
	}
}

func TestConcurrentRuns(t *testing.T) {
	st := newStore(t)
	const n = 10
	recs := make([]*record.Record, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			argv, env := helperArgv(t, "random", 1<<20, uint64(10+2*i))
			rs, err := Run(st, Options{Name: "same", Argv: argv, Env: env})
			if err != nil || len(rs) != 1 {
				t.Errorf("run %d: %v", i, err)
				return
			}
			recs[i] = rs[0]
		}()
	}
	wg.Wait()
	ids, attempts := map[string]bool{}, map[int]bool{}
	for i, r := range recs {
		if r == nil {
			t.FailNow()
		}
		ids[r.ID], attempts[r.Attempt] = true, true
		checkStream(t, st, r, record.Stdout, expectRandom(1<<20, uint64(10+2*i)))
	}
	if len(ids) != n || len(attempts) != n {
		t.Fatalf("%d distinct ids and %d distinct attempts for %d runs", len(ids), len(attempts), n)
	}
	for a := 1; a <= n; a++ {
		if !attempts[a] {
			t.Fatalf("attempt numbers %v are not 1..%d", attempts, n)
		}
	}
}

func TestJUnitAttribution(t *testing.T) {
	st := newStore(t)
	work := t.TempDir()
	stale := filepath.Join(work, "old", "junit.xml")
	os.MkdirAll(filepath.Dir(stale), 0o755)
	os.WriteFile(stale, []byte("<testsuites/>"), 0o644)
	past := time.Now().Add(-time.Hour)
	os.Chtimes(stale, past, past)
	script := `mkdir -p new/deep && echo '<testsuites name="fresh"/>' > new/deep/junit.xml`
	r := runOne(t, st, Options{Argv: []string{"sh", "-c", script}, Dir: work,
		Reports: []string{"**/junit.xml", "missing/*.xml"}})
	if len(r.JUnit) != 1 || r.JUnit[0].Path != filepath.Join("new", "deep", "junit.xml") {
		t.Fatalf("junit = %+v, want only the fresh file", r.JUnit)
	}
	stored, err := os.ReadFile(filepath.Join(st.Dir, r.ID, r.JUnit[0].Stored))
	if err != nil || !strings.Contains(string(stored), "fresh") {
		t.Fatalf("stored copy: %q, %v", stored, err)
	}
	reasons := map[string]string{}
	for _, s := range r.JUnitSkip {
		reasons[s.Path] = s.Reason
	}
	if !strings.HasPrefix(reasons[filepath.Join("old", "junit.xml")], "stale") {
		t.Errorf("stale file not reported as stale: %v", reasons)
	}
	if reasons["missing/*.xml"] != "no file matched" {
		t.Errorf("unmatched pattern not reported: %v", reasons)
	}
}

func ptr(n int) *int { return &n }

func strOf(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestJUnitSameTick: Linux stamps mtimes from a coarse clock, so a file
// rewritten in the run's first milliseconds may carry a time before the
// start; it is still this run's. A file written just before the run and
// left alone is not, however recent its time.
func TestJUnitSameTick(t *testing.T) {
	st := newStore(t)
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "left.xml"), []byte("<testsuites/>"), 0o644)
	os.WriteFile(filepath.Join(work, "rewritten.xml"), []byte("<testsuites/>"), 0o644)
	r := runOne(t, st, Options{Argv: []string{"sh", "-c", `echo '<testsuites name="new"/>' > rewritten.xml`},
		Dir: work, Reports: []string{"*.xml"}})
	if len(r.JUnit) != 1 || r.JUnit[0].Path != "rewritten.xml" {
		t.Fatalf("junit = %+v, want only rewritten.xml", r.JUnit)
	}
	if len(r.JUnitSkip) != 1 || r.JUnitSkip[0].Path != "left.xml" || !strings.HasPrefix(r.JUnitSkip[0].Reason, "stale") {
		t.Fatalf("ignored = %+v, want left.xml as stale", r.JUnitSkip)
	}
}

// TestOutputMixesLate: output.log hashes lazily while one stream writes
// alone; a stream joining late, before or after the cap, must still leave
// a record whose hash is that of the stored file.
func TestOutputMixesLate(t *testing.T) {
	script := `head -c 3000000 /dev/zero | tr '\0' a; echo; echo late >&2; echo tail`
	for _, limit := range []int64{0, 1 << 20} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			st := newStore(t)
			var out, errb syncBuffer
			r := runOne(t, st, Options{Argv: []string{"sh", "-c", script}, MaxLogBytes: limit, Stdout: &out, Stderr: &errb})
			want := strings.Repeat("a", 3000000) + "\n"
			got, _ := os.ReadFile(filepath.Join(st.Dir, r.ID, "output.log"))
			s := r.Streams[record.Output]
			if s.Bytes != int64(len(want)+len("late\ntail\n")) {
				t.Fatalf("output bytes %d", s.Bytes)
			}
			sum := sha256.Sum256(got)
			if s.SHA256 != hex.EncodeToString(sum[:]) || int64(len(got)) != s.StoredBytes {
				t.Fatalf("output.log hash/size do not match the stored file (limit %d)", limit)
			}
			// Two pipes: "late" may arrive megabytes before stdout's end,
			// so only the uncapped log surely holds it.
			if limit == 0 && (strings.Count(string(got), "late\n") != 1 || !strings.Contains(string(got), "tail\n")) {
				t.Fatalf("output.log lacks a stream's last lines: ends %q", got[len(got)-12:])
			}
		})
	}
}

// TestWorkspaceRelativeDir: inside the action's container the workspace is
// /github/workspace; the record must not carry that path.
func TestWorkspaceRelativeDir(t *testing.T) {
	st, ws := newStore(t), t.TempDir()
	os.Mkdir(filepath.Join(ws, "sub"), 0o755)
	r := runOne(t, st, Options{Argv: []string{"true"}, Dir: filepath.Join(ws, "sub"), Workspace: ws})
	if r.Command.Dir != filepath.Join("$GITHUB_WORKSPACE", "sub") {
		t.Fatalf("dir %q", r.Command.Dir)
	}
	r = runOne(t, st, Options{Argv: []string{"true"}, Dir: t.TempDir(), Workspace: ws})
	if strings.Contains(r.Command.Dir, "$GITHUB_WORKSPACE") {
		t.Fatalf("a directory outside the workspace was rewritten: %q", r.Command.Dir)
	}
}

// TestOutputLazyCopy: while one stream writes alone, output.log is not
// written; it ends as a hard link to that stream's log, or, once the cap
// comes near, as a real copy that carries on by itself.
func TestOutputLazyCopy(t *testing.T) {
	const n = 10<<20 + 333
	t.Run("link", func(t *testing.T) {
		st := newStore(t)
		argv, env := helperArgv(t, "random", n, 6)
		r := runOne(t, st, Options{Argv: argv, Env: env})
		checkStream(t, st, r, record.Output, expectRandom(n, 6))
		a, _ := os.Stat(filepath.Join(st.Dir, r.ID, "stdout.log"))
		b, _ := os.Stat(filepath.Join(st.Dir, r.ID, "output.log"))
		if !os.SameFile(a, b) {
			t.Error("output.log of a single-stream run should be a link to stdout.log")
		}
	})
	t.Run("copy near the cap", func(t *testing.T) {
		st := newStore(t)
		argv, env := helperArgv(t, "random", n, 8)
		r := runOne(t, st, Options{Argv: argv, Env: env, MaxLogBytes: lazySlack + 3<<20})
		checkStream(t, st, r, record.Output, expectRandom(n, 8))
		checkStream(t, st, r, record.Stdout, expectRandom(n, 8))
		if !r.Streams[record.Output].Truncated {
			t.Error("output.log should be capped")
		}
		a, _ := os.Stat(filepath.Join(st.Dir, r.ID, "stdout.log"))
		b, _ := os.Stat(filepath.Join(st.Dir, r.ID, "output.log"))
		if os.SameFile(a, b) {
			t.Error("near the cap output.log should be a copy of its own, not a link to stdout.log")
		}
	})
}

// TestOutputMixesAfterHeldChunk: stdout's small writes fill one chunk the
// reader still holds when stderr first writes; output.log must still be
// every byte in arrival order, and every hash that of its file.
func TestOutputMixesAfterHeldChunk(t *testing.T) {
	script := `i=0; while [ $i -lt 300 ]; do echo out$i; i=$((i+1)); done; sleep 0.3; echo err >&2; sleep 0.3; echo after; sleep 0.3; echo err2 >&2`
	st := newStore(t)
	r := runOne(t, st, Options{Argv: []string{"sh", "-c", script}})
	var outs strings.Builder
	for i := range 300 {
		fmt.Fprintf(&outs, "out%d\n", i)
	}
	want := map[string]string{
		record.Stdout: outs.String() + "after\n",
		record.Stderr: "err\nerr2\n",
		record.Output: outs.String() + "err\nafter\nerr2\n",
	}
	for name, w := range want {
		got, err := os.ReadFile(filepath.Join(st.Dir, r.ID, r.Streams[name].File))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(got)
		if string(got) != w || r.Streams[name].SHA256 != hex.EncodeToString(sum[:]) || r.Streams[name].Bytes != int64(len(w)) {
			t.Errorf("%s: %q (hash %s, %d bytes), want %q", name, got, r.Streams[name].SHA256, r.Streams[name].Bytes, w)
		}
	}
}
