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
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, info, false
	}
	mtime, ctime := statNanos(st)
	return fileID{ino: int64(st.Ino), size: st.Size, mtime: mtime, ctime: ctime}, info, true
}
