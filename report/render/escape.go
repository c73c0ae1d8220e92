package render

import (
	"strings"

	"github.com/runledger/runledger/report/internal/terminal"
)

// zwsp is a zero-width space. GitHub renders it as nothing, but it breaks
// every byte sequence it is inserted into: a marker search, a mention or an
// issue reference no longer matches.
const zwsp = "\u200b"

// FenceBlock returns text as a fenced code block with the given info string
// (e.g. "text", "json"). The fence is made of more backticks than the longest
// run of backticks or tildes in text, so no line of text can close it. The
// result ends with a newline.
//
// Inside a fence HTML is shown literally, but runledger's comment publisher
// searches the raw body for its hidden markers, so the text's marker-like
// sequences (`<!--`, `-->`, `<<cg`, `<details`, `</details`) are broken with
// a zero-width space. The text is otherwise kept byte for byte.
func FenceBlock(text, info string) string {
	text = breakMarkers(text)
	n := max(3, longestRun(text, '`')+1, longestRun(text, '~')+1)
	fence := strings.Repeat("`", n)
	var b strings.Builder
	b.Grow(len(text) + 2*n + len(info) + 3)
	b.WriteString(fence)
	b.WriteString(fenceInfo(info))
	b.WriteByte('\n')
	b.WriteString(text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(fence)
	b.WriteByte('\n')
	return b.String()
}

// fenceInfo keeps only characters that cannot end the info string, start a
// new line or smuggle a backtick into the opening fence.
func fenceInfo(info string) string {
	var b strings.Builder
	for _, r := range info {
		if b.Len() >= 32 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9',
			r == '-', r == '_', r == '.', r == '+':
			b.WriteRune(r)
		}
	}
	return b.String()
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// markerBreaks lists the sequences untrusted text must never carry intact,
// and where to insert the zero-width space. Matching ignores ASCII case so
// that a publisher matching loosely is still safe.
var markerBreaks = []struct {
	seq string
	at  int
}{
	{"<!--", 2},       // any HTML comment, so every runledger:* marker
	{"-->", 2},        // and any comment end
	{"<<cg", 2},       // compaction markers <<cg:HEX>>
	{"</details", 1},  // must not close the envelope's <details>
	{"<details", 1},   // nor open a new one
	{"runledger:", 9}, // a marker spelt without the comment opener
}

// breakMarkers inserts a zero-width space into every marker-like sequence.
// The inserted bytes are not ASCII, so they can never complete a new match.
func breakMarkers(s string) string {
	for _, m := range markerBreaks {
		s = insertAfterEach(s, m.seq, m.at)
	}
	return s
}

func insertAfterEach(s, seq string, at int) string {
	i := indexFoldASCII(s, seq)
	if i < 0 {
		return s
	}
	var b strings.Builder
	for i >= 0 {
		b.WriteString(s[:i+at])
		b.WriteString(zwsp)
		s = s[i+at:]
		i = indexFoldASCII(s, seq)
	}
	b.WriteString(s)
	return b.String()
}

// indexFoldASCII is strings.Index ignoring ASCII case; seq must be ASCII.
func indexFoldASCII(s, seq string) int {
	n := len(seq)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], seq) {
			return i
		}
	}
	return -1
}

// CodeSpan returns untrusted text as an inline code span, so that names,
// paths and locations read exactly as in the log (`flag_groups_test.go:191`,
// not flag\_groups\_test.go:191) and an agent can search the log for them.
// Inside a code span GitHub renders no HTML, emphasis, mention or issue
// link. The text is flattened to one line (terminal escapes removed,
// control characters made visible), its marker-like sequences are broken
// as in FenceBlock, and the delimiter is one backtick longer than the
// longest run inside. In a table cell a `|` would still end the cell, so
// inTable escapes it (GFM unescapes `\|` inside the span).
func CodeSpan(s string, inTable bool) string {
	s = breakMarkers(terminal.Clean(s, true))
	if strings.TrimSpace(s) == "" {
		return EscapeInline(s)
	}
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	tick := strings.Repeat("`", longestRun(s, '`')+1)
	if s[0] == '`' || s[len(s)-1] == '`' || (s[0] == ' ' && s[len(s)-1] == ' ') {
		s = " " + s + " "
	}
	return tick + s + tick
}

// EscapeInline makes untrusted text safe to place in Markdown outside a code
// fence, including a table cell: HTML is neutralised (`<`, `>`, `&` become
// entities), emphasis, code, link and table syntax is backslash-escaped,
// line breaks become spaces, terminal escapes are removed and other control
// characters made visible. `@name` gets a zero-width space after the `@` so
// GitHub shows it without notifying anyone, and `#123` one after the `#` so
// no issue is cross-referenced. With `<` escaped, no hidden marker survives,
// and "runledger:" gets a zero-width space so that quoted text cannot pass
// for the status line.
func EscapeInline(s string) string {
	s = terminal.Clean(s, true)
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '`', '*', '_', '[', ']', '~', '|':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '@':
			b.WriteString("@" + zwsp)
		case '#':
			b.WriteByte('#')
			if i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
				b.WriteString(zwsp)
			}
		case '-', '+':
			// At the start of a line these would open a list item.
			if i == 0 {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	// A quoted "runledger: passed" must not read like the status line.
	return insertAfterEach(b.String(), "runledger:", 9)
}
