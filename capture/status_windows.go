package capture

import (
	"strconv"
	"syscall"

	"github.com/runledger/runledger/record"
)

// usage is absent on Windows: a process's CPU times exclude the
// descendants it waited for, and there is no maximum resident set size to
// put in max_rss_kib; the record says nothing rather than something else.
func usage(*syscall.Rusage) *record.Usage { return nil }

// windowsSignals are the signals Go delivers on Windows, for console
// events: the command is never sent a signal, but a cancelled record names
// what told the wrapper to stop, as on Linux.
var windowsSignals = map[syscall.Signal]string{
	syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM",
}

func signalName(sig syscall.Signal) *string {
	name, ok := windowsSignals[sig]
	if !ok {
		name = "signal " + strconv.Itoa(int(sig))
	}
	return &name
}

func signalNumber(name string) (int, bool) {
	for sig, n := range windowsSignals {
		if n == name {
			return int(sig), true
		}
	}
	return 0, false
}
