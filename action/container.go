package action

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/runledger/runledger/record"
)

// imageEnv is set by the Dockerfile: the action runs in runledger's own
// image, which has a shell and git but no language toolchain, and only
// the workspace (and /github/*) mounted from the runner.
const imageEnv = "RUNLEDGER_IMAGE"

// checkImageDir refuses, inside the image, a store dir outside the
// workspace: everything else is the container's own filesystem and is
// gone when the step ends (runner.temp is not mounted at its host path).
func checkImageDir(dir, workspace string) error {
	if workspace == "" || !filepath.IsAbs(dir) {
		return nil // relative: inside the working directory, the workspace
	}
	rel, err := filepath.Rel(workspace, dir)
	if err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return nil
	}
	return fmt.Errorf("input dir %q is outside the workspace %s: inside the action's container it would be lost when the step ends; use a path in the workspace, such as .runledger", dir, workspace)
}

// imageHint explains a command the image could not run: exit 127 is the
// shell's "not found", and the image holds no Go, Node, Python or Rust.
func imageHint(rec *record.Record) string {
	if rec == nil || rec.ExitCode == nil || *rec.ExitCode != 127 {
		return ""
	}
	return "the command exited 127 (not found): runledger's Docker action runs it in its own image, " +
		"which has a shell and git but no language toolchains. Run it on the runner with the CLI " +
		"(`runledger run -- …` in your own step, after setup) and publish with `mode: report`."
}

// gitSafeDirectory adds the workspace to git's safe.directory for the
// command, through git's GIT_CONFIG_COUNT variables rather than a config
// file: inside the container the workspace belongs to another uid and git
// refuses it ("detected dubious ownership"); the runner does not set it
// for Docker actions (https://github.com/actions/runner/issues/2033).
func gitSafeDirectory(env []string, workspace string) []string {
	if workspace == "" {
		return env
	}
	n := 0
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GIT_CONFIG_COUNT="); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	out := make([]string, 0, len(env)+3)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GIT_CONFIG_COUNT=") {
			out = append(out, kv)
		}
	}
	return append(out, fmt.Sprintf("GIT_CONFIG_KEY_%d=safe.directory", n),
		fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", n, workspace), fmt.Sprintf("GIT_CONFIG_COUNT=%d", n+1))
}

// giveBack hands what the step wrote in the workspace to the workspace's
// owner: GitHub runs Docker actions as root, and a later step running as
// the runner user must be able to read the store, delete it, and let
// actions/checkout's git clean remove what the command built (the runner
// leaves root-owned files behind: https://github.com/actions/runner/issues/434). It changes
// only files owned by root and changed since the step began, and the
// store whole. It does nothing unless it runs as root and the workspace
// belongs to someone else.
func giveBack(workspace, store string, since time.Time) []error {
	var ws syscall.Stat_t
	if os.Geteuid() != 0 || workspace == "" || syscall.Stat(workspace, &ws) != nil || ws.Uid == 0 {
		return nil
	}
	uid, gid := int(ws.Uid), int(ws.Gid)
	var errs []error
	chown := func(path string, d fs.DirEntry, all bool) {
		info, err := d.Info()
		if err != nil {
			return
		}
		st, ok := info.Sys().(*syscall.Stat_t)
		if !ok || st.Uid != 0 || (!all && info.ModTime().Before(since)) {
			return
		}
		if err := os.Lchown(path, uid, gid); err != nil && len(errs) < 5 {
			errs = append(errs, err)
		}
	}
	storeAbs, _ := filepath.Abs(store)
	filepath.WalkDir(workspace, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" && path != workspace {
			return filepath.SkipDir // git's own files: the command's git calls are its business
		}
		chown(path, d, path == storeAbs || strings.HasPrefix(path, storeAbs+string(filepath.Separator)))
		return nil
	})
	return errs
}
