//go:build unix

package capture

import (
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/runledger/runledger/record"
)

func usage(ru *syscall.Rusage) *record.Usage {
	if ru == nil {
		return nil
	}
	ms := func(t syscall.Timeval) int64 { return t.Sec*1000 + int64(t.Usec)/1000 }
	return &record.Usage{UserMS: ms(ru.Utime), SystemMS: ms(ru.Stime), MaxRSSKiB: ru.Maxrss / maxRSSUnit}
}

func signalName(sig syscall.Signal) *string {
	name := unix.SignalName(sig)
	if name == "" {
		name = "signal " + strconv.Itoa(int(sig))
	}
	return &name
}

func signalNumber(name string) (int, bool) {
	sig := unix.SignalNum(name)
	return int(sig), sig != 0
}
