package artifact

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
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

// findDirectory locates the central directory from the end-of-central-
// directory record, following the zip64 locator when the classic record
// says its fields overflowed.
func findDirectory(ctx context.Context, src source) (off, size, count int64, err error) {
	n := min(src.size(), tailLen)
	tail := make([]byte, n)
	base := src.size() - n
	if err := src.readAt(ctx, tail, base); err != nil {
		return 0, 0, 0, fmt.Errorf("read end of zip: %w", err)
	}
	i := findEnd(tail)
	if i < 0 {
		return 0, 0, 0, errors.New("not a zip: no end-of-central-directory record")
	}
	end := tail[i:]
	count = int64(binary.LittleEndian.Uint16(end[10:]))
	size = int64(binary.LittleEndian.Uint32(end[12:]))
	off = int64(binary.LittleEndian.Uint32(end[16:]))
	endAt := base + int64(i)
	if count == 0xffff || size == 0xffffffff || off == 0xffffffff {
		if off, size, count, endAt, err = readEnd64(ctx, src, endAt); err != nil {
			return 0, 0, 0, err
		}
	}
	if size > maxCentralDir || off < 0 || size < 0 || off+size > endAt {
		return 0, 0, 0, fmt.Errorf("corrupt zip: central directory of %d bytes at %d does not fit before %d", size, off, endAt)
	}
	return off, size, count, nil
}

// findEnd is the index of the last end record whose comment fits the tail.
func findEnd(tail []byte) int {
	for i := len(tail) - endLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(tail[i:]) != sigEnd {
			continue
		}
		if comment := int(binary.LittleEndian.Uint16(tail[i+20:])); i+endLen+comment <= len(tail) {
			return i
		}
	}
	return -1
}

func readEnd64(ctx context.Context, src source, endAt int64) (off, size, count, end64At int64, err error) {
	if endAt < locator64Len {
		return 0, 0, 0, 0, errors.New("corrupt zip: zip64 fields without a zip64 locator")
	}
	loc := make([]byte, locator64Len)
	if err := src.readAt(ctx, loc, endAt-locator64Len); err != nil {
		return 0, 0, 0, 0, fmt.Errorf("read zip64 locator: %w", err)
	}
	if binary.LittleEndian.Uint32(loc) != sigLocator64 {
		return 0, 0, 0, 0, errors.New("corrupt zip: zip64 fields without a zip64 locator")
	}
	end64At = int64(binary.LittleEndian.Uint64(loc[8:]))
	if end64At < 0 || end64At > endAt-locator64Len-end64Len {
		return 0, 0, 0, 0, fmt.Errorf("corrupt zip: zip64 end record offset %d out of range", end64At)
	}
	rec := make([]byte, end64Len)
	if err := src.readAt(ctx, rec, end64At); err != nil {
		return 0, 0, 0, 0, fmt.Errorf("read zip64 end record: %w", err)
	}
	if binary.LittleEndian.Uint32(rec) != sigEnd64 {
		return 0, 0, 0, 0, errors.New("corrupt zip: bad zip64 end record signature")
	}
	count = int64(binary.LittleEndian.Uint64(rec[32:]))
	size = int64(binary.LittleEndian.Uint64(rec[40:]))
	off = int64(binary.LittleEndian.Uint64(rec[48:]))
	return off, size, count, end64At, nil
}

func (r *Reader) parseDirectory(cd []byte, count int64) error {
	for p := 0; p < len(cd); {
		e, n, err := parseCentral(cd[p:])
		if err != nil {
			return fmt.Errorf("corrupt zip: central directory entry %d: %w", len(r.order), err)
		}
		if e.header < 0 || e.header >= r.cdStart {
			return fmt.Errorf("corrupt zip: entry %q has its header at %d, outside the data", e.Name, e.header)
		}
		if _, dup := r.entries[e.Name]; dup {
			return fmt.Errorf("corrupt zip: entry %q appears twice", e.Name)
		}
		r.entries[e.Name] = e
		r.order = append(r.order, e)
		p += n
	}
	if int64(len(r.order)) != count {
		return fmt.Errorf("corrupt zip: %d central directory entries, end record says %d", len(r.order), count)
	}
	return nil
}

// parseCentral decodes one central directory header and its length.
func parseCentral(b []byte) (*centralEntry, int, error) {
	if len(b) < centralLen || binary.LittleEndian.Uint32(b) != sigCentral {
		return nil, 0, errors.New("bad signature")
	}
	le := binary.LittleEndian
	nameLen, extraLen, commentLen := int(le.Uint16(b[28:])), int(le.Uint16(b[30:])), int(le.Uint16(b[32:]))
	total := centralLen + nameLen + extraLen + commentLen
	if len(b) < total {
		return nil, 0, errors.New("truncated")
	}
	e := &centralEntry{method: le.Uint16(b[10:]), crc: le.Uint32(b[16:])}
	e.Name = string(b[centralLen : centralLen+nameLen])
	e.StoredSize, e.Size, e.header = int64(le.Uint32(b[20:])), int64(le.Uint32(b[24:])), int64(le.Uint32(b[42:]))
	if err := applyZip64(e, b[centralLen+nameLen:centralLen+nameLen+extraLen]); err != nil {
		return nil, 0, err
	}
	if e.Size < 0 || e.StoredSize < 0 {
		return nil, 0, errors.New("size out of range")
	}
	e.Method = methodName(e.method)
	return e, total, nil
}

// applyZip64 replaces saturated 32-bit fields with the zip64 extra's values,
// which appear in a fixed order and only for the fields that saturated.
func applyZip64(e *centralEntry, extra []byte) error {
	for len(extra) >= 4 {
		tag, n := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		if 4+n > len(extra) {
			return errors.New("truncated extra field")
		}
		if tag == zip64ExtraID {
			field := extra[4 : 4+n]
			for _, v := range []*int64{&e.Size, &e.StoredSize, &e.header} {
				if *v != 0xffffffff {
					continue
				}
				if len(field) < 8 {
					return errors.New("short zip64 extra field")
				}
				*v = int64(binary.LittleEndian.Uint64(field))
				field = field[8:]
			}
		}
		extra = extra[4+n:]
	}
	return nil
}

func methodName(m uint16) string {
	switch m {
	case methodStoreID:
		return methodStore
	case methodDeflated:
		return methodDeflate
	}
	return fmt.Sprintf("method %d", m)
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
