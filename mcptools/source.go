package mcptools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/logread"
	"github.com/runledger/runledger/record"
)

func sha256Hex(p []byte) string {
	sum := sha256.Sum256(p)
	return hex.EncodeToString(sum[:])
}

// findRun resolves a run reference and keeps every path it leads to inside
// the store: a record whose id or stream files name anything but a plain
// file of its own directory is refused.
func (t *tools) findRun(ref string) (*record.Record, string, error) {
	if ref == "" {
		return nil, "", fmt.Errorf("run: give a run id, id prefix or run name")
	}
	rec, _, err := t.store.Find(ref)
	if err != nil {
		return nil, "", err
	}
	dir, err := t.store.RunDir(rec.ID)
	if err != nil {
		return nil, "", err
	}
	for name, s := range rec.Streams {
		if !plainName(s.File) {
			return nil, "", fmt.Errorf("run %s: stream %s names file %q outside its run directory", rec.ID, name, s.File)
		}
	}
	return rec, dir, nil
}

func plainName(name string) bool {
	return name != "" && name == filepath.Base(name) && !strings.HasPrefix(name, ".")
}

// localSource is a stream of the local store, verified when opened.
type localSource struct {
	log *logread.Log
	run string
}

func (t *tools) openLocal(ref, stream string) (*localSource, error) {
	rec, dir, err := t.findRun(ref)
	if err != nil {
		return nil, err
	}
	l, err := logread.Open(dir, rec, stream)
	if err != nil {
		return nil, err
	}
	return &localSource{log: l, run: rec.ID}, nil
}

func (s *localSource) read(_ context.Context, start, end int64) ([]byte, error) {
	var b bytes.Buffer
	err := s.log.CopyRange(&b, start, end)
	return b.Bytes(), err
}

func (s *localSource) hash(_ context.Context, start, end int64) (string, error) {
	h := sha256.New()
	if err := s.log.CopyRange(h, start, end); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// lines maps 1-based inclusive line numbers of the stored file to original
// byte offsets; lines past the end are dropped, as show --lines does.
func (s *localSource) lines(first, last int64) (int64, int64, error) {
	if first < 1 {
		return 0, 0, fmt.Errorf("lines %d:%d: lines count from 1", first, last)
	}
	start, end := int64(-1), int64(-1)
	err := s.log.Lines(func(ln logread.Line) bool {
		if ln.Number == first {
			start = ln.Start
		}
		if ln.Number >= first && ln.Number <= last {
			end = ln.End
		}
		return ln.Number < last
	})
	if err != nil {
		return 0, 0, err
	}
	if start < 0 {
		return 0, 0, fmt.Errorf("lines %d:%d: %s of run %s has fewer than %d lines", first, last, s.log.Name, s.run, first)
	}
	return start, end, nil
}

func (s *localSource) info() (string, string, string, int64, []string) {
	return s.run, s.log.Name, "store", s.log.Stream.Bytes,
		[]string{"stored file's size and sha256 match the run record"}
}

func (s *localSource) call(start, end int64) string {
	return showCall(s.run, s.log.Name, start, end)
}

func (s *localSource) Close() error { return s.log.Close() }

// artifactSource is a stream inside a GitHub Actions artifact, laid out as
// artifact.RunFiles writes it: "<run-id>/record.json", "<run-id>/<stream>.log".
type artifactSource struct {
	repo   string
	id     int64
	r      *artifact.Reader
	entry  string
	run    string
	stream string
	s      *record.Stream
	checks []string
}

func (t *tools) openArtifact(ctx context.Context, repo string, id int64, ref, stream string) (*artifactSource, error) {
	if repo == "" || id <= 0 {
		return nil, fmt.Errorf("artifact reads need both repo (owner/name) and a positive artifact_id")
	}
	token := t.opts.Getenv("GITHUB_TOKEN")
	if token == "" {
		token = t.opts.Getenv("GH_TOKEN")
	}
	api := t.opts.Getenv("GITHUB_API_URL")
	if api == "" {
		api = "https://api.github.com"
	}
	r, err := artifact.Open(ctx, t.opts.HTTPClient, api, repo, id, token)
	if err != nil {
		return nil, err
	}
	src, err := artifactStream(ctx, r, ref, stream)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("artifact %d of %s: %w", id, repo, err)
	}
	src.repo, src.id = repo, id
	return src, nil
}

func artifactStream(ctx context.Context, r *artifact.Reader, ref, stream string) (*artifactSource, error) {
	run, err := artifactRun(r, ref)
	if err != nil {
		return nil, err
	}
	rec, err := artifactRecord(ctx, r, run)
	if err != nil {
		return nil, err
	}
	s, ok := rec.Streams[stream]
	if !ok {
		return nil, fmt.Errorf("stream %q: run %s has none (want stdout, stderr or output)", stream, run)
	}
	if !plainName(s.File) {
		return nil, fmt.Errorf("run %s: stream %s names file %q outside its run directory", run, stream, s.File)
	}
	src := &artifactSource{r: r, entry: path.Join(run, s.File), run: run, stream: stream, s: s}
	src.checks, err = manifestCheck(ctx, r, src.entry, s)
	return src, err
}

// artifactRun finds the run directory ref names: an exact run id or a
// unique prefix of one.
func artifactRun(r *artifact.Reader, ref string) (string, error) {
	if ref == "" {
		return "", fmt.Errorf("run: give the run id the artifact holds")
	}
	var found []string
	for _, e := range r.Entries() {
		dir, file := path.Split(e.Name)
		dir = strings.TrimSuffix(dir, "/")
		if file != record.FileName || !strings.HasPrefix(dir, ref) {
			continue
		}
		if dir == ref {
			return dir, nil
		}
		found = append(found, dir)
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("run %q: the artifact holds no run with that id", ref)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("run %q: ambiguous, %d runs in the artifact start with it", ref, len(found))
}

func artifactRecord(ctx context.Context, r *artifact.Reader, run string) (*record.Record, error) {
	data, err := r.ReadFile(ctx, path.Join(run, record.FileName))
	if err != nil {
		return nil, err
	}
	var rec record.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("decode %s/%s: %w", run, record.FileName, err)
	}
	if rec.Schema != record.Schema {
		return nil, fmt.Errorf("decode %s/%s: schema %q, want %q", run, record.FileName, rec.Schema, record.Schema)
	}
	return &rec, nil
}

// manifestCheck ties the log entry to the record: the manifest's sha256 was
// computed while the artifact was written. Without a manifest the result
// says the entry is unchecked rather than pretending.
func manifestCheck(ctx context.Context, r *artifact.Reader, entry string, s *record.Stream) ([]string, error) {
	m, err := r.Manifest(ctx)
	if err != nil {
		return []string{fmt.Sprintf("NOT checked against the record: no readable manifest (%v)", err)}, nil
	}
	for _, e := range m.Entries {
		if e.Name != entry {
			continue
		}
		if e.SHA256 != s.SHA256 || e.Size != s.StoredBytes {
			return nil, fmt.Errorf("%s: the manifest says %d bytes sha256 %s, the run record %d bytes sha256 %s",
				entry, e.Size, e.SHA256, s.StoredBytes, s.SHA256)
		}
		return []string{"artifact manifest's size and sha256 of the log match the run record"}, nil
	}
	return nil, fmt.Errorf("%s: not in the artifact's manifest", entry)
}

func (s *artifactSource) read(ctx context.Context, start, end int64) ([]byte, error) {
	off, err := storedOffset(s.s, start, end)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.stream, err)
	}
	return s.r.ReadRange(ctx, s.entry, off, off+end-start)
}

// hash reads the range whole: artifact.MaxRange bounds it.
func (s *artifactSource) hash(ctx context.Context, start, end int64) (string, error) {
	data, err := s.read(ctx, start, end)
	if err != nil {
		return "", err
	}
	return sha256Hex(data), nil
}

func (s *artifactSource) lines(int64, int64) (int64, int64, error) {
	return 0, 0, fmt.Errorf("lines: an artifact is read by byte range only; give range")
}

func (s *artifactSource) info() (string, string, string, int64, []string) {
	return s.run, s.stream, "artifact", s.s.Bytes, s.checks
}

func (s *artifactSource) call(start, end int64) string {
	return fmt.Sprintf("call show with repo %q, artifact_id %d, run %q, stream %q, range \"%d:%d\"",
		s.repo, s.id, s.run, s.stream, start, end)
}

func (s *artifactSource) Close() error { return s.r.Close() }

// storedOffset maps an original range to the stored file, when one stored
// piece holds it whole (logread does the same for local files).
func storedOffset(s *record.Stream, start, end int64) (int64, error) {
	var base int64
	for _, rg := range s.StoredRanges {
		if start >= rg[0] && end <= rg[1] {
			return base + start - rg[0], nil
		}
		base += rg[1] - rg[0]
	}
	return 0, fmt.Errorf("range %d:%d: %w (the log was truncated; stored ranges %v)",
		start, end, logread.ErrNotStored, s.StoredRanges)
}
