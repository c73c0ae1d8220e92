package runners

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"testing"
)

// fuzzParser checks, for any prefix the fuzzer makes, the invariants every
// parser must keep:
//   - Scan never panics, Verify accepts what Scan returns for the same bytes,
//     and Check returns the same and verifies it;
//   - coalescing the spans into covering ranges changes no count or name,
//     and Verify accepts those ranges too;
//   - after the prefix, a complete failing result block of the runner (the
//     runner's last attempt) always leaves a failure or error in the
//     summary: a failure marker the parser recognises never becomes a pass.
func fuzzParser(f *testing.F, failing string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(failing))
	f.Add([]byte("\x1b[31m" + failing))
	f.Fuzz(func(t *testing.T, prefix []byte) {
		checkVerifies(t, prefix)
		// Blank lines end whatever the prefix left half-read (an unfinished
		// mocha title, a line without its newline).
		log := append(append(append([]byte{}, prefix...), "\n\n"...), failing...)
		s := checkVerifies(t, log)
		if s.Source == SourceNone || s.Failed == nil || s.Errors == nil || *s.Failed+*s.Errors == 0 {
			t.Fatalf("failing block after %q read as %+v", prefix, s)
		}
	})
}

func checkVerifies(t *testing.T, log []byte) *Summary {
	t.Helper()
	s, err := Scan(bytes.NewReader(log))
	if err != nil {
		t.Fatalf("scan: %v", err)
	}
	if s.Source != SourceNone {
		if err := Verify(bytes.NewReader(log), int64(len(log)), s); err != nil {
			t.Fatalf("Verify rejects Scan's own result on %q: %v", log, err)
		}
	}
	c, err := Check(bytes.NewReader(log), int64(len(log)))
	if err != nil || c.Unverified != nil || !sameJSON(c.Summary, s) {
		t.Fatalf("Check on %q: %v, unverified %v, %+v, want %+v", log, err, c.Unverified, c.Summary, s)
	}
	checkFailureSpans(t, s, int64(len(log)))
	checkCoalesced(t, log)
	checkFastPath(t, log, s)
	return s
}

// checkFastPath: skipping the lines wants rejects and reading the common go
// lines on the fast path give exactly what every parser reading every line
// with its regexps gives, file:line output and spans included.
func checkFastPath(t *testing.T, log []byte, fast *Summary) {
	t.Helper()
	noFast = true
	slow, err := Scan(bytes.NewReader(log))
	noFast = false
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(fast)
	b, _ := json.Marshal(slow)
	if !bytes.Equal(a, b) {
		t.Fatalf("fast path reads %q as\n%s\nthe regexps as\n%s", log, a, b)
	}
}

func sample(f *testing.F, name string) string {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		f.Fatal(err)
	}
	return string(b)
}

func FuzzScan(f *testing.F) {
	for _, name := range []string{"jest-fail.log", "mocha-fail.log", "gotestsum-fail.log", "surefire-multimodule.log", "surefire-color.log", "gradle-fail.log"} {
		f.Add([]byte(sample(f, name)))
	}
	f.Add([]byte("=== 1 failed, 2 passed in 0.1s ===\n# tests 2\n# fail 1\nℹ tests 1\n"))
	// An open mocha title takes an empty line: the go fast path must not.
	f.Add([]byte("0 passing (0s)\n0 failing\n1) 00\n "))
	// Fast-path shapes next to the lines that must take the general path.
	f.Add([]byte("=== RUN   TestA\n--- PASS: TestA (0.00s)\n--- SKIP: TestB (0.00s)\n=== RUN   T=\n" +
		"--- PASS: T (0.00s) FAILED\n=== NAME\tTestC\n--- PASS: TestD\t(0.00s)\nok  \tp\t0.1s\n"))
	f.Fuzz(func(t *testing.T, log []byte) { checkVerifies(t, log) })
}

func FuzzGo(f *testing.F) {
	fuzzParser(f, "=== RUN   TestX\n    x_test.go:3: boom\n--- FAIL: TestX (0.00s)\nFAIL\nFAIL\texample.com/x\t0.01s\n",
		"ok  \texample.com/x\t0.01s\n--- PASS: TestA (0.00s)\n",
		`{"Action":"pass","Package":"p","Test":"TestA"}`+"\n"+`{"Action":"fail","Package":"p"}`+"\n",
		"FAIL\texample.com/x [build failed]\n")
}

func FuzzGoJSON(f *testing.F) {
	fuzzParser(f, `{"Action":"fail","Package":"example.com/x","Test":"TestX","Elapsed":0}`+"\n"+`{"Action":"fail","Package":"example.com/x","Elapsed":0.1}`+"\n",
		`{"Action":"output","Package":"p","Test":"TestA","Output":"    a_test.go:1: x\n"}`+"\n")
}

func FuzzGotestsum(f *testing.F) {
	fuzzParser(f, "=== FAIL: . TestX (0.00s)\n\nDONE 3 tests, 1 failure in 0.01s\n", sample(f, "gotestsum-fail.log"))
}

func FuzzPytest(f *testing.F) {
	fuzzParser(f, "FAILED test_x.py::test_x - assert 1 == 2\n========= 1 failed, 1 passed in 0.02s =========\n",
		"==== 3 passed in 0.01s ====\n", "1 passed, 1 error in 0.1s\n",
		"t.py::a RERUN    [ 50%]\nt.py::a PASSED    [ 50%]\nt.py::b[x y] SKIPPED (no)   [100%]\n==== 1 passed, 1 skipped, 1 rerun in 0.1s ====\n",
		"[gw0] [ 50%] RERUN t.py::a \n[gw1] [ 50%] PASSED t.py::b \n[gw0] [100%] PASSED t.py::a \n==== 2 passed, 1 rerun in 0.1s ====\n",
		"____ test_a ____\nTraceback (most recent call last):\n  File \"/x/t.py\", line 3, in test_a\n    assert f() == 1\nAssertionError: assert 2 == 1\n"+
			"FAILED t.py::test_a - AssertionError: assert 2...\n==== 1 failed in 0.1s ====\n",
		"____ t.py ____\nworker 'gw0' crashed while running 't.py::test_c'\nFAILED t.py::test_c\n==== 1 failed in 0.1s ====\n")
}

func FuzzCargo(f *testing.F) {
	fuzzParser(f, "     Running unittests src/lib.rs (target/debug/deps/x-1)\ntest t::a ... FAILED\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
		"test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n")
}

func FuzzTAP(f *testing.F) {
	fuzzParser(f, "not ok 1 - adds\n# tests 2\n# pass 1\n# fail 1\n# duration_ms 3\n", "# tests 2\n# pass 2\n")
}

func FuzzNodeSpec(f *testing.F) {
	fuzzParser(f, "✖ adds (1.2ms)\nℹ tests 2\nℹ pass 1\nℹ fail 1\nℹ duration_ms 3\n", "ℹ tests 2\nℹ pass 2\n")
}

func FuzzJest(f *testing.F) {
	fuzzParser(f, "  ● calc › adds\nTest Suites: 1 failed, 1 total\nTests:       1 failed, 1 passed, 2 total\n",
		sample(f, "jest-fail.log"), sample(f, "jest-workspaces.log"))
}

func FuzzMocha(f *testing.F) {
	fuzzParser(f, "  1 passing (3ms)\n  1 failing\n\n  1) suite\n       fails:\n", sample(f, "mocha-fail.log"))
}

func FuzzAva(f *testing.F) {
	fuzzParser(f, "  ✘ [fail]: a fails sum\n  ─\n\n  a fails\n\n  test.js:3\n\n  sum\n\n  ─\n\n  1 test failed\n",
		"  ✔ one\n  ─\n\n  1 test passed\n  1 test skipped\n", "  ✖ b Error thrown in test\n  ─\n  b\n  ─\n  1 test failed\n  1 known failure\n")
}

func FuzzSurefire(f *testing.F) {
	fuzzParser(f, "[ERROR]   CalcTest.adds:3 expected\n[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0\n",
		"[ERROR] adds(com.x.CalcTest)  Time elapsed: 0 s  <<< FAILURE!\njava.lang.AssertionError: \n\nExpected: 1\n\tat com.x.CalcTest.adds(CalcTest.java:3)\n\n"+
			"[ERROR] Failures: \n[ERROR]   CalcTest.adds:3 \nExpected: 1\n[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0\n",
		sample(f, "surefire-multimodule.log"), sample(f, "surefire-junit5-fail.log"), sample(f, "surefire-rerun-fail.log"), sample(f, "surefire-reactor-fail.log"))
}

func FuzzGradle(f *testing.F) {
	fuzzParser(f, "CalcTest > adds() FAILED\n2 tests completed, 1 failed\n", sample(f, "gradle-fail.log"))
}

// goFileLine is the regexp parseGoFileLine replaces, kept as its
// reference.
var goFileLine = regexp.MustCompile(`^\s+([\w./-]+\.go):(\d+): ?(.*)$`)

// FuzzParseGoFileLine: the hand-written matcher agrees with the regexp it
// replaces on every input.
func FuzzParseGoFileLine(f *testing.F) {
	for _, s := range []string{"    a_test.go:12: boom", "\tx/y.go:3:msg", "  a.go:1: ", "a.go:1: x", "  .go:1: x",
		"  a.go:x: y", "  a.go:12:", "  a.go:12: two\nlines", "  a-b/c_d.go:7:  spaced", " x.gox.go:1: y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		file, ln, msg, ok := parseGoFileLine(s)
		m := goFileLine.FindStringSubmatch(s)
		if ok != (m != nil) {
			t.Fatalf("parseGoFileLine(%q) ok=%v, regexp matched=%v", s, ok, m != nil)
		}
		if ok && (file != m[1] || ln != m[2] || msg != m[3]) {
			t.Fatalf("parseGoFileLine(%q) = %q %q %q, regexp %q %q %q", s, file, ln, msg, m[1], m[2], m[3])
		}
	})
}
