package terminal

import "testing"

func TestClean(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"csi colour", "\x1b[1;31mFAIL\x1b[0m ok", "FAIL ok"},
		{"csi private", "\x1b[?25lhidden cursor\x1b[?25h", "hidden cursor"},
		{"osc bel", "\x1b]0;title\x07text", "text"},
		{"osc st", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"osc unterminated", "\x1b]0;visible", "0;visible"},
		{"charset", "\x1b(Babc", "abc"},
		{"two byte", "\x1b7saved\x1b8", "saved"},
		{"lone esc", "end\x1b", "end"},
		{"tab kept", "a\tb", "a\tb"},
		{"controls visible", "\x00\x01\x7f", "\u2400\u2401\u2421"},
		{"newline visible", "a\nb", "a\u240ab"},
		{"c1", "a\u009bb", "a\ufffdb"},
		{"bidi override", "a\u202eb", "a\ufffdb"},
		{"invalid utf8", "\xc3\x28", "\ufffd("},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Clean(tt.in, false); got != tt.want {
				t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
