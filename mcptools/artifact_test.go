//go:build unix

// Uses call from mcptools_test.go, which is POSIX only.

package mcptools

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/internal/artifacttest"
)

// githubAPI answers the artifact download with a redirect to a blob that
// honours Range, as GitHub does.
func githubAPI(t *testing.T, zips map[int64]string) *httptest.Server {
	return countingAPI(t, zips, new(atomic.Int64))
}

// countingAPI is githubAPI counting the blob requests in blobGets.
func countingAPI(t *testing.T, zips map[int64]string, blobGets *atomic.Int64) *httptest.Server {
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
		blobGets.Add(1)
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
		7: artifacttest.ZipRun(t, runDir, out.Run.ID, artifacttest.Options{}),
		8: artifacttest.ZipRun(t, runDir, out.Run.ID, artifacttest.Options{StdoutSHA256: strings.Repeat("0", 64)}),
	})
	env := map[string]string{"GITHUB_API_URL": srv.URL, "GH_TOKEN": "test-token"}
	cs := session(t, Options{StoreDir: t.TempDir(), Getenv: func(k string) string { return env[k] }})
	x := out.Run.Excerpts[0]
	args := map[string]any{"repo": "octo/repo", "artifact_id": 7, "run": out.Run.ID[:20], "stream": x.Stream,
		"range": fmt.Sprintf("%d:%d", x.Start, x.End), "sha256": x.SHA256}
	var shown ShowOutput
	text, isErr := call(t, cs, "show", args, &shown)
	if isErr || shown.Source != "artifact" || shown.SHA256 != x.SHA256 || len(shown.Checks) != 3 ||
		!strings.Contains(strings.Join(shown.Checks, "; "), "every byte read is checked") {
		t.Fatalf("show from artifact: %+v\n%s", shown, text)
	}
	bad := []struct {
		change map[string]any
		want   string
	}{
		{map[string]any{"artifact_id": 8}, "the manifest says"},
		{map[string]any{"run": "nope"}, "no run with that id"},
		{map[string]any{"range": "", "lines": "99:100"}, "fewer than 99 lines"},
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

// TestGrepArtifact: grep and show by lines read an artifact's log in 4 MiB
// blocks and give exactly what they give on the local store, across a
// block boundary too.
func TestGrepArtifact(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	local := session(t, Options{AllowRun: true, StoreDir: dir})
	var out RunOutput
	call(t, local, "run", map[string]any{"argv": []string{"seq", "1", "1200000"}}, &out)
	runDir := filepath.Join(dir, out.Run.ID)
	log, err := os.ReadFile(filepath.Join(runDir, "stdout.log"))
	if err != nil || len(log) < 2*4<<20 {
		t.Fatalf("stdout.log: %d bytes, %v", len(log), err)
	}
	// The number on the line that holds the first block's last byte.
	start := bytes.LastIndexByte(log[:4<<20], '\n') + 1
	across := string(log[start : start+bytes.IndexByte(log[start:], '\n')])
	var gets atomic.Int64
	srv := countingAPI(t, map[int64]string{
		7: artifacttest.ZipRun(t, runDir, out.Run.ID, artifacttest.Options{}),
		8: artifacttest.ZipRun(t, runDir, out.Run.ID, artifacttest.Options{StdoutSHA256: strings.Repeat("0", 64)}),
	}, &gets)
	env := map[string]string{"GITHUB_API_URL": srv.URL, "GH_TOKEN": "test-token"}
	remote := session(t, Options{StoreDir: t.TempDir(), Getenv: func(k string) string { return env[k] }})
	for _, pattern := range []string{"^" + across + "$", "^1199999$", "^(1|12|123)$"} {
		args := map[string]any{"run": out.Run.ID, "stream": "stdout", "pattern": pattern, "context": 2}
		var want, got GrepOutput
		call(t, local, "grep", args, &want)
		args["repo"], args["artifact_id"] = "octo/repo", 7
		gets.Store(0)
		text, isErr := call(t, remote, "grep", args, &got)
		if isErr || got.Source != "artifact" || len(got.Checks) != 2 || len(got.Matches) == 0 ||
			!reflect.DeepEqual(got.Matches, want.Matches) {
			t.Fatalf("grep %q from the artifact: %+v\n%s\nlocal: %+v", pattern, got, text, want.Matches)
		}
		// The whole log is read (the last match is near its end): a few
		// requests for the zip's directory and manifest, then one a block.
		if n, blocks := gets.Load(), int64(len(log)>>22+1); n > blocks+6 {
			t.Errorf("grep %q: %d blob requests for %d blocks", pattern, n, blocks)
		}
	}
	var shown ShowOutput
	text, isErr := call(t, remote, "show", map[string]any{"repo": "octo/repo", "artifact_id": 7, "run": out.Run.ID,
		"stream": "stdout", "lines": "5:6"}, &shown)
	if isErr || shown.Text != "5\n6\n" || shown.FirstLine != 5 {
		t.Fatalf("show lines from the artifact: %+v\n%s", shown, text)
	}
	text, isErr = call(t, remote, "grep", map[string]any{"repo": "octo/repo", "artifact_id": 8, "run": out.Run.ID, "stream": "stdout", "pattern": "1"}, nil)
	if !isErr || !strings.Contains(text, "the manifest says") {
		t.Errorf("grep with a manifest that contradicts the record: %v %q", isErr, text)
	}
}

// TestArtifactTamperedBlock: one byte of the log changed inside the blob
// (the manifest and the record left as they were) fails show, with and
// without a cited sha256, and grep, naming the block and printing nothing
// of it; a range in another block still reads. An artifact from before
// block hashes says its bytes are unchecked, never verified.
func TestArtifactTamperedBlock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	var out RunOutput
	call(t, session(t, Options{AllowRun: true, StoreDir: dir}), "run", map[string]any{"argv": []string{"seq", "1", "200000"}}, &out)
	runDir := filepath.Join(dir, out.Run.ID)
	log, err := os.ReadFile(filepath.Join(runDir, "stdout.log"))
	if err != nil || len(log) < 3*artifact.HashBlockSize {
		t.Fatalf("stdout.log: %d bytes, %v", len(log), err)
	}
	at := int64(artifact.HashBlockSize + 1000) // in the second block
	srv := githubAPI(t, map[int64]string{
		9:  artifacttest.ZipRun(t, runDir, out.Run.ID, artifacttest.Options{TamperAt: at}),
		10: artifacttest.ZipRun(t, runDir, out.Run.ID, artifacttest.Options{OldFormat: true}),
	})
	env := map[string]string{"GITHUB_API_URL": srv.URL, "GH_TOKEN": "test-token"}
	cs := session(t, Options{StoreDir: t.TempDir(), Getenv: func(k string) string { return env[k] }})
	base := map[string]any{"repo": "octo/repo", "artifact_id": 9, "run": out.Run.ID, "stream": "stdout"}
	with := func(kv ...any) map[string]any {
		a := map[string]any{}
		for k, v := range base {
			a[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			a[kv[i].(string)] = kv[i+1]
		}
		return a
	}
	lo, hi := at-10, at+10
	for _, args := range []map[string]any{
		with("range", fmt.Sprintf("%d:%d", lo, hi)),
		with("range", fmt.Sprintf("%d:%d", lo, hi), "sha256", sha256Hex(log[lo:hi])),
	} {
		text, isErr := call(t, cs, "show", args, nil)
		if !isErr || !strings.Contains(text, "block 1 ") || strings.Contains(text, string(log[lo:hi])) {
			t.Errorf("show of a tampered block %v: error %v %q", args, isErr, text)
		}
	}
	if text, isErr := call(t, cs, "grep", with("pattern", "^199999$"), nil); !isErr || !strings.Contains(text, "does not match the manifest") {
		t.Errorf("grep over a tampered block: error %v %q", isErr, text)
	}
	var shown ShowOutput
	if text, isErr := call(t, cs, "show", with("range", "0:10"), &shown); isErr || shown.Text != string(log[:10]) {
		t.Errorf("a range in an untouched block: %v %q", isErr, text)
	}
	// blocks_sha256 from the report envelope pins the manifest: the true
	// one passes and says so, any other fails before a byte is read.
	_, pin, _ := artifact.HashBlocks(bytes.NewReader(log))
	if text, isErr := call(t, cs, "show", with("range", "0:10", "blocks_sha256", pin), &shown); isErr ||
		!strings.Contains(strings.Join(shown.Checks, "; "), "matches the blocks_sha256 given") {
		t.Errorf("show pinned by the true blocks_sha256: %v %q %v", isErr, text, shown.Checks)
	}
	if text, isErr := call(t, cs, "grep", with("pattern", "^7$", "blocks_sha256", strings.Repeat("ab", 32)), nil); !isErr || !strings.Contains(text, "not to the blocks_sha256 given") {
		t.Errorf("grep pinned by a wrong blocks_sha256: %v %q", isErr, text)
	}
	old := with("artifact_id", 10, "range", "0:10")
	if text, isErr := call(t, cs, "show", old, &shown); isErr || !strings.Contains(strings.Join(shown.Checks, "; "), "NOT checked") {
		t.Errorf("an artifact without block hashes must say its bytes are unchecked: %v %q %v", isErr, text, shown.Checks)
	}
}
