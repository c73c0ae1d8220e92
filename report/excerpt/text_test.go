package excerpt

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/runledger/runledger/report/internal/lines"
)

// TestText: an excerpt's text is its bytes, escape sequences removed and
// nothing else changed; a byte JSON cannot carry is U+FFFD, one per byte.
func TestText(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"plain\n", "plain\n"},
		{"\x1b[31mred\x1b[0m\r\n", "red\r\n"},
		{"bar 10%\rbar 100%\r\n", "bar 10%\rbar 100%\r\n"},
		{"nul\x00 bell\x07 tab\t", "nul\x00 bell\x07 tab\t"},
		{"link \x1b]8;;http://x\x07here\x1b]8;;\x07", "link here"},
		{"bad \xff\xfe utf8 é", "bad \ufffd\ufffd utf8 é"},
		{"bidi \u202e kept", "bidi \u202e kept"},
	} {
		if got := Text([]byte(tc.raw)); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

// TestSplitLong: a line longer than the bound is quoted by its head and
// its tail, cut where no UTF-8 character nor escape sequence is split,
// and the ranges cover the rest of the bytes exactly.
func TestSplitLong(t *testing.T) {
	long := strings.Repeat("é", 300) + "\x1b[38;5;196m" + strings.Repeat("x", 200) + "\x1b[0m" + strings.Repeat("ü", 300) + "\n"
	for _, raw := range []string{
		"short\n" + long + "after\n",
		long,
		strings.Repeat("é", 2000), // no newline at all
		"head\n" + strings.Repeat("\x1b[1m", 400) + "\n",
	} {
		for _, maxLine := range []int{16, 64, 601, 607, 1024} {
			b := []byte(raw)
			rs := splitLong(b, maxLine)
			at := 0
			for i, r := range rs {
				if r[0] < at || r[1] < r[0] {
					t.Fatalf("max %d: range %d %v after %d", maxLine, i, r, at)
				}
				for _, cut := range []int{r[0], r[1]} {
					if cut < len(b) && !utf8.RuneStart(b[cut]) {
						t.Errorf("max %d: cut at %d splits a character", maxLine, cut)
					}
					if insideEscape(b, cut) {
						t.Errorf("max %d: cut at %d splits an escape sequence", maxLine, cut)
					}
				}
				if i+1 < len(rs) && rs[i+1][0]-r[1] != r[2] {
					t.Errorf("max %d: range %v says %d bytes left out, the next starts %d later", maxLine, r, r[2], rs[i+1][0]-r[1])
				}
				at = r[1]
			}
			if rs[0][0] != 0 || rs[len(rs)-1][1] != len(b) {
				t.Errorf("max %d: ranges %v do not start and end the piece", maxLine, rs)
			}
			for _, ln := range bytes.SplitAfter(b, []byte{'\n'}) {
				if len(ln) <= maxLine && len(rs) > 1 && bytes.Equal(ln, b) {
					t.Errorf("max %d: a line within the bound was cut", maxLine)
				}
			}
		}
	}
}

// insideEscape reports whether off falls strictly inside an escape
// sequence of b.
func insideEscape(b []byte, off int) bool {
	for i := 0; i < len(b) && i < off; {
		if b[i] != 0x1b {
			i++
			continue
		}
		end := lines.SkipEscape(b, i)
		if off > i && off < end {
			return true
		}
		i = end
	}
	return false
}
