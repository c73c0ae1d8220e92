package peers

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// setup/install.sh, the setup action's logic, runs as the runner runs it:
// real bash, real curl against a real HTTP server holding a release's
// files, the runner's file-command files, a tool cache on disk. The release
// is either GoReleaser's snapshot (.ci/run builds it and names it in
// RUNLEDGER_SNAPSHOT_DIST) or a small one with the same layout built here.

const installScript = "../../setup/install.sh"

// release is a directory of release files served at /<tag>/<file>.
type release struct {
	tag, dir string
}

// runnerPlatform is RUNNER_OS and RUNNER_ARCH for this machine.
func runnerPlatform(t *testing.T) (string, string) {
	t.Helper()
	os, ok := map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[runtime.GOOS]
	arch, ok2 := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	if !ok || !ok2 {
		t.Skipf("no runledger release for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return os, arch
}

// archiveName is .goreleaser.yaml's name_template for this machine.
func archiveName(version string) string {
	return fmt.Sprintf("runledger_%s_%s_%s.tar.gz", strings.TrimPrefix(version, "v"), runtime.GOOS, runtime.GOARCH)
}

var (
	smallOnce    sync.Once
	smallRelease release
	smallErr     error
)

// builtRelease is a release of this machine's archive only: the binary
// stamped as GoReleaser stamps it, alone at the root of a tar.gz, and a
// checksums.txt in sha256sum's format.
func builtRelease(t *testing.T) release {
	t.Helper()
	smallOnce.Do(func() {
		smallRelease.tag = "v0.9.1"
		if smallRelease.dir, smallErr = os.MkdirTemp("", "runledger-release-"); smallErr != nil {
			return
		}
		bin := filepath.Join(smallRelease.dir, "runledger")
		cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false",
			"-ldflags", "-s -w -X main.version="+smallRelease.tag, "-o", bin, "./cmd/runledger")
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			smallErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		name := archiveName(smallRelease.tag)
		if smallErr = tarGz(filepath.Join(smallRelease.dir, name), bin); smallErr != nil {
			return
		}
		os.Remove(bin)
		sum, err := fileSHA256(filepath.Join(smallRelease.dir, name))
		if err != nil {
			smallErr = err
			return
		}
		// Another platform's line first: the script must pick its own.
		sums := strings.Repeat("0", 64) + "  runledger_0.9.1_plan9_386.tar.gz\n" + sum + "  " + name + "\n"
		smallErr = os.WriteFile(filepath.Join(smallRelease.dir, "checksums.txt"), []byte(sums), 0o644)
	})
	if smallErr != nil {
		t.Fatal(smallErr)
	}
	return smallRelease
}

func tarGz(path, bin string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	data, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: "runledger", Mode: 0o755, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	if _, err := tw.Write(data); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return f.Close()
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// snapshotRelease is GoReleaser's `release --snapshot` output in
// RUNLEDGER_SNAPSHOT_DIST, its tag from the metadata.json it wrote.
func snapshotRelease(t *testing.T) release {
	t.Helper()
	dist := os.Getenv("RUNLEDGER_SNAPSHOT_DIST")
	if dist == "" {
		msg := "RUNLEDGER_SNAPSHOT_DIST is unset: run GoReleaser's snapshot (.ci/run does) and point it at dist/"
		if os.Getenv("RUNLEDGER_PEERS_REQUIRED") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	data, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err != nil {
		t.Fatalf("RUNLEDGER_SNAPSHOT_DIST=%s: %v", dist, err)
	}
	var meta struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(data, &meta); err != nil || meta.Version == "" {
		t.Fatalf("%s/metadata.json: no version (%v)", dist, err)
	}
	return release{tag: "v" + meta.Version, dir: dist}
}

// server serves a release's files under /<tag>/ and counts requests.
type server struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string
	auth     []string
}

func serve(t *testing.T, rel release) *server {
	t.Helper()
	s := &server{}
	files := http.StripPrefix("/"+rel.tag, http.FileServer(http.Dir(rel.dir)))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.URL.Path)
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		s.mu.Unlock()
		if !strings.HasPrefix(r.URL.Path, "/"+rel.tag+"/") || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// runner is one job's worth of runner state: a tool cache that outlives
// steps, and per step the file-command files.
type runner struct {
	t                   *testing.T
	toolCache, temp     string
	runnerOS, runnerArc string
	base                string
}

func newRunner(t *testing.T, base string) *runner {
	t.Helper()
	osName, arch := runnerPlatform(t)
	return &runner{t: t, toolCache: t.TempDir(), temp: t.TempDir(), runnerOS: osName, runnerArc: arch, base: base}
}

type setupResult struct {
	code         int
	out          string // stdout and stderr, as the step's log
	path, output string // what the step wrote to GITHUB_PATH and GITHUB_OUTPUT
	outputs      map[string]string
}

// step runs install.sh as setup/action.yml's step runs it.
func (r *runner) step(version string, extra ...string) setupResult {
	r.t.Helper()
	files := r.t.TempDir()
	ghPath, ghOutput := filepath.Join(files, "path"), filepath.Join(files, "output")
	for _, p := range []string{ghPath, ghOutput} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	cmd := exec.Command("bash", installScript)
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + r.temp,
		"RUNNER_OS=" + r.runnerOS, "RUNNER_ARCH=" + r.runnerArc,
		"RUNNER_TOOL_CACHE=" + r.toolCache, "RUNNER_TEMP=" + r.temp,
		"GITHUB_PATH=" + ghPath, "GITHUB_OUTPUT=" + ghOutput,
		"RUNLEDGER_VERSION=" + version, "RUNLEDGER_DOWNLOAD_BASE=" + r.base,
	}, extra...)
	out, err := cmd.CombinedOutput()
	res := setupResult{out: string(out)}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		res.code = exit.ExitCode()
	} else if err != nil {
		r.t.Fatalf("bash %s: %v", installScript, err)
	}
	res.path, res.output = readText(r.t, ghPath), readText(r.t, ghOutput)
	res.outputs = parseOutputs(r.t, res.output)
	return res
}

// installed checks a successful step: one PATH line, the outputs, and a
// binary there that runs and says the version asked for.
func (res setupResult) installed(t *testing.T, tag, toolCache string) {
	t.Helper()
	if res.code != 0 {
		t.Fatalf("install.sh exited %d:\n%s", res.code, res.out)
	}
	dir := strings.TrimSuffix(res.path, "\n")
	if strings.Count(res.path, "\n") != 1 || dir == "" {
		t.Fatalf("GITHUB_PATH %q, want one line", res.path)
	}
	if !strings.HasPrefix(dir, toolCache+string(filepath.Separator)+"runledger"+string(filepath.Separator)) {
		t.Errorf("installed in %s, want under the tool cache %s/runledger", dir, toolCache)
	}
	if res.outputs["version"] != tag || res.outputs["path"] != dir || len(res.outputs) != 2 {
		t.Errorf("outputs %v, want version=%s path=%s", res.outputs, tag, dir)
	}
	out, err := exec.Command(filepath.Join(dir, "runledger"), "version").CombinedOutput()
	if err != nil || string(out) != "runledger "+tag+"\n" {
		t.Errorf("installed runledger version: %q (%v), want %q", out, err, "runledger "+tag+"\n")
	}
}

// refused checks a failed step: non-zero, the message, nothing on PATH,
// nothing in the tool cache.
func (res setupResult) refused(t *testing.T, toolCache string, want ...string) {
	t.Helper()
	if res.code == 0 {
		t.Fatalf("install.sh succeeded, want it refused:\n%s", res.out)
	}
	for _, w := range want {
		if !strings.Contains(res.out, w) {
			t.Errorf("output lacks %q:\n%s", w, res.out)
		}
	}
	if !strings.Contains(res.out, "::error title=runledger setup::") {
		t.Errorf("no ::error annotation:\n%s", res.out)
	}
	if res.path != "" || res.output != "" {
		t.Errorf("GITHUB_PATH %q, GITHUB_OUTPUT %q: want nothing written", res.path, res.output)
	}
	filepath.WalkDir(toolCache, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("left in the tool cache: %s", p)
		}
		return nil
	})
}

func TestSetupInstallsAndReusesTheCache(t *testing.T) {
	for _, tc := range []struct {
		name string
		rel  func(*testing.T) release
	}{{"built here", builtRelease}, {"goreleaser snapshot", snapshotRelease}} {
		t.Run(tc.name, func(t *testing.T) {
			rel := tc.rel(t)
			srv := serve(t, rel)
			r := newRunner(t, srv.URL)
			r.step(rel.tag).installed(t, rel.tag, r.toolCache)
			if n := srv.count(); n != 2 {
				t.Errorf("%d requests, want 2 (checksums.txt and the archive): %v", n, srv.requests)
			}
			// A later job on the same runner: the tool cache already has it.
			second := r.step(rel.tag)
			second.installed(t, rel.tag, r.toolCache)
			if n := srv.count(); n != 2 {
				t.Errorf("the second install made %d requests, want none: %v", n-2, srv.requests[2:])
			}
			if !strings.Contains(second.out, "from the tool cache") {
				t.Errorf("the second install does not say it used the cache:\n%s", second.out)
			}
		})
	}
}

// tampered is a copy of the built release with checksums.txt replaced.
func tampered(t *testing.T, sums func(name, sum string) string) (release, string, string) {
	t.Helper()
	orig := builtRelease(t)
	rel := release{tag: orig.tag, dir: t.TempDir()}
	name := archiveName(rel.tag)
	data, err := os.ReadFile(filepath.Join(orig.dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rel.dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum, _ := fileSHA256(filepath.Join(rel.dir, name))
	if err := os.WriteFile(filepath.Join(rel.dir, "checksums.txt"), []byte(sums(name, sum)), 0o644); err != nil {
		t.Fatal(err)
	}
	return rel, name, sum
}

func TestSetupRefusesAMismatchedArchive(t *testing.T) {
	wrong := strings.Repeat("ab", 32)
	rel, name, sum := tampered(t, func(name, _ string) string { return wrong + "  " + name + "\n" })
	r := newRunner(t, serve(t, rel).URL)
	r.step(rel.tag).refused(t, r.toolCache, "refusing "+name, "sha256 is "+sum, "says "+wrong)
}

func TestSetupRefusesAnArchiveWithoutChecksum(t *testing.T) {
	rel, name, _ := tampered(t, func(name, sum string) string {
		// Only a name that contains the archive's: no prefix or suffix match.
		return sum + "  x" + name + "\n" + sum + "  " + name + ".sbom.json\n"
	})
	r := newRunner(t, serve(t, rel).URL)
	r.step(rel.tag).refused(t, r.toolCache, "checksums.txt of "+rel.tag+" has no entry for "+name)
}

func TestSetupUnknownPlatform(t *testing.T) {
	rel := builtRelease(t)
	srv := serve(t, rel)
	r := newRunner(t, srv.URL)
	for _, env := range [][]string{{"RUNNER_ARCH=ARM"}, {"RUNNER_OS=FreeBSD"}, {"RUNNER_ARCH=X86"}} {
		res := r.step(rel.tag, env...)
		res.refused(t, r.toolCache, "no runledger build for", env[0], "Linux, macOS and Windows on X64 and ARM64")
	}
	if n := srv.count(); n != 0 {
		t.Errorf("%d requests for a platform without a build, want none", n)
	}
}

func TestSetupMissingRelease(t *testing.T) {
	rel := builtRelease(t)
	srv := serve(t, rel)
	r := newRunner(t, srv.URL)
	const secret = "ghs_notprintedanywhere0123456789"
	res := r.step("v9.9.9", "GITHUB_TOKEN="+secret)
	res.refused(t, r.toolCache, "download "+srv.URL+"/v9.9.9/checksums.txt: HTTP 404")
	if strings.Contains(res.out, secret) {
		t.Errorf("the token is in the output:\n%s", res.out)
	}
	for _, a := range srv.auth {
		if a != "" {
			t.Errorf("Authorization %q sent: public release downloads need no credentials", a)
		}
	}
}

func TestSetupVersionInput(t *testing.T) {
	rel := builtRelease(t)
	srv := serve(t, rel)
	r := newRunner(t, srv.URL)
	r.step("").refused(t, r.toolCache, "input version is empty", "set version:")
	for _, v := range []string{"v1", "main", "1.2.3", "v1.2.3; rm -rf /"} {
		r.step(v).refused(t, r.toolCache, `input version "`+v+`" is not a release tag`)
	}
	if n := srv.count(); n != 0 {
		t.Errorf("%d requests for versions that are no release tags, want none", n)
	}
}

// TestSetupEveryPlatform: each of the six RUNNER_OS/RUNNER_ARCH pairs
// fetches its own archive, named as .goreleaser.yaml names it, and the
// Windows pairs a zip holding runledger.exe, extracted with unzip as on Git
// Bash. Every archive holds this machine's binary so that the installed
// file runs here.
func TestSetupEveryPlatform(t *testing.T) {
	rel := release{tag: "v0.9.2-rc.1", dir: t.TempDir()}
	bin := filepath.Join(t.TempDir(), "runledger")
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags", "-s -w -X main.version="+rel.tag, "-o", bin, "./cmd/runledger")
	cmd.Dir, cmd.Env = "../..", append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	type platform struct{ runnerOS, runnerArch, archive string }
	var platforms []platform
	var sums strings.Builder
	for _, o := range []struct{ runner, goos string }{{"Linux", "linux"}, {"macOS", "darwin"}, {"Windows", "windows"}} {
		for _, a := range []struct{ runner, goarch string }{{"X64", "amd64"}, {"ARM64", "arm64"}} {
			name := fmt.Sprintf("runledger_0.9.2-rc.1_%s_%s.tar.gz", o.goos, a.goarch)
			var err error
			if o.goos == "windows" {
				name = strings.TrimSuffix(name, ".tar.gz") + ".zip"
				err = zipExe(filepath.Join(rel.dir, name), bin)
			} else {
				err = tarGz(filepath.Join(rel.dir, name), bin)
			}
			if err != nil {
				t.Fatal(err)
			}
			sum, _ := fileSHA256(filepath.Join(rel.dir, name))
			fmt.Fprintf(&sums, "%s  %s\n", sum, name)
			platforms = append(platforms, platform{o.runner, a.runner, name})
		}
	}
	if err := os.WriteFile(filepath.Join(rel.dir, "checksums.txt"), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	srv := serve(t, rel)
	for _, p := range platforms {
		t.Run(p.runnerOS+"-"+p.runnerArch, func(t *testing.T) {
			r := newRunner(t, srv.URL)
			r.runnerOS, r.runnerArc = p.runnerOS, p.runnerArch
			before := srv.count()
			res := r.step(rel.tag)
			if res.code != 0 {
				t.Fatalf("install.sh exited %d:\n%s", res.code, res.out)
			}
			srv.mu.Lock()
			got := srv.requests[before:]
			srv.mu.Unlock()
			if want := []string{"/" + rel.tag + "/checksums.txt", "/" + rel.tag + "/" + p.archive}; strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("requests %v, want %v", got, want)
			}
			exe := "runledger"
			if p.runnerOS == "Windows" {
				exe = "runledger.exe"
			}
			dir := strings.TrimSuffix(res.path, "\n")
			if want := filepath.Join(r.toolCache, "runledger", "0.9.2-rc.1", strings.ToLower(p.runnerArch)); dir != want {
				t.Errorf("installed in %s, want %s", dir, want)
			}
			if out, err := exec.Command(filepath.Join(dir, exe), "version").Output(); err != nil || string(out) != "runledger "+rel.tag+"\n" {
				t.Errorf("%s version: %q (%v)", exe, out, err)
			}
		})
	}
}

// zipExe writes a zip holding bin as runledger.exe, as GoReleaser's
// Windows archives hold it.
func zipExe(path, bin string) error {
	data, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	h := &zip.FileHeader{Name: "runledger.exe", Method: zip.Deflate}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}
