package capture

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/runledger/runledger/record"
)

// readSize is large so that one read drains a full pipe: fewer syscalls
// and fewer hash calls per byte than tee's 8 KiB.
const readSize = 1 << 20

// pipeSize asks the kernel for pipes as large as readSize, so a fast writer
// is not throttled to 64 KiB per wake-up.
const pipeSize = 1 << 20

// stream is one output pipe of the command and its log file.
type stream struct {
	r, w     *os.File
	log      *logFile
	done     chan struct{}
	complete bool
	liveErr  error
}

// logSet is the command's two pipes, their logs, and the combined log.
type logSet struct {
	stdout, stderr *stream
	mu             sync.Mutex // orders writes to output so it keeps arrival order
	output         *logFile
}

func openLogs(dir string, limit int64) (*logSet, error) {
	s := &logSet{}
	var err error
	if s.output, err = newLogFile(filepath.Join(dir, "output.log"), limit); err != nil {
		return nil, err
	}
	if s.stdout, err = newStream(filepath.Join(dir, "stdout.log"), limit); err != nil {
		return nil, err
	}
	if s.stderr, err = newStream(filepath.Join(dir, "stderr.log"), limit); err != nil {
		return nil, err
	}
	return s, nil
}

func newStream(path string, limit int64) (*stream, error) {
	l, err := newLogFile(path, limit)
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("pipe for %s: %w", path, err)
	}
	// Best effort: a smaller pipe is only slower.
	_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, w.Fd(), syscall.F_SETPIPE_SZ, pipeSize)
	return &stream{r: r, w: w, log: l, done: make(chan struct{})}, nil
}

func (s *logSet) closeWriteEnds() {
	s.stdout.w.Close()
	s.stderr.w.Close()
}

// pump copies each pipe to its live writer first (so the terminal sees
// output as promptly as without the wrapper), then to its logs.
func (s *logSet) pump(stdout, stderr io.Writer) {
	go s.copy(s.stdout, stdout)
	go s.copy(s.stderr, stderr)
}

func (s *logSet) copy(st *stream, live io.Writer) {
	defer close(st.done)
	buf := make([]byte, readSize)
	for {
		n, err := st.r.Read(buf)
		if n > 0 {
			s.deliver(st, live, buf[:n])
		}
		if err != nil {
			st.complete = errors.Is(err, io.EOF)
			return
		}
	}
}

func (s *logSet) deliver(st *stream, live io.Writer, p []byte) {
	if st.liveErr == nil {
		// The terminal going away must not stop the capture.
		_, st.liveErr = live.Write(p)
	}
	st.log.Write(p)
	s.mu.Lock()
	s.output.Write(p)
	s.mu.Unlock()
}

// wait reports whether both pipes reached end of file within d.
func (s *logSet) wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for _, st := range []*stream{s.stdout, s.stderr} {
		select {
		case <-st.done:
		case <-t.C:
			return false
		}
	}
	return true
}

// forceClose stops reading pipes that a process outside runledger's reach
// still holds; their streams are then recorded as incomplete.
func (s *logSet) forceClose() {
	s.stdout.r.Close()
	s.stderr.r.Close()
	<-s.stdout.done
	<-s.stderr.done
}

// drainNow is for a command that never started: nothing will write.
func (s *logSet) drainNow() {
	for _, st := range []*stream{s.stdout, s.stderr} {
		st.r.Close()
		st.complete = true
		close(st.done)
	}
}

// close finishes the three logs; the pumps must have stopped.
func (s *logSet) close() map[string]*record.Stream {
	s.stdout.r.Close()
	s.stderr.r.Close()
	return map[string]*record.Stream{
		record.Stdout: s.stdout.log.Close(s.stdout.complete),
		record.Stderr: s.stderr.log.Close(s.stderr.complete),
		record.Output: s.output.Close(s.stdout.complete && s.stderr.complete),
	}
}
