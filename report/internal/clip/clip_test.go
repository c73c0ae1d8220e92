package clip

import "testing"

func TestString(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc…"},
		{"aé", 2, "a…"}, // é is two bytes: never cut inside it
		{"ééé", 0, "…"},
	}
	for _, tt := range tests {
		if got := String(tt.in, tt.n); got != tt.want {
			t.Errorf("String(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
