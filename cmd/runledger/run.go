package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

type runOptions struct {
	dir         string
	name        string
	timeout     time.Duration
	killAfter   time.Duration
	pipeWait    time.Duration
	maxLogBytes int64
	retries     int
	retryEff    string
	reports     []string
	quiet       bool
	report      bool
	rep         reportOptions
	argv        []string
}

type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

func parseRunFlags(args []string, getenv func(string) string, stderr io.Writer) (*runOptions, error) {
	o := &runOptions{}
	fs := newFlagSet("run", "[flags] -- COMMAND [ARG...]", stderr)
	fs.StringVar(&o.dir, "dir", storeDir(getenv), "run store `directory` (env RUNLEDGER_DIR)")
	fs.StringVar(&o.name, "name", "", "run name; attempts of one name are numbered (default: the command's first words)")
	fs.DurationVar(&o.timeout, "timeout", 0, "stop the command after this `duration` (0: no limit); exit 124")
	fs.DurationVar(&o.killAfter, "kill-after", capture.DefaultKillAfter, "grace between SIGTERM and SIGKILL")
	fs.DurationVar(&o.pipeWait, "pipe-wait", capture.DefaultPipeWait, "how long descendants may hold the output open after the command exits")
	fs.Int64Var(&o.maxLogBytes, "max-log-bytes", capture.DefaultMaxLogBytes, "per stream: past this many `bytes` keep the head and the tail (0: no cap)")
	fs.IntVar(&o.retries, "retries", 0, "run again up to `N` times while the command fails")
	fs.StringVar(&o.retryEff, "retry-effects", capture.RetryEffectsRefuse, "`refuse` to retry an attempt that modified or deleted tracked files, or allow")
	fs.Var((*repeated)(&o.reports), "reports", "test report `glob` written by the command: JUnit, NUnit, xUnit.net, TRX, CTRF, mocha/jest/RSpec/Dart JSON, go test -json (repeatable; ** allowed; --junit is an alias)")
	fs.Var((*repeated)(&o.reports), "junit", "alias of --reports: a test report `glob` of any of its formats, not only JUnit")
	fs.BoolVar(&o.quiet, "quiet", false, "do not pass the command's output through")
	fs.BoolVar(&o.report, "report", false, "after the run, print its report on stdout")
	addReportFlags(fs, &o.rep)
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	o.argv = fs.Args()
	if err := o.rep.validate(); err != nil {
		return nil, err
	}
	return o, o.validate()
}

func (o *runOptions) validate() error {
	switch {
	case len(o.argv) == 0:
		return &usageError{"no command given: runledger run [flags] -- COMMAND [ARG...]"}
	case o.timeout < 0:
		return &usageError{fmt.Sprintf("--timeout %s: must not be negative", o.timeout)}
	case o.killAfter <= 0:
		return &usageError{fmt.Sprintf("--kill-after %s: must be positive", o.killAfter)}
	case o.pipeWait <= 0:
		return &usageError{fmt.Sprintf("--pipe-wait %s: must be positive", o.pipeWait)}
	case o.maxLogBytes < 0 || o.maxLogBytes == 1:
		return &usageError{fmt.Sprintf("--max-log-bytes %d: must be 0 (no cap) or at least 2", o.maxLogBytes)}
	case o.retries < 0:
		return &usageError{fmt.Sprintf("--retries %d: must not be negative", o.retries)}
	case o.retryEff != capture.RetryEffectsRefuse && o.retryEff != capture.RetryEffectsAllow:
		return &usageError{fmt.Sprintf("--retry-effects %q: want refuse or allow", o.retryEff)}
	}
	return nil
}

func storeDir(getenv func(string) string) string {
	if d := getenv("RUNLEDGER_DIR"); d != "" {
		return d
	}
	return store.DefaultDir
}

func cmdRun(a *app, args []string) error {
	o, err := parseRunFlags(args, a.getenv, a.stderr)
	if err != nil {
		return err
	}
	return a.run(o)
}

// run captures the command and exits with its status. runledger's own
// failure after the command ran keeps a failing command's status, but a
// passing command whose record could not be kept is not a success.
func (a *app) run(o *runOptions) error {
	st, err := store.Open(o.dir)
	if err != nil {
		return err
	}
	recs, err := a.capture(st, a.captureOptions(o, wrapperSignals()))
	if len(recs) == 0 {
		return err
	}
	last := recs[len(recs)-1]
	if !o.quiet {
		a.sayDone(st, recs)
	}
	if o.report {
		o.rep.dir, o.rep.names = o.dir, []string{last.Name}
		if rerr := a.report(&o.rep); rerr != nil {
			err = errors.Join(err, rerr)
		}
	}
	code := capture.ExitCode(last)
	if err != nil {
		fmt.Fprintf(a.stderr, "runledger run: %v\n", err)
	}
	for _, e := range last.Errors {
		fmt.Fprintf(a.stderr, "runledger run: %s: %s\n", last.ID, e)
	}
	if code == 0 && (err != nil || !last.Passed()) {
		// Exit 0 would claim a success the record cannot back.
		code = 125
	}
	return exitStatus(code)
}

// capture runs capture.Run with the runtime fitted to it, if the app says how.
func (a *app) capture(st *store.Store, opts capture.Options) ([]*record.Record, error) {
	if a.fitThreads != nil {
		defer a.fitThreads(a.getenv)()
	}
	return capture.Run(st, opts)
}

// wrapperSignals delivers the signals that stop the wrapper (a cancelled
// job, Ctrl-C) so capture can forward them to the command's group.
func wrapperSignals() <-chan os.Signal {
	cancel := make(chan os.Signal, 2)
	signal.Notify(cancel, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	// A closed terminal must give write errors, not kill the wrapper mid-record.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	return cancel
}

func exitStatus(code int) error {
	if code == 0 {
		return nil
	}
	return &exitError{code}
}

func (a *app) captureOptions(o *runOptions, cancel <-chan os.Signal) capture.Options {
	opts := capture.Options{
		Name: o.name, Argv: o.argv, Timeout: o.timeout, KillAfter: o.killAfter,
		PipeWait: o.pipeWait, MaxLogBytes: o.maxLogBytes, Retries: o.retries, RetryEffects: o.retryEff,
		Reports: o.reports, CI: capture.CIFromEnv(a.getenv), Version: buildVersion(), Workspace: a.getenv("GITHUB_WORKSPACE"),
		Stdin: a.stdin, Stdout: a.stdout, Stderr: a.stderr, Cancel: cancel,
	}
	if o.quiet {
		opts.Stdout, opts.Stderr = nil, nil
	}
	return opts
}

// sayDone prints one line per attempt, the way gotestsum closes a run, so
// the workflow log tells where the full record is.
func (a *app) sayDone(st *store.Store, recs []*record.Record) {
	for _, r := range recs {
		what := string(r.Status)
		switch {
		case r.ExitCode != nil && r.Status != record.StatusPassed:
			what += fmt.Sprintf(" (exit %d)", *r.ExitCode)
		case r.Signal != nil:
			what += fmt.Sprintf(" (%s)", *r.Signal)
		}
		dur := ""
		if r.DurationMS != nil {
			dur = " in " + (time.Duration(*r.DurationMS) * time.Millisecond).String()
		}
		fmt.Fprintf(a.stderr, "runledger: %s attempt %d %s%s; record %s\n",
			r.Name, r.Attempt, what, dur, filepath.Join(st.Dir, r.ID, record.FileName))
		for _, why := range []string{r.RetryRefused, r.RetryAllowed} {
			if why != "" {
				fmt.Fprintf(a.stderr, "runledger: %s\n", why)
			}
		}
	}
}
