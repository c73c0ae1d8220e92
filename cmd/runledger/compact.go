package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/runledger/runledger/compaction"
	"github.com/runledger/runledger/mcptools"
)

type compactOptions struct {
	minTokens int
	mode      string
	store     string
}

func parseCompactFlags(args []string, getenv func(string) string, stderr io.Writer) (*compactOptions, error) {
	o := &compactOptions{}
	fs := newFlagSet("compact", "[flags] < outputs.json", stderr)
	fs.IntVar(&o.minTokens, "min-tokens", compaction.DefaultMinTokens, "leave outputs smaller than this many tokens (bytes/4) alone; -1: no minimum")
	fs.StringVar(&o.mode, "marker-mode", "full", "`mode`: full (store and marker), summary (marker only) or off")
	fs.StringVar(&o.store, "store", filepath.Join(storeDir(getenv), mcptools.CompactedDir), "`directory` keeping collapsed texts for runledger expand")
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, &usageError{fmt.Sprintf("unexpected argument %q: input comes on stdin", fs.Arg(0))}
	}
	switch compaction.MarkerMode(o.mode) {
	case compaction.ModeFull, compaction.ModeSummary, compaction.ModeOff:
	default:
		return nil, &usageError{fmt.Sprintf("--marker-mode %q: want full, summary or off", o.mode)}
	}
	if o.minTokens == 0 || o.minTokens < -1 {
		return nil, &usageError{fmt.Sprintf("--min-tokens %d: want a positive number or -1", o.minTokens)}
	}
	return o, nil
}

// cmdCompact filters a JSON array of {"id","text"} outputs for an agent
// harness: earlier failed runs collapse to recoverable markers.
func cmdCompact(a *app, args []string) error {
	o, err := parseCompactFlags(args, a.getenv, a.stderr)
	if err != nil {
		return err
	}
	opts := compaction.Options{MinTokens: o.minTokens, MarkerMode: compaction.MarkerMode(o.mode)}
	return compaction.Filter(a.stdin, a.stdout, opts, &compaction.DirStore{Dir: o.store})
}
