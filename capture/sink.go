package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/runledger/runledger/record"
)

// logFile stores one stream. Under its cap it is a plain copy. Past the cap
// it keeps the first half of the cap as the head and uses the second half as
// a ring holding the most recent bytes, so the summary a runner prints at
// the end survives; Close puts the ring back in order. Memory stays at zero
// bytes of log whatever the stream's size: the ring lives in the file.
type logFile struct {
	f       *os.File
	path    string
	cap     int64 // 0: unlimited
	headCap int64
	tailCap int64
	n       int64 // bytes seen: the stream's true length
	good    int64 // length of the prefix known to be on disk, for write errors
	sum     hash.Hash
	err     error
	// deferHash: Write does not hash; the caller supplies the hash of the
	// same bytes, or calls catchUpHash before the bytes diverge.
	deferHash bool
	// written is n once the bytes are on disk, for another goroutine to
	// wait on (writeCombined copying this log).
	written atomic.Int64
}

func newLogFile(path string, limit int64) (*logFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create log %s: %w", path, err)
	}
	l := &logFile{f: f, path: path, cap: limit, sum: sha256.New()}
	if limit > 0 {
		l.headCap = limit / 2
		l.tailCap = limit - l.headCap
	}
	return l, nil
}

// Write never fails towards the caller: a full disk must not stop the live
// passthrough or the other streams. The first error is kept for the record.
// It reports whether p was stored as it came, under the cap; with
// deferHash, the caller then hashes it.
func (l *logFile) Write(p []byte) bool {
	defer func() { l.written.Store(l.n) }()
	start := l.n
	l.n += int64(len(p))
	if l.err != nil {
		return false
	}
	if l.cap == 0 || l.n <= l.cap {
		if !l.deferHash {
			l.sum.Write(p)
		}
		k, err := l.f.WriteAt(p, start)
		l.good, l.err = start+int64(k), err
		return true
	}
	l.writeRing(p, start)
	if l.err != nil {
		l.good = l.headCap
	}
	return false
}

// lazySlack is how far a stream's log can run ahead of output.log's
// position once output.log is real: the reader writes the log, then waits
// for a free chunk when all of them are held by the combined writer.
const lazySlack = buffersPerStream * readSize

// lazyRoom reports whether k more bytes after the first n keep a lazily
// copied log clear of the cap, where the source log's ring would start
// overwriting its prefix.
func (l *logFile) lazyRoom(n, k int64) bool {
	return l.cap == 0 || n+k+lazySlack <= l.cap
}

// linkTo finishes a log that was never written because it would equal src:
// the file becomes a hard link to src's, described by src's record.
func (l *logFile) linkTo(src *logFile, srcRec *record.Stream, complete bool) *record.Stream {
	l.f.Close()
	err := os.Remove(l.path)
	if err == nil {
		err = os.Link(src.path, l.path)
	}
	if err != nil {
		// A file system without hard links: write the copy after all.
		_, _, err = copyFile(src.path, l.path)
	}
	st := *srcRec
	st.File, st.Complete = filepath.Base(l.path), complete
	st.StoredRanges = append([][2]int64(nil), srcRec.StoredRanges...)
	if err != nil {
		st.WriteError = "output.log as a copy of " + srcRec.File + ": " + err.Error()
	}
	return &st
}

// catchUpHash hashes what was written without hashing, and hashes from
// now on. Past the cap it has nothing to do: unwrap hashes the final file.
func (l *logFile) catchUpHash() {
	l.deferHash = false
	if l.err != nil || (l.cap > 0 && l.n > l.cap) {
		return
	}
	if _, err := io.Copy(l.sum, io.NewSectionReader(l.f, 0, l.n)); err != nil {
		l.err, l.good = fmt.Errorf("read back %s: %w", l.path, err), 0
	}
}

// copyPrefix makes this file's first n bytes those of src, which another
// goroutine may still be appending to: it waits until src has written them.
// A short copy (src hit a write error) is this file's write error too.
func (l *logFile) copyPrefix(src *logFile, n int64) {
	for src.written.Load() < n {
		time.Sleep(100 * time.Microsecond)
	}
	// A fresh descriptor, and this file still at offset 0 (logs are written
	// with WriteAt): os.File.ReadFrom then copies in the kernel.
	in, err := os.Open(src.path)
	var k int64
	if err == nil {
		k, err = l.f.ReadFrom(io.LimitReader(in, n))
		in.Close()
	}
	l.good = k
	if err == nil && k < n {
		err = fmt.Errorf("copy %s: %d of %d bytes", src.path, k, n)
	}
	if err != nil {
		l.err = fmt.Errorf("output.log from %s: %w", src.path, err)
	}
}

// writeRing writes p, which begins at original offset start, keeping the
// head intact and wrapping everything past it around the tail ring.
func (l *logFile) writeRing(p []byte, start int64) {
	if start < l.headCap {
		k := l.headCap - start
		if _, l.err = l.f.WriteAt(p[:k], start); l.err != nil {
			return
		}
		p, start = p[k:], l.headCap
	}
	if int64(len(p)) > l.tailCap {
		drop := int64(len(p)) - l.tailCap
		p, start = p[drop:], start+drop
	}
	for len(p) > 0 {
		pos := (start - l.headCap) % l.tailCap
		k := min(int64(len(p)), l.tailCap-pos)
		if _, l.err = l.f.WriteAt(p[:k], l.headCap+pos); l.err != nil {
			return
		}
		p, start = p[k:], start+k
	}
}

// Close finishes the file and describes it. complete says whether the
// writer closed the stream (false: runledger stopped reading first).
func (l *logFile) Close(complete bool) *record.Stream {
	truncated := l.cap > 0 && l.n > l.cap
	if truncated && l.err == nil {
		if l.err = l.unwrap(); l.err != nil {
			l.good = l.headCap
		}
	}
	if err := l.f.Close(); err != nil && l.err == nil {
		l.err, l.good = err, 0
	}
	st := &record.Stream{File: filepath.Base(l.path), Bytes: l.n, Complete: complete,
		StoredBytes: l.n, StoredRanges: [][2]int64{{0, l.n}}}
	if truncated {
		st.Truncated, st.StoredBytes = true, l.cap
		st.StoredRanges = [][2]int64{{0, l.headCap}, {l.n - l.tailCap, l.n}}
	}
	st.SHA256 = hex.EncodeToString(l.sum.Sum(nil))
	if l.err != nil {
		l.salvage(st)
	}
	return st
}

// salvage makes the record true after a write error: the file is cut to the
// prefix known to be intact, and the record describes exactly that.
func (l *logFile) salvage(st *record.Stream) {
	st.WriteError = l.err.Error()
	st.Truncated = l.good < l.n
	st.StoredBytes, st.StoredRanges = l.good, [][2]int64{{0, l.good}}
	st.SHA256 = ""
	if err := os.Truncate(l.path, l.good); err != nil {
		st.WriteError += "; " + err.Error()
		st.StoredRanges = nil
		return
	}
	st.SHA256 = l.hashFile()
}

// unwrap rewrites a wrapped file as head followed by the tail in stream
// order, hashing what it writes.
func (l *logFile) unwrap() error {
	split := l.headCap + (l.n-l.tailCap-l.headCap)%l.tailCap
	tmp, err := os.CreateTemp(filepath.Dir(l.path), ".unwrap-*")
	if err != nil {
		return fmt.Errorf("unwrap %s: %w", l.path, err)
	}
	defer os.Remove(tmp.Name())
	l.sum.Reset()
	w := io.MultiWriter(tmp, l.sum)
	parts := [][2]int64{{0, l.headCap}, {split, l.cap}, {l.headCap, split}}
	for _, pr := range parts {
		if _, err := io.Copy(w, io.NewSectionReader(l.f, pr[0], pr[1]-pr[0])); err != nil {
			tmp.Close()
			return fmt.Errorf("unwrap %s: %w", l.path, err)
		}
	}
	if err := errors.Join(tmp.Close(), os.Rename(tmp.Name(), l.path)); err != nil {
		return fmt.Errorf("unwrap %s: %w", l.path, err)
	}
	return nil
}

// hashFile hashes what is actually on disk after a write error, so the
// record's hash always describes the stored file.
func (l *logFile) hashFile() string {
	f, err := os.Open(l.path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}
