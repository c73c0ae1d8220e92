package capture

import (
	"runtime"
	"testing"
)

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

// TestFitThreadsRestores: the report after a capture gets its Ps back.
func TestFitThreadsRestores(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	restore := FitThreads(func(string) string { return "" })
	if during := runtime.GOMAXPROCS(0); during != fitThreads("", before) {
		t.Errorf("during the capture: %d Ps, want %d", during, fitThreads("", before))
	}
	restore()
	if after := runtime.GOMAXPROCS(0); after != before {
		t.Errorf("after restore: %d Ps, want %d", after, before)
	}
}
