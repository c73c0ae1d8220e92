package runners

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/runledger/runledger/report/internal/lines"
)

// MaxLineKeep is how many bytes of a line are kept for matching. A line can be
// tens of megabytes without a newline; every summary line a runner prints
// fits in far less, and offsets are still counted over the whole line.
const MaxLineKeep = 4096

// readBlock is how much the line reader asks for at once.
const readBlock = lines.ReadBlock

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

// lineReader splits a stream into lines, counting offsets and line
// numbers, and cleans the lines that may need it.
type lineReader struct {
	sp       *lines.Reader
	off      int64
	num      int64
	stripped []byte // ANSI-stripped copy of the kept bytes
	l        line
}

// newLineReader reads r from its start; size bounds the buffer. reset
// points it at a stream that starts elsewhere.
func newLineReader(r io.Reader, size int64) *lineReader {
	lr := &lineReader{sp: lines.NewReader(r, MaxLineKeep, size)}
	lr.reset(r, 0, 1)
	return lr
}

// reset makes lr read r from offset off and line num, keeping its buffers.
func (lr *lineReader) reset(r io.Reader, off, num int64) {
	lr.sp.Reset(r)
	lr.off, lr.num = off, num-1
}

// next returns the next line, or io.EOF when the stream is exhausted. The
// line is valid until the following call.
func (lr *lineReader) next() (*line, error) {
	ln, err := lr.sp.Next()
	if err == io.EOF { // Next returns io.EOF itself, unwrapped
		return nil, io.EOF
	}
	if err != nil {
		return nil, fmt.Errorf("read line at offset %d: %w", lr.off, err)
	}
	return lr.build(ln.Prefix, ln.Len, ln.Cut, ln.Dirty), nil
}

// build fills the reused line from the kept raw bytes of a line of n bytes.
// dirty says it may hold an ESC or CR.
func (lr *lineReader) build(raw []byte, n int64, cut, dirty bool) *line {
	l := &lr.l
	l.start = lr.off
	lr.off += n
	lr.num++
	l.num, l.end, l.cut = lr.num, lr.off, cut
	if l.text != "" || l.trim != "" { // most lines were never materialized: no stores
		l.text, l.trim = "", ""
	}
	if k := len(raw); k > 0 && raw[k-1] == '\n' {
		raw = raw[:k-1]
	}
	if dirty {
		raw = lr.clean(raw)
	}
	l.textB, l.trimB = raw, raw
	// A line that starts and ends with a visible ASCII byte needs no
	// trimming: the call is skipped for most lines of most logs.
	if k := len(raw); k == 0 || raw[0] <= ' ' || raw[0] >= utf8.RuneSelf || raw[k-1] <= ' ' || raw[k-1] >= utf8.RuneSelf {
		l.trimB = trimSpace(raw)
	}
	return l
}

// trimSpace is bytes.TrimSpace with the ASCII ends handled inline: it runs
// on every line, and the call and rune checks cost more than the trimming.
func trimSpace(b []byte) []byte {
	// An index, then one slice: reslicing a byte at a time rewrote the
	// slice for each of the blanks that start every t.Log line.
	i := 0
	for i < len(b) && asciiSpace[b[i]] {
		i++
	}
	b = b[i:]
	for len(b) > 0 && asciiSpace[b[len(b)-1]] {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && (mayStartUnicodeSpace(b) || b[len(b)-1] >= utf8.RuneSelf) {
		return bytes.TrimSpace(b) // Unicode spaces at an end
	}
	return b
}

// mayStartUnicodeSpace reports whether b may start with a non-ASCII space
// (U+0085, U+00A0, U+1680, U+2000–U+205F, U+3000): their UTF-8 starts
// C2 85/A0, E1 9A, E2 80/81 or E3 80. A verbose jest or mocha log starts
// most lines with ✓ (E2 9C 93), which must not take the slow path.
func mayStartUnicodeSpace(b []byte) bool {
	if b[0] < utf8.RuneSelf {
		return false
	}
	if len(b) < 2 {
		return true
	}
	switch b[0] {
	case 0xC2:
		return b[1] == 0x85 || b[1] == 0xA0
	case 0xE1:
		return b[1] == 0x9A
	case 0xE2:
		return b[1] == 0x80 || b[1] == 0x81
	case 0xE3:
		return b[1] == 0x80
	}
	return false
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
	for i := 0; i < len(b); {
		if b[i] == 0x1b {
			i = lines.SkipEscape(b, i)
			continue
		}
		out = append(out, b[i])
		i++
	}
	return out
}

// skipTo moves the reader forward to offset off, which must start line num:
// the bytes skipped are counted, not trusted, so a range cited at the wrong
// line or in the middle of a line is an error. After an error the reader's
// position is unknown: it is not to be read further.
func (lr *lineReader) skipTo(off, num int64) error {
	if off < lr.off {
		return fmt.Errorf("offset %d is behind the reader, at %d", off, lr.off)
	}
	newlines, last, err := lr.sp.Skip(off - lr.off)
	if err != nil {
		return fmt.Errorf("offset %d: %w", off, err)
	}
	lr.off = off
	switch passed := lr.num + newlines; {
	case last != '\n':
		return fmt.Errorf("offset %d is inside a line, not at the start of one", off)
	case passed != num-1:
		return fmt.Errorf("offset %d starts line %d, not line %d", off, passed+1, num)
	}
	lr.num = num - 1
	return nil
}
