package artifact

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runledger/runledger/internal/golden"
)

// TestManifestGolden pins the zip layout: where each entry's data lands in
// the blob. A change here changes every offset a report ever cited.
func TestManifestGolden(t *testing.T) {
	dir := t.TempDir()
	mtime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	contents := map[string]string{
		"record.json":          `{"schema":"runledger.run/v1","status":"failed","exit_code":1}` + "\n",
		"stdout.log":           "=== RUN   TestParse\n--- FAIL: TestParse (0.00s)\n    parse_test.go:42: want 1, got 2\nFAIL\n",
		"stderr.log":           "exit status 1\n",
		"output.log":           "=== RUN   TestParse\nexit status 1\n--- FAIL: TestParse (0.00s)\nFAIL\n",
		"junit/001-report.xml": `<testsuite name="pkg" tests="1" failures="1"><testcase name="TestParse"><failure/></testcase></testsuite>`,
		"report.json":          `{"schema":"runledger.report/v1","status":"failed"}`,
	}
	for name, body := range contents {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mtime, mtime)
	}
	files, err := RunFiles(dir, "0123-unit-1")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, File{Name: "report.json", Path: filepath.Join(dir, "report.json")})
	var blob bytes.Buffer
	entries, size, sum, err := writeZip(&blob, files)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.MarshalIndent(map[string]any{"entries": entries, "size": size, "sha256": sum}, "", "  ")
	goldenPath := filepath.Join("testdata", "manifest.golden.json")
	golden.Check(t, goldenPath, append(got, '\n'))
	r, err := NewReader(context.Background(), bytes.NewReader(blob.Bytes()), int64(blob.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		off, err := r.DataOffset(context.Background(), e.Name)
		if err != nil || off != e.Offset {
			t.Errorf("%s: manifest offset %d, zip says %d (%v)", e.Name, e.Offset, off, err)
		}
	}
}

func TestWriteZipRefusesBadNames(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.log")
	os.WriteFile(p, []byte("x"), 0o644)
	for _, name := range []string{"", "/abs.log", "../up.log", "a/../b.log", `a\b.log`, "a//b.log", ManifestName} {
		_, _, _, err := writeZip(&bytes.Buffer{}, []File{{Name: name, Path: p}})
		if err == nil || !strings.Contains(err.Error(), "zip entry name") {
			t.Errorf("name %q: error %v, want a refusal", name, err)
		}
	}
	_, _, _, err := writeZip(&bytes.Buffer{}, []File{{Name: "a.log", Path: p}, {Name: "a.log", Path: p}})
	if err == nil {
		t.Error("duplicate names accepted")
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		job, matrix, attempt string
		want                 string
	}{
		{job: "test", want: "runledger-test"},
		{job: "test", matrix: "null", attempt: "1", want: "runledger-test"},
		{job: "test", matrix: `{"os":"ubuntu-latest","go":"1.26"}`, want: "runledger-test-1.26-ubuntu-latest"},
		{job: "test", matrix: `{"node":20,"exp":true}`, attempt: "2", want: "runledger-test-true-20-attempt2"},
		{job: "build", matrix: `{"target":"linux/amd64","cmd":"a:b*c?"}`, want: "runledger-build-a-b-c--linux-amd64"},
		{job: "t", matrix: `{"k":"` + strings.Repeat("x", 200) + `"}`, want: "runledger-t-" + strings.Repeat("x", 91) + "-"},
	}
	for _, tt := range tests {
		got, err := DefaultName(tt.job, tt.matrix, tt.attempt)
		if err != nil || !strings.HasPrefix(got, tt.want) || strings.ContainsAny(got, forbidden) || len(got) > maxNameLen {
			t.Errorf("DefaultName(%q, %q, %q) = %q, %v; want %q", tt.job, tt.matrix, tt.attempt, got, err, tt.want)
		}
	}
	if _, err := DefaultName("t", "{not json", ""); err == nil {
		t.Error("bad matrix JSON accepted")
	}
	a, _ := DefaultName("t", `{"k":"`+strings.Repeat("x", 200)+`1"}`, "")
	b, _ := DefaultName("t", `{"k":"`+strings.Repeat("x", 200)+`2"}`, "")
	if a == b {
		t.Errorf("two long matrix cells share the name %q", a)
	}
}

func ExampleSanitizeName() {
	fmt.Println(SanitizeName(`unit: linux/amd64 "fast"`))
	fmt.Println(SanitizeName(" \r\n "))
	// Output:
	// unit- linux-amd64 -fast-
	// runledger
}

func ExampleDefaultName() {
	name, _ := DefaultName("test", `{"os":"ubuntu-24.04","go":"1.26"}`, "2")
	fmt.Println(name)
	// Output: runledger-test-1.26-ubuntu-24.04-attempt2
}

// TestStoredEntriesCarryTheirSizes: a stored log's local header holds its
// CRC-32 and sizes and no entry has a data descriptor, so a streaming
// unzipper never searches the log for a descriptor's signature. The log
// here forges one: "PK\x07\x08", a CRC, and its own offset as both sizes.
func TestStoredEntriesCarryTheirSizes(t *testing.T) {
	log := []byte("line one\nline two\n")
	forged := binary.LittleEndian.AppendUint32([]byte("PK\x07\x08\x00\x00\x00\x00"), uint32(len(log)))
	forged = binary.LittleEndian.AppendUint32(forged, uint32(len(log)))
	log = append(append(log, forged...), "the rest of the log\n"...)
	p := filepath.Join(t.TempDir(), "stdout.log")
	os.WriteFile(p, log, 0o644)
	mtime := time.Date(2026, 11, 30, 1, 2, 5, 0, time.FixedZone("CET", 3600))
	os.Chtimes(p, mtime, mtime)
	var blob bytes.Buffer
	entries, _, _, err := writeZip(&blob, []File{{Name: "r/stdout.log", Path: p, Store: true}, {Name: "r/é.log", Path: p, Store: true}, {Name: "r/junit.xml", Path: p}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries[:2] {
		// The local header: signature, version, flags, method, time, date,
		// crc, compressed and uncompressed size, name and extra lengths.
		b := blob.Bytes()
		nameLen := len(e.Name)
		h := b[e.Offset-int64(30+nameLen+utBlockLen) : e.Offset] // the extra: the timestamp alone
		flags, crc := binary.LittleEndian.Uint16(h[6:]), binary.LittleEndian.Uint32(h[14:])
		csize, usize := binary.LittleEndian.Uint32(h[18:]), binary.LittleEndian.Uint32(h[22:])
		if string(h[:4]) != "PK\x03\x04" || string(h[30:30+nameLen]) != e.Name || binary.LittleEndian.Uint16(h[28:]) != utBlockLen {
			t.Fatalf("%s: no local header right before offset %d", e.Name, e.Offset)
		}
		wantUTF8 := e.Name != "r/stdout.log"
		if flags&0x8 != 0 || (flags&0x800 != 0) != wantUTF8 || crc != crc32.ChecksumIEEE(log) || int(csize) != len(log) || int(usize) != len(log) {
			t.Errorf("%s: flags %#x crc %08x sizes %d/%d; want no descriptor, crc %08x, size %d",
				e.Name, flags, crc, csize, usize, crc32.ChecksumIEEE(log), len(log))
		}
		end := e.Offset + int64(len(log))
		if !bytes.Equal(b[e.Offset:end], log) || !bytes.HasPrefix(b[end:], []byte("PK\x03\x04")) {
			t.Errorf("%s: the next local header does not follow the data directly", e.Name)
		}
	}
	zr, err := zip.NewReader(bytes.NewReader(blob.Bytes()), int64(blob.Len()))
	if err != nil {
		t.Fatal(err)
	}
	mod := time.Date(2026, 11, 30, 0, 2, 5, 0, time.UTC) // exact, from the extended timestamp
	for _, f := range zr.File {
		if f.Flags&0x8 != 0 {
			t.Errorf("%s (%d) has a data descriptor", f.Name, f.Method)
		}
		if f.Name == ManifestName {
			continue
		}
		rc, _ := f.Open()
		got, err := io.ReadAll(rc) // checks the CRC at the end
		if err != nil || !bytes.Equal(got, log) || !f.Modified.Equal(mod) {
			t.Errorf("%s: %d bytes, %v, modified %v, want %v", f.Name, len(got), err, f.Modified, mod)
		}
	}
	if len(zr.File) != 4 {
		t.Errorf("%d entries, want 4", len(zr.File))
	}
}

// TestStoredHeaderZip64: from 4 GiB a stored entry's local header says
// 0xffffffff and carries both sizes in a zip64 block (the central
// directory gets its own from archive/zip).
func TestStoredHeaderZip64(t *testing.T) {
	mod := time.Now()
	ut := binary.LittleEndian.AppendUint32([]byte{0x55, 0x54, 5, 0, 1}, uint32(mod.Unix()))
	small := rawHeader("a.log", mod, zip.Store, encoded{crc: 7, size: 1<<32 - 2, csize: 1<<32 - 2})
	if !bytes.Equal(small.Extra, ut) || small.ReaderVersion != 20 {
		t.Errorf("below 4 GiB: extra %x, version %d; want the timestamp alone %x", small.Extra, small.ReaderVersion, ut)
	}
	big := rawHeader("a.log", mod, zip.Store, encoded{crc: 7, size: 1<<32 + 10, csize: 1<<32 + 10})
	want := append([]byte{1, 0, 16, 0, 10, 0, 0, 0, 1, 0, 0, 0, 10, 0, 0, 0, 1, 0, 0, 0}, ut...)
	if !bytes.Equal(big.Extra, want) || big.ReaderVersion != 45 || big.CreatorVersion&0xff != 45 {
		t.Errorf("from 4 GiB: extra %v, versions %d/%d; want %v, 45", big.Extra, big.ReaderVersion, big.CreatorVersion&0xff, want)
	}
}

// TestWriteZipFileChanged: a log that changes between the measuring read
// and the copy is an error naming it, not an entry whose header lies.
func TestWriteZipFileChanged(t *testing.T) {
	for name, change := range map[string]func(path string){
		"a byte rewritten": func(p string) {
			f, _ := os.OpenFile(p, os.O_WRONLY, 0)
			f.WriteAt([]byte("X"), 3)
			f.Close()
		},
		"truncated": func(p string) { os.Truncate(p, 2) },
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "stdout.log")
			os.WriteFile(p, []byte("line one\nline two\n"), 0o644)
			betweenPasses = change
			defer func() { betweenPasses = nil }()
			for _, store := range []bool{true, false} {
				os.WriteFile(p, []byte("line one\nline two\n"), 0o644)
				_, _, _, err := writeZip(&bytes.Buffer{}, []File{{Name: "r/stdout.log", Path: p, Store: store}})
				if err == nil || !strings.Contains(err.Error(), p) {
					t.Errorf("store %v: error %v, want one naming %s", store, err, p)
				}
			}
		})
	}
}

func TestNeedsUTF8(t *testing.T) {
	tests := []struct {
		name            string
		valid, required bool
	}{
		{"run-1/stdout.log", true, false},
		{"run-1/é.log", true, true},
		{"a~b.log", true, true},
		{"a\tb.log", true, true},
		{"a\xffb.log", false, false},
	}
	for _, tt := range tests {
		if v, r := needsUTF8(tt.name); v != tt.valid || r != tt.required {
			t.Errorf("needsUTF8(%q) = %v, %v; want %v, %v", tt.name, v, r, tt.valid, tt.required)
		}
	}
}
