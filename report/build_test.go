package report

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

const goodJUnit = `<testsuites><testsuite name="s"><testcase name="a" classname="p"/><testcase name="b" classname="p"><failure message="boom">x</failure></testcase><testcase name="b" classname="p"/></testsuite></testsuites>`
const failingJUnit = `<testsuites><testsuite name="s"><testcase name="a" classname="p"/><testcase name="b" classname="p" file="b_test.go" line="9"><failure message="boom">x</failure></testcase></testsuite></testsuites>`

// TestBuildFromRealRuns captures real commands into a store and checks
// the envelope's verdicts: status, summary provenance, warnings.
func TestBuildFromRealRuns(t *testing.T) {
	tests := []struct {
		name      string
		script    string
		opts      capture.Options
		status    string
		source    string
		verified  bool
		warning   string // a substring some run warning must hold
		excerpted bool
	}{
		{name: "passed, no summary", script: "echo all good", status: "passed", source: "none"},
		{name: "failed go-style", script: "printf -- '--- FAIL: TestX (0.00s)\\n    x_test.go:3: no\\nFAIL\\nFAIL\\tpkg\\t0.01s\\n'; exit 1",
			status: "failed", source: "go", verified: true, excerpted: true},
		{name: "green line of an unknown framework", script: "echo 'ALL TESTS OK ✓'; exit 1",
			status: "failed", source: "none", excerpted: true},
		{name: "passing summary, then a crash", script: "printf 'ok  \\tpkg\\t0.01s\\n'; kill -SEGV $$",
			status: "failed", source: "go", verified: false, excerpted: true},
		{name: "timed out", script: "echo start; sleep 10", opts: capture.Options{Timeout: 200 * time.Millisecond},
			status: "timed_out", source: "none", excerpted: true},
		{name: "JUnit with a retried test", script: "echo '" + goodJUnit + "' > junit.xml",
			opts: capture.Options{Reports: []string{"junit.xml"}}, status: "passed", source: "junit", verified: true},
		{name: "JUnit failures but exit 0", script: "echo testing; echo '" + failingJUnit + "' > junit.xml",
			opts:   capture.Options{Reports: []string{"junit.xml"}},
			status: "unverified", source: "junit", warning: "inconsistent", excerpted: true},
		{name: "JUnit says all passed but exit 1", script: "echo testing; echo '<testsuite><testcase name=\"a\"/></testsuite>' > junit.xml; exit 1",
			opts:   capture.Options{Reports: []string{"junit.xml"}},
			status: "failed", source: "junit", warning: "inconsistent", excerpted: true},
		{name: "malformed JUnit", script: "echo testing; echo '<testsuite><testcase name=\"a\">' > junit.xml",
			opts:   capture.Options{Reports: []string{"junit.xml"}},
			status: "unverified", source: "junit", warning: "junit: truncated", excerpted: true},
		{name: "empty JUnit", script: "echo testing; : > junit.xml",
			opts:   capture.Options{Reports: []string{"junit.xml"}},
			status: "unverified", source: "unknown", warning: "the file is empty", excerpted: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, work := newStore(t), t.TempDir()
			opts := tc.opts
			opts.Argv, opts.Dir, opts.KillAfter = []string{"sh", "-c", tc.script}, work, time.Second
			if _, err := capture.Run(st, opts); err != nil {
				t.Fatal(err)
			}
			env, err := Build(st, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if env.Status != tc.status || len(env.Runs) != 1 {
				t.Fatalf("overall %s with %d runs, want %s; runs %+v", env.Status, len(env.Runs), tc.status, env.Runs)
			}
			run := env.Runs[0]
			if run.Summary.Source != tc.source || run.Summary.Verified != tc.verified {
				t.Errorf("summary %s verified=%v (%s), want %s verified=%v", run.Summary.Source, run.Summary.Verified, run.Summary.Note, tc.source, tc.verified)
			}
			if tc.source == "none" && run.Summary.Tests != nil {
				t.Errorf("source none with counts %v", *run.Summary.Tests)
			}
			if tc.warning != "" && !strings.Contains(strings.Join(run.Warnings, "\n"), tc.warning) {
				t.Errorf("warnings %q lack %q", run.Warnings, tc.warning)
			}
			if (len(run.Excerpts) > 0) != tc.excerpted {
				t.Errorf("%d excerpts, want some: %v", len(run.Excerpts), tc.excerpted)
			}
			checkCitedRanges(t, run)
		})
	}
}

// checkCitedRanges: every cited range holds exactly the bytes its hash names.
func checkCitedRanges(t *testing.T, run Run) {
	t.Helper()
	for _, ex := range run.Excerpts {
		path := run.Logs[ex.Stream].Path
		if strings.HasPrefix(ex.Stream, "junit/") { // a JUnit file the run wrote, beside its logs
			path = filepath.Join(filepath.Dir(run.Logs["stdout"].Path), filepath.FromSlash(ex.Stream))
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if ex.End > int64(len(data)) {
			t.Fatalf("excerpt %d:%d past the %d-byte log", ex.Start, ex.End, len(data))
		}
		sum := sha256.Sum256(data[ex.Start:ex.End])
		if got := hex.EncodeToString(sum[:]); got != ex.SHA256 {
			t.Errorf("excerpt %s %d:%d: hash %s, bytes hash to %s", ex.Stream, ex.Start, ex.End, ex.SHA256[:12], got[:12])
		}
	}
}

func TestBuildHistory(t *testing.T) {
	st, work := newStore(t), t.TempDir()
	counter := filepath.Join(work, "n")
	// Attempt 1 fails, 2 passes, 3 fails: the report shows attempt 3, and
	// keeps 1 as a marker, 2 as a plain passed line.
	script := `n=$(cat "$1" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$1"; echo "attempt $n"; [ $n -eq 2 ]`
	for range 3 {
		capture.Run(st, capture.Options{Name: "unit", Argv: []string{"sh", "-c", script, "sh", counter}})
	}
	capture.Run(st, capture.Options{Name: "lint", Argv: []string{"true"}})
	env, err := Build(st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if env.Status != "failed" || len(env.Runs) != 2 || env.Runs[0].Attempt != 3 {
		t.Fatalf("status %s, runs %+v", env.Status, env.Runs)
	}
	if len(env.Superseded) != 2 {
		t.Fatalf("superseded %+v, want attempts 1 and 2", env.Superseded)
	}
	first, second := env.Superseded[0], env.Superseded[1]
	if first.Status != "failed" || !strings.HasPrefix(first.Marker, "<<cg:") || !strings.Contains(first.Pointer, "runledger expand") {
		t.Errorf("attempt 1 should collapse to a marker: %+v", first)
	}
	if second.Status != "passed" || second.Marker != "" {
		t.Errorf("a passed earlier attempt is kept as a status line, not collapsed: %+v", second)
	}
	only, _ := Build(st, Options{Names: []string{"lint"}})
	if only.Status != "passed" || len(only.Runs) != 1 {
		t.Fatalf("--name lint: %s %+v", only.Status, only.Runs)
	}
}

// TestBuildIncompleteAndUnreadable: a record left running by a dead
// wrapper and a record that does not decode both keep the status off "passed".
func TestBuildIncompleteAndUnreadable(t *testing.T) {
	st := newStore(t)
	capture.Run(st, capture.Options{Name: "ok", Argv: []string{"true"}})
	env, _ := Build(st, Options{})
	if env.Status != "passed" {
		t.Fatalf("baseline status %s", env.Status)
	}
	recs, _, _ := st.List()
	dead := *recs[0]
	dead.ID, dead.Name, dead.Status = "20000101T000000000Z-deadbeef", "killed", record.StatusRunning
	dead.Wrapper.PID = 1 << 30
	os.Mkdir(filepath.Join(st.Dir, dead.ID), 0o755)
	record.Write(filepath.Join(st.Dir, dead.ID), &dead)
	env, _ = Build(st, Options{})
	if env.Status != "incomplete" {
		t.Fatalf("with a dead running record: %s, want incomplete", env.Status)
	}
	os.Mkdir(filepath.Join(st.Dir, "20000101T000000000Z-garbage0"), 0o755)
	os.WriteFile(filepath.Join(st.Dir, "20000101T000000000Z-garbage0", record.FileName), []byte("{"), 0o644)
	os.RemoveAll(filepath.Join(st.Dir, dead.ID))
	env, _ = Build(st, Options{})
	if env.Status != "incomplete" || len(env.Warnings) == 0 {
		t.Fatalf("with an unreadable record: %s %v, want incomplete with a warning", env.Status, env.Warnings)
	}
	empty, _ := Build(newStore(t), Options{})
	if empty.Status != "no_runs" {
		t.Fatalf("empty store: %s", empty.Status)
	}
}

// TestBuildTruncated: counts read from a capped log are never verified.
func TestBuildTruncated(t *testing.T) {
	st := newStore(t)
	script := `printf -- '--- FAIL: TestA (0.00s)\n'; i=0; while [ $i -lt 3000 ]; do echo "noise line $i"; i=$((i+1)); done; printf 'FAIL\tpkg\t0.1s\n'; exit 1`
	capture.Run(st, capture.Options{Argv: []string{"sh", "-c", script}, MaxLogBytes: 4096})
	env, _ := Build(st, Options{})
	run := env.Runs[0]
	if !run.Truncated || run.Summary.Verified || env.Status != "failed" {
		t.Fatalf("truncated %v verified %v status %s", run.Truncated, run.Summary.Verified, env.Status)
	}
	for _, ex := range run.Excerpts {
		in := false
		for _, rg := range run.Logs[ex.Stream].Stored {
			in = in || ex.Start >= rg[0] && ex.End <= rg[1]
		}
		if !in {
			t.Errorf("excerpt %d:%d crosses the omitted middle %v", ex.Start, ex.End, run.Logs[ex.Stream].Stored)
		}
	}
}

func newStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestBuildBoundsBigSummaries: a log of thousands of results gives exact
// counts but a bounded envelope.
func TestBuildBoundsBigSummaries(t *testing.T) {
	st := newStore(t)
	script := `i=0; while [ $i -lt 3000 ]; do printf -- 'noise\n--- FAIL: Test%d (0.00s)\n' $i; i=$((i+1)); done; printf 'FAIL\tpkg\t0.1s\n'; exit 1`
	capture.Run(st, capture.Options{Argv: []string{"sh", "-c", script}})
	env, _ := Build(st, Options{})
	s := env.Runs[0].Summary
	if s.Failed == nil || *s.Failed != 3000 || !s.Verified {
		t.Fatalf("failed %v verified %v (%s), want 3000 verified", s.Failed, s.Verified, s.Note)
	}
	if len(s.Failures) != maxFailures || s.FailuresOmitted != 2900 || len(s.Spans) > maxSpans || s.SpansOmitted == 0 {
		t.Fatalf("failures %d (+%d omitted), spans %d (+%d omitted)", len(s.Failures), s.FailuresOmitted, len(s.Spans), s.SpansOmitted)
	}
}

func TestWorst(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{nil, "passed"},
		{[]string{"passed", "passed"}, "passed"},
		{[]string{"passed", "no_runs"}, "no_runs"},
		{[]string{"unverified", "passed"}, "unverified"},
		{[]string{"running", "incomplete"}, "running"},
		{[]string{"passed", "weird"}, "incomplete"},
		{[]string{"timed_out", "signaled"}, "failed"},
		{[]string{"start_failed", "cancelled"}, "failed"},
	}
	for _, tt := range tests {
		if got := Worst(tt.in...); got != tt.want {
			t.Errorf("Worst(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestJUnitQuotedWhenTheLogIsSilent: a runner that prints only a test's
// name (Gradle's "> testDivide() FAILED") keeps its message and stack in
// the JUnit file; the excerpts then quote that <failure> element from the
// run's copy of the file, with the file's own byte range and hash, and
// leave alone a failure the log already shows.
func TestJUnitQuotedWhenTheLogIsSilent(t *testing.T) {
	xml := `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="CalcTest" tests="2" failures="2">
  <testcase classname="com.example.CalcTest" name="testDivide"><failure message="expected: &lt;2&gt; but was: &lt;3&gt;" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected: &lt;2&gt; but was: &lt;3&gt;
	at com.example.CalcTest.testDivide(CalcTest.java:14)</failure></testcase>
  <testcase classname="com.example.CalcTest" name="testShown"><failure message="shown in the log already">x</failure></testcase>
</testsuite>`
	script := `echo "CalcTest > testDivide() FAILED"; echo "CalcTest > testShown() FAILED: shown in the log already"; printf '%s' "$1" > junit.xml; exit 1`
	st, work := newStore(t), t.TempDir()
	if _, err := capture.Run(st, capture.Options{Name: "gradle", Argv: []string{"sh", "-c", script, "sh", xml}, Dir: work,
		KillAfter: time.Second, Reports: []string{"junit.xml"}}); err != nil {
		t.Fatal(err)
	}
	env, err := Build(st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := env.Runs[0]
	var quoted []Excerpt
	for _, x := range run.Excerpts {
		if strings.HasPrefix(x.Stream, "junit/") {
			quoted = append(quoted, x)
		}
	}
	if len(quoted) != 1 || quoted[0].Test != "testDivide" || !strings.Contains(quoted[0].Text, "CalcTest.java:14") ||
		!strings.HasPrefix(quoted[0].Text, "<failure") || !strings.HasSuffix(strings.TrimSpace(quoted[0].Text), "</failure>") {
		t.Fatalf("JUnit quotes %+v", quoted)
	}
	checkCitedRanges(t, run)
}
