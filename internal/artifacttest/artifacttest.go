// Package artifacttest writes artifact zips the way runledger's uploader
// lays them out, for tests that read artifacts back: the run's files, logs
// stored uncompressed, and a manifest with per-block hashes, or the older
// shapes and the faults a reader must catch.
package artifacttest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/artifact"
)

// Options shape the zip.
type Options struct {
	StdoutSHA256 string // the manifest's sha256 of stdout.log; "" for the true one
	OldFormat    bool   // no block hashes, as artifacts written before them
	NoManifest   bool   // no manifest at all, as a zip made by hand
	TamperAt     int64  // change this byte of stdout.log after hashing it; 0 for none
	// WrongSHA256 names an entry (by its file name, e.g. "tests.tsv.gz")
	// whose manifest sha256 is not its bytes'.
	WrongSHA256 string
}

// ZipRun writes the run directory runDir as artifact.RunFiles lays it out
// under id into a new zip and returns its path.
func ZipRun(t testing.TB, runDir, id string, o Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "artifact.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	files, err := artifact.RunFiles(runDir, id)
	if err != nil {
		t.Fatal(err)
	}
	m := artifact.Manifest{Schema: artifact.ManifestSchema}
	for _, file := range files {
		data, err := os.ReadFile(file.Path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		e := artifact.Entry{Name: file.Name, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
		if !o.OldFormat {
			e.Blocks, e.BlocksSHA256, _ = artifact.HashBlocks(bytes.NewReader(data))
			e.BlockSize = artifact.HashBlockSize
		}
		if o.WrongSHA256 != "" && strings.HasSuffix(file.Name, "/"+o.WrongSHA256) {
			e.SHA256 = strings.Repeat("0", 64)
		}
		if strings.HasSuffix(file.Name, "/stdout.log") {
			if o.StdoutSHA256 != "" {
				e.SHA256 = o.StdoutSHA256
			}
			if o.TamperAt > 0 {
				data[o.TamperAt] ^= 0x20
			}
		}
		m.Entries = append(m.Entries, e)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: file.Name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if !o.NoManifest {
		w, err := zw.Create(artifact.ManifestName)
		if err != nil {
			t.Fatal(err)
		}
		json.NewEncoder(w).Encode(m)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
