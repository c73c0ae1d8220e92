//go:build unix

package capture

import (
	"os"
	"syscall"
)

func statID(path string) (fileID, os.FileInfo, bool) {
	info, err := os.Stat(path)
	if err != nil {
		return fileID{}, nil, false
	}
	id, ok := infoID(info)
	return id, info, ok
}

// infoID is statID for a FileInfo in hand (from a directory walk).
func infoID(info os.FileInfo) (fileID, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	mtime, ctime := statNanos(st)
	return fileID{ino: int64(st.Ino), size: st.Size, mtime: mtime, ctime: ctime}, true
}
