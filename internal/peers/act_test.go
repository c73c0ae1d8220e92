package peers

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/julienschmidt/httprouter"
	"github.com/nektos/act/pkg/artifacts"

	"github.com/runledger/runledger/artifact"
)

// osFS gives act's artifact routes the local disk. act resolves every path
// against its base directory itself, so names arrive absolute.
type osFS struct{}

func (osFS) Open(name string) (fs.File, error) { return os.Open(name) }

func (osFS) OpenWritable(name string) (artifacts.WritableFile, error) {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return nil, err
	}
	return os.OpenFile(name, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o644)
}

func (osFS) OpenAppendable(name string) (artifacts.WritableFile, error) {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return nil, err
	}
	return os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
}

var _ artifacts.WriteFS = osFS{}
var _ fs.FS = osFS{}

// actServer runs nektos/act's v4 artifact service in-process.
func actServer(t *testing.T) *httptest.Server {
	t.Helper()
	router := httprouter.New()
	artifacts.RoutesV4(router, t.TempDir(), osFS{}, osFS{})
	srv := httptest.NewServer(router)
	t.Cleanup(srv.Close)
	return srv
}

func runtimeToken(run, job string) string {
	enc := base64.RawURLEncoding.EncodeToString
	payload, _ := json.Marshal(map[string]string{"scp": "Actions.GenericRead:x Actions.Results:" + run + ":" + job})
	return enc([]byte(`{"alg":"none"}`)) + "." + enc(payload) + "." + enc([]byte("s"))
}

// makeStore writes a run directory with multi-MiB random logs.
func makeStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	logs := map[string]int{"stdout.log": 19<<20 + 7, "stderr.log": 3 << 20, "output.log": 22<<20 + 7}
	for name, size := range logs {
		data := make([]byte, size)
		rand.Read(data)
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(dir, "junit"), 0o755)
	os.WriteFile(filepath.Join(dir, "junit", "001-report.xml"), []byte(`<testsuite tests="3" failures="1"/>`), 0o644)
	os.WriteFile(filepath.Join(dir, "record.json"), []byte(`{"schema":"runledger.run/v1","status":"failed"}`), 0o644)
	return dir
}

func TestUploadToAct(t *testing.T) {
	srv := actServer(t)
	token := runtimeToken("21", "49")
	env := map[string]string{
		"ACTIONS_RUNTIME_TOKEN": token, "ACTIONS_RESULTS_URL": srv.URL + "/",
		"GITHUB_RETENTION_DAYS": "5",
	}
	u, err := artifact.NewUploader(func(k string) string { return env[k] }, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	u.RetentionDays = 30 // capped to 5, sent as expires_at: act must accept the field
	dir := makeStore(t)
	files, err := artifact.RunFiles(dir, "run-1")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := u.Upload(ctx, "runledger-test", files)
	if err != nil {
		t.Fatal(err)
	}
	zipped := download(t, srv, token, res.Name)
	if int64(len(zipped)) != res.Size || sha(zipped) != res.SHA256 {
		t.Fatalf("act holds %d bytes %s; upload reported %d %s", len(zipped), sha(zipped), res.Size, res.SHA256)
	}
	compareEntries(t, zipped, files, res)
	readBack(t, zipped, files)
}

// download fetches the artifact through act's GetSignedArtifactURL route
// and its DownloadArtifact route.
func download(t *testing.T, srv *httptest.Server, token, name string) []byte {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"workflow_run_backend_id": "21", "workflow_job_run_backend_id": "49", "name": name})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/twirp/github.actions.results.api.v1.ArtifactService/GetSignedArtifactURL", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var signed struct {
		SignedURL string `json:"signedUrl"`
	}
	json.NewDecoder(resp.Body).Decode(&signed)
	resp.Body.Close()
	if signed.SignedURL == "" {
		t.Fatalf("GetSignedArtifactURL: HTTP %d, no signedUrl", resp.StatusCode)
	}
	resp, err = srv.Client().Get(signed.SignedURL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("DownloadArtifact: HTTP %d, %v", resp.StatusCode, err)
	}
	return data
}

func compareEntries(t *testing.T, zipped []byte, files []artifact.File, res *artifact.Result) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*zip.File{}
	for _, f := range zr.File {
		byName[f.Name] = f
	}
	for i, f := range files {
		want, _ := os.ReadFile(f.Path)
		zf := byName[f.Name]
		if zf == nil {
			t.Fatalf("entry %s missing", f.Name)
		}
		rc, _ := zf.Open()
		got, err := io.ReadAll(rc) // archive/zip checks the CRC-32 at EOF
		rc.Close()
		if err != nil || !bytes.Equal(got, want) || res.Entries[i].SHA256 != sha(want) {
			t.Errorf("entry %s: %d bytes (%v), want %d bytes %s", f.Name, len(got), err, len(want), sha(want))
		}
	}
	if byName[artifact.ManifestName] == nil {
		t.Error("manifest entry missing")
	}
}

// readBack opens the downloaded zip with runledger's own reader and reads
// a cited range of a stored log.
func readBack(t *testing.T, zipped []byte, files []artifact.File) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "artifact.zip")
	os.WriteFile(path, zipped, 0o644)
	r, err := artifact.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	stdout, _ := os.ReadFile(files[1].Path)
	start, end := int64(17<<20), int64(17<<20+4096)
	ctx := context.Background()
	got, err := r.ReadRange(ctx, files[1].Name, start, end)
	if err != nil || !bytes.Equal(got, stdout[start:end]) {
		t.Fatalf("ReadRange %s: %d bytes, %v", files[1].Name, len(got), err)
	}
	if err := r.Verify(ctx, files[1].Name, start, end, sha(stdout[start:end])); err != nil {
		t.Error(err)
	}
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
