package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"sync"

	"github.com/runledger/runledger/record"
)

// RunStream is one stream of one run inside an artifact laid out by
// RunFiles: "<run-id>/record.json" and "<run-id>/<stream>.log".
type RunStream struct {
	r      *Reader
	Run    string
	Stream string
	Entry  string
	Record *record.Record
	// Checks says how the entry was tied to the record (the manifest's
	// size and sha256) and how its bytes are checked as they are read (the
	// manifest's hash of every block), or that they could not be.
	Checks []string
	// blocks is the log's manifest entry when it lists block hashes: then
	// every byte read is checked against them before it is returned.
	blocks *Entry
}

// OpenRunStream finds the run runRef names (an id or a unique prefix) and
// its stream, and checks the log entry against the run's record through
// the artifact's manifest.
func OpenRunStream(ctx context.Context, r *Reader, runRef, stream string) (*RunStream, error) {
	run, err := findRun(r, runRef)
	if err != nil {
		return nil, err
	}
	rec, err := readRecord(ctx, r, run)
	if err != nil {
		return nil, err
	}
	entry, s, err := streamEntry(run, rec, stream)
	if err != nil {
		return nil, err
	}
	rs := &RunStream{r: r, Run: run, Stream: stream, Entry: entry, Record: rec}
	rs.Checks, rs.blocks, err = manifestCheck(ctx, r, rs.Entry, s)
	return rs, err
}

// Pin ties the manifest's block list to a blocks_sha256 that came from
// outside the artifact (the run's report envelope, the PR comment): then
// a manifest swapped together with the data is caught too.
func (rs *RunStream) Pin(blocksSHA256 string) error {
	switch {
	case rs.blocks == nil:
		return fmt.Errorf("%s: the artifact lists no block hashes to check blocks_sha256 %s against", rs.Entry, blocksSHA256)
	case rs.blocks.BlocksSHA256 != blocksSHA256:
		return fmt.Errorf("%s: the manifest's block list hashes to %s, not to the blocks_sha256 given (%s): the artifact is not the one the report describes",
			rs.Entry, rs.blocks.BlocksSHA256, blocksSHA256)
	}
	rs.Checks = append(rs.Checks, "the manifest's block list matches the blocks_sha256 given ("+blocksSHA256+")")
	return nil
}

// streamEntry is the zip entry of run's stream, which must be a plain file
// of the run's own directory: a record is data, not trusted.
func streamEntry(run string, rec *record.Record, stream string) (string, *record.Stream, error) {
	s, ok := rec.Streams[stream]
	if !ok {
		return "", nil, fmt.Errorf("stream %q: run %s has none (want stdout, stderr or output)", stream, run)
	}
	if s.File == "" || s.File != path.Base(s.File) || s.File[0] == '.' {
		return "", nil, fmt.Errorf("run %s: stream %s names file %q outside its run directory", run, stream, s.File)
	}
	return path.Join(run, s.File), s, nil
}

// Stored reads the entry's stored bytes (offsets into the stored file,
// as record.Stream.StoredRanges lay it out) in aligned blocks of
// storedBlock, so a front-to-back read costs one request per block.
func (rs *RunStream) Stored(ctx context.Context) io.ReaderAt {
	return &blockReaderAt{ctx: ctx, rs: rs, size: rs.Record.Streams[rs.Stream].StoredBytes}
}

const storedBlock = 4 << 20

type blockReaderAt struct {
	ctx  context.Context
	rs   *RunStream
	size int64
	mu   sync.Mutex // ReadAt may be called in parallel; the block is shared
	at   int64
	buf  []byte
}

func (b *blockReaderAt) ReadAt(p []byte, off int64) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if off < 0 {
		return 0, fmt.Errorf("%s: read at negative offset %d", b.rs.Entry, off)
	}
	n := 0
	for n < len(p) {
		o := off + int64(n)
		if o >= b.size {
			return n, io.EOF
		}
		if o < b.at || o >= b.at+int64(len(b.buf)) {
			win := int64(storedBlock)
			if bl := b.rs.blocks; bl != nil {
				win = max(win/bl.BlockSize*bl.BlockSize, bl.BlockSize) // whole hashed blocks
			}
			start := o - o%win
			data, err := b.rs.readChecked(b.ctx, start, min(start+win, b.size))
			if err != nil {
				return n, err
			}
			b.buf, b.at = data, start
		}
		n += copy(p[n:], b.buf[o-b.at:])
	}
	return n, nil
}

// ReadOriginal returns the bytes [start, end) of the original stream.
func (rs *RunStream) ReadOriginal(ctx context.Context, start, end int64) ([]byte, error) {
	s := rs.Record.Streams[rs.Stream]
	if start < 0 || end < start || end > s.Bytes {
		return nil, fmt.Errorf("%s: range %d:%d outside the stream's %d bytes", rs.Stream, start, end, s.Bytes)
	}
	off, ok := s.StoredOffset(start, end)
	if !ok {
		return nil, fmt.Errorf("%s: range %d:%d: %w (the log was truncated; stored ranges %v)",
			rs.Stream, start, end, record.ErrNotStored, s.StoredRanges)
	}
	if rs.blocks == nil {
		return rs.r.ReadRange(ctx, rs.Entry, off, off+end-start)
	}
	bs := rs.blocks.BlockSize
	lo, hi := off-off%bs, min((off+end-start+bs-1)/bs*bs, rs.blocks.Size)
	var data []byte
	for at := lo; at < hi; at += MaxRange / bs * bs { // whole blocks, at most MaxRange at once
		part, err := rs.readChecked(ctx, at, min(at+MaxRange/bs*bs, hi))
		if err != nil {
			return nil, err
		}
		data = append(data, part...)
	}
	return data[off-lo : off-lo+end-start], nil
}

// readChecked reads the stored bytes [start, end), which begin at a block
// boundary and end at one or at the entry's end, and checks each block
// against the manifest before returning any of them.
func (rs *RunStream) readChecked(ctx context.Context, start, end int64) ([]byte, error) {
	data, err := rs.r.ReadRange(ctx, rs.Entry, start, end)
	if err != nil || rs.blocks == nil {
		return data, err
	}
	if err := checkBlocks(*rs.blocks, start, data); err != nil {
		return nil, err
	}
	return data, nil
}

func findRun(r *Reader, ref string) (string, error) {
	if ref == "" {
		return "", errors.New("run: give the run id the artifact holds")
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

func readRecord(ctx context.Context, r *Reader, run string) (*record.Record, error) {
	name := path.Join(run, record.FileName)
	data, err := r.ReadFile(ctx, name)
	if err != nil {
		return nil, err
	}
	return record.Parse(data, name)
}

// manifestCheck ties the log entry to the record: the manifest's sha256 was
// computed while the artifact was written, and so were its block hashes,
// which every read then checks. Without a manifest, or without block
// hashes (artifacts written before them), the checks say the bytes are
// unchecked rather than pretending.
func manifestCheck(ctx context.Context, r *Reader, entry string, s *record.Stream) ([]string, *Entry, error) {
	m, err := r.Manifest(ctx)
	if err != nil {
		return []string{fmt.Sprintf("NOT checked against the record: no readable manifest (%v); bytes read are unchecked", err)}, nil, nil
	}
	for _, e := range m.Entries {
		if e.Name != entry {
			continue
		}
		if e.SHA256 != s.SHA256 || e.Size != s.StoredBytes {
			return nil, nil, fmt.Errorf("%s: the manifest says %d bytes sha256 %s, the run record %d bytes sha256 %s",
				entry, e.Size, e.SHA256, s.StoredBytes, s.SHA256)
		}
		checks := []string{"artifact manifest's size and sha256 of the log match the run record"}
		if len(e.Blocks) == 0 && e.Size > 0 {
			return append(checks, "bytes read are NOT checked: the artifact predates per-block hashes (give the cited sha256 to check a range)"), nil, nil
		}
		if err := checkBlockList(e); err != nil {
			return nil, nil, err
		}
		checks = append(checks, fmt.Sprintf("every byte read is checked against the manifest's sha256 of its %d KiB block (blocks_sha256 %s)",
			e.BlockSize>>10, e.BlocksSHA256))
		return checks, &e, nil
	}
	return nil, nil, fmt.Errorf("%s: not in the artifact's manifest", entry)
}

// checkBlockList checks that a manifest entry's block list is whole: one
// hash per block of its size, and hashing to its BlocksSHA256.
func checkBlockList(e Entry) error {
	switch {
	case e.BlockSize <= 0 || e.BlockSize%1024 != 0:
		return fmt.Errorf("%s: the manifest's block size %d is not usable", e.Name, e.BlockSize)
	case int64(len(e.Blocks)) != (e.Size+e.BlockSize-1)/e.BlockSize:
		return fmt.Errorf("%s: the manifest lists %d block hashes for %d bytes in %d-byte blocks", e.Name, len(e.Blocks), e.Size, e.BlockSize)
	case BlocksSum(e.Blocks) != e.BlocksSHA256:
		return fmt.Errorf("%s: the manifest's block list does not hash to its blocks_sha256: %w", e.Name, ErrHashMismatch)
	}
	return nil
}

// FindOutput finds the run whose combined log's sha256 starts with hash
// (a <<cg:HASH>> marker of a superseded attempt) and returns that log's
// stored bytes, verified against the record's sha256.
func FindOutput(ctx context.Context, r *Reader, hash string) ([]byte, error) {
	for _, e := range r.Entries() {
		run, file := path.Split(e.Name)
		if file != record.FileName {
			continue
		}
		run = strings.TrimSuffix(run, "/")
		rec, err := readRecord(ctx, r, run)
		if err != nil {
			continue
		}
		if s, ok := rec.Streams[record.Output]; !ok || !strings.HasPrefix(s.SHA256, hash) {
			continue
		}
		entry, s, err := streamEntry(run, rec, record.Output)
		if err != nil {
			return nil, err
		}
		data, err := r.ReadRange(ctx, entry, 0, s.StoredBytes)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != s.SHA256 {
			return nil, fmt.Errorf("%s: %w", entry, ErrHashMismatch)
		}
		return data, nil
	}
	return nil, fmt.Errorf("marker %s: no run in the artifact has a combined log with that hash", hash)
}
