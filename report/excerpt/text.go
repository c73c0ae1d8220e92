package excerpt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/runledger/runledger/report/internal/lines"
)

// Text is an Excerpt's Text for the raw bytes it cites: exactly those
// bytes with ANSI escape sequences (CSI, OSC, DCS, two-byte ESC) removed,
// and nothing else changed, so that a reader who re-reads the range and
// strips the same sequences gets the same text. The one exception is what
// a JSON string cannot carry: each byte that is not valid UTF-8 becomes
// U+FFFD, as encoding/json would make it. Surfaces that show the text
// (Markdown, a terminal) make control characters visible when they print
// it; the excerpt itself stays the evidence.
func Text(raw []byte) string {
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == 0x1b:
			i = lines.SkipEscape(raw, i)
			continue
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.Write(raw[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Check is the invariant every excerpt of a log keeps: raw, the bytes its
// range holds when re-read from the store, hash to its SHA256 and make
// exactly its Text. It returns what differs.
func Check(x Excerpt, raw []byte) error {
	if int64(len(raw)) != x.End-x.Start {
		return fmt.Errorf("excerpt %s [%d,%d): %d bytes re-read", x.Stream, x.Start, x.End, len(raw))
	}
	sum := sha256.Sum256(raw)
	if got := hex.EncodeToString(sum[:]); got != x.SHA256 {
		return fmt.Errorf("excerpt %s [%d,%d): sha256 %s, the bytes hash to %s", x.Stream, x.Start, x.End, x.SHA256, got)
	}
	if want := Text(raw); x.Text != want {
		return fmt.Errorf("excerpt %s [%d,%d): text %q is not its bytes %q", x.Stream, x.Start, x.End, x.Text, want)
	}
	if n := int64(bytes.Count(raw[:max(len(raw)-1, 0)], []byte{'\n'})); x.LastLine-x.FirstLine != n {
		return fmt.Errorf("excerpt %s [%d,%d): lines %d–%d, the bytes hold %d line breaks", x.Stream, x.Start, x.End, x.FirstLine, x.LastLine, n)
	}
	return nil
}

// SafeCut moves cut back to a place where raw may be split: not inside a
// UTF-8 character nor an escape sequence, so that both sides stay what a
// terminal would show, and each side's Text is its own bytes'. It never
// returns less than from.
func SafeCut(raw []byte, from, cut int) int {
	if cut >= len(raw) {
		return len(raw)
	}
	// An escape sequence that starts before cut and runs past it moves
	// the cut to its start.
	for i := max(from, cut-256); i < cut; i++ {
		if raw[i] == 0x1b {
			if end := lines.SkipEscape(raw, i); end > cut {
				cut = i
				break
			} else {
				i = end - 1
			}
		}
	}
	for k := 0; k < 3 && cut > from && !utf8.RuneStart(raw[cut]); k++ {
		cut--
	}
	return max(cut, from)
}
