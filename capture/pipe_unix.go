//go:build unix

package capture

import (
	"io"
	"os"
	"syscall"
)

// pipeReader reads the pipe with readAvailable, or plainly if the file
// offers no raw descriptor.
func pipeReader(f *os.File) func([]byte) (int, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return f.Read
	}
	return func(buf []byte) (int, error) { return readAvailable(raw, buf) }
}

// readAvailable reads everything the pipe holds, up to len(buf), waiting
// only while it holds nothing. A writer printing 4 KiB at a time would
// otherwise cost a wake-up, two log writes and two hash calls per 4 KiB.
func readAvailable(raw syscall.RawConn, buf []byte) (n int, err error) {
	rerr := raw.Read(func(fd uintptr) bool {
		for n < len(buf) {
			k, e := syscall.Read(int(fd), buf[n:])
			switch {
			case e == syscall.EINTR:
				continue
			case e == syscall.EAGAIN:
				return n > 0 // nothing yet: let the poller wait
			case e != nil:
				err = e
				return true
			case k == 0:
				err = io.EOF
				return true
			}
			n += k
		}
		return true
	})
	if err == nil && rerr != nil {
		err = rerr
	}
	return n, err
}
