package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"hash"
	"io"
	"strconv"
	"strings"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/githubapi"
	"github.com/runledger/runledger/logread"
	"github.com/runledger/runledger/store"
)

type showOptions struct {
	source logSource
	sha256 string
	run    string
	rng    string // "A:B" original byte offsets
	lines  string // "A:B" 1-based, inclusive, lines of the stored file
}

// logSource says where show and grep read a run's log: the local store,
// an uploaded artifact, or a downloaded artifact zip.
type logSource struct {
	dir      string
	stream   string
	repo     string
	artifact int64
	zip      string
	blocks   string // blocks_sha256 from the run's envelope, pinning the artifact's manifest
}

func (s *logSource) flags(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&s.dir, "dir", storeDir(getenv), "run store `directory` (env RUNLEDGER_DIR)")
	fs.StringVar(&s.stream, "stream", "output", "`stream`: stdout, stderr or output, or a junit/NNN-name.xml file an excerpt cites")
	fs.StringVar(&s.repo, "repo", "", "read from an uploaded artifact of this `owner/name` (token from GITHUB_TOKEN or GH_TOKEN)")
	fs.Int64Var(&s.artifact, "artifact", 0, "artifact `id` to read from, with --repo")
	fs.StringVar(&s.zip, "artifact-file", "", "read from a downloaded artifact `zip`")
	fs.StringVar(&s.blocks, "blocks-sha256", "", "with an artifact: fail unless its manifest's block list for the log has this `hex` sha256 (logs.*.blocks_sha256 in the report)")
}

func (s *logSource) check() error {
	switch {
	case (s.repo != "") != (s.artifact != 0):
		return &usageError{"an artifact read needs --repo and --artifact together"}
	case s.zip != "" && s.artifact != 0:
		return &usageError{"--artifact-file excludes --artifact"}
	case s.blocks != "" && !s.remote():
		return &usageError{"--blocks-sha256 pins an artifact's log: give --repo and --artifact, or --artifact-file"}
	}
	return nil
}

// openRunStream opens the run's stream in an artifact and pins its block
// list when src names a blocks_sha256.
func (s *logSource) openRunStream(ctx context.Context, r *artifact.Reader, run string) (*artifact.RunStream, error) {
	rs, err := artifact.OpenRunStream(ctx, r, run, s.stream)
	if err == nil && s.blocks != "" {
		err = rs.Pin(s.blocks)
	}
	if err != nil {
		return nil, fmt.Errorf("artifact: %w", err)
	}
	return rs, nil
}

func (s *logSource) remote() bool { return s.artifact != 0 || s.zip != "" }

func parseShowFlags(args []string, getenv func(string) string, stderr io.Writer) (*showOptions, error) {
	o := &showOptions{}
	fs := newFlagSet("show", "[flags] RUN   (RUN: a run id, a unique id prefix, or a run name for its latest attempt)", stderr)
	o.source.flags(fs, getenv)
	fs.StringVar(&o.rng, "range", "", "byte range `A:B` in original stream offsets, B exclusive")
	fs.StringVar(&o.lines, "lines", "", "line range `A:B`, 1-based and inclusive")
	fs.StringVar(&o.sha256, "sha256", "", "fail unless the bytes printed have this `hex` sha256 (a cited excerpt's hash)")
	if err := parse(fs, interleaved(fs, args)); err != nil {
		return nil, err
	}
	if fs.NArg() != 1 {
		return nil, &usageError{"want exactly one RUN argument"}
	}
	o.run = fs.Arg(0)
	if o.rng != "" && o.lines != "" {
		return nil, &usageError{"--range and --lines exclude each other"}
	}
	if o.source.remote() && o.rng == "" && o.lines == "" {
		return nil, &usageError{"an artifact read needs --range or --lines: a log can be large"}
	}
	return o, o.source.check()
}

func cmdShow(a *app, args []string) error {
	o, err := parseShowFlags(args, a.getenv, a.stderr)
	if err != nil {
		return err
	}
	w := io.Writer(a.stdout)
	var check *hashCheck
	if o.sha256 != "" {
		check = &hashCheck{want: o.sha256, h: sha256.New()}
		w = io.MultiWriter(&check.buf, check.h)
	}
	if err := a.show(o, w); err != nil {
		return err
	}
	if check != nil {
		return check.flush(a.stdout)
	}
	return nil
}

// hashCheck holds the bytes until their hash is confirmed: a mismatch
// prints nothing, so no unverified byte reaches the reader.
type hashCheck struct {
	want string
	h    hash.Hash
	buf  bytes.Buffer
}

func (c *hashCheck) flush(w io.Writer) error {
	if got := hex.EncodeToString(c.h.Sum(nil)); got != strings.ToLower(c.want) {
		return fmt.Errorf("sha256 of the range is %s, not the cited %s: nothing printed", got, c.want)
	}
	_, err := c.buf.WriteTo(w)
	return err
}

func (a *app) show(o *showOptions, w io.Writer) error {
	if o.source.remote() && o.rng != "" {
		return a.showArtifact(o, w)
	}
	l, closeLog, err := a.openSourceLog(context.Background(), &o.source, o.run)
	if err != nil {
		return err
	}
	defer closeLog()
	switch {
	case o.rng != "":
		start, end, err := parseSpan("--range", o.rng)
		if err != nil {
			return err
		}
		return l.CopyRange(w, start, end)
	case o.lines != "":
		first, last, err := parseSpan("--lines", o.lines)
		if err != nil {
			return err
		}
		return l.CopyLines(w, first, last)
	}
	return l.CopyRange(w, 0, l.Stream.Bytes)
}

// showArtifact reads a cited range from an uploaded artifact: the API's
// redirect, then HTTP range requests for just those bytes.
func (a *app) showArtifact(o *showOptions, w io.Writer) error {
	start, end, err := parseSpan("--range", o.rng)
	if err != nil {
		return err
	}
	ctx := context.Background()
	r, err := a.openArtifact(ctx, &o.source)
	if err != nil {
		return err
	}
	defer r.Close()
	rs, err := o.source.openRunStream(ctx, r, o.run)
	if err != nil {
		return err
	}
	a.sayChecks(rs)
	data, err := rs.ReadOriginal(ctx, start, end)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// openSourceLog opens the run's stream where src says: the local store
// (verified whole first), or an artifact entry read in ranged blocks once
// its manifest ties it to the run's record.
func (a *app) openSourceLog(ctx context.Context, src *logSource, run string) (*logread.Log, func(), error) {
	if !src.remote() {
		l, err := openLog(src.dir, run, src.stream)
		if err != nil {
			return nil, nil, err
		}
		return l, func() { l.Close() }, nil
	}
	r, err := a.openArtifact(ctx, src)
	if err != nil {
		return nil, nil, err
	}
	rs, err := src.openRunStream(ctx, r, run)
	if err != nil {
		r.Close()
		return nil, nil, err
	}
	a.sayChecks(rs)
	l := logread.FromReaderAt(src.stream, rs.Record.Streams[src.stream], rs.Stored(ctx))
	return l, func() { r.Close() }, nil
}

// sayChecks tells, on stderr, how an artifact's log was tied to its run
// record and how its bytes are checked as they are read: a local log is
// hashed whole before any read, an artifact's block by block against its
// manifest (pinned by --blocks-sha256), and one without says so.
func (a *app) sayChecks(rs *artifact.RunStream) {
	for _, c := range rs.Checks {
		fmt.Fprintf(a.stderr, "runledger: artifact %s: %s\n", rs.Entry, c)
	}
}

// openLog finds a run's stream and checks the stored file against the
// record's hash before anything is read from it.
func openLog(dir, ref, stream string) (*logread.Log, error) {
	st, err := store.Open(dir)
	if err != nil {
		return nil, err
	}
	rec, runDir, err := st.Find(ref)
	if err != nil {
		return nil, err
	}
	return logread.Open(runDir, rec, stream)
}

// parseSpan reads "A:B" with A <= B, both non-negative.
func parseSpan(flagName, s string) (int64, int64, error) {
	a, b, ok := strings.Cut(s, ":")
	start, err1 := strconv.ParseInt(a, 10, 64)
	end, err2 := strconv.ParseInt(b, 10, 64)
	if !ok || err1 != nil || err2 != nil || start < 0 || end < start {
		return 0, 0, &usageError{fmt.Sprintf("%s %q: want A:B with 0 <= A <= B", flagName, s)}
	}
	return start, end, nil
}

// interleaved moves the positional arguments after the flags, so that
// `runledger show RUN --range 0:10` works: the flag package stops at the
// first positional argument.
func interleaved(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			return append(append(flags, "--"), pos...)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if f := fs.Lookup(name); f != nil && !strings.Contains(name, "=") && !isBool(f) && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		default:
			pos = append(pos, a)
		}
	}
	return append(append(flags, "--"), pos...)
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func (a *app) openArtifact(ctx context.Context, o *logSource) (*artifact.Reader, error) {
	if o.zip != "" {
		return artifact.OpenFile(o.zip)
	}
	return githubapi.OpenArtifactFromEnv(ctx, nil, a.getenv, o.repo, o.artifact)
}
