package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runledger/runledger/mcptools"
)

type mcpOptions struct {
	dir            string
	store          string
	allowRun       bool
	maxResultBytes int
}

func parseMCPFlags(args []string, getenv func(string) string, stderr io.Writer) (*mcpOptions, error) {
	o := &mcpOptions{}
	fs := newFlagSet("mcp", "[flags]   (an MCP server on stdin/stdout)", stderr)
	fs.StringVar(&o.dir, "dir", storeDir(getenv), "run store `directory` (env RUNLEDGER_DIR)")
	fs.StringVar(&o.store, "store", "", "`directory` where runledger compact kept collapsed texts, for expand (default DIR/.cg, as compact's)")
	fs.BoolVar(&o.allowRun, "allow-run", false, "offer the run tool, which executes commands in the working directory")
	fs.IntVar(&o.maxResultBytes, "max-result-bytes", mcptools.DefaultMaxResultBytes,
		fmt.Sprintf("bound on each tool result, text plus JSON, in `bytes` (at least %d)", mcptools.MinResultBytes))
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, &usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if o.maxResultBytes < mcptools.MinResultBytes {
		return nil, &usageError{fmt.Sprintf("--max-result-bytes %d: want at least %d", o.maxResultBytes, mcptools.MinResultBytes)}
	}
	return o, nil
}

// cmdMCP serves until the client closes stdin or the process is told to
// stop; a stop cancels running commands, which are recorded as cancelled.
func cmdMCP(a *app, args []string) error {
	o, err := parseMCPFlags(args, a.getenv, a.stderr)
	if err != nil {
		return err
	}
	srv, err := mcptools.NewServer(mcptools.Options{StoreDir: o.dir, CompactStore: o.store, AllowRun: o.allowRun,
		MaxResultBytes: o.maxResultBytes, Getenv: a.getenv, Version: buildVersion()})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// A client gone away must give write errors, not kill the server mid-record.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	t := &mcp.IOTransport{Reader: io.NopCloser(a.stdin), Writer: nopWriteCloser{a.stdout}}
	err = srv.Run(ctx, t)
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return fmt.Errorf("serve: %w", err)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
