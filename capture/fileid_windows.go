package capture

import (
	"os"
	"syscall"
)

// statID identifies a file by its NTFS file index (the inode), size, last
// write time and creation time. Windows has no ctime in a stat. The
// creation time alone would not tell a file deleted and created again
// within 15 seconds under the same name (NTFS tunnelling keeps it); the
// file index does.
func statID(path string) (fileID, os.FileInfo, bool) {
	info, err := os.Stat(path)
	if err != nil {
		return fileID{}, nil, false
	}
	d, ok := info.Sys().(*syscall.Win32FileAttributeData)
	if !ok {
		return fileID{}, info, false
	}
	return fileID{ino: fileIndex(path), size: info.Size(), mtime: d.LastWriteTime.Nanoseconds(),
		ctime: d.CreationTime.Nanoseconds()}, info, true
}

// infoID is statID for a FileInfo in hand (from a directory walk),
// without the file index: opening every file of a workspace to read it
// would cost more than the walk. Size, last write and creation times
// still tell a rewritten file.
func infoID(info os.FileInfo) (fileID, bool) {
	d, ok := info.Sys().(*syscall.Win32FileAttributeData)
	if !ok {
		return fileID{}, false
	}
	return fileID{size: info.Size(), mtime: d.LastWriteTime.Nanoseconds(), ctime: d.CreationTime.Nanoseconds()}, true
}

// fileIndex opens the file for no access, as os.SameFile does, so that a
// writer holding it open does not stop the lookup. 0 when it cannot be
// read: the other fields still tell versions apart.
func fileIndex(path string) int64 {
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return 0
	}
	h, err := syscall.CreateFile(p, 0, syscall.FILE_SHARE_READ|syscall.FILE_SHARE_WRITE|syscall.FILE_SHARE_DELETE,
		nil, syscall.OPEN_EXISTING, syscall.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return 0
	}
	defer syscall.CloseHandle(h)
	var d syscall.ByHandleFileInformation
	if err := syscall.GetFileInformationByHandle(h, &d); err != nil {
		return 0
	}
	return int64(d.FileIndexHigh)<<32 | int64(d.FileIndexLow)
}
