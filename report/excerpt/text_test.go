package excerpt

import (
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

// TestSafeCut: a cut never splits a UTF-8 character nor an escape
// sequence, and never moves before from.
func TestSafeCut(t *testing.T) {
	line := []byte(strings.Repeat("é", 300) + "\x1b[38;5;196m" + strings.Repeat("x", 200) + "\x1b]8;;http://x\x07" + strings.Repeat("ü", 300) + "\n")
	for from := 0; from < len(line); from += 97 {
		for cut := from; cut <= len(line)+3; cut++ {
			got := SafeCut(line, from, cut)
			if got < from || got > min(cut, len(line)) {
				t.Fatalf("SafeCut(%d, %d) = %d, outside [from, cut]", from, cut, got)
			}
			if got > from && got < len(line) && !utf8.RuneStart(line[got]) {
				t.Errorf("SafeCut(%d, %d) = %d splits a character", from, cut, got)
			}
			if got > from && insideEscape(line, got) {
				t.Errorf("SafeCut(%d, %d) = %d splits an escape sequence", from, cut, got)
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
