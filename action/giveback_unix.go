//go:build unix

package action

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

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
