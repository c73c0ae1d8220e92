package mcptools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
)

// RunInput is a command to run in the project.
type RunInput struct {
	Command string   `json:"command,omitempty" jsonschema:"shell command, run with sh -c; give this or argv"`
	Argv    []string `json:"argv,omitempty" jsonschema:"program and arguments, run without a shell; give this or command"`
	Dir     string   `json:"dir,omitempty" jsonschema:"working directory relative to the server's; it must stay inside it"`
	Timeout string   `json:"timeout,omitempty" jsonschema:"stop the command after this duration, e.g. 90s or 10m; default none"`
	Name    string   `json:"name,omitempty" jsonschema:"run name; attempts of one name are numbered and earlier ones superseded (default: the command's first words)"`
}

// RunOutput is the run's entry in the report: the latest attempt of its
// name, which is this run, and the earlier attempts it supersedes.
type RunOutput struct {
	// Status is the report's status over this run name; only "passed" is a success.
	Status     string              `json:"status"`
	Run        report.Run          `json:"run"`
	Superseded []report.Superseded `json:"superseded"`
	Omitted    *report.Omitted     `json:"omitted,omitempty"`
	// Errors are runledger's own failures around the run; with any of
	// them the status is never "passed".
	Errors  []string `json:"errors,omitempty"`
	LeftOut []string `json:"left_out,omitempty"`
}

func (t *tools) run(ctx context.Context, _ *mcp.CallToolRequest, in RunInput) (*mcp.CallToolResult, RunOutput, error) {
	opts, err := t.captureOptions(in)
	if err != nil {
		return nil, RunOutput{}, err
	}
	// Cancellation from the client stops the command like a SIGTERM to
	// `runledger run` would: the group is stopped and the record says cancelled.
	cancel := make(chan os.Signal, 1)
	stop := context.AfterFunc(ctx, func() { cancel <- syscall.SIGTERM })
	defer stop()
	opts.Cancel = cancel
	recs, runErr := capture.Run(t.store, opts)
	if len(recs) == 0 {
		return nil, RunOutput{}, fmt.Errorf("run %q: %w", opts.Name, runErr)
	}
	last := recs[len(recs)-1]
	env, err := report.Build(t.store, report.Options{Names: []string{last.Name}})
	if err != nil {
		return nil, RunOutput{}, fmt.Errorf("run %s finished %s, but its report failed: %w", last.ID, last.Status, err)
	}
	if len(env.Runs) != 1 || env.Runs[0].ID != last.ID {
		return nil, RunOutput{}, fmt.Errorf("run %s finished %s, but a later attempt of %q started meanwhile: call report", last.ID, last.Status, last.Name)
	}
	errs := runErrors(runErr, last)
	out, text := fitEnvelope(env, t.budget, true, func(e *report.Envelope, leftOut []string) (RunOutput, string) {
		return runOutput(e, errs, leftOut)
	})
	return textResult(text), out, nil
}

func runErrors(runErr error, last *record.Record) []string {
	var errs []string
	if runErr != nil {
		errs = append(errs, runErr.Error())
	}
	return append(errs, last.Errors...)
}

func runOutput(e *report.Envelope, errs, leftOut []string) (RunOutput, string) {
	out := RunOutput{Status: e.Status, Superseded: e.Superseded, Omitted: e.Omitted, Errors: errs, LeftOut: leftOut}
	if len(e.Runs) > 0 {
		out.Run = e.Runs[0]
	}
	if out.Run.Logs == nil {
		out.Run.Logs = map[string]report.Log{}
	}
	if len(errs) > 0 && out.Status == string(record.StatusPassed) {
		// runledger failed around a passing command: the record cannot back a success.
		out.Status = "unverified"
	}
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "runledger error: %s\n", e)
	}
	view := *e
	view.Status = out.Status
	return out, envText(&view, leftOut) + b.String()
}

func (t *tools) captureOptions(in RunInput) (capture.Options, error) {
	argv, err := in.argv()
	if err != nil {
		return capture.Options{}, err
	}
	dir, err := confine(t.workDir, in.Dir)
	if err != nil {
		return capture.Options{}, err
	}
	var timeout time.Duration
	if in.Timeout != "" {
		if timeout, err = time.ParseDuration(in.Timeout); err != nil || timeout < 0 {
			return capture.Options{}, fmt.Errorf("timeout %q: want a duration such as 90s or 10m", in.Timeout)
		}
	}
	name := in.Name
	if name == "" && in.Command != "" {
		name = capture.DefaultName(strings.Fields(in.Command))
	}
	// Stdin, Stdout and Stderr stay nil: on stdio they are the protocol.
	return capture.Options{Name: name, Argv: argv, Dir: dir, Timeout: timeout,
		CI: capture.CIFromEnv(t.opts.Getenv), Version: t.opts.Version}, nil
}

func (in RunInput) argv() ([]string, error) {
	switch {
	case in.Command != "" && len(in.Argv) > 0:
		return nil, errors.New("give command or argv, not both")
	case strings.TrimSpace(in.Command) != "":
		return []string{"sh", "-c", in.Command}, nil
	case len(in.Argv) > 0 && in.Argv[0] != "":
		return in.Argv, nil
	}
	return nil, errors.New("no command: give command (run with sh -c) or argv")
}

// confine resolves dir against root and refuses anything outside root,
// through ".." or a symlink alike.
func confine(root, dir string) (string, error) {
	p := dir
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, dir)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("dir %q: %w", dir, err)
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", fmt.Errorf("dir %q: outside the server's working directory %s", dir, root)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("dir %q: not a directory", dir)
	}
	return real, nil
}
