// Command runledger wraps a test or build command, records what the runtime
// observed, and reports it honestly. main only routes: each subcommand
// parses its flags into an options struct and runs, and this file maps
// every outcome to an exit status in one place.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/runledger/runledger/capture"
)

// version is stamped at build time (-ldflags "-X main.version=v1.2.3").
var version = ""

// app is the process's I/O, injected so tests run commands without globals.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// fitThreads, when set, sizes the Go runtime for a capture and returns
	// what undoes it; tests leave it nil, their process is not one capture.
	fitThreads func(getenv func(string) string) (restore func())
}

type command struct {
	name, summary string
	run           func(a *app, args []string) error
	// ownStatus: the command's exit status belongs to a wrapped command, so
	// runledger's own failures use 125, as timeout(1) and env(1) do.
	ownStatus bool
}

func commands() []command {
	return []command{
		{name: "run", summary: "run a command and record what happened", run: cmdRun, ownStatus: true},
		{name: "report", summary: "render the store as Markdown or the JSON envelope", run: cmdReport},
		{name: "show", summary: "print a verified byte or line range of a run's log", run: cmdShow},
		{name: "grep", summary: "search a run's log; matches with line numbers and byte offsets", run: cmdGrep},
		{name: "expand", summary: "print the original text behind a <<cg:HASH>> marker", run: cmdExpand},
		{name: "compact", summary: "collapse superseded failed runs in a JSON array of outputs", run: cmdCompact},
		{name: "proxy", summary: "compact tool outputs between an agent and the Anthropic or OpenAI API (HTTP)", run: cmdProxy},
		{name: "mcp", summary: "serve runs, reports and logs to agents over MCP (stdio)", run: cmdMCP},
		{name: "action", summary: "the GitHub Action's entrypoint (reads INPUT_*)", run: cmdAction, ownStatus: true},
		{name: "version", summary: "print the version", run: cmdVersion},
	}
}

func main() {
	a := &app{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv,
		fitThreads: capture.FitThreads}
	os.Exit(a.main(os.Args[1:]))
}

func (a *app) main(args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		a.usage()
		return exitUsage(len(args) == 0)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return a.status(c, c.run(a, args[1:]))
		}
	}
	fmt.Fprintf(a.stderr, "runledger: unknown command %q\n", args[0])
	a.usage()
	return 2
}

func exitUsage(bad bool) int {
	if bad {
		return 2
	}
	return 0
}

// exitError carries a wrapped command's exit status, which is not an error
// of runledger's and is passed through without a message.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// usageError is a bad invocation; the message says what was wrong.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// errHelp is returned when -h was asked for: usage was printed, all is well.
var errHelp = errors.New("help requested")

func (a *app) status(c command, err error) int {
	var ee *exitError
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errHelp):
		return 0
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		fmt.Fprintf(a.stderr, "runledger %s: %s\n", c.name, ue.msg)
		if c.ownStatus {
			return 125
		}
		return 2
	}
	fmt.Fprintf(a.stderr, "runledger %s: %v\n", c.name, err)
	if c.ownStatus {
		return 125
	}
	return 1
}

func (a *app) usage() {
	fmt.Fprintln(a.stderr, "usage: runledger <command> [flags] [args]")
	fmt.Fprintln(a.stderr, "\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(a.stderr, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(a.stderr, "\nrun 'runledger <command> -h' for a command's flags")
}

func cmdVersion(a *app, _ []string) error {
	fmt.Fprintln(a.stdout, "runledger", buildVersion())
	return nil
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
