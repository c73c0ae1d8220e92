package render

import "testing"

// TestShown: a line is shown as a terminal ends up showing it: the last
// segment after a carriage return or a move to the first column that
// shows something, without its escapes.
func TestShown(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"plain", "a b\n", "a b\n"},
		{"a progress bar", "10%\r50%\r100%\n", "100%\n"},
		{"a CR before LF", "done\r\n", "done\n"},
		{"a trailing CR", "done\r", "done\n"},
		{"bats' pretty ✗ over the name", "\x1b[0m\x1b[1G   bump\x1b[K\x1b[77G2/3\x1b[2G\x1b[31;1m\x1b[1G ✗ bump\x1b[K\n", " ✗ bump\n"},
		{"ESC[G", "old\x1b[Gnew\n", "new\n"},
		{"a move with nothing after it", "kept\x1b[1G\x1b[K\n", "kept\n"},
		{"colour only", "\x1b[31mred\x1b[0m\n", "red\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := shown(tt.text); got != tt.want {
				t.Errorf("shown(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}
