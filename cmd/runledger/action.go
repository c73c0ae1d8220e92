package main

import (
	"context"
	"os"

	"github.com/runledger/runledger/action"
)

// cmdAction is the Action's entrypoint (the image's CMD, and the report
// action's step on any runner): the action package does the work; the
// step's exit status is the command's, runledger's own failures 125.
func cmdAction(a *app, _ []string) error {
	code, err := action.Run(context.Background(), action.Env{
		Stdout: a.stdout, Stderr: a.stderr, Getenv: a.getenv, Environ: os.Environ,
		Version: buildVersion(), Cancel: wrapperSignals(), FitThreads: a.fitThreads,
	})
	if err != nil {
		return err
	}
	return exitStatus(code)
}
