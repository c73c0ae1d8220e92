package report_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/render"
	"github.com/runledger/runledger/store"
)

func TestEffectsLine(t *testing.T) {
	cases := []struct {
		name string
		e    *record.Effects
		want string
	}{
		{"none recorded", nil, ""},
		{"nothing changed", &record.Effects{Method: "git"}, "changed no files in the workspace (git)"},
		{"unknown", &record.Effects{Method: "none", Reason: "git status took longer than 10s"},
			"changes in the workspace not known: git status took longer than 10s"},
		{"one of each", &record.Effects{Method: "git", Created: []string{"new.txt"}, Modified: []string{"testdata/golden.txt"},
			Deleted: []string{"fixture.txt"}, Total: 3, Tracked: 2},
			"changed 3 files (git): modified testdata/golden.txt; deleted fixture.txt; created new.txt"},
		{"more than the line names", &record.Effects{Method: "snapshot", Created: []string{"c1", "c2", "c3"},
			Modified: []string{"m1", "m2", "m3", "m4"}, Total: 120, Truncated: true},
			"changed 120 files (snapshot): modified m1, m2, m3, m4; created c1; and 115 more"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := report.EffectsLine(c.e); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestEffectsReachTheReport: a retried command in a real work tree; the
// envelope and the Markdown say what each attempt changed and why the
// retry stopped or went on.
func TestEffectsReachTheReport(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	cases := []struct {
		name, retryEffects string
		attempts           int
		want               []string // in the Markdown
	}{
		{name: "refused", attempts: 1, want: []string{"**Workspace effects**",
			"attempt 1 · changed 2 files (git): modified `testdata/golden.txt`; created `new-1.txt`",
			"retry_refused"}},
		{name: "allowed", retryEffects: capture.RetryEffectsAllow, attempts: 3, want: []string{
			"`gate` · attempt 1 · changed 2 files (git): modified `testdata/golden.txt`; created `new-1.txt` · attempt 1 modified 1 tracked file: testdata/golden.txt; retried anyway",
			"`gate` · attempt 3 · changed 2 files (git)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "testdata"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "testdata", "golden.txt"), []byte("v0\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"init", "-q"}, {"add", "-A"},
				{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init"}} {
				if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			st, err := store.Open(filepath.Join(dir, ".runledger"))
			if err != nil {
				t.Fatal(err)
			}
			script := `echo $RUNLEDGER_ATTEMPT > testdata/golden.txt; echo n > new-$RUNLEDGER_ATTEMPT.txt; exit 1`
			recs, err := capture.Run(st, capture.Options{Name: "gate", Argv: []string{"sh", "-c", script}, Dir: dir,
				Retries: 2, RetryEffects: c.retryEffects})
			if err != nil || len(recs) != c.attempts {
				t.Fatalf("%d attempts (%v), want %d", len(recs), err, c.attempts)
			}
			env, err := report.Build(st, report.Options{})
			if err != nil {
				t.Fatal(err)
			}
			run := env.Runs[0]
			if run.Effects == nil || run.Effects.Tracked != 1 || !strings.HasPrefix(run.Effects.Line, "changed 2 files (git): modified testdata/golden.txt") {
				t.Fatalf("run effects %+v", run.Effects)
			}
			if (c.attempts == 1) != strings.Contains(run.RetryRefused, "attempt 1 modified 1 tracked file: testdata/golden.txt; not retried") {
				t.Errorf("retry_refused %q", run.RetryRefused)
			}
			if len(env.Superseded) != c.attempts-1 {
				t.Fatalf("%d superseded, want %d", len(env.Superseded), c.attempts-1)
			}
			for _, s := range env.Superseded {
				if s.Effects == nil || s.Effects.Total != 2 || !strings.Contains(s.RetryAllowed, "retried anyway") {
					t.Errorf("superseded attempt %d: effects %+v, retry_allowed %q", s.Attempt, s.Effects, s.RetryAllowed)
				}
			}
			body, err := render.Markdown(env, render.Options{})
			if err != nil {
				t.Fatal(err)
			}
			js, _ := json.Marshal(env)
			for _, w := range c.want {
				if !strings.Contains(body, w) && !strings.Contains(string(js), w) {
					t.Errorf("neither the Markdown nor the envelope holds %q:\n%s", w, body)
				}
			}
		})
	}
}
