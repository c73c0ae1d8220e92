package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/report"
)

// A module whose tests change between the base and the head: one breaks,
// one was broken already, one is new and fails, one is gone, one is fixed.
var (
	baseTests = map[string]bool{"TestStays": true, "TestBreaks": true, "TestAlready": false, "TestFixed": false, "TestRemoved": true}
	headTests = map[string]bool{"TestStays": true, "TestBreaks": false, "TestAlready": false, "TestFixed": true, "TestNewFail": false}
)

func writeModule(t *testing.T, dir string, tests map[string]bool) {
	t.Helper()
	var b strings.Builder
	b.WriteString("package shop\n\nimport \"testing\"\n")
	for name, pass := range tests {
		b.WriteString("\nfunc " + name + "(t *testing.T) {\n\tt.Log(\"checking " + name + "\")\n")
		if !pass {
			b.WriteString("\tif got, want := 3, 4; got != want {\n\t\tt.Errorf(\"total = %d, want %d\", got, want)\n\t}\n")
		}
		b.WriteString("}\n")
	}
	files := map[string]string{"go.mod": "module example.com/shop\n\ngo 1.21\n", "shop_test.go": b.String()}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReportBaseline runs a real go test on a base and a head version of a
// module, as an agent would with git stash, and compares them.
func TestReportBaseline(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	for _, shape := range []struct {
		name  string
		flags []string
		named bool // passing tests are named, so new tests and missing ones show
	}{
		{"go test -v", []string{"-v"}, true},
		{"go test -json", []string{"-json"}, true},
		{"go test", nil, false},
	} {
		t.Run(shape.name, func(t *testing.T) {
			mod, base, head := t.TempDir(), t.TempDir(), t.TempDir()
			argv := append([]string{"run", "--quiet", "--name", "unit", "--", "go", "-C", mod, "test", "-count=1"}, shape.flags...)
			argv = append(argv, "./...")
			writeModule(t, mod, baseTests)
			if code, _, stderr := runApp(t, base, "", argv...); code != 1 {
				t.Fatalf("base run: exit %d, want 1\n%s", code, stderr)
			}
			writeModule(t, mod, headTests)
			if code, _, stderr := runApp(t, head, "", argv...); code != 1 {
				t.Fatalf("head run: exit %d, want 1\n%s", code, stderr)
			}
			code, out, stderr := runApp(t, head, "", "report", "--format", "json", "--baseline", base)
			if code != 0 {
				t.Fatalf("report: exit %d\n%s", code, stderr)
			}
			var env report.Envelope
			if err := json.Unmarshal([]byte(out), &env); err != nil {
				t.Fatal(err)
			}
			checkBaseline(t, &env, shape.named)
		})
	}
}

func checkBaseline(t *testing.T, env *report.Envelope, named bool) {
	t.Helper()
	run := env.Runs[0]
	if env.Status != "failed" || run.Status != "failed" {
		t.Errorf("status %s / %s: a pre-existing failure is still a failure", env.Status, run.Status)
	}
	want := map[string]string{"TestBreaks": "new", "TestAlready": "pre_existing", "TestNewFail": "new_test"}
	if !named {
		want["TestNewFail"] = "new" // a plain go test names no passing test: new and new_test look alike
	}
	got := map[string]string{}
	for _, f := range run.Summary.Failures {
		got[f.Name] = f.Origin
	}
	for name, o := range want {
		if got[name] != o {
			t.Errorf("%s: origin %q, want %q (all: %v)", name, got[name], o, got)
		}
	}
	if first := run.Summary.Failures[0].Origin; first == "pre_existing" {
		t.Errorf("failures start with a pre-existing one: new ones come first")
	}
	bl := run.Baseline
	if bl == nil || bl.State != "compared" {
		t.Fatalf("baseline %+v, want compared", bl)
	}
	if env.Regressions == nil || *env.Regressions != 2 || bl.Regressions == nil || *bl.Regressions != 2 {
		t.Errorf("regressions %v (run %v), want 2", env.Regressions, bl.Regressions)
	}
	if named && (bl.Missing != 1 || len(bl.MissingTests) != 1 || bl.MissingTests[0].Name != "TestRemoved") {
		t.Errorf("missing %d %+v, want TestRemoved", bl.Missing, bl.MissingTests)
	}
	if named && (len(bl.Fixed) != 1 || bl.Fixed[0].Name != "TestFixed") {
		t.Errorf("fixed %+v, want TestFixed", bl.Fixed)
	}
	if run.Tests == nil || run.Tests.Entries == 0 {
		t.Errorf("the report saved no test index: %+v", run.Tests)
	}
}

// TestReportBaselineUnusable: a path that does not exist, or a store with
// no run, is an unavailable baseline with the reason; the report stands.
func TestReportBaselineUnusable(t *testing.T) {
	head := t.TempDir()
	if code, _, stderr := runApp(t, head, "", "run", "--quiet", "--name", "unit", "--", "sh", "-c", "exit 3"); code != 3 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	for _, tt := range []struct{ path, reason string }{
		{filepath.Join(head, "nope"), "no such file or directory"},
		{t.TempDir(), "holds no runs"},
		{"/dev/null", "neither a run store"},
	} {
		code, out, stderr := runApp(t, head, "", "report", "--format", "json", "--baseline", tt.path)
		var env report.Envelope
		if err := json.Unmarshal([]byte(out), &env); err != nil || code != 0 {
			t.Fatalf("%s: exit %d, %v\n%s", tt.path, code, err, stderr)
		}
		bl := env.Runs[0].Baseline
		if bl == nil || bl.State != "unavailable" || !strings.Contains(bl.Reason, tt.reason) || !strings.Contains(stderr, tt.reason) {
			t.Errorf("%s: baseline %+v, stderr %q; want unavailable, %q", tt.path, bl, stderr, tt.reason)
		}
		if env.Regressions != nil || env.Status != "failed" {
			t.Errorf("%s: regressions %v, status %s; want null and failed", tt.path, env.Regressions, env.Status)
		}
	}
}

// TestReportRetriesAreFlaky: with --retries, a test failing now that passed
// in an earlier attempt is flaky, whatever the base says; and a test that
// failed in an earlier attempt and passes now is listed as flaky.
func TestReportRetriesAreFlaky(t *testing.T) {
	dir, flag := t.TempDir(), filepath.Join(t.TempDir(), "tried")
	script := `if [ -f ` + flag + ` ]; then x=PASS y=FAIL; else touch ` + flag + `; x=FAIL y=PASS; fi
printf '=== RUN   TestX\n--- %s: TestX (0.00s)\n=== RUN   TestY\n--- %s: TestY (0.00s)\nFAIL\nFAIL\texample.com/p\t0.01s\n' $x $y
exit 1`
	if code, _, stderr := runApp(t, dir, "", "run", "--quiet", "--name", "unit", "--retries", "1", "--", "sh", "-c", script); code != 1 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	code, out, stderr := runApp(t, dir, "", "report", "--format", "json", "--baseline", dir)
	if code != 0 {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	var env report.Envelope
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatal(err)
	}
	run := env.Runs[0]
	if len(run.Summary.Failures) != 1 || run.Summary.Failures[0].Name != "TestY" || run.Summary.Failures[0].Origin != "flaky" {
		t.Errorf("failures %+v, want TestY flaky", run.Summary.Failures)
	}
	if len(run.Flaky) != 1 || run.Flaky[0].Name != "TestX" {
		t.Errorf("flaky %+v, want TestX (failed in attempt 1, passes in 2)", run.Flaky)
	}
	if env.Regressions == nil || *env.Regressions != 0 {
		t.Errorf("regressions %v, want 0: a flaky failure is not a regression", env.Regressions)
	}
}

// junitOf is a jest-junit style file: classname empty, so only the suite
// (the test file) tells two tests of one name apart.
func junitOf(cases map[string]string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><testsuites>`)
	for _, suite := range []string{"cart.test.js", "checkout.test.js"} {
		b.WriteString(`<testsuite name="` + suite + `">`)
		for _, name := range []string{"adds items", "applies coupon", "new case"} {
			switch cases[suite+"/"+name] {
			case "pass":
				b.WriteString(`<testcase classname="" name="` + name + `"/>`)
			case "fail":
				b.WriteString(`<testcase classname="" name="` + name + `"><failure message="expected 3, got 4">at ` + suite + `:12</failure></testcase>`)
			}
		}
		b.WriteString(`</testsuite>`)
	}
	b.WriteString(`</testsuites>`)
	return b.String()
}

// TestReportBaselineJUnit: tests of one name in two files are two tests
// (suite + class + name), on both sides of the comparison.
func TestReportBaselineJUnit(t *testing.T) {
	base, head, work := t.TempDir(), t.TempDir(), t.TempDir()
	run := func(store string, cases map[string]string) {
		xml := filepath.Join(work, "junit.xml")
		script := "cat > " + xml + " <<'EOF'\n" + junitOf(cases) + "\nEOF\nexit 1"
		if code, _, stderr := runApp(t, store, "", "run", "--quiet", "--name", "unit", "--junit", xml, "--", "sh", "-c", script); code != 1 {
			t.Fatalf("run: exit %d\n%s", code, stderr)
		}
	}
	run(base, map[string]string{"cart.test.js/adds items": "pass", "cart.test.js/applies coupon": "fail",
		"checkout.test.js/adds items": "fail", "checkout.test.js/applies coupon": "pass"})
	run(head, map[string]string{"cart.test.js/adds items": "fail", "cart.test.js/applies coupon": "fail",
		"checkout.test.js/adds items": "pass", "checkout.test.js/applies coupon": "pass", "checkout.test.js/new case": "fail"})
	code, out, stderr := runApp(t, head, "", "report", "--format", "json", "--baseline", base)
	var env report.Envelope
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != 0 {
		t.Fatalf("report: exit %d %v\n%s", code, err, stderr)
	}
	got := map[string]string{}
	for _, f := range env.Runs[0].Summary.Failures {
		got[f.Suite+"/"+f.Name] = f.Origin
	}
	want := map[string]string{"cart.test.js/adds items": "new", "cart.test.js/applies coupon": "pre_existing", "checkout.test.js/new case": "new_test"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("origins %v, want %v", got, want)
	}
	bl := env.Runs[0].Baseline
	if len(bl.Fixed) != 1 || bl.Fixed[0].Suite != "checkout.test.js" || bl.Fixed[0].Name != "adds items" {
		t.Errorf("fixed %+v, want checkout.test.js adds items", bl.Fixed)
	}
	if env.Regressions == nil || *env.Regressions != 2 {
		t.Errorf("regressions %v, want 2", env.Regressions)
	}
}

// TestReportBaselinePassed: a run that passed and was compared knows its
// regressions (none), in its baseline as at the top.
func TestReportBaselinePassed(t *testing.T) {
	base, head := t.TempDir(), t.TempDir()
	script := `printf '=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\nok  \texample.com/p\t0.01s\n'`
	for _, dir := range []string{base, head} {
		if code, _, stderr := runApp(t, dir, "", "run", "--quiet", "--name", "unit", "--", "sh", "-c", script); code != 0 {
			t.Fatalf("run: exit %d\n%s", code, stderr)
		}
	}
	_, out, stderr := runApp(t, head, "", "report", "--format", "json", "--baseline", base)
	var env report.Envelope
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	bl := env.Runs[0].Baseline
	if bl == nil || bl.State != "compared" || bl.Regressions == nil || *bl.Regressions != 0 || env.Regressions == nil || *env.Regressions != 0 {
		t.Errorf("baseline %+v, regressions %v; want compared with 0 in both", bl, env.Regressions)
	}
}
