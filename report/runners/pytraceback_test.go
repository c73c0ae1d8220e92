package runners

import "testing"

// TestPyTracebackGrammar: the frame and exception lines every reader of a
// Python traceback (the summary's messages, the excerpts, compaction) is
// told apart by, as CPython 3.11 prints them.
func TestPyTracebackGrammar(t *testing.T) {
	frames := []struct {
		text, file string
		line       int
		ok         bool
	}{
		{`File "/src/test_geo.py", line 12, in test_area`, "/src/test_geo.py", 12, true},
		{`File "<frozen runpy>", line 198, in _run_module_as_main`, "<frozen runpy>", 198, true},
		{`File "bad.py", line 3`, "bad.py", 3, true}, // a SyntaxError's
		{`File "bad.py", line 3` + "\r", "bad.py", 3, true},
		{`File "x.py", line 3x`, "", 0, false},
		{`Files "x.py", line 3, in f`, "", 0, false},
		{`line 3 of File "x.py"`, "", 0, false},
	}
	for _, f := range frames {
		file, line, ok := PyFrame(f.text)
		if file != f.file || line != f.line || ok != f.ok {
			t.Errorf("PyFrame(%q) = %q, %d, %v; want %q, %d, %v", f.text, file, line, ok, f.file, f.line, f.ok)
		}
	}
	for text, want := range map[string]bool{
		"AssertionError: 12.57 != 12.56": true, "ValueError": true, "sympy.polys.PolificationFailed: x": true,
		"KeyboardInterrupt": true, "SystemExit: 2": true, "Something went wrong": false, "result: ok": false, "assert x == 1": false,
	} {
		if got := PyException(text); got != want {
			t.Errorf("PyException(%q) = %v, want %v", text, got, want)
		}
	}
}
