package runners

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxLineKeep is how many bytes of a line are kept for matching. A line can be
// tens of megabytes without a newline; every summary line a runner prints
// fits in far less, and offsets are still counted over the whole line.
const MaxLineKeep = 4096

// line is one line of a log: its raw byte range and a cleaned prefix.
type line struct {
	num   int64  // 1-based
	start int64  // offset of the first byte
	end   int64  // offset after the terminator
	text  string // ANSI-stripped, capped at MaxLineKeep raw bytes, no terminator
	trim  string // text without leading and trailing blanks
	cut   bool   // the raw line was longer than MaxLineKeep
}

// lineReader splits a stream into lines with a bounded buffer.
type lineReader struct {
	br   *bufio.Reader
	off  int64
	num  int64
	keep []byte
}

// newLineReader reads r, whose first byte is at offset off and starts line
// num. size bounds the buffer; Verify reads many short spans.
func newLineReader(r io.Reader, off, num, size int64) *lineReader {
	size = max(min(size, 64<<10), 16)
	return &lineReader{br: bufio.NewReaderSize(r, int(size)), off: off, num: num - 1}
}

// next returns the next line, or io.EOF when the stream is exhausted.
func (lr *lineReader) next() (*line, error) {
	start := lr.off
	lr.keep = lr.keep[:0]
	for {
		chunk, err := lr.br.ReadSlice('\n')
		lr.off += int64(len(chunk))
		if room := MaxLineKeep - len(lr.keep); room > 0 {
			lr.keep = append(lr.keep, chunk[:min(room, len(chunk))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read line at offset %d: %w", start, err)
		}
		if lr.off == start {
			return nil, io.EOF
		}
		lr.num++
		return lr.build(start), nil
	}
}

func (lr *lineReader) build(start int64) *line {
	raw := lr.keep
	cut := lr.off-start > int64(len(raw))
	raw = bytes.TrimSuffix(raw, []byte("\n"))
	raw = bytes.TrimSuffix(raw, []byte("\r"))
	text := stripANSI(raw)
	// A carriage return redraws the terminal line; what remains visible is
	// what follows the last one.
	if i := strings.LastIndexByte(text, '\r'); i >= 0 && i+1 < len(text) {
		text = text[i+1:]
	}
	return &line{num: lr.num, start: start, end: lr.off, text: text,
		trim: strings.TrimSpace(text), cut: cut}
}

// stripANSI removes CSI and OSC escape sequences, which runners use for colour.
func stripANSI(b []byte) string {
	if bytes.IndexByte(b, 0x1b) < 0 {
		return string(b)
	}
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		if b[i] != 0x1b {
			out.WriteByte(b[i])
			continue
		}
		i = skipEscape(b, i)
	}
	return out.String()
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
