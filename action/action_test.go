package action

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/githubapi"
	"github.com/runledger/runledger/publish"
	"github.com/runledger/runledger/report"
)

// calls records what the pipeline asked of GitHub, in order.
type calls struct {
	mu  sync.Mutex
	log []string
}

func (c *calls) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = append(c.log, s)
}

type fakeUploader struct {
	c   *calls
	err error
}

func (u fakeUploader) Upload(_ context.Context, name string, files []artifact.File) (*artifact.Result, error) {
	u.c.add("upload " + name)
	if u.err != nil {
		return nil, u.err
	}
	for _, f := range files {
		if _, err := os.Stat(f.Path); err != nil {
			return nil, err // what the real one would say of a file the pipeline lost
		}
	}
	return &artifact.Result{ID: 42, Name: name, URL: "https://github.example/o/r/actions/runs/1/artifacts/42"}, nil
}

type fakePublisher struct {
	c        *calls
	sections []publish.Section
}

func (p *fakePublisher) FindPR(context.Context) (publish.PRRef, error) {
	p.c.add("find pr")
	return publish.PRRef{Number: 7, Source: "event"}, nil
}

func (p *fakePublisher) Aggregate(_ context.Context, pr int, secs []publish.Section) (publish.Result, error) {
	p.c.add("comment")
	p.sections = append(p.sections, secs...)
	return publish.Result{CommentURL: "https://github.example/o/r/pull/7#issuecomment-1"}, nil
}

func (p *fakePublisher) RunArtifacts(context.Context, int64) (map[string]int64, error) {
	return nil, errors.New("not listed in this test")
}

func (p *fakePublisher) ArtifactURL(runID, id int64) string { return "" }

func (p *fakePublisher) JobURL(context.Context, int64, int, string) (string, error) {
	return "", errors.New("no jobs in this test")
}

func (p *fakePublisher) WorkflowRuns(context.Context, string, githubapi.RunQuery) ([]githubapi.WorkflowRun, error) {
	p.c.add("list runs")
	return nil, errors.New("no runs in this test")
}

func (p *fakePublisher) Artifacts(context.Context, int64) ([]githubapi.Artifact, error) {
	return nil, errors.New("no artifacts in this test")
}

func (p *fakePublisher) OpenArtifact(context.Context, int64) (*artifact.Reader, error) {
	return nil, errors.New("no artifacts in this test")
}

var _ Uploader = fakeUploader{}
var _ Publisher = (*fakePublisher)(nil)

// runnerEnv is a runner's environment for one step, with the summary and
// output files in a temp dir.
func runnerEnv(t *testing.T, inputs map[string]string) (map[string]string, string) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skipf("mode run runs its command with sh -c, and there is no sh: %v", err)
	}
	dir := t.TempDir()
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_JOB": "test", "GITHUB_ACTION": "__run", "GITHUB_TOKEN": "",
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"), "GITHUB_OUTPUT": filepath.Join(dir, "output"),
		"INPUT_DIR": filepath.Join(dir, "store"), "INPUT_TOKEN": "ghs_0123456789abcdef"}
	for k, v := range inputs {
		env["INPUT_"+strings.ToUpper(k)] = v
	}
	return env, dir
}

func runAction(t *testing.T, env map[string]string, up fakeUploader, pub *fakePublisher, cancel chan os.Signal) (int, string) {
	t.Helper()
	var stdout bytes.Buffer
	code, err := Run(context.Background(), Env{
		Stdout: &stdout, Stderr: &bytes.Buffer{}, Getenv: func(k string) string { return env[k] },
		Environ: func() []string { return []string{"PATH=" + os.Getenv("PATH")} }, Version: "test", Cancel: cancel,
		NewUploader:  func(func(string) string, io.Writer, int) (Uploader, error) { return up, nil },
		NewPublisher: func(publish.Config) (Publisher, error) { return pub, nil },
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return code, stdout.String()
}

// TestRunPublishesAfterUpload: in the usual order the logs are uploaded
// first, so the comment links the artifact; the step's status is the
// command's.
func TestRunPublishesAfterUpload(t *testing.T) {
	c := &calls{}
	env, dir := runnerEnv(t, map[string]string{"command": "echo '--- FAIL: TestX (0.00s)'; exit 3"})
	pub := &fakePublisher{c: c}
	code, _ := runAction(t, env, fakeUploader{c: c}, pub, nil)
	if code != 3 {
		t.Errorf("exit %d, want the command's 3", code)
	}
	if got := strings.Join(c.log, ", "); !strings.HasPrefix(got, "upload ") || !strings.HasSuffix(got, "find pr, comment") {
		t.Errorf("calls %q: want the upload, then the comment", got)
	}
	if len(pub.sections) != 1 || !strings.Contains(pub.sections[0].Full, "artifacts/42") {
		t.Errorf("the section does not link the artifact: %+v", pub.sections)
	}
	out, _ := os.ReadFile(filepath.Join(dir, "output"))
	for _, want := range []string{"artifact-id", "42", "exit-code", "3", "status", "failed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("outputs lack %q:\n%s", want, out)
		}
	}
}

// TestRunUploadFails: a failed upload is a warning; the logs stay on the
// runner, the envelope names no artifact, the status is the command's.
func TestRunUploadFails(t *testing.T) {
	c := &calls{}
	env, dir := runnerEnv(t, map[string]string{"command": "echo boom; exit 4"})
	code, stdout := runAction(t, env, fakeUploader{c: c, err: errors.New("artifact service: 503")}, &fakePublisher{c: c}, nil)
	if code != 4 {
		t.Errorf("exit %d, want the command's 4", code)
	}
	if !strings.Contains(stdout, "::warning::runledger: artifact: artifact service: 503; the logs stay in") {
		t.Errorf("no warning about the upload:\n%s", stdout)
	}
	env2, err := readReport(filepath.Join(dir, "store", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range env2.Runs {
		for name, l := range r.Logs {
			if l.Artifact != "" {
				t.Errorf("%s names artifact %q, which was never uploaded", name, l.Artifact)
			}
			if _, err := os.Stat(l.Path); err != nil {
				t.Errorf("log %s is gone: %v", name, err)
			}
		}
	}
}

// TestRunCancelledAnnouncesFirst: a cancelled step says what happened
// (comment, summary) before it spends its last seconds uploading.
func TestRunCancelledAnnouncesFirst(t *testing.T) {
	c := &calls{}
	env, dir := runnerEnv(t, map[string]string{"command": "echo started; sleep 30"})
	cancel := make(chan os.Signal, 1)
	cancel <- syscall.SIGINT
	code, _ := runAction(t, env, fakeUploader{c: c}, &fakePublisher{c: c}, cancel)
	if code == 0 {
		t.Error("a cancelled step exited 0")
	}
	if got := strings.Join(c.log, ", "); !strings.HasPrefix(got, "find pr, comment, upload ") {
		t.Errorf("calls %q: want the comment before the upload", got)
	}
	if summary, _ := os.ReadFile(filepath.Join(dir, "summary.md")); !strings.Contains(string(summary), "cancelled") {
		t.Errorf("summary does not say cancelled:\n%s", summary)
	}
}

func readReport(path string) (*report.Envelope, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var env report.Envelope
	return &env, json.Unmarshal(data, &env)
}

// TestRunRetryRefusedWarns: an attempt that rewrote a tracked file is not
// retried, and the step's log says why.
func TestRunRetryRefusedWarns(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "golden.txt"), []byte("v0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	t.Chdir(repo)
	c := &calls{}
	env, _ := runnerEnv(t, map[string]string{"command": "echo v1 > golden.txt; exit 3", "retries": "2"})
	code, stdout := runAction(t, env, fakeUploader{c: c}, &fakePublisher{c: c}, nil)
	if code != 3 {
		t.Errorf("exit %d, want the command's 3", code)
	}
	if !strings.Contains(stdout, "::warning::runledger: attempt 1 modified 1 tracked file: golden.txt; not retried") {
		t.Errorf("no warning about the refused retry:\n%s", stdout)
	}
}
