package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/history"
	"github.com/runledger/runledger/report/testindex"
)

// TestReportHistory plays a branch's runs as local stores, each reported
// with --baseline its predecessor so that the history is carried forward,
// then a change on top whose failures the history judges: a test that
// failed in two separate streaks is flaky, one broken for three runs and
// then fixed is new (with that past said), one the base fails is
// pre-existing, one the branch never had is a new test.
func TestReportHistory(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	// Each test's outcome in each branch run, then in the change.
	plan := map[string]string{
		"TestStable":  "PPPPPPP" + "F",
		"TestFlaky":   "PFPFPPP" + "F",
		"TestBroken":  "PPFFFPP" + "F",
		"TestOnce":    "PPPPPFP" + "F",
		"TestAlready": "PPPPPPF" + "F",
		"TestNewFail": "......." + "F",
	}
	mod := t.TempDir()
	var stores []string
	var prev, last string
	for i := range 8 {
		tests := map[string]bool{}
		for name, outcomes := range plan {
			if o := outcomes[i]; o != '.' {
				tests[name] = o == 'P'
			}
		}
		writeModule(t, mod, tests)
		st := t.TempDir()
		runApp(t, st, "", "run", "--quiet", "--name", "unit", "--", "go", "-C", mod, "test", "-count=1", "-v", "./...")
		args := []string{"report", "--format", "json"}
		if prev != "" {
			args = append(args, "--baseline", prev)
		}
		code, out, stderr := runApp(t, st, "", args...)
		if code != 0 {
			t.Fatalf("run %d: report exit %d\n%s", i, code, stderr)
		}
		prev, last = st, out
		stores = append(stores, st)
	}
	var env report.Envelope
	if err := json.Unmarshal([]byte(last), &env); err != nil {
		t.Fatal(err)
	}
	run := env.Runs[0]
	// The first run had no baseline and so no history: the second started
	// it, and the change reads six runs.
	if h := run.History; h == nil || h.State != "read" || h.Runs != 7 || h.File != history.FileName {
		t.Fatalf("history %+v, want read, 7 runs, written", h)
	}
	want := map[string]string{"TestStable": "new", "TestFlaky": "flaky", "TestBroken": "new",
		"TestOnce": "new", "TestAlready": "pre_existing", "TestNewFail": "new_test"}
	wantPast := map[string]string{"TestStable": "", "TestFlaky": "6 2 2", "TestBroken": "6 3 1", "TestOnce": "6 1 1", "TestAlready": "6 1 1", "TestNewFail": ""}
	var order []string
	for _, f := range run.Summary.Failures {
		order = append(order, f.Origin)
		if f.Origin != want[f.Name] {
			t.Errorf("%s: origin %s, want %s", f.Name, f.Origin, want[f.Name])
		}
		past := ""
		if ev := f.History; ev != nil {
			past = fmt.Sprintf("%d %d %d", ev.Runs, ev.Failed, ev.Streaks)
		}
		if past != wantPast[f.Name] {
			t.Errorf("%s: history %q (runs failed streaks), want %q", f.Name, past, wantPast[f.Name])
		}
	}
	if got := strings.Join(order, " "); got != "new new new new_test flaky pre_existing" {
		t.Errorf("order %s: new first, then flaky, then pre-existing", got)
	}
	if env.Regressions == nil || *env.Regressions != 4 {
		t.Errorf("regressions %v, want 4: the flaky and the pre-existing failures are not", env.Regressions)
	}
	if env.Status != "failed" {
		t.Errorf("status %s: a flaky failure is still a failure", env.Status)
	}
	x, err := testindex.ReadFile(run.Tests.Path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := history.ReadFile(run.History.Path, x, run.Tests.Path)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, e := range h.Entries() {
		rows[e.Name] = e.Outcomes
	}
	if rows["TestFlaky"] != "FPFPPPF" || rows["TestNewFail"] != "......F" {
		t.Errorf("rows %v, want TestFlaky FPFPPPF and TestNewFail ......F", rows)
	}
	// Runs without a commit (no CI) are counted, not named.
	base := stores[len(stores)-2]
	for format, want := range map[string][]string{
		"markdown": {
			"`TestFlaky` _flaky_ — failed 2 of the last 6 runs, in 2 separate streaks —",
			"`TestBroken` **new** — also failed 3 times in the last 6 runs —",
			"`TestOnce` **new** — also failed once in the last 6 runs —",
			"`TestAlready` _also fails on the base_ — failed 1 of the last 6 runs —",
		},
		"text": {"TestFlaky [flaky — failed 2 of the last 6 runs, in 2 separate streaks]"},
	} {
		_, text, stderr := runApp(t, prev, "", "report", "--format", format, "--max-bytes", "60000", "--baseline", base)
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s does not say %q:\n%s%s", format, w, text, stderr)
			}
		}
	}
	// --history 0: judged against the base run alone, as before.
	_, out, _ := runApp(t, prev, "", "report", "--format", "json", "--history", "0", "--baseline", base)
	if strings.Contains(out, `"history"`) || !strings.Contains(out, `"regressions": 5`) {
		t.Errorf("--history 0 still judged by history:\n%s", out)
	}
}
