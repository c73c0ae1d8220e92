package runners

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/golden"
)

// TestPlaywrightSamples reads the real Playwright Test runs in
// testdata/playwright (gen-samples.sh), checks that each verifies, and
// compares each summary with its golden file.
func TestPlaywrightSamples(t *testing.T) {
	logs, err := filepath.Glob("testdata/playwright/*.log")
	if err != nil || len(logs) < 5 {
		t.Fatalf("want the 5 samples gen-samples.sh writes, have %d: %v", len(logs), err)
	}
	for _, path := range logs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s := scanFile(t, path)
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, strings.TrimSuffix(path, ".log")+".golden.json", buf.Bytes())
		})
	}
}

// TestPlaywrightSummary states what the goldens hold for each sample: the
// totals, the failing tests by name with their file:line and message, the
// retried tests that passed as flaky.
func TestPlaywrightSummary(t *testing.T) {
	fails := []string{"strings", "multiplies", "parser › reads an object", "parser › throws its own error"}
	for _, c := range []struct {
		sample string
		want   want
	}{
		{"list-fail", want{"playwright", 7, 1, 5, 1, 0, append([]string{"passes on retry"}, fails...), nil, 1}},
		{"list-retries", want{"playwright", 7, 2, 4, 1, 0, fails, []string{"passes on retry"}, 1}},
		{"line-retries", want{"playwright", 7, 2, 4, 1, 0, fails, []string{"passes on retry"}, 1}},
		{"line-pass", want{"playwright", 1, 1, 0, 0, 0, nil, nil, 1}},
		// --max-failures=2 stops the run: 12 tests did not run, and the
		// stop is an error that was not a part of any test.
		{"list-projects-maxfail", want{"playwright", 14, 0, 2, 12, 1, []string{"passes on retry", "strings"}, nil, 1}},
	} {
		t.Run(c.sample, func(t *testing.T) {
			path := filepath.Join("testdata", "playwright", c.sample+".log")
			log, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s := scanFile(t, path)
			check(t, s, c.want, log)
			if f := findFailure(s, "multiplies"); f != nil {
				got := f.File + ":" + strconv.Itoa(f.Line) + ": " + f.Message
				if w := "tests/math.spec.js:8: Error: expect(received).toBe(expected) // Object.is equality; Expected: 7; Received: 6"; got != w {
					t.Errorf("multiplies = %q, want %q", got, w)
				}
			}
		})
	}
	s := scanFile(t, filepath.Join("testdata", "playwright", "list-projects-maxfail.log"))
	if f := findFailure(s, "strings"); f == nil || f.Classname != "[api] › tests/flaky.spec.js" {
		t.Errorf("a project's test: %+v, want classname [api] › tests/flaky.spec.js", f)
	}
	if !strings.Contains(s.Note, "12 tests did not run") || !strings.Contains(s.Note, "1 errors were not a part of any test") {
		t.Errorf("note = %q, want it to say what did not run and the error outside the tests", s.Note)
	}
}

// TestPlaywrightLogs: Playwright's shapes without running it, and lines
// that look like its summary in other programs' output.
func TestPlaywrightLogs(t *testing.T) {
	const banner = "Running 3 tests using 1 worker\n\n"
	for _, c := range []struct {
		name, log string
		want      want
	}{
		{"a summary with no banner is no run", "  3 passed (1.2s)\n",
			want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
		{"all skipped: no passed line",
			banner + "  -  1 a.spec.ts:1:1 › one\n\n  3 skipped\n",
			want{"playwright", 3, 0, 0, 3, 0, nil, nil, 1}},
		{"a retry loop runs the suite again: the last run counts, the earlier failure is flaky",
			banner + "  1 failed\n    a.spec.ts:3:5 › adds ─────\n  2 passed (1.0s)\n" + banner + "  3 passed (0.9s)\n",
			want{"playwright", 3, 3, 0, 0, 0, nil, []string{"adds"}, 2}},
		{"a summary ends at the first other line: a count after it, with no banner, is no run's",
			banner + "  1 failed\n    a.spec.ts:3:5 › adds ─────\nnpm ERR! Test failed.\n  3 passed (2s)\n",
			want{"playwright", 1, 0, 1, 0, 0, []string{"adds"}, nil, 1}},
		{"an interrupted run", banner + "  1 interrupted\n    a.spec.ts:3:5 › waits ─────\n  2 did not run\n",
			want{"playwright", 3, 0, 0, 2, 1, []string{"waits"}, nil, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := []byte(c.log)
			check(t, scanBytes(t, log), c.want, log)
		})
	}
}

// TestPlaywrightReal runs @playwright/test (npm ci from testdata/playwright's
// lock file) on the fixture, as gen-samples.sh does, and checks the
// summary of that fresh run.
func TestPlaywrightReal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Playwright Test")
	}
	// .ci/run installs node; the Windows build's run under Wine has none.
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed here")
	}
	modules := installNodeFixture(t, "playwright", "@playwright/test")
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "playwright", "fixture"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	pw := filepath.Join(modules, ".bin", "playwright")
	log := runTool(t, dir, []string{"CI=1", "FORCE_COLOR=0"}, pw, "test", "--reporter=list", "--retries=1")
	s := scanBytes(t, log)
	check(t, s, want{"playwright", 7, 2, 4, 1, 0,
		[]string{"strings", "multiplies", "parser › reads an object", "parser › throws its own error"}, []string{"passes on retry"}, 1}, log)
	if f := findFailure(s, "strings"); f == nil || f.File != "tests/flaky.spec.js" || f.Line != 8 ||
		f.Message != `Error: expect(received).toContain(expected) // indexOf; Expected substring: "planet"; Received string: "hello world"` {
		t.Errorf("strings: %+v", f)
	}
}

// installNodeFixture runs npm ci in testdata/<dir> once, and returns its
// node_modules; pkg is a package the lock file installs.
func installNodeFixture(t *testing.T, dir, pkg string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	modules := filepath.Join(abs, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, pkg, "package.json")); err == nil {
		return modules
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatalf("node is installed but npm is not: cannot install %s", pkg)
	}
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = abs
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", abs, err, out)
	}
	return modules
}

// FuzzPlaywright: whatever comes before it, a failing Playwright run
// leaves a failure or no failure count, never a pass.
func FuzzPlaywright(f *testing.F) {
	fuzzDeclared(f, sample(f, "playwright/list-fail.log"), sample(f, "playwright/dot-fail.log"),
		sample(f, "playwright/line-retries.log"), sample(f, "playwright/line-pass.log"))
}
