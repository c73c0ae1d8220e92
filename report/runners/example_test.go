package runners_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/runledger/runledger/report/runners"
)

// A `go test -v ./...` log (real output, shortened): counts come from the
// --- lines and package lines, a package that did not build is an error,
// and each failure keeps its file:line and the byte range of its line.
func ExampleScan() {
	log := "# example.com/fix/broken [example.com/fix/broken.test]\n" +
		"broken/broken.go:3:23: cannot use \"x\" (untyped string constant) as int value in return statement\n" +
		"FAIL\texample.com/fix/broken [build failed]\n" +
		"=== RUN   TestPass\n" +
		"--- PASS: TestPass (0.00s)\n" +
		"=== RUN   TestFail\n" +
		"    fix_test.go:8: want 1, got 2\n" +
		"--- FAIL: TestFail (0.00s)\n" +
		"FAIL\n" +
		"FAIL\texample.com/fix/fix\t0.008s\n"
	s, err := runners.Scan(strings.NewReader(log))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d tests, %d passed, %d failed, %d errors in %d runs\n",
		s.Source, *s.Tests, *s.Passed, *s.Failed, *s.Errors, s.Runs)
	for _, f := range s.Failures {
		fmt.Printf("%s %s %s:%d bytes [%d,%d)\n", f.Classname, f.Name, f.File, f.Line, f.Span.Start, f.Span.End)
	}
	// Output:
	// go: 2 tests, 1 passed, 1 failed, 1 errors in 2 runs
	// example.com/fix/broken example.com/fix/broken :0 bytes [152,195)
	// example.com/fix/fix TestFail fix_test.go:8 bytes [293,320)
}

// Green lines of a framework the package does not know give no counts.
func ExampleScan_unknown() {
	s, _ := runners.Scan(strings.NewReader("✓ parses\n✓ renders\nOK\n"))
	fmt.Println(s.Source, s.Tests == nil, s.Passed == nil)
	// Output: none true true
}

// A retry loop: the test that failed in the first attempt and passed in the
// second is flaky; the counts follow the last attempt.
func ExampleScan_retry() {
	attempt1 := "--- FAIL: TestNet (0.00s)\n--- PASS: TestParse (0.00s)\nFAIL\nFAIL\texample.com/net\t0.01s\n"
	attempt2 := "--- PASS: TestNet (0.00s)\n--- PASS: TestParse (0.00s)\nPASS\nok  \texample.com/net\t0.01s\n"
	s, _ := runners.Scan(strings.NewReader(attempt1 + attempt2))
	fmt.Printf("passed %d, failed %d, runs %d, superseded %d, flaky %v\n",
		*s.Passed, *s.Failed, s.Runs, s.Superseded, s.Flaky)
	// Output: passed 2, failed 0, runs 2, superseded 1, flaky [{TestNet example.com/net}]
}

// Verify re-reads the recorded byte ranges of the stored log: a log that was
// changed after the scan no longer reproduces the summary.
func ExampleVerify() {
	dir, _ := os.MkdirTemp("", "verify")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "output.log")
	log := "collected 3 items\n\nFAILED test_x.py::test_b - assert 1 == 2\n==== 1 failed, 2 passed in 0.02s ====\n"
	os.WriteFile(path, []byte(log), 0o644)
	s, _ := runners.Scan(strings.NewReader(log))

	f, _ := os.Open(path)
	fmt.Println("stored log:", runners.Verify(f, int64(len(log)), s))
	f.Close()

	os.WriteFile(path, []byte(strings.Replace(log, "1 failed, 2 passed", "0 failed, 3 passed", 1)), 0o644)
	f, _ = os.Open(path)
	fmt.Println("edited log:", runners.Verify(f, int64(len(log)), s))
	f.Close()
	// Output:
	// stored log: <nil>
	// edited log: verify: passed: summary says 2, the recorded lines say 3
}
