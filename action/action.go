// Package action is the GitHub Action: it runs the command (mode run) or
// takes the runs the CLI captured (mode report), builds the report,
// uploads the logs, and publishes the comment, the annotations, the job
// summary and the step's outputs; mode aggregate publishes a matrix's
// legs in one comment. Publishing problems are warnings: the step's result
// is the command's, never a masked test result.
package action

import (
	"context"
	"io"
	"os"
	"path/filepath"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/baseline"
	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/publish"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
)

// Env is the process around the action, injected so that tests need no
// globals.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Environ is the environment the command starts from (os.Environ).
	Environ func() []string
	// Version is runledger's, recorded in each run.
	Version string
	// Cancel delivers the runner's SIGINT and SIGTERM.
	Cancel <-chan os.Signal
	// FitThreads, when set, sizes the Go runtime for the capture and
	// returns what undoes it (capture.FitThreads); tests leave it nil.
	FitThreads func(getenv func(string) string) (restore func())
	// NewUploader and NewPublisher make the artifact and GitHub clients;
	// nil means the real ones (artifact.NewUploader, publish.New). The
	// uploader masks signed URLs on stdout and asks for retentionDays.
	NewUploader  func(getenv func(string) string, stdout io.Writer, retentionDays int) (Uploader, error)
	NewPublisher func(publish.Config) (Publisher, error)
}

// Uploader stores a workflow run artifact.
type Uploader interface {
	Upload(ctx context.Context, name string, files []artifact.File) (*artifact.Result, error)
}

// Publisher writes to the pull request and reads the run's artifacts, and
// the base commit's (baseline.Actions).
type Publisher interface {
	FindPR(ctx context.Context) (publish.PRRef, error)
	Aggregate(ctx context.Context, pr int, secs []publish.Section) (publish.Result, error)
	RunArtifacts(ctx context.Context, runID int64) (map[string]int64, error)
	ArtifactURL(runID, artifactID int64) string
	JobURL(ctx context.Context, runID int64, attempt int, runner string) (string, error)
	baseline.Actions
}

var (
	_ Uploader  = (*artifact.Uploader)(nil)
	_ Publisher = (*publish.Publisher)(nil)
)

// Run is the action's pipeline: inputs → capture → report → upload and
// publish → outputs. It returns the step's exit status; an error is
// runledger's own failure (bad inputs, an unreadable store), never the
// command's.
func Run(ctx context.Context, env Env) (int, error) {
	s, err := newStep(env)
	if err != nil {
		return 0, err
	}
	defer s.giveBackWorkspace()
	if s.in.mode == "aggregate" {
		return s.aggregate(ctx)
	}
	code, last, err := s.capture()
	if err != nil {
		return 0, err
	}
	rep, err := s.report(ctx, last)
	if err != nil {
		return 0, err
	}
	if last != nil && last.Status == record.StatusCancelled {
		s.publishCancelled(ctx, rep)
	} else {
		s.findJob(ctx)
		s.upload(ctx, rep)
		s.announce(ctx, rep)
	}
	return s.finish(rep, code), nil
}

// capture runs the command in mode run and returns its exit status and
// last record; in the other modes no command of ours runs: -1, nil.
func (s *step) capture() (int, *record.Record, error) {
	if s.in.mode != "run" {
		return -1, nil, nil
	}
	last, err := s.runCommand()
	if err != nil && last == nil {
		return 0, nil, err
	}
	if hint := imageHint(last); hint != "" && s.inImage() {
		s.errorf("%s", hint)
		s.imageWarning = hint
	}
	return capture.ExitCode(last), last, nil
}

// report builds the envelope of the runs to publish: mode run's own run,
// or every run in dir.
func (s *step) report(ctx context.Context, last *record.Record) (*report.Envelope, error) {
	var names []string
	if last != nil {
		names = []string{last.Name}
	}
	var base *report.Baselines
	if last == nil || last.Status != record.StatusCancelled { // a cancelled step has no time to look
		base = s.baselines(ctx, s.runNames(names))
	}
	env, err := report.Build(s.st, report.Options{Names: names, Baseline: base, History: s.in.history})
	if err != nil {
		return nil, err
	}
	for _, err := range report.SaveIndexes(s.st, env) {
		s.warnf("%v", err)
	}
	s.out.reportPath = filepath.Join(s.st.Dir, "report.json")
	if s.imageWarning != "" {
		env.Warnings = append(env.Warnings, s.imageWarning)
	}
	if s.in.prNumber == 0 {
		// The records know the pull request where the event does not: in
		// workflow_run, the triggering run's records downloaded into dir
		// (the event's pull_requests is empty for forks).
		s.in.prNumber = prFromRecords(s.in.dir)
	}
	return env, nil
}
