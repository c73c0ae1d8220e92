//go:build unix

package store

import (
	"os"
	"syscall"
)

// lockFile blocks until it holds an exclusive flock on f.
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }
