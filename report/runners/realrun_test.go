package runners

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// writeFiles writes a fixture project: path → content.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runTool runs a real runner and returns its combined output, which is
// expected to report failures, so a non-zero exit is not an error here.
func runTool(t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed here: %v", name, err)
	}
	cmd := exec.Command(path, args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("run %s: %v", name, err)
	}
	return out
}

// scanBytes scans a log written to a file, as the run store holds it, and
// checks that Verify reproduces the result from the file.
func scanBytes(t *testing.T, log []byte) *Summary {
	t.Helper()
	p := filepath.Join(t.TempDir(), "output.log")
	if err := os.WriteFile(p, log, 0o644); err != nil {
		t.Fatal(err)
	}
	return scanFile(t, p)
}

type want struct {
	source                                 string
	tests, passed, failed, skipped, errors int // -1: unknown (nil)
	failures                               []string
	flaky                                  []string
	runs                                   int
}

func check(t *testing.T, s *Summary, w want, log []byte) {
	t.Helper()
	got := want{source: s.Source, tests: num(s.Tests), passed: num(s.Passed), failed: num(s.Failed),
		skipped: num(s.Skipped), errors: num(s.Errors), runs: s.Runs}
	for _, f := range s.Failures {
		got.failures = append(got.failures, f.Name)
	}
	for _, f := range s.Flaky {
		got.flaky = append(got.flaky, f.Name)
	}
	if g, e := strings.Join(got.failures, ","), strings.Join(w.failures, ","); g != e {
		t.Errorf("failures = %s, want %s", g, e)
	}
	if g, e := strings.Join(got.flaky, ","), strings.Join(w.flaky, ","); g != e {
		t.Errorf("flaky = %s, want %s", g, e)
	}
	got.failures, got.flaky, w.failures, w.flaky = nil, nil, nil, nil
	if got.source != w.source || got.tests != w.tests || got.passed != w.passed || got.failed != w.failed ||
		got.skipped != w.skipped || got.errors != w.errors || got.runs != w.runs {
		t.Errorf("summary = %+v, want %+v\nlog:\n%s", got, w, log)
	}
}

func num(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

var goFixture = map[string]string{
	"go.mod": "module example.com/fix\n\ngo 1.22\n",
	"fix/fix_test.go": `package fix

import "testing"

func TestPass(t *testing.T) {}

func TestFail(t *testing.T) {
	t.Errorf("want 1, got 2")
}

func TestSkip(t *testing.T) { t.Skip("not today") }

func TestSub(t *testing.T) {
	t.Run("ok", func(t *testing.T) {})
	t.Run("bad", func(t *testing.T) { t.Error("sub broke") })
}

func TestLogsThenFails(t *testing.T) {
	for i := 0; i < 12; i++ {
		t.Logf("line %02d SKU-%05d qty=25", i, i)
	}
	t.Errorf("Total(350 units) = %d, want %d", 350000, 297500)
	t.Log("cleanup done")
}

// TestLabelled fails as testify's assert.Equal reports: an empty first
// line, then labelled fields.
func TestLabelled(t *testing.T) {
	t.Errorf("\n\tError Trace:\t/src/fix/fix_test.go:37\n\tError:      \tNot equal: \n\t            \texpected: 2\n\t            \tactual  : 3\n\tTest:       \tTestLabelled")
}
`,
	"good/good_test.go":     "package good\n\nimport \"testing\"\n\nfunc TestGood(t *testing.T) {}\n",
	"panicky/panic_test.go": "package panicky\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {}\n\nfunc TestPanic(t *testing.T) { panic(\"boom\") }\n",
	"broken/broken.go":      "package broken\n\nfunc F() int { return \"x\" }\n",
	"broken/broken_test.go": "package broken\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n",
	"notests/doc.go":        "package notests\n",
}

// TestGoReal runs go test on a module with passing, failing, skipping,
// panicking, subtest and non-building packages, in each output mode.
func TestGoReal(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, goFixture)
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local"}
	// -json reports a subtest before its parent, the text output after it.
	fails := []string{"example.com/fix/broken", "TestFail", "TestSub", "TestSub/bad", "TestLogsThenFails", "TestLabelled", "TestPanic"}
	jsonFails := []string{"example.com/fix/broken", "TestFail", "TestSub/bad", "TestSub", "TestLogsThenFails", "TestLabelled", "TestPanic"}
	cases := []struct {
		name string
		args []string
		want want
	}{
		{"plain", []string{"test", "-count=1", "./..."},
			want{"go", -1, -1, 6, -1, 1, fails, nil, 4}},
		{"verbose", []string{"test", "-count=1", "-v", "./..."},
			want{"go", 11, 4, 6, 1, 1, fails, nil, 4}},
		{"json", []string{"test", "-count=1", "-json", "./..."},
			want{"go", 11, 4, 6, 1, 1, jsonFails, nil, 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log := runTool(t, dir, env, "go", c.args...)
			s := scanBytes(t, log)
			check(t, s, c.want, log)
			if f := findFailure(s, "TestFail"); f == nil || f.File != "fix_test.go" || f.Line != 8 {
				t.Errorf("TestFail location = %+v, want fix_test.go:8", f)
			}
			// The message is the assertion, not the first or last log line.
			if f := findFailure(s, "TestLogsThenFails"); f == nil || f.Line != 22 ||
				f.Message != "Total(350 units) = 350000, want 297500" {
				t.Errorf("TestLogsThenFails = %+v, want its assertion at fix_test.go:22", f)
			}
			if f := findFailure(s, "TestLabelled"); c.name != "json" && (f == nil || f.Message != "Not equal: expected: 2 actual : 3") {
				t.Errorf("TestLabelled = %+v, want testify's fields as the message", f)
			}
			if f := findFailure(s, "TestPanic"); c.name != "json" && (f == nil || !strings.HasPrefix(f.Message, "panic: boom")) {
				t.Errorf("TestPanic = %+v, want its panic as the message", f)
			}
			// Its place is the test's frame in the trace under the panic.
			if f := findFailure(s, "TestPanic"); f == nil || f.File != filepath.Join(dir, "panicky", "panic_test.go") || f.Line != 7 {
				t.Errorf("TestPanic = %+v, want its place panicky/panic_test.go:7 from the trace", f)
			}
		})
	}
}

// TestGotestsumReal runs the same module under gotestsum, whose failed
// tests' sections repeat their output after the run: each message must be
// the assertion there too, not the section's first t.Log line.
func TestGotestsumReal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gotestsum from the module proxy")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("go is not installed here: %v", err)
	}
	dir, bin := t.TempDir(), t.TempDir()
	writeFiles(t, dir, goFixture)
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local"}
	install := exec.Command(goTool, "install", "gotest.tools/gotestsum@v1.13.0")
	install.Env = append(os.Environ(), append(env, "GOBIN="+bin)...)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install gotestsum: %v\n%s", err, out)
	}
	for _, format := range []string{"testname", "standard-verbose"} {
		t.Run(format, func(t *testing.T) {
			log := runTool(t, dir, env, filepath.Join(bin, "gotestsum"), "--format", format, "--", "-count=1", "./...")
			s := scanBytes(t, log)
			if s.Source != "gotestsum" {
				t.Fatalf("source = %q, want gotestsum\nlog:\n%s", s.Source, log)
			}
			for name, want := range map[string]string{
				"TestFail":          "fix_test.go:8: want 1, got 2",
				"TestLogsThenFails": "fix_test.go:22: Total(350 units) = 350000, want 297500",
				"TestLabelled":      "fix_test.go:29: Not equal: expected: 2 actual : 3",
				"TestSub/bad":       "fix_test.go:15: sub broke",
			} {
				f := findFailure(s, name)
				if f == nil {
					t.Errorf("%s: not among the failures %+v", name, s.Failures)
					continue
				}
				if got := fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Message); got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
		})
	}
}

// TestGoExampleReal runs a failing Example: go test prints what it got
// and what its comment wanted under its --- FAIL line, with no file:line
// line, so that is its message, in every output mode.
func TestGoExampleReal(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/ex\n\ngo 1.22\n",
		"ex_test.go": `package ex

import (
	"fmt"
	"testing"
)

func TestFirst(t *testing.T) {}

func Example_greet() {
	fmt.Println("hello bob")
	fmt.Println("second")
	// Output:
	// hi bob
	// second
}

func Example_ok() {
	fmt.Println("fine")
	// Output: fine
}
`,
	})
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local"}
	for _, mode := range []string{"", "-v", "-json"} {
		t.Run("mode"+mode, func(t *testing.T) {
			args := []string{"test", "-count=1", "./..."}
			if mode != "" {
				args = append(args, mode)
			}
			log := runTool(t, dir, env, "go", args...)
			s := scanBytes(t, log)
			f := findFailure(s, "Example_greet")
			if len(s.Failures) != 1 || f == nil || f.Message != "got: hello bob second want: hi bob second" {
				t.Errorf("failures = %+v, want Example_greet with its got and want\nlog:\n%s", s.Failures, log)
			}
		})
	}
}

// TestGoRaceReal runs a test the race detector catches: testing prints
// only `testing.go:N: race detected during execution of test`, so the
// message is the report's two accesses and the place its test frame.
func TestGoRaceReal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with -race")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/racy\n\ngo 1.22\n",
		"racy_test.go": `package racy

import (
	"sync"
	"testing"
)

func TestOK(t *testing.T) {}

func TestRacy(t *testing.T) {
	x := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); x++ }()
	go func() { defer wg.Done(); x++ }()
	wg.Wait()
	_ = x
}
`,
	})
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "CGO_ENABLED=1"}
	for _, mode := range []string{"", "-v", "-json"} {
		t.Run("mode"+mode, func(t *testing.T) {
			args := []string{"test", "-race", "-count=1", "./..."}
			if mode != "" {
				args = append(args, mode)
			}
			log := runTool(t, dir, env, "go", args...)
			s := scanBytes(t, log)
			f := findFailure(s, "TestRacy")
			if f == nil {
				t.Fatalf("no TestRacy among the failures %+v\nlog:\n%s", s.Failures, log)
			}
			// Which goroutine runs first varies: either is the access.
			want := regexp.MustCompile(`^data race: (Read|Write) racy_test\.go:(14|15) in TestRacy\.func[12]; Previous (read|write) racy_test\.go:(14|15) in TestRacy\.func[12]$`)
			if !want.MatchString(f.Message) || f.File != filepath.Join(dir, "racy_test.go") || f.Line != 14 && f.Line != 15 {
				t.Errorf("TestRacy = %s:%d %q, want racy_test.go:14 or 15 and a message matching %s", f.File, f.Line, f.Message, want)
			}
		})
	}
}

func findFailure(s *Summary, name string) *Failure {
	for i := range s.Failures {
		if s.Failures[i].Name == name {
			return &s.Failures[i]
		}
	}
	return nil
}

// TestGoRetry runs a test that fails once and then passes, twice in one log
// as a retry loop would, and expects it reported as flaky.
func TestGoRetry(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/flaky\n\ngo 1.22\n",
		"flaky_test.go": `package flaky

import (
	"os"
	"testing"
)

func TestFlaky(t *testing.T) {
	marker := os.Getenv("FLAKY_MARKER")
	if _, err := os.Stat(marker); err != nil {
		os.WriteFile(marker, nil, 0o644)
		t.Fatal("first attempt fails")
	}
}

func TestSteady(t *testing.T) {}
`})
	env := []string{"GOWORK=off", "GOTOOLCHAIN=local", "FLAKY_MARKER=" + filepath.Join(dir, "marker")}
	var log []byte
	for range 2 {
		log = append(log, runTool(t, dir, env, "go", "test", "-count=1", "-v", ".")...)
	}
	check(t, scanBytes(t, log), want{"go", 2, 2, 0, 0, 0, nil, []string{"TestFlaky"}, 2}, log)
}

// TestNodeReal runs node --test with its TAP and spec reporters.
func TestNodeReal(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"calc.test.mjs": `import test from 'node:test';
import assert from 'node:assert';

test('adds', () => assert.strictEqual(1 + 1, 2));
test('subtracts wrongly', () => assert.strictEqual(3 - 1, 1));
test('skipped', { skip: true }, () => {});
test('todo', { todo: true }, () => {});
test('group', async (t) => {
  await t.test('inner ok', () => {});
  await t.test('inner bad', () => { throw new Error('inner broke'); });
});
`})
	fails := []string{"subtracts wrongly", "inner bad", "group"}
	for _, c := range []struct{ reporter, source string }{{"tap", "tap"}, {"spec", "node"}} {
		t.Run(c.reporter, func(t *testing.T) {
			log := runTool(t, dir, nil, "node", "--test", "--test-reporter="+c.reporter, "calc.test.mjs")
			check(t, scanBytes(t, log), want{c.source, 7, 2, 3, 2, 0, fails, nil, 1}, log)
		})
	}
}

// TestCargoReal runs cargo test on a dependency-free crate.
func TestCargoReal(t *testing.T) {
	cargo := filepath.Join(os.Getenv("HOME"), ".cargo", "bin", "cargo")
	if _, err := os.Stat(cargo); err != nil {
		if cargo, err = exec.LookPath("cargo"); err != nil {
			t.Skip("cargo is not installed here")
		}
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Cargo.toml": "[package]\nname = \"fix\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
		"src/lib.rs": `/// Adds.
///
/// ` + "```" + `
/// assert_eq!(fix::add(1, 2), 4);
/// ` + "```" + `
pub fn add(a: i32, b: i32) -> i32 { a + b }

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() { assert_eq!(add(1, 1), 2); }

    #[test]
    fn adds_wrongly() {
        assert_eq!(add(1, 1), 3);
    }

    #[test]
    #[ignore]
    fn slow() {}

    #[test]
    #[should_panic]
    fn panics() { panic!("expected"); }
}
`})
	log := runTool(t, dir, []string{"CARGO_TERM_COLOR=always", "RUST_BACKTRACE=0"}, cargo, "test", "--offline", "--no-fail-fast")
	s := scanBytes(t, log)
	check(t, s, want{"cargo", 5, 2, 2, 1, 0, []string{"tests::adds_wrongly", "src/lib.rs - add (line 3)"}, nil, 2}, log)
	if f := findFailure(s, "tests::adds_wrongly"); f == nil || f.File != "src/lib.rs" || f.Line != 17 ||
		f.Message != "assertion `left == right` failed left: 2 right: 3" {
		t.Errorf("failure = %+v, want src/lib.rs:17 with assert_eq!'s left and right", f)
	}
	// A doc test panics in a program of its own, thread main: its place
	// is its example's, from its name.
	if f := findFailure(s, "src/lib.rs - add (line 3)"); f == nil || f.File != "src/lib.rs" || f.Line != 3 ||
		f.Message != "assertion `left == right` failed left: 3 right: 4" {
		t.Errorf("doc test failure = %+v, want src/lib.rs:3 with assert_eq!'s left and right", f)
	}
}

// TestPytestReal runs pytest (Debian python3-pytest) with each outcome.
func TestPytestReal(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		t.Skipf("pytest is not installed for %s: %v", py, err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"test_calc.py": `import pytest

def test_adds():
    assert 1 + 1 == 2

def test_subtracts_wrongly():
    assert 3 - 1 == 1

@pytest.mark.skip(reason="later")
def test_skipped():
    pass

@pytest.mark.xfail
def test_known_bug():
    assert False

@pytest.fixture
def broken():
    raise RuntimeError("fixture broke")

def test_uses_broken(broken):
    pass
`})
	fails := []string{"test_calc.py::test_subtracts_wrongly", "test_calc.py::test_uses_broken"}
	for _, c := range []struct {
		name string
		args []string
	}{{"default", nil}, {"quiet", []string{"-q"}}, {"colour", []string{"--color=yes"}}} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"-m", "pytest", "-p", "no:cacheprovider"}, c.args...)
			log := runTool(t, dir, nil, py, args...)
			check(t, scanBytes(t, log), want{"pytest", 5, 1, 1, 2, 1, fails, nil, 1}, log)
		})
	}
}

// TestNoneForUnknown: output of a framework the package does not know, even
// all green, yields no counts.
func TestNoneForUnknown(t *testing.T) {
	log := runTool(t, t.TempDir(), nil, "sh", "-c", `printf 'running 3 checks\n✓ one\n✓ two\nOK\nAll good!\n'`)
	s := scanBytes(t, log)
	if s.Source != SourceNone || s.Tests != nil || s.Passed != nil || s.Failed != nil || len(s.Spans) != 0 {
		t.Errorf("unknown framework: %+v", s)
	}
	if err := Verify(bytes.NewReader(log), int64(len(log)), s); err == nil {
		t.Error("Verify accepted a summary with no source")
	}
}

// TestPytestRetry runs pytest twice in one log, as a retry loop would, on a
// test that fails once and then passes.
func TestPytestRetry(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		t.Skipf("pytest is not installed for %s: %v", py, err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"test_flaky.py": `import os

def test_flaky():
    marker = os.environ["FLAKY_MARKER"]
    if not os.path.exists(marker):
        open(marker, "w").close()
        assert False, "first attempt fails"

def test_steady():
    pass
`})
	env := []string{"FLAKY_MARKER=" + filepath.Join(dir, "marker")}
	var log []byte
	for range 2 {
		log = append(log, runTool(t, dir, env, py, "-m", "pytest", "-p", "no:cacheprovider")...)
	}
	check(t, scanBytes(t, log), want{"pytest", 2, 2, 0, 0, 0, nil, []string{"test_flaky.py::test_flaky"}, 2}, log)
}

// TestNodeRetry runs node --test twice in one log with each reporter; the
// spec reporter repeats failures after its totals, which must stay with the
// first run.
func TestNodeRetry(t *testing.T) {
	for _, c := range []struct{ reporter, source string }{{"tap", "tap"}, {"spec", "node"}} {
		t.Run(c.reporter, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"flaky.test.mjs": `import test from 'node:test';
import fs from 'node:fs';

test('steady', () => {});
test('flaky', () => {
  if (!fs.existsSync(process.env.FLAKY_MARKER)) {
    fs.writeFileSync(process.env.FLAKY_MARKER, '');
    throw new Error('first attempt fails');
  }
});
`})
			env := []string{"FLAKY_MARKER=" + filepath.Join(dir, "marker")}
			var log []byte
			for range 2 {
				log = append(log, runTool(t, dir, env, "node", "--test", "--test-reporter="+c.reporter, "flaky.test.mjs")...)
			}
			check(t, scanBytes(t, log), want{c.source, 2, 2, 0, 0, 0, nil, []string{"flaky"}, 2}, log)
		})
	}
}

// TestPytestTwoSuites: two different suites run one after the other in one
// log are summed; the passing second one does not hide the first's failure.
func TestPytestTwoSuites(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		t.Skipf("pytest is not installed for %s: %v", py, err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"unit/test_a.py":        "def test_ok():\n    pass\n\ndef test_bad():\n    assert 1 == 2\n",
		"integration/test_b.py": "def test_one():\n    pass\n\ndef test_two():\n    pass\n\ndef test_three():\n    pass\n",
	})
	var log []byte
	for _, suite := range []string{"unit", "integration"} {
		log = append(log, runTool(t, dir, nil, py, "-m", "pytest", "-p", "no:cacheprovider", suite)...)
	}
	check(t, scanBytes(t, log), want{"pytest", 5, 4, 1, 0, 0, []string{"unit/test_a.py::test_bad"}, nil, 2}, log)
}

// TestPytestCutMessage: pytest cuts the short summary's message to the
// terminal's width; the failure's message is then its first `E` line.
func TestPytestCutMessage(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		t.Skipf("pytest is not installed for %s: %v", py, err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"test_stock.py": `import pytest

class OutOfStock(Exception):
    pass

def take(n, left):
    if n > left:
        raise OutOfStock("cannot take %d pears from the crate of the north warehouse: only %d left" % (n, left))

@pytest.mark.parametrize("n", [1, 5])
def test_take(n):
    take(n, 3)
`})
	// --tb=native prints no E line: the traceback's exception line says it.
	for _, tb := range []string{"--tb=long", "--tb=short", "--tb=native"} {
		t.Run(tb, func(t *testing.T) {
			log := runTool(t, dir, []string{"COLUMNS=80"}, py, "-m", "pytest", "-p", "no:cacheprovider", tb)
			s := scanBytes(t, log)
			check(t, s, want{"pytest", 2, 1, 1, 0, 0, []string{"test_stock.py::test_take[5]"}, nil, 1}, log)
			const full = "test_stock.OutOfStock: cannot take 5 pears from the crate of the north warehouse: only 3 left"
			if f := findFailure(s, "test_stock.py::test_take[5]"); f == nil || f.Message != full || f.Line != 12 {
				t.Errorf("failure = %+v, want the message %q at line 12\nlog:\n%s", f, full, log)
			}
		})
	}
}
