package runners

import (
	"encoding/binary"
	"math/bits"
)

// parseGoFileLine matches goFileLine, `^\s+([\w./-]+\.go):(\d+): ?(.*)$`,
// without a regexp: it runs on every t.Log line of a verbose log.
func parseGoFileLine[T string | []byte](s T) (file, ln, msg T, ok bool) {
	var none T
	i := 0
	for i < len(s) && isRE2Space(s[i]) {
		i++
	}
	if i == 0 {
		return none, none, none, false
	}
	j := i
	for j < len(s) && isPathByte(s[j]) {
		j++
	}
	// The path is the longest run of path bytes; the regexp backtracks to
	// the last `.go` followed by `:` and digits, but a path byte run cannot
	// hold a ':', so the run must end exactly at `.go` and a ':' follow.
	if j-i < 4 || string(s[j-3:j]) != ".go" || j >= len(s) || s[j] != ':' {
		return none, none, none, false
	}
	k := j + 1
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	if k == j+1 || k >= len(s) || s[k] != ':' {
		return none, none, none, false
	}
	rest := s[k+1:]
	if len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	for i := range len(rest) {
		if rest[i] == '\n' {
			return none, none, none, false // `.` does not match a newline
		}
	}
	return s[i:j], s[j+1 : k], rest, true
}

// isPathByte is goFileLine's [\w./-].
func isPathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '/' || c == '-'
}

// isRE2Space is regexp's \s.
func isRE2Space(c byte) bool { return re2Space[c] }

var re2Space = [256]bool{' ': true, '\t': true, '\n': true, '\f': true, '\r': true}

// nonSpace returns the length of the run of non-\s bytes at the start of b.
// It runs on every test name of a verbose log, so it looks at eight bytes
// at once for one at most ' ' (every \s byte is), and goes straight to the
// first such byte of a word.
func nonSpace(b []byte) int {
	i := 0
	for i+8 <= len(b) {
		w := binary.LittleEndian.Uint64(b[i:])
		// A byte below 0x21 sets its high bit here. The lowest byte set is
		// the first below 0x21: a borrow only sets bytes above the one it
		// starts from, and a byte at or above 0x80 sets none by itself.
		m := (w - 0x2121212121212121) &^ w & 0x8080808080808080
		if m == 0 {
			i += 8
			continue
		}
		i += bits.TrailingZeros64(m) >> 3
		if isRE2Space(b[i]) {
			return i
		}
		i++ // a control byte \s does not match: go on after it
	}
	for ; i < len(b); i++ {
		if c := b[i]; c <= ' ' && isRE2Space(c) {
			return i
		}
	}
	return len(b)
}

// parseMarker matches what follows `=== ` against goMarker's
// `(?:RUN|CONT|NAME|PAUSE)\s+(\S+)` and returns the test name.
func parseMarker(b []byte) ([]byte, bool) {
	var rest []byte
	switch {
	case len(b) > 3 && b[0] == 'R' && b[1] == 'U' && b[2] == 'N':
		rest = b[3:]
	case hasPrefix(b, "CONT"), hasPrefix(b, "NAME"):
		rest = b[4:]
	case hasPrefix(b, "PAUSE"):
		rest = b[5:]
	}
	i := 0
	for i < len(rest) && isRE2Space(rest[i]) {
		i++
	}
	if i == 0 {
		return nil, false
	}
	// The name most often runs to the line's end: plain shows that for
	// less than finding where it ends.
	if plain(rest[i:]) {
		return rest[i:], i < len(rest)
	}
	n := nonSpace(rest[i:])
	return rest[i : i+n], n > 0
}

// ParseGoResult reads a go test result line, `--- FAIL: name (0.00s)` (or
// PASS, SKIP), without a regexp: it matches goResult,
// `^--- (PASS|FAIL|SKIP): (\S+) \(\d+\.\d+s\)`, and a verbose log has one
// a test. t is the line without its leading blanks.
func ParseGoResult(t []byte) (verdict string, name []byte, ok bool) {
	if len(t) < 10 || t[8] != ':' || t[9] != ' ' {
		return "", nil, false
	}
	// Each verdict is one eight-byte comparison: three passes read every
	// `--- PASS` line of a verbose log.
	switch string(t[:8]) {
	case "--- PASS":
		verdict = "PASS"
	case "--- FAIL":
		verdict = "FAIL"
	case "--- SKIP":
		verdict = "SKIP"
	default:
		return "", nil, false
	}
	rest := t[10:]
	n := nonSpace(rest)
	if n == 0 || !hasPrefix(rest[n:], " (") {
		return "", nil, false
	}
	if !goElapsed(rest[n+2:]) {
		return "", nil, false
	}
	return verdict, rest[:n], true
}

// PassOf reports whether t is the `--- PASS` line of test cur, as
// ParseGoResult reads it, for the excerpt scan, which follows the test of
// the latest `=== RUN` line too: comparing the name in place costs less
// than finding where it ends. cur must be Plain.
func PassOf(t, cur []byte) bool {
	n := len(cur)
	return n > 0 && len(t) >= n+12 && string(t[:8]) == "--- PASS" && string(t[8:10]) == ": " &&
		t[10+n] == ' ' && t[11+n] == '(' && string(t[10:10+n]) == string(cur) && goElapsed(t[12+n:])
}

// Plain reports a name PassOf may be given: not empty, no \s byte.
func Plain(name []byte) bool { return len(name) > 0 && plain(name) }

// plain reports whether b holds no \s byte. Most names hold no byte below
// '!' at all, which eight bytes at a time (the last word overlapping the
// one before) show without finding where anything is; only a name with
// such a byte takes nonSpace.
func plain(b []byte) bool {
	n := len(b)
	if n < 8 {
		return nonSpace(b) == n
	}
	var m uint64
	for i := 0; i+8 <= n; i += 8 {
		m |= below21(binary.LittleEndian.Uint64(b[i:]))
	}
	m |= below21(binary.LittleEndian.Uint64(b[n-8:]))
	return m == 0 || nonSpace(b) == n
}

// below21 is nonzero when a byte of w is below 0x21 (see nonSpace): with
// none, no byte borrows and none sets its high bit.
func below21(w uint64) uint64 { return (w - 0x2121212121212121) &^ w & 0x8080808080808080 }

// parseGoResultOf is ParseGoResult for a line that most likely names cur,
// the test of the latest `=== RUN` line: in a verbose log its verdict
// follows, and comparing the name with cur's bytes costs less than
// finding where it ends. cur must hold no \s byte (parseMarker's and
// goMarker's names hold none), so a line naming it is read as
// ParseGoResult reads it; any other line takes ParseGoResult.
func parseGoResultOf(t, cur []byte) (verdict string, name []byte, ok bool) {
	n := len(cur)
	if n == 0 || len(t) < n+12 || string(t[8:10]) != ": " || t[10+n] != ' ' || t[11+n] != '(' ||
		string(t[10:10+n]) != string(cur) || !goElapsed(t[12+n:]) {
		return ParseGoResult(t)
	}
	switch string(t[:8]) {
	case "--- PASS":
		return "PASS", t[10 : 10+n], true
	case "--- SKIP":
		return "SKIP", t[10 : 10+n], true
	case "--- FAIL":
		return "FAIL", t[10 : 10+n], true
	}
	return "", nil, false
}

// goElapsed reports whether b starts with `\d+\.\d+s\)`, the time go test
// prints after a verdict's name. Most tests print `0.00s)`: that shape is
// one look at six bytes, the others take the loops.
func goElapsed(b []byte) bool {
	if len(b) >= 6 && isDigit(b[0]) && b[1] == '.' && isDigit(b[2]) && isDigit(b[3]) && string(b[4:6]) == "s)" {
		return true
	}
	d := digits(b)
	if d == 0 || len(b) == d || b[d] != '.' {
		return false
	}
	b = b[d+1:]
	d = digits(b)
	return d > 0 && hasPrefix(b[d:], "s)")
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digits(b []byte) int {
	for i, c := range b {
		if c < '0' || c > '9' {
			return i
		}
	}
	return len(b)
}
