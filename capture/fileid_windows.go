package capture

import (
	"os"
	"syscall"
)

// statID identifies a file by size, last write time and creation time.
// Windows has no ctime in a stat; the file index would need the file
// opened. A file deleted and created again under the same name within 15
// seconds keeps its creation time (NTFS tunnelling), so the write time
// and size are what tell it apart then.
func statID(path string) (fileID, os.FileInfo, bool) {
	info, err := os.Stat(path)
	if err != nil {
		return fileID{}, nil, false
	}
	d, ok := info.Sys().(*syscall.Win32FileAttributeData)
	if !ok {
		return fileID{}, info, false
	}
	return fileID{size: info.Size(), mtime: d.LastWriteTime.Nanoseconds(),
		ctime: d.CreationTime.Nanoseconds()}, info, true
}
