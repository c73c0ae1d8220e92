package store

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

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
	err := syscall.Kill(w.PID, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	// The pid may have been reused by an unrelated process.
	return w.ProcStart == "" || w.ProcStart == ProcStart(w.PID)
}

// ProcStart is the start time of process pid in clock ticks since boot,
// which with the boot id tells one process from a later one with its pid.
func ProcStart(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name may hold spaces and parentheses: fields count from the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return ""
	}
	fields := strings.Fields(string(b[i+1:]))
	if len(fields) < 20 {
		return ""
	}
	return fields[19]
}

// BootID identifies this boot of the machine, so that a pid from before a
// reboot is not mistaken for a live wrapper.
func BootID() string { return bootID() }

// bootID reads the boot id once: it cannot change while this process runs,
// and it is asked for on every attempt and every running record read.
var bootID = sync.OnceValue(func() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
})
