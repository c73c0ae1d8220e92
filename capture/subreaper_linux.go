package capture

import (
	"sync"
	"syscall"
)

// prctl option from <linux/prctl.h>; not in package syscall.
const prSetChildSubreaper = 36

// becomeSubreaper makes orphaned descendants reparent to this process
// instead of init, so that runledger can reap them and "the group is gone"
// is something it observed rather than assumed: kill(-pgid, 0) also succeeds
// on zombies nobody reaps. Every caller gets the one call's error.
var becomeSubreaper = sync.OnceValue(func() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return errno
	}
	return nil
})

// pipeSize asks the kernel for large pipes, so a fast writer is not
// throttled to 64 KiB between two wake-ups of the reader.
const pipeSize = 1 << 20

// growPipe asks for a larger pipe buffer; best effort: a smaller pipe is
// only slower.
func growPipe(fd uintptr) {
	_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETPIPE_SZ, pipeSize)
}

// maxRSSUnit: Linux reports ru_maxrss in KiB (getrusage(2)).
const maxRSSUnit = 1

// statNanos returns a file's modification and change times.
func statNanos(st *syscall.Stat_t) (mtime, ctime int64) { return st.Mtim.Nano(), st.Ctim.Nano() }
