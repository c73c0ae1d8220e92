package runners

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// MaxLineKeep is how many bytes of a line are kept for matching. A line can be
// tens of megabytes without a newline; every summary line a runner prints
// fits in far less, and offsets are still counted over the whole line.
const MaxLineKeep = 4096

// readBlock is how much the line reader asks for at once: large enough that
// a GiB log costs a few thousand read calls.
const readBlock = 1 << 20

// line is one line of a log: its raw byte range and a cleaned prefix. The
// byte fields alias the reader's buffer and are valid until the next line;
// text and trim are set (by materialize) only for lines some parser may
// act on, so the lines no parser cares about cost no allocation.
type line struct {
	num   int64  // 1-based
	start int64  // offset of the first byte
	end   int64  // offset after the terminator
	text  string // ANSI-stripped, capped at MaxLineKeep raw bytes, no terminator
	trim  string // text without leading and trailing blanks
	cut   bool   // the raw line was longer than MaxLineKeep

	textB []byte // text, before materialize
	trimB []byte // trim, before materialize
}

// materialize copies the cleaned bytes into the strings parsers keep.
func (l *line) materialize() {
	l.text = string(l.textB)
	if len(l.trimB) == 0 {
		l.trim = ""
		return
	}
	// trimB is a subslice of textB, so their capacities tell the offset.
	lead := cap(l.textB) - cap(l.trimB)
	l.trim = l.text[lead : lead+len(l.trimB)]
}

// lineReader splits a stream into lines with a bounded buffer.
type lineReader struct {
	r    io.Reader
	buf  []byte
	pos  int // next unread byte of buf
	n    int // bytes of buf filled
	eof  bool
	off  int64
	num  int64
	keep []byte // first MaxLineKeep bytes of a line longer than the window
	// escAt and crAt index the next ESC and CR in buf[pos:n] (n when there
	// is none), so lines without either skip the per-line cleaning.
	escAt, crAt int
	stripped    []byte // ANSI-stripped copy of the kept bytes
	l           line
	max         int  // the buffer starts small and grows to max for long streams
	full        bool // the latest read filled the buffer
}

// newLineReader reads r, whose first byte is at offset off and starts line
// num. size bounds the buffer.
func newLineReader(r io.Reader, off, num, size int64) *lineReader {
	size = max(min(size, readBlock), 2*MaxLineKeep)
	lr := &lineReader{buf: make([]byte, min(size, 64<<10)), max: int(size)}
	lr.reset(r, off, num)
	return lr
}

// reset makes lr read r from offset off and line num, keeping its buffers.
func (lr *lineReader) reset(r io.Reader, off, num int64) {
	lr.r, lr.pos, lr.n, lr.eof, lr.off, lr.num = r, 0, 0, false, off, num-1
	lr.escAt, lr.crAt = 0, 0
}

// resync finds the next ESC and CR from pos on.
func (lr *lineReader) resync() {
	lr.escAt, lr.crAt = lr.find(lr.pos, 0x1b), lr.find(lr.pos, '\r')
}

func (lr *lineReader) find(from int, c byte) int {
	if i := bytes.IndexByte(lr.buf[from:lr.n], c); i >= 0 {
		return from + i
	}
	return lr.n
}

// dirty reports whether buf[a:b] holds an ESC or CR, moving the markers
// past b.
func (lr *lineReader) dirty(b int) bool {
	d := false
	if lr.escAt < b {
		d, lr.escAt = true, lr.find(b, 0x1b)
	}
	if lr.crAt < b {
		d, lr.crAt = true, lr.find(b, '\r')
	}
	return d
}

// fill reads more bytes after the unread ones, moving them to the front.
func (lr *lineReader) fill() error {
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
			return fmt.Errorf("read line at offset %d: %w", lr.off, err)
		}
		if k > 0 {
			break
		}
	}
	lr.resync()
	return nil
}

// next returns the next line, or io.EOF when the stream is exhausted. The
// line is valid until the following call.
func (lr *lineReader) next() (*line, error) {
	for {
		win := lr.buf[lr.pos:lr.n]
		if i := bytes.IndexByte(win, '\n'); i >= 0 {
			lr.pos += i + 1
			return lr.build(win[:min(i+1, MaxLineKeep)], int64(i+1), i+1 > MaxLineKeep, lr.dirty(lr.pos)), nil
		}
		if lr.eof {
			if len(win) == 0 {
				return nil, io.EOF
			}
			lr.pos = lr.n
			return lr.build(win[:min(len(win), MaxLineKeep)], int64(len(win)), len(win) > MaxLineKeep, lr.dirty(lr.pos)), nil
		}
		if len(win) >= MaxLineKeep {
			return lr.long()
		}
		if err := lr.fill(); err != nil {
			return nil, err
		}
	}
}

// long reads a line longer than what is buffered: its first MaxLineKeep
// bytes are kept, the rest only counted.
func (lr *lineReader) long() (*line, error) {
	lr.keep = append(lr.keep[:0], lr.buf[lr.pos:lr.pos+MaxLineKeep]...)
	n := int64(0)
	for {
		win := lr.buf[lr.pos:lr.n]
		if i := bytes.IndexByte(win, '\n'); i >= 0 {
			lr.pos += i + 1
			lr.resync()
			return lr.build(lr.keep, n+int64(i+1), true, true), nil
		}
		n += int64(len(win))
		lr.pos = lr.n
		if lr.eof {
			return lr.build(lr.keep, n, true, true), nil
		}
		if err := lr.fill(); err != nil {
			return nil, err
		}
	}
}

// build fills the reused line from the kept raw bytes of a line of n bytes.
// dirty says it may hold an ESC or CR.
func (lr *lineReader) build(raw []byte, n int64, cut, dirty bool) *line {
	l := &lr.l
	l.start = lr.off
	lr.off += n
	lr.num++
	l.num, l.end, l.cut, l.text, l.trim = lr.num, lr.off, cut, "", ""
	if k := len(raw); k > 0 && raw[k-1] == '\n' {
		raw = raw[:k-1]
	}
	if dirty {
		raw = lr.clean(raw)
	}
	l.textB, l.trimB = raw, trimSpace(raw)
	return l
}

// trimSpace is bytes.TrimSpace with the ASCII ends handled inline: it runs
// on every line, and the call and rune checks cost more than the trimming.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && asciiSpace[b[0]] {
		b = b[1:]
	}
	for len(b) > 0 && asciiSpace[b[len(b)-1]] {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && (b[0] >= utf8.RuneSelf || b[len(b)-1] >= utf8.RuneSelf) {
		return bytes.TrimSpace(b) // Unicode spaces at an end
	}
	return b
}

// asciiSpace is unicode.IsSpace for ASCII, what bytes.TrimSpace trims.
var asciiSpace = [256]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

func (lr *lineReader) clean(raw []byte) []byte {
	raw = bytes.TrimSuffix(raw, []byte("\r"))
	if bytes.IndexByte(raw, 0x1b) >= 0 {
		lr.stripped = appendStripped(lr.stripped[:0], raw)
		raw = lr.stripped
	}
	// A carriage return redraws the terminal line; what remains visible is
	// what follows the last one.
	if i := bytes.LastIndexByte(raw, '\r'); i >= 0 && i+1 < len(raw) {
		raw = raw[i+1:]
	}
	return raw
}

func appendStripped(out, b []byte) []byte {
	for i := 0; i < len(b); i++ {
		if b[i] != 0x1b {
			out = append(out, b[i])
			continue
		}
		i = skipEscape(b, i)
	}
	return out
}

// skipEscape returns the index of the last byte of the escape sequence at i.
func skipEscape(b []byte, i int) int {
	if i+1 >= len(b) {
		return i
	}
	switch b[i+1] {
	case '[':
		for j := i + 2; j < len(b); j++ {
			if b[j] >= 0x40 && b[j] <= 0x7e {
				return j
			}
		}
		return len(b) - 1
	case ']':
		for j := i + 2; j < len(b); j++ {
			if b[j] == 0x07 {
				return j
			}
			if b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\' {
				return j + 1
			}
		}
		return len(b) - 1
	}
	return i + 1
}

// skipTo moves the reader forward to offset off, which must start line num:
// the bytes skipped are counted, not trusted, so a range cited at the wrong
// line or in the middle of a line is an error.
func (lr *lineReader) skipTo(off, num int64) error {
	if off < lr.off {
		return fmt.Errorf("offset %d is behind the reader, at %d", off, lr.off)
	}
	lines, last := lr.num, byte('\n') // the reader stands at a line start
	for d := off - lr.off; d > 0; {
		if lr.pos == lr.n {
			if lr.eof {
				return fmt.Errorf("offset %d: %w", off, io.ErrUnexpectedEOF)
			}
			if err := lr.fill(); err != nil {
				return err
			}
			continue
		}
		k := int(min(d, int64(lr.n-lr.pos)))
		skipped := lr.buf[lr.pos : lr.pos+k]
		lines += int64(bytes.Count(skipped, []byte{'\n'}))
		last = skipped[k-1]
		lr.pos += k
		lr.off += int64(k)
		d -= int64(k)
	}
	switch {
	case last != '\n':
		return fmt.Errorf("offset %d is inside a line, not at the start of one", off)
	case lines != num-1:
		return fmt.Errorf("offset %d starts line %d, not line %d", off, lines+1, num)
	}
	lr.num = lines
	// The markers may point into the skipped bytes; each moves on alone,
	// so a buffer with many of one and none of the other stays cheap.
	if lr.escAt < lr.pos {
		lr.escAt = lr.find(lr.pos, 0x1b)
	}
	if lr.crAt < lr.pos {
		lr.crAt = lr.find(lr.pos, '\r')
	}
	return nil
}
