package artifact

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	DefaultRetry = Retry{Max: 3, WaitMin: time.Millisecond, WaitMax: 5 * time.Millisecond}
	os.Exit(m.Run())
}

// makeRun writes a run directory with a stdout.log of stdoutSize random
// bytes and returns its files as the artifact would hold them.
func makeRun(t *testing.T, stdoutSize int) []File {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout := make([]byte, stdoutSize)
	rand.Read(stdout)
	write("record.json", []byte(`{"schema":"runledger.run/v1","status":"failed"}`+"\n"))
	write("stdout.log", stdout)
	write("stderr.log", []byte("--- FAIL: TestParse (0.00s)\n"))
	write("output.log", append([]byte("--- FAIL: TestParse (0.00s)\n"), stdout...))
	write("junit/001-report.xml", []byte(`<testsuite tests="1" failures="1"></testsuite>`))
	files, err := RunFiles(dir, "run-1")
	if err != nil {
		t.Fatal(err)
	}
	envelope := filepath.Join(dir, "report.json")
	write("report.json", []byte(`{"schema":"runledger.report/v1","status":"failed"}`))
	return append(files, File{Name: "report.json", Path: envelope})
}

func sha(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

func TestUploadRoundTrip(t *testing.T) {
	tests := []struct {
		name      string
		camel     bool
		retention int
		maxDays   string
		wantDays  int
	}{
		{name: "proto names, no retention", camel: false},
		{name: "lowerCamel, retention capped", camel: true, retention: 30, maxDays: "7", wantDays: 7},
		{name: "retention under the cap", retention: 3, maxDays: "90", wantDays: 3},
	}
	files := makeRun(t, 3*BlockSize+12345) // several blocks and a short last one
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			f.camel = tt.camel
			env := f.env()
			u, err := NewUploader(func(k string) string {
				if k == "GITHUB_RETENTION_DAYS" {
					return tt.maxDays
				}
				return env(k)
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
			u.RetentionDays, u.Now = tt.retention, func() time.Time { return now }
			res, err := u.Upload(context.Background(), "unit: linux/amd64", files)
			if err != nil {
				t.Fatal(err)
			}
			if res.Name != "unit- linux-amd64" || res.URL != "https://ghe.example/octo/repo/actions/runs/77/artifacts/"+strconv.FormatInt(res.ID, 10) {
				t.Errorf("name %q url %q", res.Name, res.URL)
			}
			wantExp := ""
			if tt.wantDays > 0 {
				wantExp = now.AddDate(0, 0, tt.wantDays).Format(time.RFC3339)
			}
			if got := f.created[0]["expires_at"]; got != wantExp {
				t.Errorf("expires_at = %q, want %q", got, wantExp)
			}
			checkBlob(t, f.artifacts[res.Name].data, res, files)
			checkRemote(t, f, res, files)
		})
	}
}

// checkBlob unzips what the fake committed and compares every entry, and
// the manifest's offsets, with the files on disk.
func checkBlob(t *testing.T, blob []byte, res *Result, files []File) {
	t.Helper()
	if int64(len(blob)) != res.Size || sha(blob) != res.SHA256 {
		t.Fatalf("blob %d bytes %s, result says %d %s", len(blob), sha(blob), res.Size, res.SHA256)
	}
	zr, err := zip.NewReader(bytes.NewReader(blob), int64(len(blob)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != len(files)+1 || zr.File[len(files)].Name != ManifestName {
		t.Fatalf("zip has %d entries, want %d files and the manifest last", len(zr.File), len(files))
	}
	for i, f := range files {
		want, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		got := readZipEntry(t, zr.File[i])
		e := res.Entries[i]
		if zr.File[i].Name != f.Name || !bytes.Equal(got, want) || e.SHA256 != sha(want) || e.Size != int64(len(want)) {
			t.Errorf("entry %s differs from %s", zr.File[i].Name, f.Path)
		}
		if f.Store && !bytes.Equal(blob[e.Offset:e.Offset+e.Size], want) {
			t.Errorf("stored entry %s is not at blob offset %d", f.Name, e.Offset)
		}
		if (zr.File[i].Method == zip.Store) != f.Store {
			t.Errorf("entry %s method %d, store=%v", f.Name, zr.File[i].Method, f.Store)
		}
	}
}

func readZipEntry(t *testing.T, zf *zip.File) []byte {
	t.Helper()
	rc, err := zf.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// checkRemote reads the artifact back through the API redirect and ranges.
func checkRemote(t *testing.T, f *fakeService, res *Result, files []File) {
	t.Helper()
	ctx := context.Background()
	r, err := f.open(ctx, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Manifest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range m.Entries {
		if !reflect.DeepEqual(e, res.Entries[i]) || len(e.Blocks) == 0 || e.BlocksSHA256 != BlocksSum(e.Blocks) {
			t.Errorf("manifest entry %+v, upload returned %+v", e, res.Entries[i])
		}
	}
	stdout, _ := os.ReadFile(files[1].Path)
	start, end := int64(BlockSize-100), int64(BlockSize+4000) // across a block boundary
	got, err := r.ReadRange(ctx, "run-1/stdout.log", start, end)
	if err != nil || !bytes.Equal(got, stdout[start:end]) {
		t.Fatalf("ReadRange = %d bytes, %v; want the file's bytes", len(got), err)
	}
	if err := r.Verify(ctx, "run-1/stdout.log", start, end, sha(stdout[start:end])); err != nil {
		t.Errorf("Verify of correct hash: %v", err)
	}
	rec, err := r.ReadFile(ctx, "run-1/record.json")
	want, _ := os.ReadFile(files[0].Path)
	if err != nil || !bytes.Equal(rec, want) {
		t.Errorf("ReadFile(record.json) = %q, %v", rec, err)
	}
}

func TestUploadFaults(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(f *fakeService)
		wantErr string // "" for success
		wantIs  error
	}{
		{name: "503 then success", setup: func(f *fakeService) { f.faults["CreateArtifact"] = []int{503} }},
		{name: "429 on finalize then success", setup: func(f *fakeService) { f.faults["FinalizeArtifact"] = []int{429, 502} }},
		{name: "block PUT fails once", setup: func(f *fakeService) { f.faults["block"] = []int{500} }},
		{name: "block list fails once", setup: func(f *fakeService) { f.faults["blocklist"] = []int{503} }},
		{name: "name clash", setup: func(f *fakeService) {
			f.artifacts["unit"] = &fakeArtifact{name: "unit"}
		}, wantErr: `upload artifact "unit": CreateArtifact: HTTP 409`, wantIs: ErrNameConflict},
		{name: "4xx is not retried", setup: func(f *fakeService) { f.faults["block"] = []int{403, 403} },
			wantErr: "put block 0: HTTP 403"},
		{name: "5xx until retries run out", setup: func(f *fakeService) { f.faults["CreateArtifact"] = []int{503, 503, 503, 503} },
			wantErr: "CreateArtifact: HTTP 503"},
		{name: "truncated create response", setup: func(f *fakeService) { f.truncate["CreateArtifact"] = 1 },
			wantErr: "CreateArtifact: read response"},
		{name: "truncated finalize response", setup: func(f *fakeService) { f.truncate["FinalizeArtifact"] = 1 },
			wantErr: "FinalizeArtifact: read response"},
	}
	files := makeRun(t, BlockSize+10) // two blocks
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			tt.setup(f)
			u, err := NewUploader(f.env(), nil)
			if err != nil {
				t.Fatal(err)
			}
			u.Retry = DefaultRetry
			res, err := u.Upload(context.Background(), "unit", files)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Upload: %v", err)
				}
				checkBlob(t, f.artifacts["unit"].data, res, files)
				if blocks := int((res.Size + BlockSize - 1) / BlockSize); f.blockPuts != blocks {
					t.Errorf("fake staged %d blocks, want %d", f.blockPuts, blocks)
				}
				return
			}
			var ue *UploadError
			if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Upload error = %v, want an *UploadError containing %q", err, tt.wantErr)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("error %v does not wrap %v", err, tt.wantIs)
			}
			if strings.Contains(err.Error(), uploadSig) || strings.Contains(err.Error(), f.token) {
				t.Errorf("error leaks a secret: %v", err)
			}
			if len(f.faults["block"]) != 1 && tt.name == "4xx is not retried" {
				t.Errorf("a 403 was retried")
			}
		})
	}
}

func TestNewUploaderErrors(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantIs  error
		wantErr string
	}{
		{name: "outside Actions", env: map[string]string{}, wantIs: ErrNotInActions},
		{name: "no results URL", env: map[string]string{"ACTIONS_RUNTIME_TOKEN": "a.b.c"}, wantIs: ErrNotInActions},
		{name: "malformed token", env: map[string]string{"ACTIONS_RUNTIME_TOKEN": "not-a-jwt", "ACTIONS_RESULTS_URL": "https://r.example/"},
			wantErr: "malformed runtime token"},
		{name: "relative results URL", env: map[string]string{"ACTIONS_RUNTIME_TOKEN": fakeToken(t, "Actions.Results:1:2"), "ACTIONS_RESULTS_URL": "/x"},
			wantErr: "ACTIONS_RESULTS_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewUploader(func(k string) string { return tt.env[k] }, nil)
			if err == nil || (tt.wantIs != nil && !errors.Is(err, tt.wantIs)) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("NewUploader error = %v", err)
			}
		})
	}
}

func TestBackendIDsFromToken(t *testing.T) {
	tests := []struct {
		name, token string
		want        backendIDs
		wantErr     bool
	}{
		{name: "among other scopes", token: fakeToken(t, "Actions.ExampleScope Actions.Results:ce7f54c7:ca395085"), want: backendIDs{"ce7f54c7", "ca395085"}},
		{name: "only scope", token: fakeToken(t, "Actions.Results:1:2"), want: backendIDs{"1", "2"}},
		{name: "no results scope", token: fakeToken(t, "Actions.Other:1:2"), wantErr: true},
		{name: "empty job", token: fakeToken(t, "Actions.Results:1:"), wantErr: true},
		{name: "two parts", token: "a.b", wantErr: true},
		{name: "payload not base64", token: "a.!!!.c", wantErr: true},
		{name: "payload not JSON", token: "a.bm90IGpzb24.c", wantErr: true},
		{name: "scp not a string", token: "a.eyJzY3AiOjF9.c", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := backendIDsFromToken(tt.token)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("got %+v, %v", got, err)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "malformed runtime token") {
				t.Errorf("error %q does not say the token is malformed", err)
			}
		})
	}
}

func TestMaskPrintedOnceInActions(t *testing.T) {
	for _, inActions := range []string{"true", ""} {
		f := newFake(t)
		env := f.env()
		u, err := NewUploader(func(k string) string {
			if k == "GITHUB_ACTIONS" {
				return inActions
			}
			return env(k)
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		u.Stdout = &out
		if _, err := u.Upload(context.Background(), "m", makeRun(t, 100)); err != nil {
			t.Fatal(err)
		}
		want := ""
		if inActions == "true" {
			want = "::add-mask::" + f.srv.URL + "/upload/m?sv=2023&se=2099&sig=" + uploadSig + "\n"
		}
		if out.String() != want {
			t.Errorf("GITHUB_ACTIONS=%q: stdout %q, want %q", inActions, out.String(), want)
		}
	}
}

// TestUploadMemoryFlat streams a log many blocks long and checks that the
// bytes allocated stay near two blocks, not near the log's size.
func TestUploadMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 96 MiB")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "stdout.log")
	fh, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	if err := fh.Truncate(12 * BlockSize); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	f := newFake(t)
	f.discard = true
	u, err := NewUploader(f.env(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := u.Upload(context.Background(), "big", []File{{Name: "stdout.log", Path: log, Store: true}})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	// The fake shares the process; it hashes without keeping the bytes.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*BlockSize {
		t.Errorf("uploading %d bytes allocated %d bytes; want at most %d", res.Size, alloc, 4*BlockSize)
	}
	if f.blockPuts != 13 {
		t.Errorf("%d blocks staged, want 13", f.blockPuts)
	}
}
