package evidence

import (
	"bytes"
	"testing"
)

// TestTrimName: trimName is bytes.TrimSpace, whatever surrounds the name.
func TestTrimName(t *testing.T) {
	for _, s := range []string{"", " ", "  TestA", "  TestA ", "TestA\t", "\tTestA", "  Test A",
		"  TestA\u00a0", "  \u2000TestA", "  TestA\r", "  TestA\v", " ✓", "  Test/sub#01", "\u0085"} {
		if got, want := trimName([]byte(s)), bytes.TrimSpace([]byte(s)); !bytes.Equal(got, want) {
			t.Errorf("trimName(%q) = %q, want %q", s, got, want)
		}
	}
}
