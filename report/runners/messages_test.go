package runners

import (
	"encoding/json"
	"strings"
	"testing"
)

// jsonOut is go test -json's events for one failing test of package p
// that printed the given lines.
func jsonOut(test string, lines ...string) string {
	var b strings.Builder
	ev := func(m map[string]any) {
		m["Package"] = "p"
		j, _ := json.Marshal(m)
		b.Write(append(j, '\n'))
	}
	ev(map[string]any{"Action": "start"})
	ev(map[string]any{"Action": "run", "Test": test})
	for _, l := range lines {
		ev(map[string]any{"Action": "output", "Test": test, "Output": l})
	}
	ev(map[string]any{"Action": "fail", "Test": test, "Elapsed": 0})
	ev(map[string]any{"Action": "output", "Output": "FAIL\n"})
	ev(map[string]any{"Action": "fail", "Elapsed": 0})
	return b.String()
}

// TestFailureMessages: the message a runner's own failure report gives a
// failure, for report shapes of real projects' suites.
func TestFailureMessages(t *testing.T) {
	for _, c := range []struct{ name, log, test, want string }{
		{"node tap error in double quotes", `TAP version 13
# Subtest: FastifyError.toString returns code
not ok 1 - FastifyError.toString returns code
  ---
  duration_ms: 0.4
  location: '/p/test/index.test.js:171:1'
  failureType: 'testCodeFailure'
  error: "'FastifyError [CODE] foo' == 'FastifyError [CODE]: foo'"
  code: 'ERR_ASSERTION'
  expected: 'FastifyError [CODE]: foo'
  actual: 'FastifyError [CODE] foo'
  operator: '=='
  ...
1..1
# tests 1
# pass 0
# fail 1
`, "FastifyError.toString returns code", "'FastifyError [CODE] foo' == 'FastifyError [CODE]: foo'"},
		{"node tap error in single quotes", `TAP version 13
not ok 1 - quotes
  ---
  duration_ms: 0.4
  error: 'it''s 2, "want" 3'
  ...
1..1
# tests 1
# pass 0
# fail 1
`, "quotes", `it's 2, "want" 3`},
		{"go quicktest Equals", "--- FAIL: TestToStringE (0.00s)\n" +
			"    cast_test.go:284: \n" +
			"        error:\n" +
			"          values are not equal\n" +
			"        comment:\n" +
			"          i = 10\n" +
			"        got:\n" +
			"          \"8.3100004196167\"\n" +
			"        want:\n" +
			"          \"8.31\"\n" +
			"        stack:\n" +
			"          /p/cast_test.go:284\n" +
			"            c.Assert(v, qt.Equals, test.expect, errmsg)\n" +
			"        \n" +
			"FAIL\nFAIL\tgithub.com/spf13/cast\t0.017s\nFAIL\n",
			"TestToStringE", `values are not equal got: "8.3100004196167" want: "8.31"`},
		{"go quicktest comment first", "--- FAIL: TestSlice (0.00s)\n" +
			"    cast_test.go:741: \n" +
			"        comment:\n" +
			"          i = 4\n" +
			"        error:\n" +
			"          values are not deep equal\n" +
			"        got:\n" +
			"          []string{\"1.0\"}\n" +
			"        stack:\n" +
			"          /p/cast_test.go:741\n" +
			"FAIL\nFAIL\tgithub.com/spf13/cast\t0.017s\nFAIL\n",
			"TestSlice", `values are not deep equal got: []string{"1.0"}`},
		{"go test -timeout, plain", "panic: test timed out after 10s\n" +
			"\trunning tests:\n" +
			"\t\tTestSpins (10s)\n" +
			"\n" +
			"goroutine 15 [running]:\n" +
			"testing.(*M).startAlarm.func1()\n" +
			"\t/usr/local/go/src/testing/testing.go:2802 +0x354\n" +
			"FAIL\tgithub.com/acme/objx\t10.062s\nFAIL\n",
			"TestSpins", "panic: test timed out after 10s"},
		{"go test -timeout -v, two running", "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestSpins\n=== RUN   TestSlow\n" +
			"panic: test timed out after 1m0s\n" +
			"\trunning tests:\n" +
			"\t\tTestSlow (59s)\n" +
			"\t\tTestSpins (1m0s)\n" +
			"\n" +
			"goroutine 15 [running]:\n" +
			"main.main()\n" +
			"\t_testmain.go:556 +0x9b\n" +
			"FAIL\tgithub.com/acme/objx\t60.062s\nFAIL\n",
			"TestSpins", "panic: test timed out after 1m0s"},
		{"go test -json -timeout", `{"Action":"start","Package":"github.com/acme/objx"}
{"Action":"run","Package":"github.com/acme/objx","Test":"TestSpins"}
{"Action":"output","Package":"github.com/acme/objx","Test":"TestSpins","Output":"=== RUN   TestSpins\n"}
{"Action":"output","Package":"github.com/acme/objx","Test":"TestSpins","Output":"panic: test timed out after 5s\n"}
{"Action":"output","Package":"github.com/acme/objx","Test":"TestSpins","Output":"\trunning tests:\n"}
{"Action":"output","Package":"github.com/acme/objx","Test":"TestSpins","Output":"\t\tTestSpins (5s)\n"}
{"Action":"output","Package":"github.com/acme/objx","Output":"FAIL\tgithub.com/acme/objx\t5.035s\n"}
{"Action":"fail","Package":"github.com/acme/objx","Elapsed":5.035}
`, "TestSpins", "panic: test timed out after 5s"},
		{"go test -json quicktest", jsonOut("TestToStringE",
			"=== RUN   TestToStringE\n",
			"    cast_test.go:284: \n",
			"        error:\n",
			"          values are not equal\n",
			"        got:\n",
			"          \"8.3100004196167\"\n",
			"        want:\n",
			"          \"8.31\"\n",
			"        stack:\n",
			"          /p/cast_test.go:284\n",
			"--- FAIL: TestToStringE (0.00s)\n"),
			"TestToStringE", `values are not equal got: "8.3100004196167" want: "8.31"`},
		{"go test -json testify", jsonOut("TestMock",
			"=== RUN   TestMock\n",
			"    mock_test.go:882: \n",
			"        \tError Trace:\t/p/mock_test.go:882\n",
			"        \tError:      \tNot equal: \n",
			"        \t            \texpected: 2\n",
			"        \t            \tactual  : 3\n",
			"        \tTest:       \tTestMock\n",
			"--- FAIL: TestMock (0.00s)\n"),
			"TestMock", "Not equal: expected: 2 actual : 3"},
		{"pytest --doctest-modules", `============================= test session starts ==============================
collected 3 items

toolz/itertoolz.py F.                                                    [ 66%]
toolz/tests/test_itertoolz.py .                                          [100%]

=================================== FAILURES ===================================
_____________________ [doctest] toolz.itertoolz.interpose ______________________
527  Introduce element between each pair of elements in seq
528 
529     >>> list(interpose("a", [1, 2, 3]))
Expected:
    [1, 'a', 2, 'a', 3]
Got:
    ['a', 1, 'a', 2, 'a', 3]

/p/toolz/itertoolz.py:529: DocTestFailure
=========================== short test summary info ============================
FAILED toolz/itertoolz.py::toolz.itertoolz.interpose
========================= 1 failed, 2 passed in 0.68s ==========================
`, "toolz/itertoolz.py::toolz.itertoolz.interpose", "Expected: [1, 'a', 2, 'a', 3] Got: ['a', 1, 'a', 2, 'a', 3]"},
		// --tb=native prints no E line; the short summary cuts the message.
		{"pytest --tb=native", `=================================== FAILURES ===================================
___________________________________ test_get ___________________________________
Traceback (most recent call last):
  File "/p/toolz/tests/test_itertoolz.py", line 188, in test_get
    assert get([0], 'AB') == ('A',)
AssertionError: assert 'A' == ('A',)
 +  where 'A' = get([0], 'AB')
=========================== short test summary info ============================
FAILED toolz/tests/test_itertoolz.py::test_get - AssertionError: assert 'A' =...
========================= 1 failed, 179 passed in 8.56s =========================
`, "toolz/tests/test_itertoolz.py::test_get", "AssertionError: assert 'A' == ('A',)"},
		{"pytest strict xpass", `=================================== FAILURES ===================================
______________________________ test_xpass_strict _______________________________
[XPASS(strict)] 
=========================== short test summary info ============================
FAILED test_a.py::test_xpass_strict
========================= 1 failed in 0.10s =========================
`, "test_a.py::test_xpass_strict", "[XPASS(strict)]"},
		{"pytest-xdist worker crash", `=================================== FAILURES ===================================
________________________________ test_crash.py _________________________________
[gw0] linux -- Python 3.11.2 /usr/bin/python3
worker 'gw0' crashed while running 'test_crash.py::test_crash'
=========================== short test summary info ============================
FAILED test_crash.py::test_crash
========================= 1 failed, 1 passed in 6.43s ==========================
`, "test_crash.py::test_crash", "worker 'gw0' crashed while running 'test_crash.py::test_crash'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := scanBytes(t, []byte(c.log))
			f := findFailure(s, c.test)
			if f == nil {
				t.Fatalf("no failure %q in %+v", c.test, s.Failures)
			}
			if f.Message != c.want {
				t.Errorf("message = %q, want %q", f.Message, c.want)
			}
		})
	}
}

// TestGoFuzzFailureOnce: go test -fuzz prints a failing target's verdict
// twice, the second indented under the first; that is one failed test. A
// test run twice prints two unindented verdicts: two failures.
func TestGoFuzzFailureOnce(t *testing.T) {
	for _, c := range []struct {
		name, log string
		failed    int
	}{
		{"fuzz", "fuzz: elapsed: 0s, gathering baseline coverage: 0/1 completed\n" +
			"--- FAIL: FuzzRev (0.02s)\n    --- FAIL: FuzzRev (0.00s)\n        gx_test.go:15: Rev(\"\\xcb\") is not valid UTF-8\n    \n" +
			"    Failing input written to testdata/fuzz/FuzzRev/266bf67606c7d9f9\n    To re-run:\n    go test -run=FuzzRev/266bf67606c7d9f9\n" +
			"FAIL\nexit status 1\nFAIL\texample.com/gx\t0.027s\n", 1},
		{"count=2", "--- FAIL: FuzzRev (0.00s)\n    gx_test.go:15: Rev(\"\\xcb\") is not valid UTF-8\n" +
			"--- FAIL: FuzzRev (0.00s)\n    gx_test.go:15: Rev(\"\\xcb\") is not valid UTF-8\nFAIL\nFAIL\texample.com/gx\t0.027s\n", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := scanBytes(t, []byte(c.log))
			if num(s.Failed) != c.failed {
				t.Errorf("failed = %d, want %d", num(s.Failed), c.failed)
			}
			f := findFailure(s, "FuzzRev")
			if f == nil || f.File != "gx_test.go" || f.Line != 15 || f.Message != `Rev("\xcb") is not valid UTF-8` {
				t.Errorf("failure = %+v, want FuzzRev at gx_test.go:15 with its message", f)
			}
		})
	}
}
