package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/compaction"
	"github.com/runledger/runledger/mcptools"
	"github.com/runledger/runledger/store"
)

type expandOptions struct {
	dir, ref string
	store    string    // where compact kept collapsed texts
	art      logSource // where to look when the marker is not in the local store
}

func parseExpandFlags(args []string, getenv func(string) string, stderr io.Writer) (*expandOptions, error) {
	o := &expandOptions{}
	fs := newFlagSet("expand", "[flags] HASH|<<cg:HASH>>", stderr)
	fs.StringVar(&o.dir, "dir", storeDir(getenv), "run store `directory` (env RUNLEDGER_DIR): superseded runs' outputs")
	fs.StringVar(&o.store, "store", "", "`directory` where runledger compact kept collapsed texts (default DIR/.cg, as compact's)")
	fs.StringVar(&o.art.repo, "repo", "", "also look in an uploaded artifact of this `owner/name`")
	fs.Int64Var(&o.art.artifact, "artifact", 0, "artifact `id`, with --repo")
	fs.StringVar(&o.art.zip, "artifact-file", "", "also look in a downloaded artifact `zip`")
	if err := parse(fs, interleaved(fs, args)); err != nil {
		return nil, err
	}
	if fs.NArg() != 1 {
		return nil, &usageError{"want exactly one HASH or marker"}
	}
	o.ref = fs.Arg(0)
	if o.store == "" {
		o.store = filepath.Join(o.dir, mcptools.CompactedDir)
	}
	return o, o.art.check()
}

// cmdExpand prints the original text behind a marker, verified: a
// superseded run's combined log, or an output `runledger compact` collapsed.
func cmdExpand(a *app, args []string) error {
	o, err := parseExpandFlags(args, a.getenv, a.stderr)
	if err != nil {
		return err
	}
	hash, err := compaction.ParseRef(o.ref)
	if err != nil {
		return &usageError{fmt.Sprintf("%q: %v", o.ref, err)}
	}
	st, err := store.Open(o.dir)
	if err != nil {
		return err
	}
	if l, _, err := mcptools.FindRunOutput(st, hash); err != nil || l != nil {
		if err != nil {
			return err
		}
		defer l.Close()
		return l.CopyRange(a.stdout, 0, l.Stream.Bytes)
	}
	text, err := compaction.Expand(&compaction.DirStore{Dir: o.store}, hash)
	if errors.Is(err, compaction.ErrNotFound) && o.art.remote() {
		text, err = a.expandFromArtifact(o, hash)
	}
	if errors.Is(err, compaction.ErrNotFound) {
		return fmt.Errorf("marker %s: no run's output in %s and no compacted text in %s has that hash (compact --store DIR? then expand --store DIR)", hash, st.Dir, o.store)
	}
	if err != nil {
		return err
	}
	_, err = a.stdout.Write(text)
	return err
}

func (a *app) expandFromArtifact(o *expandOptions, hash string) ([]byte, error) {
	ctx := context.Background()
	r, err := a.openArtifact(ctx, &o.art)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return artifact.FindOutput(ctx, r, hash)
}
