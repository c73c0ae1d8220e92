// Package terminal turns bytes a terminal would interpret into text that
// shows what they are: excerpts and Markdown both print log bytes.
package terminal

import (
	"strings"
	"unicode/utf8"

	"github.com/runledger/runledger/report/internal/lines"
)

// Clean turns bytes a terminal would interpret into plain text:
// ANSI escape sequences (CSI, OSC, DCS, two-byte ESC) are removed, C0 and DEL
// control characters are shown as their Unicode control pictures (NUL as ␀),
// C1 controls, bidirectional overrides and invalid UTF-8 become U+FFFD. Tab
// is kept; with flat set, tab, CR and LF become spaces, otherwise CR and LF
// are made visible too (callers split lines before).
func Clean(s string, flat bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i = lines.SkipEscape(s, i)
			continue
		case c == '\t' || ((c == '\n' || c == '\r') && flat):
			if flat {
				b.WriteByte(' ')
			} else {
				b.WriteByte(c)
			}
		case c < 0x20:
			b.WriteRune(0x2400 + rune(c))
		case c == 0x7f:
			b.WriteRune(0x2421)
		case c < 0x80:
			b.WriteByte(c)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && n == 1) || isHiddenControl(r) {
				b.WriteRune(utf8.RuneError)
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
			continue
		}
		i++
	}
	return b.String()
}

// isHiddenControl reports C1 controls and the bidirectional overrides that
// can make displayed text differ from its bytes.
func isHiddenControl(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) ||
		(r >= 0x2066 && r <= 0x2069)
}
