package artifact

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/record"
)

// sparseLog writes dir/stdout.log: size bytes, zeros (sparse) but for
// random bytes around [at, at+n); it returns the path and those n bytes.
func sparseLog(t *testing.T, dir string, size, at, n int64) (string, []byte) {
	t.Helper()
	log := filepath.Join(dir, "stdout.log")
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	noise := make([]byte, n+2<<10)
	rand.Read(noise)
	if _, err := f.WriteAt(noise, at-1<<10); err != nil {
		t.Fatal(err)
	}
	return log, noise[1<<10 : 1<<10+n]
}

// zipFiles writes files into dir/artifact.zip as the uploader does.
func zipFiles(t *testing.T, dir string, files []File) string {
	t.Helper()
	zipPath := filepath.Join(dir, "artifact.zip")
	out, err := os.Create(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, _, _, err := writeZip(out, files); err != nil {
		t.Fatal(err)
	}
	return zipPath
}

// serveZip puts a zip on the fake's blob host and opens it through the
// API's redirect, as a reader of an uploaded artifact does.
func serveZip(t *testing.T, f *fakeService, zipPath string) (*Reader, os.FileInfo) {
	t.Helper()
	zf, err := os.Open(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { zf.Close() })
	info, err := zf.Stat()
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.open(context.Background(), f.addBlob("big", zf, info.Size()))
	if err != nil {
		t.Fatal(err)
	}
	return r, info
}

// bigStore zips a sparse stdout.log (see sparseLog) into a local artifact.
func bigStore(t *testing.T, size, at, n int64) (zipPath string, cited []byte) {
	t.Helper()
	dir := t.TempDir()
	log, cited := sparseLog(t, dir, size, at, n)
	files := []File{
		{Name: "run-1/stdout.log", Path: log, Store: true},
		{Name: "run-1/record.json", Path: log + ".json"},
	}
	if err := os.WriteFile(files[1].Path, []byte(`{"status":"failed"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return zipFiles(t, dir, files), cited
}

// TestReadRangeCostsTheRange reads 4 KiB out of a 200 MiB artifact and
// counts what the blob server sent: the zip's tail, its central directory,
// one local header and the range, nowhere near the artifact's size.
func TestReadRangeCostsTheRange(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 400 MiB")
	}
	const size, at, n = 200 << 20, 150<<20 + 12345, 4 << 10
	zipPath, cited := bigStore(t, size, at, n)
	f := newFake(t)
	ctx := context.Background()
	r, info := serveZip(t, f, zipPath)
	opened := f.servedBytes()
	got, err := r.ReadRange(ctx, "run-1/stdout.log", at, at+n)
	if err != nil || !bytes.Equal(got, cited) {
		t.Fatalf("ReadRange: %d bytes, %v", len(got), err)
	}
	if err := r.Verify(ctx, "run-1/stdout.log", at, at+n, sha(cited)); err != nil {
		t.Fatal(err)
	}
	total := f.servedBytes()
	t.Logf("artifact %d bytes; opening read %d, two 4 KiB range reads %d", info.Size(), opened, total-opened)
	if opened > tailLen || total-opened != localLen+2*n {
		t.Errorf("served %d bytes to open and %d to read 2×%d bytes; want at most %d and exactly %d",
			opened, total-opened, n, tailLen, localLen+2*n)
	}
}

func TestReadRangeErrors(t *testing.T) {
	files := makeRun(t, 50<<10)
	f := newFake(t)
	u, err := NewUploader(f.env(), nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := u.Upload(context.Background(), "unit", files)
	if err != nil {
		t.Fatal(err)
	}
	stdout, _ := os.ReadFile(files[1].Path)
	ctx := context.Background()
	tests := []struct {
		name       string
		truncate   int // range answers to cut short
		entry      string
		start, end int64
		sum        string // for Verify; "" to call ReadRange
		wantIs     error
		wantErr    string
	}{
		{name: "plain", entry: "run-1/stdout.log", start: 10, end: 5000},
		{name: "empty range", entry: "run-1/stdout.log", start: 7, end: 7},
		{name: "truncated once, retried", truncate: 1, entry: "run-1/stdout.log", start: 0, end: 40000},
		{name: "truncated every time", truncate: readAttempts, entry: "run-1/stdout.log", start: 0, end: 40000, wantErr: "truncated response"},
		{name: "deflated entry", entry: "run-1/record.json", start: 0, end: 4, wantIs: ErrCompressed},
		{name: "no such entry", entry: "run-1/nope.log", end: 1, wantErr: `no entry "run-1/nope.log"`},
		{name: "past the end", entry: "run-1/stdout.log", start: 0, end: 50<<10 + 1, wantErr: "outside the entry"},
		{name: "reversed", entry: "run-1/stdout.log", start: 9, end: 8, wantErr: "outside the entry"},
		{name: "hash matches", entry: "run-1/stdout.log", start: 100, end: 900, sum: sha(stdout[100:900])},
		{name: "hash mismatch", entry: "run-1/stdout.log", start: 100, end: 900, sum: sha(stdout[101:901]), wantIs: ErrHashMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := f.open(ctx, res.ID)
			if err != nil {
				t.Fatal(err)
			}
			f.truncate["range"] = tt.truncate
			var got []byte
			if tt.sum != "" {
				err = r.Verify(ctx, tt.entry, tt.start, tt.end, tt.sum)
			} else {
				got, err = r.ReadRange(ctx, tt.entry, tt.start, tt.end)
			}
			if tt.wantIs == nil && tt.wantErr == "" {
				if err != nil || (tt.sum == "" && !bytes.Equal(got, stdout[tt.start:tt.end])) {
					t.Fatalf("got %d bytes, %v", len(got), err)
				}
				return
			}
			if err == nil || (tt.wantIs != nil && !errors.Is(err, tt.wantIs)) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want %v %q", err, tt.wantIs, tt.wantErr)
			}
			if got != nil {
				t.Errorf("returned %d bytes with an error", len(got))
			}
			if strings.Contains(err.Error(), downloadSig) {
				t.Errorf("error leaks the signed URL: %v", err)
			}
		})
	}
}

// TestOpenErrors: a blob that is no zip and a resolver that fails are
// errors, and neither names the signed URL.
func TestOpenErrors(t *testing.T) {
	f := newFake(t)
	ctx := context.Background()
	if _, err := f.open(ctx, f.addBlob("tiny", strings.NewReader("not a zip at all"), 16)); err == nil || !strings.Contains(err.Error(), "not a zip") {
		t.Fatalf("a blob that is no zip: %v", err)
	} else if strings.Contains(err.Error(), downloadSig) {
		t.Errorf("error leaks the signed URL: %v", err)
	}
	if _, err := f.open(ctx, 99); err == nil || !strings.Contains(err.Error(), "no such artifact") {
		t.Fatalf("a resolver's error: %v", err)
	}
}

// TestZip64 reads a range out of a zip whose entry count needs the zip64
// end record, and checks the local reader agrees with archive/zip.
func TestZip64(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 65,600 entries")
	}
	path := filepath.Join(t.TempDir(), "many.zip")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(out)
	for i := range 0x10040 {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("e/%05d.log", i), Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(w, "line of entry %d\n", i)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	out.Close()
	r, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n := len(r.Entries()); n != 0x10040 {
		t.Fatalf("%d entries, want %d", n, 0x10040)
	}
	got, err := r.ReadRange(context.Background(), "e/65599.log", 5, 19)
	if err != nil || string(got) != "of entry 65599" {
		t.Fatalf("ReadRange = %q, %v", got, err)
	}
}

func TestOpenFileManifest(t *testing.T) {
	zipPath, cited := bigStore(t, 1<<20, 300000, 100)
	r, err := OpenFile(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	m, err := r.Manifest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	off, err := r.DataOffset(ctx, "run-1/stdout.log")
	if err != nil || m.Entries[0].Offset != off {
		t.Fatalf("manifest offset %d, local header says %d (%v)", m.Entries[0].Offset, off, err)
	}
	raw, _ := os.ReadFile(zipPath)
	if !bytes.Equal(raw[off+300000:off+300100], cited) {
		t.Errorf("blob bytes at manifest offset differ from the cited bytes")
	}
	if _, err := r.ReadFile(ctx, "run-1/stdout.log"); err != nil {
		t.Errorf("ReadFile(stored 1 MiB): %v", err)
	}
}

// TestSignedURLRenewed: GitHub's signed download URL lives about a minute;
// a long read outlives it and the blob host answers 403. The reader asks
// the API for a fresh URL and resumes at the same offset; the signature
// and the token never show in what it returns.
func TestSignedURLRenewed(t *testing.T) {
	const size, at, n = 24 << 20, 20<<20 + 777, 4 << 10
	zipPath, cited := bigStore(t, size, at, n)
	f := newFake(t)
	f.expireAfter = 3 // requests per URL
	ctx := context.Background()
	r, _ := serveZip(t, f, zipPath)
	// A front-to-back read in 4 MiB pieces, as grep does: 6+ requests.
	for off := int64(0); off < size; off += 4 << 20 {
		got, err := r.ReadRange(ctx, "run-1/stdout.log", off, min(off+4<<20, size))
		if err != nil {
			t.Fatalf("read at %d: %v", off, err)
		}
		if off <= at && at+n <= off+4<<20 && !bytes.Equal(got[at-off:at-off+n], cited) {
			t.Fatalf("read at %d: wrong bytes", off)
		}
	}
	f.mu.Lock()
	gens := f.gen
	f.mu.Unlock()
	if gens < 3 {
		t.Errorf("%d signed URLs handed out: the expired one was not renewed", gens)
	}
	// A URL that can never be renewed (the API keeps refusing) ends in a
	// clear error that names neither the signature nor the token.
	f.mu.Lock()
	f.expireAfter = -1 // every use is past its life
	f.mu.Unlock()
	_, err := r.ReadRange(ctx, "run-1/stdout.log", 0, 100)
	if err == nil || strings.Contains(err.Error(), downloadSig) || strings.Contains(err.Error(), apiToken) {
		t.Fatalf("a URL that stays expired: %v", err)
	}
}

// TestVerifiedReadCost measures what verified reads move from the blob
// host, the figures the README gives: a cited 4 KiB range of a 200 MiB
// log (the 256 KiB blocks that hold it, each checked against the
// manifest), and a front-to-back scan as grep does (the log once, plus
// the zip's directory and manifest).
//
//	go test ./artifact -run TestVerifiedReadCost -v
func TestVerifiedReadCost(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 400 MiB")
	}
	const size, at, n = 200 << 20, 150<<20 + 12345, 4 << 10
	zipPath, cited := bigRunStore(t, size, at, n)
	f := newFake(t)
	ctx := context.Background()
	r, _ := serveZip(t, f, zipPath)
	rs, err := OpenRunStream(ctx, r, "run-1", "stdout")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(rs.Checks, "; "), "every byte read is checked") {
		t.Fatalf("checks: %v", rs.Checks)
	}
	opened := f.servedBytes()
	got, err := rs.ReadOriginal(ctx, at, at+n)
	if err != nil || !bytes.Equal(got, cited) {
		t.Fatalf("ReadOriginal: %d bytes, %v", len(got), err)
	}
	ranged := f.servedBytes() - opened
	stored := rs.Stored(ctx)
	buf := make([]byte, 1<<20)
	for off := int64(0); off < size; off += int64(len(buf)) {
		if _, err := stored.ReadAt(buf[:min(int64(len(buf)), size-off)], off); err != nil {
			t.Fatalf("scan at %d: %v", off, err)
		}
	}
	scan := f.servedBytes() - opened - ranged
	t.Logf("200 MiB log: opening (directory, record, manifest) %d bytes; a verified 4 KiB range %d bytes; a verified scan %.3f× the log", opened, ranged, float64(scan)/size)
	if ranged > 2*HashBlockSize+localLen || float64(scan)/size > 1.01 {
		t.Errorf("moved %d bytes for a 4 KiB range and %.3f× the log for a scan", ranged, float64(scan)/size)
	}
}

// bigRunStore is bigStore with a real run record, so that OpenRunStream
// can tie the log to it.
func bigRunStore(t *testing.T, size, at, n int64) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	log, cited := sparseLog(t, dir, size, at, n)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	rec := record.Record{Schema: record.Schema, ID: "run-1", Name: "big", Attempt: 1, Status: record.StatusFailed,
		Streams: map[string]*record.Stream{"stdout": {File: "stdout.log", Bytes: size, StoredBytes: size,
			StoredRanges: [][2]int64{{0, size}}, SHA256: sha(data), Complete: true}}}
	if err := record.Write(dir, &rec); err != nil {
		t.Fatal(err)
	}
	return zipFiles(t, dir, []File{
		{Name: "run-1/stdout.log", Path: log, Store: true},
		{Name: "run-1/record.json", Path: filepath.Join(dir, record.FileName)},
	}), cited
}
