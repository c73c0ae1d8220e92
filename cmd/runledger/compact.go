package main

import (
	"encoding/json"
	"flag"
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
	o.defStore = compactStore(getenv)
	compactionFlags(fs, &o.minTokens, &o.mode, &o.store, o.defStore)
	fs.StringVar(&o.decisions, "decisions", "", "also write what was decided for each output, as JSON, to this `file`")
	fs.IntVar(&o.prefix, "cache-prefix", -1, "the first `N` outputs are in the provider's prompt cache: only replay frozen decisions there; -1: every output an earlier call emitted")
	fs.DurationVar(&o.ttl, "cache-ttl", 0, cacheTTLUsage)
	fs.BoolVar(&o.cold, "cold-cache", false, "the prompt cache is cold: decide every output afresh")
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, &usageError{fmt.Sprintf("unexpected argument %q: input comes on stdin", fs.Arg(0))}
	}
	if o.prefix < -1 {
		return nil, &usageError{fmt.Sprintf("--cache-prefix %d: want a count or -1", o.prefix)}
	}
	return o, checkCompactionFlags(o.minTokens, o.mode, o.ttl)
}

const cacheTTLUsage = "the prompt cache is cold when this transcript's last call is older than this `duration`; 0: never by time"

// compactionFlags are the flags compact and proxy share.
func compactionFlags(fs *flag.FlagSet, minTokens *int, mode, store *string, defStore string) {
	fs.IntVar(minTokens, "min-tokens", compaction.DefaultMinTokens, "leave outputs smaller than this many tokens (bytes/4) alone; -1: no minimum")
	fs.StringVar(mode, "marker-mode", "full", "`mode`: full (store and marker), summary (marker only) or off")
	fs.StringVar(store, "store", defStore, "`directory` keeping collapsed texts for runledger expand (env RUNLEDGER_DIR: DIR/.cg)")
}

func checkCompactionFlags(minTokens int, mode string, ttl time.Duration) error {
	switch compaction.MarkerMode(mode) {
	case compaction.ModeFull, compaction.ModeSummary, compaction.ModeOff:
	default:
		return &usageError{fmt.Sprintf("--marker-mode %q: want full, summary or off", mode)}
	}
	if ttl < 0 {
		return &usageError{fmt.Sprintf("--cache-ttl %s: want a positive duration or 0", ttl)}
	}
	if minTokens == 0 || minTokens < -1 {
		return &usageError{fmt.Sprintf("--min-tokens %d: want a positive number or -1", minTokens)}
	}
	return nil
}

// expandCommand is the command a pointer line names: compact's default
// store needs no --store.
func expandCommand(store, defStore string) string {
	if filepath.Clean(store) != filepath.Clean(defStore) {
		return "runledger expand --store " + shellWord(store)
	}
	return ""
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
	opts.Expand = expandCommand(o.store, o.defStore)
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
