package runners

import (
	"strings"
	"testing"
)

// TestFailurePlace: a failure whose heading names no line gets one from
// the stack under it, the test file's frame before a library's.
func TestFailurePlace(t *testing.T) {
	tests := []struct {
		name    string
		reader  messageReader
		named   string // the file the failure line gave
		lines   string
		file    string
		line    int
		message string
	}{
		{"rspec: the spec frame", &rspecMessage{}, "", `
     Failure/Error: expect(Calc.new.add(6, 2)).to eq(8)

       expected: 8
            got: 9

       (compared using ==)
     # ./spec/calc_spec.rb:9:in ` + "`block (2 levels) in <top (required)>'", "spec/calc_spec.rb", 9, "expected: 8 got: 9 (compared using ==)"},
		{"rspec: a library frame gives way to the spec's", &rspecMessage{}, "", `
     Failure/Error: def add(a, b) = a + b

     NoMethodError:
       undefined method ` + "`+' for nil:NilClass" + `
     # ./lib/calc.rb:2:in ` + "`add'" + `
     # ./spec/calc_spec.rb:12:in ` + "`block (2 levels) in <top (required)>'", "spec/calc_spec.rb", 12, "NoMethodError: undefined method `+' for nil:NilClass"},
		{"rspec: only a library frame", &rspecMessage{}, "", `
     Failure/Error: raise "boom"
     RuntimeError:
       boom
     # /usr/lib/ruby/3.1.0/set.rb:511:in ` + "`each'", "/usr/lib/ruby/3.1.0/set.rb", 511, "RuntimeError: boom"},
		{"phpunit: the test file's frame", &phpunitMessage{}, "", `
Failed asserting that 6 is identical to 7.

/src/app/src/Calc.php:11
/src/app/tests/CalcTest.php:14`, "/src/app/tests/CalcTest.php", 14, "Failed asserting that 6 is identical to 7."},
		{"unittest: the test's own frame", newPythonTraceback(), "", `
Traceback (most recent call last):
  File "/src/geo/test_geo.py", line 12, in test_area
    self.assertEqual(area(2), 12.56)
  File "/src/geo/geo.py", line 4, in area
    raise ValueError("negative")
ValueError: negative`, "/src/geo/test_geo.py", 12, "ValueError: negative"},
		{"bin/test: a frame of the named file places it", newPythonTraceback(), "sympy/core/tests/test_expr.py", `
Traceback (most recent call last):
  File "/testbed/sympy/core/tests/test_expr.py", line 88, in test_leadterm
    assert x.leadterm(x) == (1, 1)
AssertionError`, "sympy/core/tests/test_expr.py", 88, "AssertionError at: assert x.leadterm(x) == (1, 1)"},
		{"bin/test: a frame of another file does not", newPythonTraceback(), "sympy/core/tests/test_expr.py", `
Traceback (most recent call last):
  File "/testbed/sympy/core/expr.py", line 3000, in leadterm
    raise ValueError("cannot compute leadterm")
ValueError: cannot compute leadterm`, "sympy/core/tests/test_expr.py", 0, "ValueError: cannot compute leadterm"},
		{"no frame", &phpunitMessage{}, "", `
Failed asserting that false is true.`, "", 0, "Failed asserting that false is true."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Failure{Name: "t", File: tt.named}
			for _, l := range strings.Split(strings.TrimPrefix(tt.lines, "\n"), "\n") {
				tt.reader.line(l)
				placeFrom(&f, tt.reader, tt.named)
			}
			if f.File != tt.file || f.Line != tt.line {
				t.Errorf("place %s:%d, want %s:%d", f.File, f.Line, tt.file, tt.line)
			}
			if got := tt.reader.message(); got != tt.message {
				t.Errorf("message %q, want %q", got, tt.message)
			}
		})
	}
}
