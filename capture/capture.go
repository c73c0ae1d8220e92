// Package capture runs a command and records what the runtime observed:
// its exit status or how it was stopped, its times, and every byte of its
// output, stored beside a record in the run store. It reads no output for
// meaning; that is the report's job.
package capture

import (
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

// Options configure a capture. Zero values are usable defaults except Argv.
type Options struct {
	Name        string
	Argv        []string
	Dir         string        // the command's working directory; "" is the current one
	Env         []string      // nil: the wrapper's environment
	Timeout     time.Duration // 0: none
	KillAfter   time.Duration // grace between the stop signal and SIGKILL
	PipeWait    time.Duration // how long descendants may hold the output open after the command ends
	MaxLogBytes int64         // per stream; 0: unlimited
	Retries     int
	// RetryEffects is RetryEffectsRefuse (also for "") or RetryEffectsAllow.
	RetryEffects string
	Reports      []string // test report file globs, relative to Dir; ** matches any depth
	CI           *record.CI
	Version      string
	// Workspace, when set (GITHUB_WORKSPACE), is written as
	// "$GITHUB_WORKSPACE" in the recorded directory, so that a container's
	// /github/workspace never reaches a pointer a reader follows later.
	Workspace string

	Stdin          io.Reader // nil: no input
	Stdout, Stderr io.Writer // live passthrough; nil: discard
	// Cancel delivers the signals the wrapper itself receives; each is
	// forwarded to the command's process group.
	Cancel <-chan os.Signal
}

// Defaults for Options fields left zero.
const (
	DefaultKillAfter   = 10 * time.Second
	DefaultPipeWait    = 5 * time.Second
	DefaultMaxLogBytes = 4 << 30
)

// Values of Options.RetryEffects.
const (
	RetryEffectsRefuse = "refuse"
	RetryEffectsAllow  = "allow"
)

func (o *Options) defaults() {
	if o.RetryEffects == "" {
		o.RetryEffects = RetryEffectsRefuse
	}
	if o.KillAfter <= 0 {
		o.KillAfter = DefaultKillAfter
	}
	if o.PipeWait <= 0 {
		o.PipeWait = DefaultPipeWait
	}
	if o.Name == "" && len(o.Argv) > 0 {
		o.Name = DefaultName(o.Argv)
	}
	if o.Stdout == nil {
		o.Stdout = io.Discard
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
}

// Run runs the command, retrying per opts.Retries, and returns one record
// per attempt. An error means runledger itself failed; the records it
// returns alongside are still true.
func Run(st *store.Store, opts Options) ([]*record.Record, error) {
	if len(opts.Argv) == 0 {
		return nil, errors.New("run: no command given")
	}
	opts.defaults()
	var recs []*record.Record
	retryOf := ""
	for i := 0; ; i++ {
		rec, err := runAttempt(st, opts, opts.Retries-i, retryOf)
		if rec != nil {
			recs = append(recs, rec)
		}
		if err != nil {
			return recs, err
		}
		if i == opts.Retries || !retryable(rec) || rec.RetryRefused != "" || cancelled(opts.Cancel) {
			return recs, nil
		}
		retryOf = rec.ID
	}
}

// cancelled reports whether the wrapper was told to stop between attempts:
// no retry starts then.
func cancelled(c <-chan os.Signal) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// retryable: only a run that ended badly and is known to be over. Starting
// again on top of a process that may still run would make both results lies.
func retryable(r *record.Record) bool {
	switch r.Status {
	case record.StatusFailed, record.StatusTimedOut, record.StatusSignaled:
	default:
		return false
	}
	if r.Termination != record.TerminationExited && r.Termination != record.TerminationConfirmed {
		return false
	}
	return r.Leftovers == nil || r.Leftovers.Termination == record.TerminationConfirmed
}

// ExitCode is the status the wrapper exits with for a record, following
// timeout(1) and the shell: the command's own code, 124 on timeout, 128+N
// for signal N, 126 not executable, 127 not found.
func ExitCode(r *record.Record) int {
	switch r.Status {
	case record.StatusPassed, record.StatusFailed, record.StatusStartFailed:
		if r.ExitCode != nil {
			return *r.ExitCode
		}
	case record.StatusTimedOut:
		return 124
	case record.StatusSignaled, record.StatusCancelled:
		if r.Signal != nil {
			if n, ok := signalNumber(*r.Signal); ok {
				return 128 + n
			}
		}
	}
	return 125
}

// DefaultName names a run after its command: the program's base name and
// the first argument, enough to tell "go test" from "go vet".
func DefaultName(argv []string) string {
	name := baseName(argv[0])
	if len(argv) > 1 && len(argv[1]) > 0 && argv[1][0] != '-' {
		name += " " + argv[1]
	}
	return name
}

// baseName is the program's name without its directory, and on Windows
// without .exe, so that one command names one run on every OS of a matrix.
func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' || p[i] == os.PathSeparator {
			p = p[i+1:]
			break
		}
	}
	if runtime.GOOS == "windows" && len(p) > 4 && strings.EqualFold(p[len(p)-4:], ".exe") {
		p = p[:len(p)-4]
	}
	return p
}
