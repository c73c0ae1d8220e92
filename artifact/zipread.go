package artifact

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"
)

// MaxRange bounds one ReadRange or ReadFile: the bytes are returned in
// memory, so a caller wanting more reads several ranges.
const MaxRange = 64 << 20

// maxCentralDir bounds the central directory a Reader loads (about a
// million entries); a larger one is not an artifact runledger wrote.
const maxCentralDir = 64 << 20

const (
	sigLocal       = 0x04034b50
	sigCentral     = 0x02014b50
	sigEnd         = 0x06054b50
	sigEnd64       = 0x06064b50
	sigLocator64   = 0x07064b50
	endLen         = 22
	locator64Len   = 20
	end64Len       = 56
	centralLen     = 46
	localLen       = 30
	maxCommentLen  = 0xffff
	tailLen        = endLen + maxCommentLen + locator64Len
	zip64ExtraID   = 0x0001
	methodStoreID  = 0
	methodDeflated = 8
)

// source is where a zip's bytes come from: a local file or a blob read with
// HTTP Range requests. readAt fills p entirely or fails.
type source interface {
	readAt(ctx context.Context, p []byte, off int64) error
	size() int64
}

// readerAtSource adapts any io.ReaderAt, such as a downloaded artifact.
type readerAtSource struct {
	ra io.ReaderAt
	n  int64
}

func (s readerAtSource) size() int64 { return s.n }

func (s readerAtSource) readAt(ctx context.Context, p []byte, off int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	n, err := s.ra.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("read %d bytes at %d: %w", len(p), off, err)
}

// EntryInfo describes an entry of an opened artifact.
type EntryInfo struct {
	Name       string
	Method     string // "store", "deflate" or "method <n>"
	Size       int64  // uncompressed
	StoredSize int64
}

type centralEntry struct {
	EntryInfo
	method  uint16
	crc     uint32
	header  int64 // offset of the local file header
	dataOff int64 // offset of the data; 0 until the local header was read
}

// Reader reads entries, and byte ranges of stored entries, out of a zip
// without reading the rest of it.
type Reader struct {
	src     source
	closer  io.Closer
	cdStart int64
	order   []*centralEntry
	entries map[string]*centralEntry
	mu      sync.Mutex // guards dataOff
}

// OpenFile opens a local zip, such as an artifact downloaded from the web UI.
func OpenFile(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open artifact: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open artifact: %w", err)
	}
	r, err := NewReader(context.Background(), f, info.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open artifact %s: %w", path, err)
	}
	r.closer = f
	return r, nil
}

// NewReader reads the zip directory of the size bytes behind ra.
func NewReader(ctx context.Context, ra io.ReaderAt, size int64) (*Reader, error) {
	return newReader(ctx, readerAtSource{ra: ra, n: size})
}

// Close releases a local file; it is a no-op for remote artifacts.
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	return r.closer.Close()
}

func newReader(ctx context.Context, src source) (*Reader, error) {
	cdOff, cdSize, count, err := findDirectory(ctx, src)
	if err != nil {
		return nil, err
	}
	cd := make([]byte, cdSize)
	if err := src.readAt(ctx, cd, cdOff); err != nil {
		return nil, fmt.Errorf("read central directory: %w", err)
	}
	r := &Reader{src: src, cdStart: cdOff, entries: make(map[string]*centralEntry)}
	if err := r.parseDirectory(cd, count); err != nil {
		return nil, err
	}
	return r, nil
}

// Entries lists the artifact's entries in zip order.
func (r *Reader) Entries() []EntryInfo {
	out := make([]EntryInfo, len(r.order))
	for i, e := range r.order {
		out[i] = e.EntryInfo
	}
	return out
}

// DataOffset is where entry's data begins in the zip: byte A of a stored
// entry is byte DataOffset+A of the blob.
func (r *Reader) DataOffset(ctx context.Context, entry string) (int64, error) {
	e, ok := r.entries[entry]
	if !ok {
		return 0, fmt.Errorf("artifact has no entry %q", entry)
	}
	return r.dataOffset(ctx, e)
}

func (r *Reader) dataOffset(ctx context.Context, e *centralEntry) (int64, error) {
	r.mu.Lock()
	off := e.dataOff
	r.mu.Unlock()
	if off > 0 {
		return off, nil
	}
	h := make([]byte, localLen)
	if err := r.src.readAt(ctx, h, e.header); err != nil {
		return 0, fmt.Errorf("read local header of %q: %w", e.Name, err)
	}
	if binary.LittleEndian.Uint32(h) != sigLocal {
		return 0, fmt.Errorf("corrupt zip: bad local header signature for %q", e.Name)
	}
	off = e.header + localLen + int64(binary.LittleEndian.Uint16(h[26:])) + int64(binary.LittleEndian.Uint16(h[28:]))
	if e.StoredSize > r.cdStart-off {
		return 0, fmt.Errorf("corrupt zip: data of %q runs into the central directory", e.Name)
	}
	r.mu.Lock()
	e.dataOff = off
	r.mu.Unlock()
	return off, nil
}

// ReadRange returns bytes [start, end) of a stored entry, reading only
// those bytes (plus the entry's local header once).
func (r *Reader) ReadRange(ctx context.Context, entry string, start, end int64) ([]byte, error) {
	e, ok := r.entries[entry]
	if !ok {
		return nil, fmt.Errorf("artifact has no entry %q", entry)
	}
	if e.method != methodStoreID {
		return nil, fmt.Errorf("read %q bytes %d-%d: %s entry: %w", entry, start, end, e.Method, ErrCompressed)
	}
	if start < 0 || end < start || end > e.Size {
		return nil, fmt.Errorf("read %q bytes %d-%d: outside the entry's %d bytes", entry, start, end, e.Size)
	}
	if end-start > MaxRange {
		return nil, fmt.Errorf("read %q bytes %d-%d: more than %d bytes at once", entry, start, end, MaxRange)
	}
	off, err := r.dataOffset(ctx, e)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, end-start)
	if err := r.src.readAt(ctx, buf, off+start); err != nil {
		return nil, fmt.Errorf("read %q bytes %d-%d: %w", entry, start, end, err)
	}
	return buf, nil
}

// Verify reads bytes [start, end) of a stored entry and checks them against
// a cited sha256 (hex); a mismatch wraps ErrHashMismatch.
func (r *Reader) Verify(ctx context.Context, entry string, start, end int64, sum string) error {
	data, err := r.ReadRange(ctx, entry, start, end)
	if err != nil {
		return err
	}
	got := sha256.Sum256(data)
	if hex.EncodeToString(got[:]) != sum {
		return fmt.Errorf("verify %q bytes %d-%d: got sha256 %x, cited %s: %w", entry, start, end, got, sum, ErrHashMismatch)
	}
	return nil
}

// ReadFile returns a whole entry, stored or deflated, up to MaxRange bytes,
// checked against the CRC-32 the zip records.
func (r *Reader) ReadFile(ctx context.Context, entry string) ([]byte, error) {
	e, ok := r.entries[entry]
	if !ok {
		return nil, fmt.Errorf("artifact has no entry %q", entry)
	}
	if e.Size > MaxRange || e.StoredSize > MaxRange {
		return nil, fmt.Errorf("read %q: %d bytes, more than %d at once", entry, e.Size, MaxRange)
	}
	off, err := r.dataOffset(ctx, e)
	if err != nil {
		return nil, err
	}
	raw := make([]byte, e.StoredSize)
	if err := r.src.readAt(ctx, raw, off); err != nil {
		return nil, fmt.Errorf("read %q: %w", entry, err)
	}
	data, err := decode(e, raw)
	if err != nil {
		return nil, fmt.Errorf("read %q: %w", entry, err)
	}
	if crc32.ChecksumIEEE(data) != e.crc {
		return nil, fmt.Errorf("read %q: CRC-32 mismatch", entry)
	}
	return data, nil
}

func decode(e *centralEntry, raw []byte) ([]byte, error) {
	switch e.method {
	case methodStoreID:
		return raw, nil
	case methodDeflated:
		fr := flate.NewReader(bytes.NewReader(raw))
		defer fr.Close()
		data, err := io.ReadAll(io.LimitReader(fr, e.Size+1))
		if err != nil {
			return nil, fmt.Errorf("inflate: %w", err)
		}
		if int64(len(data)) != e.Size {
			return nil, fmt.Errorf("inflated to %d bytes, the directory says %d", len(data), e.Size)
		}
		return data, nil
	}
	return nil, fmt.Errorf("unsupported compression %s", e.Method)
}

// Manifest reads the entry list runledger wrote into the artifact.
func (r *Reader) Manifest(ctx context.Context) (*Manifest, error) {
	data, err := r.ReadFile(ctx, ManifestName)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("decode %s: %w", ManifestName, err)
	}
	if m.Schema != ManifestSchema {
		return nil, fmt.Errorf("decode %s: schema %q, want %q", ManifestName, m.Schema, ManifestSchema)
	}
	return &m, nil
}

var (
	_ source = readerAtSource{}
	_ source = (*httpBlob)(nil)
	_ error  = (*UploadError)(nil)
)
