// Package lines splits a log into lines with one bounded buffer, for the
// report's two line scanners (runner summaries and excerpts). A line's
// first bytes are handed out without copying; a line of any length costs
// no more memory than the buffer; ESC and CR are found once per buffer, so
// the lines without them need no terminal cleaning.
package lines

import (
	"bytes"
	"errors"
	"io"
)

// ReadBlock is the most a Reader asks for at once: large enough that a GiB
// log costs a few thousand reads, small enough that the bytes the kernel
// copies in are still in the core's cache when the lines are split and
// parsed. The report reads a dense log three times: 1 MiB reads cost it
// about a tenth more CPU than 64–256 KiB ones (bench/report.sh dense).
const ReadBlock = 256 << 10

// Line is one line of the stream.
type Line struct {
	// Prefix is the line's first bytes, up to the Reader's keep, its
	// newline included when it fits. It is valid until the next call.
	Prefix []byte
	Len    int64 // bytes in the whole line, newline included
	NL     bool  // the line ends with '\n' (only the last one may not)
	Cut    bool  // the line is longer than Prefix
	Dirty  bool  // the line may hold an ESC or a CR
}

// Reader splits a stream into lines.
type Reader struct {
	r    io.Reader
	buf  []byte
	pos  int // next unread byte of buf
	n    int // bytes of buf filled
	eof  bool
	full bool // the latest read filled the buffer
	max  int  // the buffer starts small and grows to max for long streams
	keep int  // bytes of a line handed out in Prefix
	long []byte
	cur  Line // what Next returns, reused
	// escAt and crAt index the next ESC and CR in buf[pos:n] (n when there
	// is none).
	escAt, crAt int
}

// NewReader reads r, keeping keep bytes of each line; size bounds the
// buffer (at least 2*keep, at most ReadBlock).
func NewReader(r io.Reader, keep int, size int64) *Reader {
	size = max(min(size, ReadBlock), 2*int64(keep))
	lr := &Reader{buf: make([]byte, min(size, 64<<10)), max: int(size), keep: keep}
	lr.Reset(r)
	return lr
}

// Reset makes lr read r from its start, keeping its buffers.
func (lr *Reader) Reset(r io.Reader) {
	lr.r, lr.pos, lr.n, lr.eof, lr.full = r, 0, 0, false, false
	lr.escAt, lr.crAt = 0, 0
}

// Next returns the next line, or io.EOF (unwrapped) after the last one.
// The line is valid until the next call: it is reused, not copied, as the
// copy of a large return value costs more than the split on short lines.
func (lr *Reader) Next() (*Line, error) {
	for {
		win := lr.buf[lr.pos:lr.n]
		if i := bytes.IndexByte(win, '\n'); i >= 0 {
			lr.pos += i + 1
			return lr.line(win[:min(i+1, lr.keep)], int64(i+1), true, lr.dirty(lr.pos)), nil
		}
		if lr.eof {
			if len(win) == 0 {
				return nil, io.EOF
			}
			lr.pos = lr.n
			return lr.line(win[:min(len(win), lr.keep)], int64(len(win)), false, lr.dirty(lr.pos)), nil
		}
		if len(win) >= lr.keep {
			return lr.longLine()
		}
		if err := lr.fill(); err != nil {
			return nil, err
		}
	}
}

func (lr *Reader) line(prefix []byte, n int64, nl, dirty bool) *Line {
	l := &lr.cur
	l.Prefix, l.Len, l.NL, l.Cut, l.Dirty = prefix, n, nl, n > int64(lr.keep), dirty
	return l
}

// longLine reads a line longer than what is buffered: its first keep
// bytes are kept, the rest only counted.
func (lr *Reader) longLine() (*Line, error) {
	lr.long = append(lr.long[:0], lr.buf[lr.pos:lr.pos+lr.keep]...)
	n := int64(0)
	for {
		win := lr.buf[lr.pos:lr.n]
		if i := bytes.IndexByte(win, '\n'); i >= 0 {
			lr.pos += i + 1
			lr.resync()
			return lr.line(lr.long, n+int64(i+1), true, true), nil
		}
		n += int64(len(win))
		lr.pos = lr.n
		if lr.eof {
			return lr.line(lr.long, n, false, true), nil
		}
		if err := lr.fill(); err != nil {
			return nil, err
		}
	}
}

// Skip discards the next d bytes unread and reports how many newlines
// they held and their last byte ('\n' when d is 0).
func (lr *Reader) Skip(d int64) (newlines int64, last byte, err error) {
	last = '\n'
	for d > 0 {
		if lr.pos == lr.n {
			if lr.eof {
				return newlines, last, io.ErrUnexpectedEOF
			}
			if err := lr.fill(); err != nil {
				return newlines, last, err
			}
			continue
		}
		k := int(min(d, int64(lr.n-lr.pos)))
		skipped := lr.buf[lr.pos : lr.pos+k]
		newlines += int64(bytes.Count(skipped, []byte{'\n'}))
		last = skipped[k-1]
		lr.pos += k
		d -= int64(k)
	}
	// The markers may point into the skipped bytes; each moves on alone,
	// so a buffer with many of one and none of the other stays cheap.
	if lr.escAt < lr.pos {
		lr.escAt = lr.find(lr.pos, 0x1b)
	}
	if lr.crAt < lr.pos {
		lr.crAt = lr.find(lr.pos, '\r')
	}
	return newlines, last, nil
}

// fill reads more bytes after the unread ones, moving them to the front.
func (lr *Reader) fill() error {
	if lr.pos > 0 {
		lr.n = copy(lr.buf, lr.buf[lr.pos:lr.n])
		lr.pos = 0
	}
	if lr.full && len(lr.buf) < lr.max {
		lr.buf = append(lr.buf, make([]byte, lr.max-len(lr.buf))...)
	}
	for lr.n < len(lr.buf) && !lr.eof {
		k, err := lr.r.Read(lr.buf[lr.n:])
		lr.n += k
		lr.full = lr.n == len(lr.buf)
		if errors.Is(err, io.EOF) {
			lr.eof = true
			break
		}
		if err != nil {
			return err // the callers know where they were reading
		}
		if k > 0 {
			break
		}
	}
	lr.resync()
	return nil
}

// resync finds the next ESC and CR from pos on.
func (lr *Reader) resync() {
	lr.escAt, lr.crAt = lr.find(lr.pos, 0x1b), lr.find(lr.pos, '\r')
}

func (lr *Reader) find(from int, c byte) int {
	if i := bytes.IndexByte(lr.buf[from:lr.n], c); i >= 0 {
		return from + i
	}
	return lr.n
}

// dirty reports whether the line ending at b may hold an ESC or CR,
// moving the markers past b. Most lines hold neither: that check is small
// enough to be inlined into Next, the markers' move is not.
func (lr *Reader) dirty(b int) bool {
	if lr.escAt >= b && lr.crAt >= b {
		return false
	}
	return lr.moveMarkers(b)
}

func (lr *Reader) moveMarkers(b int) bool {
	d := false
	if lr.escAt < b {
		d, lr.escAt = true, lr.find(b, 0x1b)
	}
	if lr.crAt < b {
		d, lr.crAt = true, lr.find(b, '\r')
	}
	return d
}

// Terminal escape sequences, stripped the same way wherever the report
// matches log text: CSI, the string sequences (OSC, DCS, SOS, PM, APC),
// nF sequences such as the charset switch `ESC ( B` that `tput sgr0` prints,
// and two-byte Fp/Fe/Fs ones.

// SkipEscape returns the index after the escape sequence starting at s[i]
// (an ESC). A string sequence (OSC, DCS, …) left unterminated within s only
// loses its introducer, so its payload stays visible rather than swallowed.
func SkipEscape[T ~string | ~[]byte](s T, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch c := s[i+1]; {
	case c == '[':
		j := i + 2
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
			j++
		}
		if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
			return j + 1
		}
		return j
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return skipString(s, i)
	case c >= 0x20 && c <= 0x2f:
		j := i + 1
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
			return j + 1
		}
		return j
	case c >= 0x30 && c <= 0x7e:
		return i + 2
	default:
		return i + 1
	}
}

// skipString skips an OSC/DCS/SOS/PM/APC string ended by BEL or ST.
func skipString[T ~string | ~[]byte](s T, i int) int {
	for j := i + 2; j < len(s); j++ {
		if s[j] == 0x07 {
			return j + 1
		}
		if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
			return j + 2
		}
	}
	return i + 2
}
