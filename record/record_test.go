package record

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func passing() *Record {
	zero := 0
	s := func() *Stream { return &Stream{Complete: true} }
	return &Record{Schema: Schema, ID: "r", Status: StatusPassed, ExitCode: &zero, Termination: TerminationExited,
		Streams: map[string]*Stream{Stdout: s(), Stderr: s(), Output: s()}}
}

// TestPassed: every way a record can fall short of a pass is caught.
func TestPassed(t *testing.T) {
	one := 1
	tests := []struct {
		name   string
		mutate func(*Record)
	}{
		{"status failed", func(r *Record) { r.Status = StatusFailed }},
		{"exit code 1", func(r *Record) { r.ExitCode = &one }},
		{"no exit code", func(r *Record) { r.ExitCode = nil }},
		{"timed out", func(r *Record) { r.TimedOut = true }},
		{"stopped by runledger", func(r *Record) { r.Termination = TerminationConfirmed }},
		{"runledger error", func(r *Record) { r.Errors = []string{"disk full"} }},
		{"stream missing", func(r *Record) { delete(r.Streams, Stderr) }},
		{"stream incomplete", func(r *Record) { r.Streams[Stdout].Complete = false }},
		{"write error", func(r *Record) { r.Streams[Output].WriteError = "EFBIG" }},
		{"still running", func(r *Record) { r.Status = StatusRunning }},
	}
	if !passing().Passed() {
		t.Fatal("the baseline record should pass")
	}
	for _, tc := range tests {
		r := passing()
		tc.mutate(r)
		if r.Passed() {
			t.Errorf("%s: Passed() = true", tc.name)
		}
	}
}

func TestWriteRead(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, passing()); err != nil {
		t.Fatal(err)
	}
	r, err := Read(dir)
	if err != nil || !r.Passed() {
		t.Fatalf("round trip: %+v %v", r, err)
	}
	if info, err := os.Stat(filepath.Join(dir, FileName)); err != nil || (runtime.GOOS != "windows" && info.Mode().Perm() != 0o644) {
		t.Errorf("record.json mode %v (%v), want 0644 like the logs", info.Mode().Perm(), err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".record-*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left behind: %v", left)
	}
	os.WriteFile(filepath.Join(dir, FileName), []byte(`{"schema":"runledger.run/v0"}`), 0o644)
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "schema") {
		t.Fatalf("wrong schema: %v", err)
	}
}

func TestStoredAndOriginalOffsets(t *testing.T) {
	s := &Stream{StoredRanges: [][2]int64{{0, 100}, {900, 1000}}}
	tests := []struct{ start, end, wantStart, wantEnd int64 }{
		{0, 10, 0, 10},
		{90, 100, 90, 100},    // ends at the head's end, not the tail's start
		{100, 110, 900, 910},  // starts at the tail's start, not the head's end
		{150, 200, 950, 1000}, // the stream's end
	}
	for _, tc := range tests {
		if s0, e0 := s.OriginalRange(tc.start, tc.end); s0 != tc.wantStart || e0 != tc.wantEnd {
			t.Errorf("OriginalRange(%d, %d) = %d, %d; want %d, %d", tc.start, tc.end, s0, e0, tc.wantStart, tc.wantEnd)
		}
		if off, ok := s.StoredOffset(tc.wantStart, tc.wantEnd); !ok || off != tc.start {
			t.Errorf("StoredOffset(%d, %d) = %d, %v; want %d", tc.wantStart, tc.wantEnd, off, ok, tc.start)
		}
	}
	if _, ok := s.StoredOffset(95, 905); ok {
		t.Error("a range across the omitted middle has no stored offset")
	}
}
