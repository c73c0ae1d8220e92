package capture

import "syscall"

// becomeSubreaper does nothing on macOS, which has no child subreaper:
// orphaned descendants go to launchd, which reaps them. What
// termination "confirmed" rests on there: runledger reaps the members
// that are its children (waiting on -pgid), launchd reaps the orphans,
// and kill(-pgid, 0) answering ESRCH, polled until the deadline, means no
// member is left; a zombie launchd has not reaped yet keeps it answering,
// so the wait goes on, and at the deadline the record says "unconfirmed".
func becomeSubreaper() error { return nil }

// growPipe does nothing: macOS pipes cannot be resized with fcntl.
func growPipe(uintptr) {}

// maxRSSUnit: macOS reports ru_maxrss in bytes, not KiB as Linux does
// (getrusage(2) on macOS: "the maximum resident set size utilized (in bytes)").
const maxRSSUnit = 1024

// statNanos returns a file's modification and change times.
func statNanos(st *syscall.Stat_t) (mtime, ctime int64) {
	return st.Mtimespec.Nano(), st.Ctimespec.Nano()
}
