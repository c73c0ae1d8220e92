package capture

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/runledger/runledger/record"
)

// readSize batches many small writes of the command into one read (fewer
// syscalls and wake-ups than tee's 8 KiB), yet stays small enough to be
// in the CPU cache while it is hashed and copied into the log files.
const readSize = 256 << 10

// buffersPerStream bounds memory (2 MiB a stream) while letting the reader
// run ahead of the stream's hasher and the combined writer, which run on
// other cores.
const buffersPerStream = 8

// chunk is one read, already in its stream's log, shared by the stream's
// hasher and the combined log writer; the last of them to finish returns
// it to the free list.
type chunk struct {
	src  *stream
	buf  []byte
	n    int
	refs atomic.Int32
	hash bool // the stream's log stored it as it came: its hasher hashes it
}

func (c *chunk) release() {
	if c.refs.Add(-1) == 0 {
		c.src.free <- c
	}
}

// stream is one output pipe of the command and its log file.
type stream struct {
	name     string
	r, w     *os.File
	log      *logFile
	chunks   chan *chunk // to this stream's hasher
	free     chan *chunk
	done     chan struct{} // closed when the reader stops
	complete bool
	liveErr  error
}

// logSet is the command's two pipes, their logs, and the combined log.
// Each reader writes its stream's log and hands the chunk on to be hashed
// (and written to output.log) on other goroutines, so that the hashes run
// in parallel with the next read.
type logSet struct {
	stdout, stderr *stream
	output         *logFile
	combined       chan *chunk // arrival order is the order of sends here
	// mu orders the readers' sends to combined and guards the lazy state:
	// while lazy, a reader accounts its chunk itself and the combined
	// writer is not woken for bytes it would not write.
	mu    sync.Mutex
	only  *stream // the one stream output.log has copied so far
	lazy  bool    // output.log not written yet: still a copy of only's log
	lazyN int64   // bytes output.log holds by being that copy
	// writers and readers count the goroutines close waits for.
	writers sync.WaitGroup
	readers sync.WaitGroup
}

func openLogs(dir string, limit int64) (*logSet, error) {
	s := &logSet{combined: make(chan *chunk, 2*buffersPerStream), lazy: true}
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
	s.stdout.name, s.stderr.name = record.Stdout, record.Stderr
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
	growPipe(w.Fd())
	// The reader writes the log; the stream's hasher hashes it (hand).
	l.deferHash = true
	st := &stream{r: r, w: w, log: l, done: make(chan struct{}),
		chunks: make(chan *chunk, buffersPerStream), free: make(chan *chunk, buffersPerStream)}
	for range buffersPerStream {
		st.free <- &chunk{src: st, buf: make([]byte, readSize)}
	}
	return st, nil
}

func (s *logSet) closeWriteEnds() {
	s.stdout.w.Close()
	s.stderr.w.Close()
}

// pump starts a reader per pipe, their hashers and the combined writer.
// Each reader writes to its live writer first, so the terminal sees output
// as promptly as without the wrapper.
func (s *logSet) pump(stdout, stderr io.Writer) {
	s.readers.Add(2)
	go s.read(s.stdout, stdout)
	go s.read(s.stderr, stderr)
	go func() {
		s.readers.Wait()
		close(s.combined)
	}()
	s.writers.Add(3)
	go s.hashStream(s.stdout.chunks, s.stdout.log)
	go s.hashStream(s.stderr.chunks, s.stderr.log)
	go s.writeCombined()
}

func (s *logSet) read(st *stream, live io.Writer) {
	defer s.readers.Done()
	defer close(st.done)
	defer close(st.chunks)
	readChunk := pipeReader(st.r)
	for {
		c := <-st.free
		n, err := readChunk(c.buf)
		if n > 0 {
			if st.liveErr == nil {
				// The terminal going away must not stop the capture.
				_, st.liveErr = live.Write(c.buf[:n])
			}
			c.n = n
			s.hand(st, c)
		} else {
			st.free <- c
		}
		if err != nil {
			st.complete = errors.Is(err, io.EOF)
			return
		}
	}
}

// hand stores a chunk in its stream's log, then passes it to the stream's
// hasher and, unless output.log is still a lazy copy of this stream's
// log, to the combined writer, in arrival order. The reader writing the
// log itself, rather than handing the chunk to a writer, costs a wake-up
// less per chunk, and the time it takes lets the next read find more in
// the pipe: fewer, larger chunks. The hash, the costliest part, still
// runs beside the next read.
func (s *logSet) hand(st *stream, c *chunk) {
	c.hash = st.log.Write(c.buf[:c.n])
	s.mu.Lock()
	if s.lazy && (s.only == nil || s.only == st) && s.output.lazyRoom(s.lazyN, int64(c.n)) {
		s.only, s.lazyN = st, s.lazyN+int64(c.n)
		s.mu.Unlock()
		c.refs.Store(1)
		st.chunks <- c
		return
	}
	s.lazy = false
	c.refs.Store(2)
	st.chunks <- c
	s.combined <- c
	s.mu.Unlock()
}

// hashStream hashes a stream's chunks in order, those its log stored
// as they came (past the cap, Close hashes the final file instead).
func (s *logSet) hashStream(chunks <-chan *chunk, l *logFile) {
	defer s.writers.Done()
	for c := range chunks {
		if c.hash {
			l.sum.Write(c.buf[:c.n])
		}
		c.release()
	}
}

// writeCombined writes output.log. While every byte so far came from one
// stream, output.log would be a byte-for-byte copy of that stream's log, so
// it is neither written nor hashed: at the end it becomes a hard link to
// that log. The first chunk of the other stream, or nearing the cap (the
// other log's ring must not have overwritten what is copied), makes it
// real: the prefix is copied, the hash catches up by reading it back.
// Most commands write nearly everything to one stream; this halves what
// they cost to capture.
func (s *logSet) writeCombined() {
	defer s.writers.Done()
	out := s.output
	out.deferHash = true
	first := true
	for c := range s.combined {
		if first {
			// Readers send here only once lazy is over, when only and
			// lazyN no longer change; the send orders their writes
			// before these reads.
			first = false
			if s.only == nil {
				s.only = c.src
			} else {
				out.n = s.lazyN
				out.copyPrefix(s.only.log, s.lazyN)
			}
		}
		if out.deferHash && c.src != s.only {
			out.catchUpHash()
		}
		out.Write(c.buf[:c.n])
		c.release()
	}
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

// close finishes the three logs once the readers have stopped and the
// writers have drained what they were handed.
func (s *logSet) close() map[string]*record.Stream {
	s.stdout.r.Close()
	s.stderr.r.Close()
	s.writers.Wait()
	complete := s.stdout.complete && s.stderr.complete
	streams := map[string]*record.Stream{
		record.Stdout: s.stdout.log.Close(s.stdout.complete),
		record.Stderr: s.stderr.log.Close(s.stderr.complete),
	}
	switch {
	case s.lazy && s.only != nil:
		streams[record.Output] = s.output.linkTo(s.only.log, streams[s.only.name], complete)
	case s.output.deferHash && s.only != nil:
		if s.only.log.err == nil {
			// Never mixed: the same bytes as the one stream that wrote.
			s.output.sum = s.only.log.sum
		} else {
			s.output.catchUpHash()
		}
		fallthrough
	default:
		streams[record.Output] = s.output.Close(complete)
	}
	return streams
}
