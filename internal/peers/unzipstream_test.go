package peers

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/runledger/runledger/artifact"
)

// TestOfficialUnzip downloads an uploaded artifact from act and extracts it
// with unzip-stream, the extractor of @actions/artifact (what
// actions/download-artifact runs), pinned in node/package-lock.json. The
// stored log forges a zip data descriptor: "PK\x07\x08", a CRC and its own
// offset as both sizes, which truncated the entry there while stored
// entries were written with descriptors.
//
// It needs node and `npm ci --prefix internal/peers/node`; .ci/run does both
// and sets RUNLEDGER_PEERS_REQUIRED, so in CI a missing peer fails the test.
func TestOfficialUnzip(t *testing.T) {
	extract := nodeExtractor(t)
	srv := actServer(t)
	token := runtimeToken("21", "49")
	env := map[string]string{"ACTIONS_RUNTIME_TOKEN": token, "ACTIONS_RESULTS_URL": srv.URL + "/"}
	u, err := artifact.NewUploader(func(k string) string { return env[k] }, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	dir := makeStore(t)
	stdout := filepath.Join(dir, "stdout.log")
	forgeDescriptor(t, stdout, 1<<20)
	files, err := artifact.RunFiles(dir, "run-1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := u.Upload(context.Background(), "runledger-unzip", files)
	if err != nil {
		t.Fatal(err)
	}
	zipPath := filepath.Join(t.TempDir(), "artifact.zip")
	os.WriteFile(zipPath, download(t, srv, token, res.Name), 0o644)
	out := t.TempDir()
	if msg, err := exec.Command("node", extract, zipPath, out).CombinedOutput(); err != nil {
		t.Fatalf("unzip-stream: %v\n%s", err, msg)
	}
	for _, f := range files {
		want, _ := os.ReadFile(f.Path)
		got, err := os.ReadFile(filepath.Join(out, f.Name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: unzip-stream gave %d bytes (%v), want %d", f.Name, len(got), err, len(want))
		}
	}
}

// forgeDescriptor writes a data descriptor that claims the entry ends at
// offset at: what a streaming unzipper looks for.
func forgeDescriptor(t *testing.T, path string, at int64) {
	t.Helper()
	d := binary.LittleEndian.AppendUint32([]byte("PK\x07\x08\x00\x00\x00\x00"), uint32(at))
	d = binary.LittleEndian.AppendUint32(d, uint32(at))
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(d, at); err != nil {
		t.Fatal(err)
	}
}

// nodeExtractor returns the path of node/extract.js once node and its
// module are there; without them it skips, or fails under
// RUNLEDGER_PEERS_REQUIRED.
func nodeExtractor(t *testing.T) string {
	t.Helper()
	script, _ := filepath.Abs(filepath.Join("node", "extract.js"))
	_, errNode := exec.LookPath("node")
	_, errMod := os.Stat(filepath.Join("node", "node_modules", "unzip-stream", "package.json"))
	if errNode == nil && errMod == nil {
		return script
	}
	msg := "node and unzip-stream are needed: install node, then run npm ci --prefix internal/peers/node"
	if os.Getenv("RUNLEDGER_PEERS_REQUIRED") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}
