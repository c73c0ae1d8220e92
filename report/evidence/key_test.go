package evidence

import "testing"

// TestLineKeyOfJSONEvents: a go test -json event line is scored by what
// the test printed, not by its wrapper: its `--- FAIL` is a verdict (0),
// its `file:line: Expected …` an assertion (2), an event without output
// nothing.
func TestLineKeyOfJSONEvents(t *testing.T) {
	wrap := `{"Time":"2026-12-02T15:15:58Z","Action":"output","Package":"github.com/acme/cli","Test":"TestFail/Error_case","Output":`
	for _, tc := range []struct {
		line string
		want int
		at   bool // outputAt finds the Output field
	}{
		{wrap + `"--- FAIL: TestFail/Error_case (0.00s)\n"}`, 0, true},
		{wrap + `"    flag_groups_test.go:191: Expected error \"a\" but got \"b\"\n"}`, 2, true},
		{wrap + `"    cli_test.go:40: building index\n"}`, 1, true},
		{wrap + `"=== RUN   TestFail/Error_case\n"}`, 0, true},
		{`{"Time":"2026-12-02T15:15:58Z","Action":"fail","Package":"github.com/acme/cli","Test":"TestFailing","Elapsed":0}`, 0, false},
		{"--- FAIL: TestX (0.00s)", 0, false},
		{"    x_test.go:9: got 1, want 2", 2, false},
		// A Rust backtrace: std's frames are not where; the crate's are.
		{"             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:80:14", 0, false},
		{"             at ./src/lib.rs:831:23", 1, false},
		{"   2: core::panicking::panic_bounds_check", 0, false},
		{"   0: __rustc::rust_begin_unwind", 0, false},
		{"  11: <core::panic::unwind_safe::AssertUnwindSafe<F> as core::ops::function::FnOnce<()>>::call_once", 0, false},
		{"   6: strsim::panic_free", 2, false},
		// Numbered failures (jasmine, mocha, RSpec, PHPUnit) and a count of them.
		{"1) Test slugger functionality should be unique when slug ends with number", 2, false},
		{"  2) Calc adds:", 2, false},
		{"1605 specs, 8 failures", 2, false},
		{"1605 specs, 0 failures", 0, false},
		{"thread 'x' panicked at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/str/mod.rs:68:5:", 2, false},
	} {
		if got := LineKey(tc.line); got != tc.want {
			t.Errorf("LineKey(%s) = %d, want %d", tc.line, got, tc.want)
		}
		if got := outputAt(tc.line) >= 0; got != tc.at {
			t.Errorf("outputAt(%s) found = %v, want %v", tc.line, got, tc.at)
		}
	}
}
