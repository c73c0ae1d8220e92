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
		{"minitest: an error's backtrace, past the library's frame", &minitestMessage{}, "", `
NoMethodError: undefined method ` + "`pop'" + ` for #<Stack:0x00007f90 @items=[:a]>
    lib/stack.rb:9:in ` + "`peek'" + `
    test/stack_test.rb:21:in ` + "`test_pop'", "test/stack_test.rb", 21, "NoMethodError: undefined method `pop' for #<Stack:0x00007f90 @items=[:a]>"},
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

// TestPytestFailureLine: a pytest failure's line is its section's first
// location line, the test function's own entry (pytest hides its own
// frames), when that entry is in the test's file; a failure raised in a
// fixture of conftest.py, or a section with no location, has no line.
func TestPytestFailureLine(t *testing.T) {
	log := `=================================== FAILURES ===================================
____________________________ TestCalc.test_add _____________________________

self = <tests.test_calc.TestCalc object at 0x7f>

    def test_add(self):
>       assert add(2, 2) == 5
E       assert 4 == 5

tests/test_calc.py:9: AssertionError
__________________________________ test_div __________________________________

    def test_div():
>       div(1, 0)

tests/test_calc.py:14: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

    def div(a, b):
>       return a / b
E       ZeroDivisionError: division by zero

calc/ops.py:3: ZeroDivisionError
_______________________________ test_fixture ________________________________

    @pytest.fixture
    def db():
>       raise RuntimeError("no db")
E       RuntimeError: no db

tests/conftest.py:5: RuntimeError
_______________________________ test_bare ________________________________
E       assert False
=========================== short test summary info ============================
FAILED tests/test_calc.py::TestCalc::test_add - assert 4 == 5
FAILED tests/test_calc.py::test_div - ZeroDivisionError: division by zero
FAILED tests/test_calc.py::test_fixture - RuntimeError: no db
FAILED tests/test_calc.py::test_bare - assert False
========================= 4 failed, 3 passed in 0.12s ==========================
`
	s := scanMem(t, []byte(log))
	want := map[string]int{"tests/test_calc.py::TestCalc::test_add": 9, "tests/test_calc.py::test_div": 14,
		"tests/test_calc.py::test_fixture": 0, "tests/test_calc.py::test_bare": 0}
	if len(s.Failures) != len(want) {
		t.Fatalf("%d failures, want %d: %+v", len(s.Failures), len(want), s.Failures)
	}
	for _, f := range s.Failures {
		if l, ok := want[f.Name]; !ok || f.Line != l || f.File != "tests/test_calc.py" {
			t.Errorf("%s: %s:%d, want tests/test_calc.py:%d", f.Name, f.File, f.Line, l)
		}
	}
	if err := Verify(strings.NewReader(log), int64(len(log)), s); err != nil {
		t.Errorf("verify: %v", err)
	}
}

// TestJSFailurePlace: jest and mocha name no file on a failure's heading;
// its place is the first frame of its stack in a test file, else the
// first outside node_modules and node's own modules.
func TestJSFailurePlace(t *testing.T) {
	jest := `FAIL test/sum.test.js
  ● Console

    console.log
      computing sum(2, 2)

      at Object.log (test/sum.test.js:5:13)

  ● sum › adds two numbers

    expect(received).toBe(expected) // Object.is equality

    Expected: 4
    Received: 5

    >  7 |     expect(sum(2, 2)).toBe(4);
         |                       ^

      at Object.toBe (test/sum.test.js:7:23)

  ● sum › parses

    TypeError: Cannot read properties of undefined (reading 'trim')

      at parse (node_modules/parser/index.js:3:9)
      at parse (src/sum.js:12:10)
      at Object.<anonymous> (test/sum.test.js:15:12)

  ● sum › crashes in a library only

    RangeError: Invalid array length

      at build (src/sum.js:30:5)
      at processTicksAndRejections (node:internal/process/task_queues:95:5)

Test Suites: 1 failed, 1 total
Tests:       3 failed, 1 passed, 4 total
`
	mocha := `  1 passing (6ms)
  2 failing

  1) cart
       total
         multiplies price by quantity:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

7 !== 10

      at Context.<anonymous> (test/cart.test.js:12:14)
      at process.processImmediate (node:internal/timers:483:21)

  2) cart
       firstName
         copes with a missing profile:
     TypeError: Cannot read properties of undefined (reading 'name')
      at firstName (lib/cart.js:7:23)
      at Context.<anonymous> (file:///src/shop/test/cart.test.js:22:26)
      at process.processImmediate (node:internal/timers:483:21)
`
	for _, c := range []struct {
		name, log, test, file string
		line                  int
	}{
		{"jest: the matcher's frame", jest, "sum › adds two numbers", "test/sum.test.js", 7},
		{"jest: past node_modules and library frames", jest, "sum › parses", "test/sum.test.js", 15},
		{"jest: only library frames", jest, "sum › crashes in a library only", "src/sum.js", 30},
		{"mocha: the test's frame", mocha, "cart total multiplies price by quantity", "test/cart.test.js", 12},
		{"mocha: an ES module's file URL, past the library", mocha, "cart firstName copes with a missing profile", "/src/shop/test/cart.test.js", 22},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := scanBytes(t, []byte(c.log))
			f := findFailure(s, c.test)
			if f == nil || f.File != c.file || f.Line != c.line {
				t.Errorf("failure %q = %+v, want %s:%d (all: %+v)", c.test, f, c.file, c.line, s.Failures)
			}
		})
	}
}
