package excerpt

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/runledger/runledger/report/internal/terminal"
)

// Text renders raw log bytes as an Excerpt's Text, line by line, as
// Select describes: lines over maxLine bytes are cut around a marker.
func Text(raw []byte, maxLine int) string {
	var b strings.Builder
	for len(raw) > 0 {
		line, rest, nl := bytes.Cut(raw, []byte{'\n'})
		raw = rest
		b.WriteString(lineText(line, maxLine))
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func lineText(line []byte, maxLine int) string {
	line = lastSegment(bytes.TrimSuffix(line, []byte{'\r'}))
	if len(line) <= maxLine {
		return terminal.Clean(string(line), false)
	}
	headN := runeCut(line, maxLine*3/4)
	tailN := len(line) - runeCut(line, len(line)-maxLine/4)
	omitted := len(line) - headN - tailN
	return terminal.Clean(string(line[:headN]), false) +
		fmt.Sprintf("…[%d bytes omitted]…", omitted) +
		terminal.Clean(string(line[len(line)-tailN:]), false)
}

// lastSegment returns the last non-empty \r-separated segment of a line.
func lastSegment(line []byte) []byte {
	for {
		i := bytes.LastIndexByte(line, '\r')
		if i < 0 {
			return line
		}
		if i+1 < len(line) {
			return line[i+1:]
		}
		line = line[:i]
	}
}

// runeCut moves n back to a UTF-8 rune start (at most 3 bytes).
func runeCut(b []byte, n int) int {
	for k := 0; k < 3 && n > 0 && n < len(b) && !utf8.RuneStart(b[n]); k++ {
		n--
	}
	return n
}
