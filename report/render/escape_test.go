package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// The zero-width spaces FenceBlock and EscapeInline insert are shown here
// as "·" so the examples are readable.
func showZWSP(s string) string { return strings.ReplaceAll(s, zwsp, "·") }

func ExampleFenceBlock() {
	fmt.Print(showZWSP(FenceBlock("a ``` inside\n<!-- runledger:comment -->\n", "text")))
	// Output:
	// ````text
	// a ``` inside
	// <!·-- runledger·:comment --·>
	// ````
}

func ExampleEscapeInline() {
	fmt.Println(showZWSP(EscapeInline("<b>x</b> | @octocat fixes #12 *now*")))
	// Output:
	// &lt;b&gt;x&lt;/b&gt; \| @·octocat fixes #·12 \*now\*
}

func TestFenceBlock(t *testing.T) {
	tests := []struct {
		name, text, info, want string
	}{
		{"plain", "hello\n", "text", "```text\nhello\n```\n"},
		{"adds final newline", "hello", "", "```\nhello\n```\n"},
		{"empty", "", "json", "```json\n```\n"},
		{"backtick run", "x\n`````\n", "text", "``````text\nx\n`````\n``````\n"},
		{"tilde run", "~~~~\n", "", "`````\n~~~~\n`````\n"},
		{"hostile info", "x\n", "te`xt\n```", "```text\nx\n```\n"},
		{"details", "</details>\n", "", "```\n<\u200b/details>\n```\n"},
		{"compaction marker", "<<cg:0123456789abcdef>>\n", "", "```\n<<\u200bcg:0123456789abcdef>>\n```\n"},
		{"upper case marker", "<<CG:1>> RUNLEDGER:x\n", "", "```\n<<\u200bCG:1>> RUNLEDGER\u200b:x\n```\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FenceBlock(tt.text, tt.info); got != tt.want {
				t.Errorf("FenceBlock(%q, %q) = %q, want %q", tt.text, tt.info, got, tt.want)
			}
		})
	}
}

func TestEscapeInline(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"a|b", `a\|b`},
		{"<!-- runledger:comment -->", "&lt;!-- runledger\u200b:comment --&gt;"},
		{"line1\nline2\r\n", "line1 line2  "},
		{"@user and a@b", "@\u200buser and a@\u200bb"},
		{"#12 and #x", "#\u200b12 and #x"},
		{"[link](http://x) `code` _em_ ~s~", `\[link\](http://x) \` + "`code\\`" + ` \_em\_ \~s\~`},
		{"- item", `\- item`},
		{"\x1b[31mred\x1b[0m", "red"},
		{"nul\x00bell\x07", "nul\u2400bell\u2407"},
		{"bad \xff utf8", "bad \ufffd utf8"},
		{"&amp;", "&amp;amp;"},
		{`back\slash`, `back\\slash`},
	}
	for _, tt := range tests {
		if got := EscapeInline(tt.in); got != tt.want {
			t.Errorf("EscapeInline(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// fenceParse reads a fenced block the way CommonMark does: the opening
// fence's backtick count, then lines (split at \n, \r\n or \r) until one
// is a closing fence. It returns the content and what follows the closer.
func fenceParse(t *testing.T, s string) (content, after string) {
	t.Helper()
	nl := strings.IndexAny(s, "\r\n")
	if nl < 0 {
		t.Fatalf("no newline after the opening fence in %q", s)
	}
	open := s[:nl]
	n := len(open) - len(strings.TrimLeft(open, "`"))
	if n < 3 || strings.Contains(open[n:], "`") {
		t.Fatalf("bad opening fence %q", open)
	}
	rest := s[nl+1:]
	if s[nl] == '\r' && strings.HasPrefix(rest, "\n") {
		rest = rest[1:]
	}
	pos := 0
	for pos <= len(rest) {
		end := strings.IndexAny(rest[pos:], "\r\n")
		line := rest[pos:]
		if end >= 0 {
			line = rest[pos : pos+end]
		}
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		run := len(trimmed) - len(strings.TrimLeft(trimmed, "`"))
		if indent <= 3 && run >= n && strings.Trim(trimmed[run:], " \t") == "" {
			return rest[:pos], rest[pos+len(line):]
		}
		if end < 0 {
			break
		}
		pos += end + 1
		if rest[pos-1] == '\r' && pos < len(rest) && rest[pos] == '\n' {
			pos++
		}
	}
	t.Fatalf("fence never closed in %q", s)
	return "", ""
}

var markerLike = regexp.MustCompile(`(?i)<!--|-->|<<cg|</?details|runledger:`)

func FuzzFenceBlock(f *testing.F) {
	for _, s := range []string{"", "x", "```", "a\n```\nb", "~~~\n", "\r```\r", "<!-- runledger:envelope -->",
		"</details>", "<<cg:0123456789abcdef>>", "    ````", "`\n``\n```\n````", "\x00\xff"} {
		f.Add(s, "text")
	}
	f.Fuzz(func(t *testing.T, text, info string) {
		out := FenceBlock(text, info)
		content, after := fenceParse(t, out)
		want := breakMarkers(text)
		if want != "" && !strings.HasSuffix(want, "\n") {
			want += "\n"
		}
		if content != want {
			t.Fatalf("content %q, want %q", content, want)
		}
		if after != "\n" {
			t.Fatalf("text after the closing fence: %q", after)
		}
		if m := markerLike.FindString(out); m != "" {
			t.Fatalf("marker-like %q survived in %q", m, out)
		}
	})
}

var rawMention = regexp.MustCompile(`@[A-Za-z0-9]|#[0-9]`)

func FuzzEscapeInline(f *testing.F) {
	for _, s := range []string{"", "@user", "#1", "<!-- runledger:comment -->", "<<cg:0123456789abcdef>>",
		"a|b\\|c", "\n\r", "\x1b[31m@x\x1b[0m", "@\x1b[0muser", "</details>", "\xff@\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := EscapeInline(s)
		if strings.ContainsAny(out, "<>\n\r") {
			t.Fatalf("raw <, > or line break in %q", out)
		}
		if m := rawMention.FindString(out); m != "" {
			t.Fatalf("mention or issue ref %q left in %q", m, out)
		}
		if strings.Contains(strings.ToLower(out), "runledger:") {
			t.Fatalf("runledger: left intact in %q", out)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 in %q", out)
		}
		for i := 0; i < len(out); i++ {
			if out[i] == '|' && (i == 0 || out[i-1] != '\\') {
				t.Fatalf("unescaped pipe at %d in %q", i, out)
			}
		}
	})
}
