package mcptools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/githubapi"
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
	rec, dir, err := t.store.Find(ref) // List keeps only records whose id is their directory
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
	start, end, err := s.log.LineRange(first, last)
	if err != nil {
		return 0, 0, fmt.Errorf("run %s: %w", s.run, err)
	}
	return start, end, nil
}

func (s *localSource) info() (string, string, string, int64, []string) {
	return s.run, s.log.Name, "store", s.log.Stream.Bytes,
		[]string{"stored file's size and sha256 match the run record"}
}

func (s *localSource) stored() *logread.Log { return s.log }

func (s *localSource) call(start, end int64) string {
	return showCall(s.run, s.log.Name, start, end)
}

func (s *localSource) Close() error { return s.log.Close() }

// artifactSource is a stream inside a GitHub Actions artifact, laid out as
// artifact.RunFiles writes it: "<run-id>/record.json", "<run-id>/<stream>.log".
type artifactSource struct {
	repo string
	id   int64
	r    *artifact.Reader
	rs   *artifact.RunStream
	log  *logread.Log // the entry read in blocks, for lines and grep
}

func (t *tools) openArtifact(ctx context.Context, repo string, id int64, ref, stream, blocks string) (*artifactSource, error) {
	if repo == "" || id <= 0 {
		return nil, fmt.Errorf("artifact reads need both repo (owner/name) and a positive artifact_id")
	}
	r, err := githubapi.OpenArtifactFromEnv(ctx, t.opts.HTTPClient, t.opts.Getenv, repo, id)
	if err != nil {
		return nil, err
	}
	rs, err := artifact.OpenRunStream(ctx, r, ref, stream)
	if err == nil && blocks != "" {
		err = rs.Pin(blocks)
	}
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("artifact %d of %s: %w", id, repo, err)
	}
	l := logread.FromReaderAt(stream, rs.Record.Streams[stream], rs.Stored(ctx))
	return &artifactSource{repo: repo, id: id, r: r, rs: rs, log: l}, nil
}

func (s *artifactSource) read(ctx context.Context, start, end int64) ([]byte, error) {
	return s.rs.ReadOriginal(ctx, start, end)
}

// hash reads the range whole: artifact.MaxRange bounds it.
func (s *artifactSource) hash(ctx context.Context, start, end int64) (string, error) {
	data, err := s.read(ctx, start, end)
	if err != nil {
		return "", err
	}
	return sha256Hex(data), nil
}

// lines reads the entry from its start to the last line asked for.
func (s *artifactSource) lines(first, last int64) (int64, int64, error) {
	start, end, err := s.log.LineRange(first, last)
	if err != nil {
		return 0, 0, fmt.Errorf("artifact %d run %s: %w", s.id, s.rs.Run, err)
	}
	return start, end, nil
}

func (s *artifactSource) stored() *logread.Log { return s.log }

func (s *artifactSource) info() (string, string, string, int64, []string) {
	return s.rs.Run, s.rs.Stream, "artifact", s.rs.Record.Streams[s.rs.Stream].Bytes, s.rs.Checks
}

func (s *artifactSource) call(start, end int64) string {
	return fmt.Sprintf("call show with repo %q, artifact_id %d, run %q, stream %q, range \"%d:%d\"",
		s.repo, s.id, s.rs.Run, s.rs.Stream, start, end)
}

func (s *artifactSource) Close() error { return s.r.Close() }
