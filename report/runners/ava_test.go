package runners

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// avaFixture fails an assertion, throws, rejects, passes a test marked
// failing, and passes, skips, todos and knows a failure.
var avaFixture = map[string]string{
	"package.json": `{"type": "module", "ava": {"files": ["test/**/*.js"]}}`,
	// Serial, so that ava reports them in this order.
	"test/a.js": `import test from 'ava';
const add = (a, b) => a + b + (a > 5 ? 1 : 0);
test.serial('adds small', t => { t.is(add(1, 2), 3); });
test.serial('adds large', t => { t.is(add(6, 2), 8, 'sum of six and two'); });
test.serial('parses', t => { JSON.parse('{'); t.pass(); });
test.serial('rejects', async t => { await Promise.reject(new Error('nope')); });
test.skip('skipped one', t => { t.pass(); });
test.todo('write more');
test.failing('known bug', t => { t.is(1, 2); });
`,
}

// TestAvaReal runs ava 6 (npm ci from testdata/ava's lock file) on the
// fixture and on its passing half.
func TestAvaReal(t *testing.T) {
	// .ci/run installs node; the Windows build's run under Wine has none.
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed here")
	}
	modules := installAva(t)
	dir := t.TempDir()
	writeFiles(t, dir, avaFixture)
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	ava := filepath.Join(modules, ".bin", "ava")
	log := runTool(t, dir, []string{"CI=1", "FORCE_COLOR=0"}, ava)
	s := scanBytes(t, log)
	check(t, s, want{"ava", -1, -1, 3, 3, 0, []string{"adds large", "parses", "rejects"}, nil, 1}, log)
	for name, want := range map[string]string{
		"adds large": "test/a.js:4: sum of six and two Difference (- actual, + expected): - 9 + 8",
		"parses":     "test/a.js:5: Error thrown in test: SyntaxError {",
		"rejects":    "test/a.js:6: Rejected promise returned by test. Reason: Error { message: 'nope', }",
	} {
		f := findFailure(s, name)
		if f == nil {
			t.Errorf("%s: not among the failures %+v", name, s.Failures)
			continue
		}
		// The place is ava's own `test/a.js:4` line, or a stack's absolute frame.
		got := strings.TrimPrefix(f.File, dir+"/") + ":" + strconv.Itoa(f.Line) + ": " + f.Message
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s = %q, want it to start %q", name, got, want)
		}
	}
	if !strings.Contains(s.Note, "only when none failed") {
		t.Errorf("note = %q, want it to say why passed is unknown", s.Note)
	}

	// Without failures ava says how many passed.
	writeFiles(t, dir, map[string]string{"test/a.js": "import test from 'ava';\ntest('one', t => { t.pass(); });\ntest.skip('two', t => { t.pass(); });\n"})
	log = runTool(t, dir, []string{"CI=1", "FORCE_COLOR=0"}, ava)
	check(t, scanBytes(t, log), want{"ava", 2, 1, 0, 1, 0, nil, nil, 1}, log)
}

// installAva runs npm ci in testdata/ava once, and returns its node_modules.
func installAva(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "ava"))
	if err != nil {
		t.Fatal(err)
	}
	modules := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "ava", "package.json")); err == nil {
		return modules
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("node is installed but npm is not: cannot install ava")
	}
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
	return modules
}

// TestAvaLogs: ava's shapes read without running it, and the lines that
// look like ava's in other runners' logs.
func TestAvaLogs(t *testing.T) {
	for _, c := range []struct {
		name, log string
		want      want
	}{
		{"ava 4's ✖ lines, the title found under the rule",
			"\n  ✔ getProperty\n  ✖ setProperty Error thrown in test\n  ─\n\n  setProperty\n\n  test.js:228\n\n   228:   setProperty(x);\n\n" +
				"  Error thrown in test:\n\n  Error {\n    message: 'bad index',\n  }\n\n  ─\n\n  1 test failed\n",
			want{"ava", -1, -1, 1, 0, 0, []string{"setProperty"}, nil, 1}},
		{"no failure: the passed count is printed",
			"  ✔ one\n  - [skip] two\n  ✔ [expected fail] three\n  ─\n\n  1 test passed\n  1 known failure\n  1 test skipped\n",
			want{"ava", 3, 1, 0, 2, 0, nil, nil, 1}},
		{"node's spec reporter: its ✖ lines and no ava total",
			"✔ adds (0.5ms)\n✖ subtracts (1.2ms)\n  AssertionError [ERR_ASSERTION]: 1 !== 2\nℹ tests 2\nℹ pass 1\nℹ fail 1\n",
			want{"node", 2, 1, 1, 0, 0, []string{"subtracts"}, nil, 1}},
		{"a rule and a count in another program's output are no ava run",
			"─\nprocessed\n2 tests passed through the filter\n",
			want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := []byte(c.log)
			check(t, scanBytes(t, log), c.want, log)
		})
	}
}
