package artifact

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path"
	"strings"
	"time"
	"unicode/utf8"
)

// ManifestName is the zip entry, written last, that lists every other entry
// with the offset of its data in the blob.
const ManifestName = "runledger-artifact.json"

// ManifestSchema is Manifest.Schema for this version of the format.
const ManifestSchema = "runledger.artifact/v1"

// File is one file to put into the artifact.
type File struct {
	Name  string // entry name in the zip, slash-separated, e.g. "<run-id>/stdout.log"
	Path  string // file on disk
	Store bool   // store uncompressed, so that byte ranges can be read back
}

// Entry describes one zip entry in the uploaded blob. Offset is where the
// entry's data begins in the blob, so byte A of a stored entry is blob byte
// Offset+A.
type Entry struct {
	Name       string `json:"name"`
	Method     string `json:"method"` // "store" or "deflate"
	Offset     int64  `json:"offset"`
	Size       int64  `json:"size"`        // uncompressed bytes
	StoredSize int64  `json:"stored_size"` // bytes in the blob
	SHA256     string `json:"sha256"`      // of the uncompressed bytes
	// Blocks are the sha256 (hex) of each HashBlockSize piece of the
	// uncompressed bytes, the last one shorter, so that a ranged read can
	// check every byte it returns without the whole entry; BlocksSHA256 is
	// BlocksSum(Blocks). Artifacts written before them have neither.
	BlockSize    int64    `json:"block_size,omitempty"`
	Blocks       []string `json:"blocks,omitempty"`
	BlocksSHA256 string   `json:"blocks_sha256,omitempty"`
}

// Manifest is the content of the ManifestName entry.
type Manifest struct {
	Schema  string  `json:"schema"`
	Entries []Entry `json:"entries"`
}

const (
	methodStore   = "store"
	methodDeflate = "deflate"
)

// writeZip writes files and the manifest as a zip to w and returns the
// entries, with the blob's size and sha256.
func writeZip(w io.Writer, files []File) (entries []Entry, size int64, sum string, err error) {
	if err := checkNames(files); err != nil {
		return nil, 0, "", err
	}
	blobSum := sha256.New()
	cw := &countWriter{w: io.MultiWriter(w, blobSum)} // counts and hashes the blob on its way out
	zw := zip.NewWriter(cw)
	for _, f := range files {
		e, err := addFile(zw, cw, f)
		if err != nil {
			return nil, 0, "", fmt.Errorf("zip %s: %w", f.Name, err)
		}
		entries = append(entries, e)
	}
	if err := addManifest(zw, entries); err != nil {
		return nil, 0, "", err
	}
	if err := zw.Close(); err != nil {
		return nil, 0, "", fmt.Errorf("zip central directory: %w", err)
	}
	return entries, cw.n, hex.EncodeToString(blobSum.Sum(nil)), nil
}

// Every entry is written raw, its CRC-32 and sizes in the local header and
// no data descriptor after it. Streaming unzippers, among them unzip-stream
// in @actions/artifact (what actions/download-artifact runs), find the end
// of an entry that has a data descriptor by searching its bytes for the
// descriptor's signature: a log that prints "PK\x07\x08", a CRC and its own
// offset twice would end its entry early there and break the download
// (https://github.com/mhr3/unzip-stream/issues/15; stored entries with a
// descriptor defeat streaming unzippers: https://github.com/actions/upload-artifact/issues/675). So
// a file is read twice: once for the CRC and compressed size, once into
// the zip, and a file that reads differently the second time is an error.

// addFile copies one file into the zip. The zip writer buffers, so it is
// flushed after the local header to learn where the data begins.
func addFile(zw *zip.Writer, cw *countWriter, f File) (Entry, error) {
	src, err := os.Open(f.Path)
	if err != nil {
		return Entry{}, err
	}
	defer src.Close()
	info, err := src.Stat()
	if err != nil {
		return Entry{}, err
	}
	size := info.Size()
	e := Entry{Name: f.Name, Method: methodDeflate}
	method := zip.Deflate
	if f.Store {
		e.Method, method = methodStore, zip.Store
	}
	blocks := newBlockHasher()
	first, err := encode(io.Discard, method, io.TeeReader(io.NewSectionReader(src, 0, size), blocks))
	if err != nil {
		return Entry{}, err
	}
	e.Blocks = blocks.done()
	e.BlockSize, e.BlocksSHA256 = HashBlockSize, BlocksSum(e.Blocks)
	if betweenPasses != nil {
		betweenPasses(f.Path)
	}
	fh := rawHeader(f.Name, info.ModTime(), method, first)
	dst, err := zw.CreateRaw(fh)
	if err != nil {
		return Entry{}, err
	}
	fh.Extra = fh.Extra[len(fh.Extra)-utBlockLen:] // the local zip64 block goes; Close writes the central one
	if err := zw.Flush(); err != nil {
		return Entry{}, err
	}
	e.Offset = cw.n
	sum := sha256.New()
	again, err := encode(dst, method, io.TeeReader(io.NewSectionReader(src, 0, size), sum))
	switch {
	case err != nil:
		return Entry{}, err
	case again != first:
		return Entry{}, fmt.Errorf("%s changed while it was zipped", f.Path)
	}
	e.Size, e.StoredSize, e.SHA256 = first.size, first.csize, hex.EncodeToString(sum.Sum(nil))
	return e, nil
}

// betweenPasses, when set (by tests), runs between a file's two reads.
var betweenPasses func(path string)

// encoded is what a local header says about an entry's data.
type encoded struct {
	crc         uint32
	size, csize int64
}

// encode writes r to w stored or deflated, and measures it.
func encode(w io.Writer, method uint16, r io.Reader) (encoded, error) {
	crc := crc32.NewIEEE()
	out := &countWriter{w: w}
	var enc io.WriteCloser = nopCloser{out}
	if method == zip.Deflate {
		fw, err := flate.NewWriter(out, flate.DefaultCompression)
		if err != nil {
			return encoded{}, err
		}
		enc = fw
	}
	n, err := io.Copy(io.MultiWriter(enc, crc), r)
	if err != nil {
		return encoded{}, err
	}
	if err := enc.Close(); err != nil {
		return encoded{}, err
	}
	return encoded{crc: crc.Sum32(), size: n, csize: out.n}, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// rawHeader fills in what CreateHeader would (versions, times, the UTF-8
// flag) for an entry whose CRC and sizes are known up front. From 4 GiB
// the local header needs a zip64 block with both sizes; the extended
// timestamp block, last in Extra, keeps the exact time in both headers.
func rawHeader(name string, mod time.Time, method uint16, e encoded) *zip.FileHeader {
	fh := &zip.FileHeader{Name: name, Method: method, CRC32: e.crc,
		CompressedSize64: uint64(e.csize), UncompressedSize64: uint64(e.size)}
	fh.SetMode(0o644)
	version := uint16(20)
	if e.size >= uint32max || e.csize >= uint32max {
		version = 45
		fh.Extra = binary.LittleEndian.AppendUint16(fh.Extra, 0x0001) // zip64 extended information
		fh.Extra = binary.LittleEndian.AppendUint16(fh.Extra, 16)
		fh.Extra = binary.LittleEndian.AppendUint64(fh.Extra, uint64(e.size))
		fh.Extra = binary.LittleEndian.AppendUint64(fh.Extra, uint64(e.csize))
	}
	mod = mod.UTC().Truncate(time.Second)
	fh.Extra = binary.LittleEndian.AppendUint16(fh.Extra, 0x5455) // extended timestamp
	fh.Extra = binary.LittleEndian.AppendUint16(fh.Extra, 5)
	fh.Extra = append(fh.Extra, 1) // modification time only
	fh.Extra = binary.LittleEndian.AppendUint32(fh.Extra, uint32(mod.Unix()))
	fh.CreatorVersion = fh.CreatorVersion&0xff00 | version
	fh.ReaderVersion = version
	if valid, require := needsUTF8(name); valid && require {
		fh.Flags |= 0x800
	}
	fh.Modified = mod
	// CreateRaw writes the MS-DOS fields as they are: it converts Modified
	// only in CreateHeader.
	//lint:ignore SA1019 see above
	fh.ModifiedDate = uint16(mod.Day() + int(mod.Month())<<5 + max(mod.Year()-1980, 0)<<9)
	//lint:ignore SA1019 see above
	fh.ModifiedTime = uint16(mod.Second()/2 + mod.Minute()<<5 + mod.Hour()<<11)
	return fh
}

const (
	uint32max  = 1<<32 - 1
	utBlockLen = 9 // the extended timestamp block rawHeader appends
)

// needsUTF8 is archive/zip's rule for the UTF-8 flag: set it for a valid
// UTF-8 name with a byte outside the part of CP-437 every reader agrees
// on (controls, '\\', '~' and above).
func needsUTF8(s string) (valid, require bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r < 0x20 || r > 0x7d || r == 0x5c {
			if r == utf8.RuneError && size == 1 {
				return false, false
			}
			require = true
		}
	}
	return true, require
}

// addManifest writes the manifest, raw like every other entry.
func addManifest(zw *zip.Writer, entries []Entry) error {
	data, err := json.MarshalIndent(Manifest{Schema: ManifestSchema, Entries: entries}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode manifest: %w", err)
	}
	data = append(data, '\n')
	var body bytes.Buffer
	e, err := encode(&body, zip.Deflate, bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("zip %s: %w", ManifestName, err)
	}
	w, err := zw.CreateRaw(rawHeader(ManifestName, time.Unix(0, 0), zip.Deflate, e))
	if err == nil {
		_, err = w.Write(body.Bytes())
	}
	if err != nil {
		return fmt.Errorf("zip %s: %w", ManifestName, err)
	}
	return nil
}

// checkNames refuses names that unzip would place outside the target
// directory, and duplicates, which would make an entry ambiguous.
func checkNames(files []File) error {
	seen := map[string]bool{ManifestName: true}
	for _, f := range files {
		n := f.Name
		if n == "" || strings.HasPrefix(n, "/") || strings.Contains(n, "\\") ||
			path.Clean(n) != n || n == ".." || strings.HasPrefix(n, "../") {
			return fmt.Errorf("zip entry name %q: want a clean relative slash-separated path", n)
		}
		if seen[n] {
			return fmt.Errorf("zip entry name %q: used twice (or reserved)", n)
		}
		seen[n] = true
	}
	return nil
}
