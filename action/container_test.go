//go:build unix

// giveBack changes file owners, which Windows does not have.

package action

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/runledger/runledger/record"
)

func TestCheckImageDir(t *testing.T) {
	for _, tt := range []struct {
		dir  string
		fail bool
	}{
		{".runledger", false}, {"out/rl", false}, {"/github/workspace/.runledger", false},
		{"/github/workspace", false}, {"/home/runner/work/_temp/rl", true}, {"/tmp/rl", true},
		{"/github/workspace/../home", true}, {"/github/workspace2/rl", true},
	} {
		err := checkImageDir(tt.dir, "/github/workspace")
		if (err != nil) != tt.fail || err != nil && !strings.Contains(err.Error(), tt.dir) {
			t.Errorf("checkImageDir(%q) = %v, want failure %v naming the input", tt.dir, err, tt.fail)
		}
	}
}

func TestImageHint(t *testing.T) {
	notFound, failed := 127, 1
	if imageHint(&record.Record{ExitCode: &notFound}) == "" || imageHint(&record.Record{ExitCode: &failed}) != "" || imageHint(&record.Record{}) != "" {
		t.Error("the hint is for exit 127 alone")
	}
}

// asWorkspaceOwner makes a workspace owned by uid 1001, as on hosted
// runners, with a git repository in it; it needs root.
func asWorkspaceOwner(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root, as the Docker action runs")
	}
	ws := t.TempDir()
	if out, err := exec.Command("git", "-C", ws, "init", "-q").CombinedOutput(); err != nil {
		t.Skipf("git: %v %s", err, out)
	}
	if err := filepath.Walk(ws, func(p string, _ os.FileInfo, _ error) error { return os.Lchown(p, 1001, 1001) }); err != nil {
		t.Fatal(err)
	}
	return ws
}

// TestGitSafeDirectory: in a workspace owned by another uid, git refuses
// to work ("dubious ownership") unless the command's environment adds the
// workspace to safe.directory, as the action now does.
func TestGitSafeDirectory(t *testing.T) {
	ws := asWorkspaceOwner(t)
	base := append(os.Environ(), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
	run := func(env []string) (string, error) {
		cmd := exec.Command("git", "rev-parse", "--git-dir")
		cmd.Dir, cmd.Env = ws, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run(base); err == nil || !strings.Contains(out, "dubious ownership") {
		t.Skipf("git does not refuse a workspace of another uid here: %v %s", err, out)
	}
	if out, err := run(gitSafeDirectory(base, ws)); err != nil {
		t.Fatalf("with safe.directory: %v %s", err, out)
	}
	withOne := append(base, "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.pager", "GIT_CONFIG_VALUE_0=cat")
	if out, err := run(gitSafeDirectory(withOne, ws)); err != nil {
		t.Fatalf("after a config the user set: %v %s", err, out)
	}
}

// TestGiveBack: what the step wrote as root in the workspace goes to the
// workspace's owner — the store whole, other files changed during the
// step — and nothing older is touched.
func TestGiveBack(t *testing.T) {
	ws := asWorkspaceOwner(t)
	old := filepath.Join(ws, "vendored.txt")
	os.WriteFile(old, []byte("x"), 0o644)
	os.Chtimes(old, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour))
	since := time.Now().Add(-time.Second)
	storeDir := filepath.Join(ws, ".runledger")
	os.MkdirAll(filepath.Join(storeDir, "run-1"), 0o755)
	os.WriteFile(filepath.Join(storeDir, "run-1", "record.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(ws, "junit.xml"), []byte("<testsuite/>"), 0o644)
	if errs := giveBack(ws, storeDir, since); len(errs) > 0 {
		t.Fatal(errs)
	}
	owner := func(p string) uint32 {
		var st syscall.Stat_t
		if err := syscall.Lstat(p, &st); err != nil {
			t.Fatal(err)
		}
		return st.Uid
	}
	for _, p := range []string{storeDir, filepath.Join(storeDir, "run-1"), filepath.Join(storeDir, "run-1", "record.json"), filepath.Join(ws, "junit.xml")} {
		if owner(p) != 1001 {
			t.Errorf("%s: owned by %d, want the workspace's owner 1001", p, owner(p))
		}
	}
	if owner(old) != 0 {
		t.Errorf("%s, older than the step, was changed", old)
	}
}
