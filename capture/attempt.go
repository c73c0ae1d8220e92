package capture

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

// attempt is one execution of the command and everything it owns.
type attempt struct {
	opts  Options
	dir   string
	rec   *record.Record
	start time.Time // monotonic; rec.StartedAt is its wall-clock twin
	logs  *logSet
	group group

	exited    chan leaderExit
	leader    *leaderExit // nil while unknown: the command never ended in sight
	end       time.Time
	stopSig   syscall.Signal
	timedOut  bool
	cancelled bool
}

type leaderExit struct {
	ws  syscall.WaitStatus
	ru  *syscall.Rusage
	err error
	at  time.Time
}

func runAttempt(st *store.Store, opts Options, retriesLeft int, retryOf string) (*record.Record, error) {
	a := &attempt{opts: opts}
	// Before the record exists and its clock starts: the scan is not the
	// command's time.
	ws := watchWorkspace(opts.Dir, st.Dir)
	dir, rec, err := st.Begin(opts.Name, func(id string, n int) *record.Record {
		return a.newRecord(id, n, retriesLeft, retryOf)
	})
	if err != nil {
		return nil, err
	}
	a.dir, a.rec = dir, rec
	if err := becomeSubreaper(); err != nil {
		a.rec.Errors = append(a.rec.Errors, "prctl(PR_SET_CHILD_SUBREAPER): "+err.Error())
	}
	if a.logs, err = openLogs(dir, opts.MaxLogBytes); err != nil {
		return a.abort(err)
	}
	before := snapshotReports(opts.Dir, opts.Reports)
	cmd, err := a.launch()
	if err != nil {
		return a.startFailed(cmd, err)
	}
	defer a.group.release()
	a.supervise()
	a.drain()
	a.finishRecord()
	a.rec.JUnit, a.rec.JUnitSkip = attributeReports(opts.Dir, opts.Reports, before, a.rec.StartedAt, dir)
	var changes []change
	a.rec.Effects, changes = ws.finish()
	if retriesLeft > 0 && retryable(a.rec) {
		a.gateRetry(changes)
	}
	return a.rec, record.Write(dir, a.rec)
}

// gateRetry decides whether a retry may run against the workspace this
// attempt leaves: not when it modified or deleted tracked files (the retry
// would test something else, and its pass would be reported as the run's),
// nor when what it changed is unknown, unless --retry-effects allow.
func (a *attempt) gateRetry(changes []change) {
	block := retryBlock(a.rec.Attempt, a.rec.Effects, changes)
	switch {
	case block == "":
	case a.opts.RetryEffects == RetryEffectsAllow:
		a.rec.RetryAllowed = block + "; retried anyway (--retry-effects allow)"
	default:
		a.rec.RetryRefused = block + "; not retried, since a retry would run against a changed workspace (--retry-effects allow retries anyway)"
	}
}

func (a *attempt) newRecord(id string, n, retriesLeft int, retryOf string) *record.Record {
	host, _ := os.Hostname()
	wd := a.opts.Dir
	if abs, err := filepath.Abs(wd); err == nil {
		wd = abs
	}
	if ws := a.opts.Workspace; ws != "" {
		if rel, err := filepath.Rel(ws, wd); err == nil && !strings.HasPrefix(rel, "..") {
			wd = filepath.Join("$GITHUB_WORKSPACE", rel)
		}
	}
	a.start = time.Now()
	return &record.Record{
		Schema: record.Schema, ID: id, Name: a.opts.Name, Attempt: n,
		Command:   record.Command{Argv: a.opts.Argv, Dir: wd},
		StartedAt: a.start.UTC(),
		Status:    record.StatusRunning,
		Limits: record.Limits{
			TimeoutMS: a.opts.Timeout.Milliseconds(), KillAfterMS: a.opts.KillAfter.Milliseconds(),
			MaxLogBytes: a.opts.MaxLogBytes, PipeWaitMS: a.opts.PipeWait.Milliseconds(),
			RetriesLeft: retriesLeft, RetryOfRunID: retryOf, RetryEffects: a.opts.RetryEffects,
		},
		Streams: map[string]*record.Stream{},
		JUnit:   []record.JUnitFile{},
		CI:      a.opts.CI,
		Wrapper: record.Wrapper{PID: os.Getpid(), Host: host, BootID: store.BootID(),
			ProcStart: store.ProcStart(os.Getpid()), Version: a.opts.Version},
	}
}

// launch starts the command in a process group of its own, with the
// write ends of the log pipes as its stdout and stderr.
func (a *attempt) launch() (*exec.Cmd, error) {
	cmd := exec.Command(a.opts.Argv[0], a.opts.Argv[1:]...)
	cmd.Dir = a.opts.Dir
	env := a.opts.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env[:len(env):len(env)],
		"RUNLEDGER_RUN_ID="+a.rec.ID, "RUNLEDGER_RUN_DIR="+a.dir,
		"RUNLEDGER_ATTEMPT="+strconv.Itoa(a.rec.Attempt))
	cmd.Stdin = a.opts.Stdin
	cmd.Stdout, cmd.Stderr = a.logs.stdout.w, a.logs.stderr.w
	cmd.SysProcAttr = procAttr()
	err := cmd.Start()
	// The child has its own copies; keeping ours would hold the pipes open forever.
	a.logs.closeWriteEnds()
	if err != nil {
		return cmd, err
	}
	if a.group, err = newGroup(cmd.Process); err != nil {
		return cmd, fmt.Errorf("%w: %w", errNoGroup, err)
	}
	a.rec.PID = cmd.Process.Pid
	// The record names the pid before any output is passed on, so whoever
	// sees the command's first byte can find its process group.
	if err := record.Write(a.dir, a.rec); err != nil {
		a.rec.Errors = append(a.rec.Errors, err.Error())
	}
	a.logs.pump(a.opts.Stdout, a.opts.Stderr)
	a.exited = make(chan leaderExit, 1)
	go func() {
		ws, ru, err := a.group.waitLeader()
		a.exited <- leaderExit{ws: ws, ru: ru, err: err, at: time.Now()}
	}()
	// os/exec must not wait: the group's own reaper does. Release drops the pidfd.
	_ = cmd.Process.Release()
	return cmd, nil
}

// errNoGroup: the command started, but runledger could not contain its
// processes (newGroup has stopped it again). The failure is runledger's own.
var errNoGroup = errors.New("runledger could not contain the command's processes, and stopped it")

// startFailed records a command that never ran, with the shell's codes:
// 127 when it was not found, 126 when it could not be executed. When
// runledger itself failed, exit_code stays null and ExitCode gives 125.
func (a *attempt) startFailed(cmd *exec.Cmd, err error) (*record.Record, error) {
	code := 126
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		code = 127
	}
	a.end = time.Now()
	a.logs.drainNow()
	a.rec.Status, a.rec.ExitCode = record.StatusStartFailed, &code
	if errors.Is(err, errNoGroup) {
		a.rec.ExitCode = nil
	}
	a.rec.StartError = err.Error()
	a.rec.Termination = record.TerminationExited
	a.setTimes()
	a.rec.Streams = a.logs.close()
	return a.rec, record.Write(a.dir, a.rec)
}

// abort records runledger's own failure before the command could start.
func (a *attempt) abort(err error) (*record.Record, error) {
	a.end = time.Now()
	a.rec.Status = record.StatusStartFailed
	a.rec.StartError = "runledger: " + err.Error()
	a.rec.Errors = append(a.rec.Errors, err.Error())
	a.setTimes()
	if werr := record.Write(a.dir, a.rec); werr != nil {
		return a.rec, errors.Join(err, werr)
	}
	return a.rec, fmt.Errorf("run %s: %w", a.rec.ID, err)
}

func (a *attempt) setTimes() {
	end := a.rec.StartedAt.Add(a.end.Sub(a.start))
	ms := a.end.Sub(a.start).Milliseconds()
	a.rec.EndedAt, a.rec.DurationMS = &end, &ms
}
