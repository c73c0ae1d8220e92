// Package clip shortens text for the envelope: a message, a note.
package clip

import "unicode/utf8"

// String cuts s to at most n bytes at a rune boundary, marking the cut
// with "…" (so the result may be up to n+3 bytes).
func String(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
