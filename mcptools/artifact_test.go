package mcptools

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/artifact"
)

// zipRun writes a run directory as artifact.RunFiles lays it out, logs
// stored uncompressed, with a manifest whose hash of stdout.log is
// stdoutSum ("" for the true one).
func zipRun(t *testing.T, runDir, id, stdoutSum string) string {
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
		sum := sha256Hex(data)
		if strings.HasSuffix(file.Name, "/stdout.log") && stdoutSum != "" {
			sum = stdoutSum
		}
		m.Entries = append(m.Entries, artifact.Entry{Name: file.Name, Size: int64(len(data)), SHA256: sum})
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: file.Name, Method: zip.Store})
		w.Write(data)
	}
	w, _ := zw.Create(artifact.ManifestName)
	json.NewEncoder(w).Encode(m)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// githubAPI answers the artifact download with a redirect to a blob that
// honours Range, as GitHub does.
func githubAPI(t *testing.T, zips map[int64]string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("GET /repos/octo/repo/actions/artifacts/{id}/zip", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer test-token" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		http.Redirect(w, r, srv.URL+"/blob/"+r.PathValue("id")+"?sig=secret", http.StatusFound)
	})
	mux.HandleFunc("GET /blob/{id}", func(w http.ResponseWriter, r *http.Request) {
		var id int64
		fmt.Sscan(r.PathValue("id"), &id)
		http.ServeFile(w, r, zips[id])
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestShowArtifact(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	var out RunOutput
	call(t, session(t, Options{AllowRun: true, StoreDir: dir}), "run", map[string]any{"command": failingScript}, &out)
	runDir := filepath.Join(dir, out.Run.ID)
	srv := githubAPI(t, map[int64]string{
		7: zipRun(t, runDir, out.Run.ID, ""),
		8: zipRun(t, runDir, out.Run.ID, strings.Repeat("0", 64)),
	})
	env := map[string]string{"GITHUB_API_URL": srv.URL, "GH_TOKEN": "test-token"}
	cs := session(t, Options{StoreDir: t.TempDir(), Getenv: func(k string) string { return env[k] }})
	x := out.Run.Excerpts[0]
	args := map[string]any{"repo": "octo/repo", "artifact_id": 7, "run": out.Run.ID[:20], "stream": x.Stream,
		"range": fmt.Sprintf("%d:%d", x.Start, x.End), "sha256": x.SHA256}
	var shown ShowOutput
	text, isErr := call(t, cs, "show", args, &shown)
	if isErr || shown.Source != "artifact" || shown.SHA256 != x.SHA256 || len(shown.Checks) != 2 {
		t.Fatalf("show from artifact: %+v\n%s", shown, text)
	}
	bad := []struct {
		change map[string]any
		want   string
	}{
		{map[string]any{"artifact_id": 8}, "the manifest says"},
		{map[string]any{"run": "nope"}, "no run with that id"},
		{map[string]any{"range": "", "lines": "1:2"}, "byte range only"},
		{map[string]any{"range": "0:99999"}, "ends past the end"},
		{map[string]any{"repo": "octo/other"}, "404"},
	}
	for _, b := range bad {
		a := map[string]any{}
		for k, v := range args {
			a[k] = v
		}
		for k, v := range b.change {
			a[k] = v
		}
		if text, isErr := call(t, cs, "show", a, nil); !isErr || !strings.Contains(text, b.want) {
			t.Errorf("%v: error %v %q, want %q", b.change, isErr, text, b.want)
		}
	}
}
