package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/runledger/runledger/compaction"
	"github.com/runledger/runledger/mcptools"
)

type compactOptions struct {
	minTokens int
	mode      string
	store     string // where collapsed texts are kept
	defStore  string // the default store, which the expand hint need not name
	decisions string // file for the per-output decisions, "" for none
	prefix    int
	ttl       time.Duration
	cold      bool
}

func parseCompactFlags(args []string, getenv func(string) string, stderr io.Writer) (*compactOptions, error) {
	o := &compactOptions{}
	fs := newFlagSet("compact", "[flags] < outputs.json|request.json", stderr)
	fs.IntVar(&o.minTokens, "min-tokens", compaction.DefaultMinTokens, "leave outputs smaller than this many tokens (bytes/4) alone; -1: no minimum")
	fs.StringVar(&o.mode, "marker-mode", "full", "`mode`: full (store and marker), summary (marker only) or off")
	o.defStore = compactStore(getenv)
	fs.StringVar(&o.store, "store", o.defStore, "`directory` keeping collapsed texts for runledger expand (env RUNLEDGER_DIR: DIR/.cg)")
	fs.StringVar(&o.decisions, "decisions", "", "also write what was decided for each output, as JSON, to this `file`")
	fs.IntVar(&o.prefix, "cache-prefix", -1, "the first `N` outputs are in the provider's prompt cache: only replay frozen decisions there; -1: every output an earlier call emitted")
	fs.DurationVar(&o.ttl, "cache-ttl", 0, "the prompt cache is cold when this transcript's last call is older than this `duration`; 0: never by time")
	fs.BoolVar(&o.cold, "cold-cache", false, "the prompt cache is cold: decide every output afresh")
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
	if o.prefix < -1 {
		return nil, &usageError{fmt.Sprintf("--cache-prefix %d: want a count or -1", o.prefix)}
	}
	if o.ttl < 0 {
		return nil, &usageError{fmt.Sprintf("--cache-ttl %s: want a positive duration or 0", o.ttl)}
	}
	if o.minTokens == 0 || o.minTokens < -1 {
		return nil, &usageError{fmt.Sprintf("--min-tokens %d: want a positive number or -1", o.minTokens)}
	}
	return o, nil
}

// cmdCompact filters a JSON array of {"id","text"} outputs, or an
// Anthropic or OpenAI request body, for an agent harness: superseded
// failed runs collapse to recoverable markers.
func cmdCompact(a *app, args []string) error {
	o, err := parseCompactFlags(args, a.getenv, a.stderr)
	if err != nil {
		return err
	}
	store := &compaction.DirStore{Dir: o.store}
	opts := compaction.Options{MinTokens: o.minTokens, MarkerMode: compaction.MarkerMode(o.mode),
		Cache: &compaction.Cache{Store: store, Prefix: o.prefix, TTL: o.ttl, Cold: o.cold}}
	if filepath.Clean(o.store) != filepath.Clean(o.defStore) {
		opts.Expand = "runledger expand --store " + shellWord(o.store)
	}
	decisions, err := compaction.Filter(a.stdin, a.stdout, opts, store)
	if err != nil {
		return err
	}
	collapsed, frozen := 0, 0
	for _, d := range decisions {
		if d.Decision == compaction.Collapsed {
			collapsed++
		}
		if d.Frozen {
			frozen++
		}
	}
	fmt.Fprintf(a.stderr, "compact: %d of %d outputs collapsed, %d replayed; texts kept in %s\n", collapsed, len(decisions), frozen, o.store)
	if o.decisions == "" {
		return nil
	}
	data, err := json.MarshalIndent(decisions, "", "  ")
	if err != nil {
		return fmt.Errorf("compact: encode decisions: %w", err)
	}
	if err := os.WriteFile(o.decisions, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("compact: write decisions: %w", err)
	}
	return nil
}

// compactStore is where compact keeps collapsed texts and expand looks for
// them unless told otherwise: .cg inside the run store.
func compactStore(getenv func(string) string) string {
	return filepath.Join(storeDir(getenv), mcptools.CompactedDir)
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
