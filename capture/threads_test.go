package capture

import "testing"

func TestFitThreads(t *testing.T) {
	for _, c := range []struct {
		env         string
		procs, want int
	}{
		{"", 1, 1},
		{"", 2, 1},
		{"", 4, 4},
		{"", 64, 64},
		{"2", 2, 2}, // the user's choice stands
		{"8", 8, 8},
	} {
		if got := fitThreads(c.env, c.procs); got != c.want {
			t.Errorf("fitThreads(%q, %d) = %d, want %d", c.env, c.procs, got, c.want)
		}
	}
}
