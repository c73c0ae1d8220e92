package capture

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

// gitRepo makes a real work tree with three committed files, a gitignored
// cache directory, and the run store inside it.
func gitRepo(t *testing.T) (string, *store.Store) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	files := map[string]string{
		"testdata/golden.txt": "golden\n", "fixture.txt": "fixture\n", "dirty.txt": "v0\n",
		"sub/keep.txt": "keep\n", ".gitignore": "cache/\n*.pyc\n",
	}
	for p, body := range files {
		writeFile(t, filepath.Join(dir, p), body)
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init")
	st, err := store.Open(filepath.Join(dir, ".runledger"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, st
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

type wantEffects struct {
	created, modified, deleted []string
	tracked                    int
}

func checkEffects(t *testing.T, got *record.Effects, method string, want wantEffects) {
	t.Helper()
	if got == nil {
		t.Fatal("no effects in the record")
	}
	if got.Scope != record.EffectsScope || got.Method != method {
		t.Fatalf("scope %q method %q (reason %q), want workspace %s", got.Scope, got.Method, got.Reason, method)
	}
	for _, l := range []struct {
		name      string
		got, want []string
	}{{"created", got.Created, want.created}, {"modified", got.Modified, want.modified}, {"deleted", got.Deleted, want.deleted}} {
		if !slices.Equal(l.got, l.want) && len(l.got)+len(l.want) > 0 {
			t.Errorf("%s: %q, want %q", l.name, l.got, l.want)
		}
	}
	total := len(want.created) + len(want.modified) + len(want.deleted)
	if got.Total != total || got.Tracked != want.tracked || got.Truncated {
		t.Errorf("total %d tracked %d truncated %v, want %d, %d, false", got.Total, got.Tracked, got.Truncated, total, want.tracked)
	}
}

func TestEffectsInGitWorkTree(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.txt")
	cases := []struct {
		name   string
		before func(t *testing.T, dir string) // the workspace as the attempt finds it
		sub    string                         // the command's directory under the work tree
		script string
		want   wantEffects
	}{
		{name: "creates an untracked file", script: "echo new > new.txt; mkdir -p gen && echo g > gen/out.txt",
			want: wantEffects{created: []string{"gen/out.txt", "new.txt"}}},
		{name: "modifies a tracked file", script: "echo changed > testdata/golden.txt",
			want: wantEffects{modified: []string{"testdata/golden.txt"}, tracked: 1}},
		{name: "deletes a tracked file", script: "rm fixture.txt",
			want: wantEffects{deleted: []string{"fixture.txt"}, tracked: 1}},
		{name: "gitignored caches and files outside are not the workspace's",
			script: "mkdir -p cache && echo c > cache/a && echo p > x.pyc && echo o > " + outside,
			want:   wantEffects{}},
		{name: "rewrites a tracked file with its own bytes", script: "printf 'golden\\n' > testdata/golden.txt",
			want: wantEffects{}},
		{name: "changes a file that was dirty already",
			before: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "dirty.txt"), "v1\n") },
			script: "echo v2 >> dirty.txt", want: wantEffects{modified: []string{"dirty.txt"}, tracked: 1}},
		{name: "leaves dirty and untracked files alone",
			before: func(t *testing.T, dir string) {
				writeFile(t, filepath.Join(dir, "dirty.txt"), "v1\n")
				writeFile(t, filepath.Join(dir, "mine.txt"), "mine\n")
			},
			script: "cat dirty.txt mine.txt >/dev/null; printf 'v1\\n' > dirty.txt", want: wantEffects{}},
		{name: "reverts a dirty file",
			before: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "dirty.txt"), "v1\n") },
			script: "git checkout -q -- dirty.txt", want: wantEffects{modified: []string{"dirty.txt"}, tracked: 1}},
		{name: "changes an untracked file that was there",
			before: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "mine.txt"), "mine\n") },
			script: "echo more >> mine.txt; echo n > new.txt",
			want:   wantEffects{created: []string{"new.txt"}, modified: []string{"mine.txt"}}},
		{name: "paths are relative to the command's directory", sub: "sub",
			script: "echo x > ../testdata/golden.txt; rm keep.txt; echo n > here.txt",
			want: wantEffects{created: []string{"here.txt"}, modified: []string{"../testdata/golden.txt"},
				deleted: []string{"keep.txt"}, tracked: 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, st := gitRepo(t)
			if c.before != nil {
				c.before(t, dir)
			}
			r := runOne(t, st, Options{Argv: []string{"sh", "-c", c.script}, Dir: filepath.Join(dir, c.sub)})
			if r.Status != record.StatusPassed {
				t.Fatalf("status %s", r.Status)
			}
			checkEffects(t, r.Effects, record.EffectsGit, c.want)
		})
	}
}

func TestEffectsSnapshotOutsideGit(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skipf("the command is a shell script, and there is no sh: %v", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").CombinedOutput(); err == nil {
		t.Skipf("the temporary directory is inside a git work tree: %s", out)
	}
	for _, p := range []string{"keep.txt", "change.txt", "gone.txt", "deep/a/b.txt", ".git/HEAD"} {
		writeFile(t, filepath.Join(dir, p), "v0\n")
	}
	st, err := store.Open(filepath.Join(dir, ".runledger"))
	if err != nil {
		t.Fatal(err)
	}
	script := "echo v1 > change.txt; rm gone.txt; echo n > deep/a/new.txt; echo x > .git/HEAD"
	r := runOne(t, st, Options{Argv: []string{"sh", "-c", script}, Dir: dir})
	checkEffects(t, r.Effects, record.EffectsSnapshot, wantEffects{created: []string{"deep/a/new.txt"},
		modified: []string{"change.txt"}, deleted: []string{"gone.txt"}, tracked: 2})
}

func TestEffectsListsAreBounded(t *testing.T) {
	dir, st := gitRepo(t)
	n := record.EffectsListMax + 23
	script := fmt.Sprintf("i=0; while [ $i -lt %d ]; do echo $i > f$i.txt; i=$((i+1)); done; echo x > fixture.txt", n)
	r := runOne(t, st, Options{Argv: []string{"sh", "-c", script}, Dir: dir})
	e := r.Effects
	if len(e.Created) != record.EffectsListMax || e.Total != n+1 || !e.Truncated || e.Tracked != 1 ||
		!slices.Equal(e.Modified, []string{"fixture.txt"}) {
		t.Fatalf("created %d, modified %q, total %d, tracked %d, truncated %v; want %d, [fixture.txt], %d, 1, true",
			len(e.Created), e.Modified, e.Total, e.Tracked, e.Truncated, record.EffectsListMax, n+1)
	}
}

// Each attempt fails; what it changes decides whether the next one runs.
func TestRetriesRespectEffects(t *testing.T) {
	cases := []struct {
		name         string
		script       string
		retryEffects string
		attempts     int
		refused      string // in the last attempt's retry_refused
		allowed      string // in every attempt's but the last retry_allowed
	}{
		{name: "changes nothing", script: "exit 3", attempts: 3},
		{name: "creates untracked files and gitignored caches", attempts: 3,
			script: "echo $RUNLEDGER_ATTEMPT > out-$RUNLEDGER_ATTEMPT.txt; mkdir -p cache; echo c > cache/x; exit 3"},
		{name: "modifies a tracked file", script: "echo new > testdata/golden.txt; exit 3", attempts: 1,
			refused: "attempt 1 modified 1 tracked file: testdata/golden.txt; not retried"},
		{name: "deletes tracked files", script: "rm -f fixture.txt sub/keep.txt; exit 3", attempts: 1,
			refused: "attempt 1 deleted 2 tracked files: fixture.txt, sub/keep.txt; not retried"},
		{name: "modifies and deletes", script: "echo x >> dirty.txt; rm fixture.txt; echo n > new.txt; exit 3", attempts: 1,
			refused: "attempt 1 modified 1 and deleted 1 tracked files: dirty.txt, fixture.txt; not retried"},
		{name: "allowed to retry anyway", script: "echo $RUNLEDGER_ATTEMPT > testdata/golden.txt; exit 3",
			retryEffects: RetryEffectsAllow, attempts: 3,
			allowed: "modified 1 tracked file: testdata/golden.txt; retried anyway (--retry-effects allow)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, st := gitRepo(t)
			recs, err := Run(st, Options{Name: "gate", Argv: []string{"sh", "-c", c.script}, Dir: dir,
				Retries: 2, RetryEffects: c.retryEffects})
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != c.attempts {
				t.Fatalf("%d attempts, want %d", len(recs), c.attempts)
			}
			last := recs[len(recs)-1]
			if ExitCode(last) != 3 {
				t.Errorf("exit %d, want the command's 3", ExitCode(last))
			}
			if c.refused == "" && last.RetryRefused != "" || !strings.Contains(last.RetryRefused, c.refused) {
				t.Errorf("retry_refused %q, want %q", last.RetryRefused, c.refused)
			}
			for _, r := range recs[:len(recs)-1] {
				if c.allowed == "" && r.RetryAllowed != "" || !strings.Contains(r.RetryAllowed, c.allowed) {
					t.Errorf("attempt %d: retry_allowed %q, want %q", r.Attempt, r.RetryAllowed, c.allowed)
				}
			}
			// The record on disk says the same as the one returned.
			onDisk, err := record.Read(filepath.Join(st.Dir, last.ID))
			if err != nil {
				t.Fatal(err)
			}
			if onDisk.RetryRefused != last.RetryRefused || onDisk.Effects == nil {
				t.Errorf("stored record: retry_refused %q, effects %v", onDisk.RetryRefused, onDisk.Effects)
			}
		})
	}
}
