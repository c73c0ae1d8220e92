package store

import (
	"os"

	"github.com/runledger/runledger/record"
)

// Effective returns the status a reader should believe. A record still
// marked running whose wrapper is gone (killed, crashed, another boot or
// another machine) is incomplete: its end was never observed.
func Effective(r *record.Record) record.Status {
	if r.Status != record.StatusRunning {
		return r.Status
	}
	if wrapperAlive(r.Wrapper) {
		return record.StatusRunning
	}
	return record.StatusIncomplete
}

func wrapperAlive(w record.Wrapper) bool {
	host, _ := os.Hostname()
	if w.PID <= 0 || w.Host != host || w.BootID != BootID() {
		return false
	}
	if !processExists(w.PID) {
		return false
	}
	if w.ProcStart == "" {
		return true
	}
	// The pid may have been reused by an unrelated process. A start time
	// that cannot be read (on Windows, a process this user may not open)
	// is unknown, not different: the process is there.
	start := ProcStart(w.PID)
	return start == w.ProcStart || (start == "" && processExists(w.PID))
}

// BootID identifies this boot of the machine, so that a pid from before a
// reboot is not mistaken for a live wrapper.
func BootID() string { return bootID() }
