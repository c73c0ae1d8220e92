package action

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/githubapi"
	"github.com/runledger/runledger/internal/artifacttest"
	"github.com/runledger/runledger/internal/golden"
	"github.com/runledger/runledger/publish"
	"github.com/runledger/runledger/store"
)

// The README's picture is the comment this test makes: a pull request
// whose tests show a new failure, a failure the base branch has too, and a
// flaky test, each judged the way the Action judges them on GitHub. The
// base commit's run is a real run of the action, zipped as the uploader
// lays its artifact out; the pull request's run finds it through the
// baseline lookup (workflow runs, artifacts, the artifact's test index)
// served by basePublisher. docs/picture/make.sh renders the body.
//
// Today a flaky test is one that failed and passed within the run (here
// on the action's retry). When the baseline also reads the branch's
// history, re-run docs/picture/make.sh: the case stays the same.

const pictureBase = `package shop

import "testing"

func TestTotal(t *testing.T)    {}
func TestDiscount(t *testing.T) { t.Errorf("Discount(10%%) = 9.5, want 9") }
func TestTax(t *testing.T)      {}
func TestRound(t *testing.T)    {}
`

const pictureHead = `package shop

import (
	"os"
	"testing"
)

func TestTotal(t *testing.T)    { t.Errorf("Total(2 items) = 4, want 5") }
func TestDiscount(t *testing.T) { t.Errorf("Discount(10%%) = 9.5, want 9") }
func TestRound(t *testing.T)    {}

// TestTax fails the first time it runs in a workspace, as a test that
// depends on a slow service does now and then, and passes on the retry.
func TestTax(t *testing.T) {
	if _, err := os.Stat("tax.once"); err != nil {
		os.WriteFile("tax.once", nil, 0o644)
		t.Fatal("rates service: timeout after 2s")
	}
}
`

// basePublisher is fakePublisher with one base run: the base commit's run
// of the workflow, and its artifact.
type basePublisher struct {
	fakePublisher
	sha, name, zip string
}

func (p *basePublisher) WorkflowRuns(context.Context, string, githubapi.RunQuery) ([]githubapi.WorkflowRun, error) {
	return []githubapi.WorkflowRun{{ID: 1001, Attempt: 1, HeadSHA: p.sha, Branch: "main", Event: "push",
		Status: "completed", Conclusion: "failure", URL: "https://github.com/o/r/actions/runs/1001"}}, nil
}

func (p *basePublisher) Artifacts(context.Context, int64) ([]githubapi.Artifact, error) {
	return []githubapi.Artifact{{ID: 77, Name: p.name, Size: 1}}, nil
}

func (p *basePublisher) OpenArtifact(context.Context, int64) (*artifact.Reader, error) {
	return artifact.OpenFile(p.zip)
}

// TestCommentPicture: the pull request's comment names TestTotal new,
// TestDiscount pre-existing and TestTax flaky, and is the golden file
// action/testdata/comment/readme.md. With RUNLEDGER_COMMENT_OUT set, the
// body as posted (not normalized) is written there for the picture.
func TestCommentPicture(t *testing.T) {
	baseDir, headDir := goModule(t), goModule(t)
	os.WriteFile(filepath.Join(baseDir, "demo_test.go"), []byte(pictureBase), 0o644)
	os.WriteFile(filepath.Join(headDir, "demo_test.go"), []byte(pictureHead), 0o644)
	inputs := map[string]string{"name": "unit", "command": `go -C "$DEMO" test -v .`, "retries": "1"}

	// The base commit's run, and its artifact as the uploader writes it.
	env, dir := runnerEnv(t, inputs)
	up := fakeUploader{c: &calls{}}
	runPicture(t, env, goEnviron(baseDir), up, &fakePublisher{c: &calls{}})
	st, err := store.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	rec, runDir, err := st.Find("unit")
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(up.c.log[0], "upload ")
	zip := artifacttest.ZipRun(t, runDir, rec.ID, artifacttest.Options{})

	// The pull request's run.
	event := filepath.Join(t.TempDir(), "event.json")
	payload, _ := json.Marshal(map[string]any{"pull_request": map[string]any{"number": 7, "base": map[string]string{"sha": "0a1b2c3d", "ref": "main"}}})
	os.WriteFile(event, payload, 0o644)
	env, _ = runnerEnv(t, inputs)
	for k, v := range map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event, "GITHUB_RUN_ID": "1002",
		"GITHUB_WORKFLOW_REF": "o/r/.github/workflows/test.yml@refs/pull/7/merge", "GITHUB_WORKFLOW": "test"} {
		env[k] = v
	}
	pub := &basePublisher{fakePublisher: fakePublisher{c: &calls{}}, sha: "0a1b2c3d", name: name, zip: zip}
	runPicture(t, env, goEnviron(headDir), fakeUploader{c: &calls{}}, pub)
	body, err := publish.Body("", pub.sections)
	if err != nil {
		t.Fatal(err)
	}
	checkComment(t, body, "## ❌ runledger: 1 of 1 step failed")
	for _, want := range []string{"`TestTotal` **new**", "`TestDiscount` _also fails on 0a1b2c3_", "`TestTax`"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment does not say %q:\n%s", want, visibleText(body))
		}
	}
	if out := os.Getenv("RUNLEDGER_COMMENT_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden.Check(t, filepath.Join(commentDir, "readme.md"), []byte(pictureNoise.Replace(normalize(body))))
}

// pictureNoise is what normalize leaves that differs between runs here:
// the earlier attempt's size and hash, whose log holds go's timings.
var pictureNoise = regexpReplacer{
	regexp.MustCompile(`\b[0-9a-f]{16}\b`): "HASH16",
	regexp.MustCompile(`output \d+ bytes`): "output N bytes",
}

type regexpReplacer map[*regexp.Regexp]string

func (r regexpReplacer) Replace(s string) string {
	for re, with := range r {
		s = re.ReplaceAllString(s, with)
	}
	return s
}

func runPicture(t *testing.T, env map[string]string, environ []string, up fakeUploader, pub Publisher) {
	t.Helper()
	_, err := Run(context.Background(), Env{
		Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: func(k string) string { return env[k] },
		Environ:      func() []string { return append([]string{"PATH=" + os.Getenv("PATH")}, environ...) },
		Version:      "test",
		NewUploader:  func(func(string) string, io.Writer, int) (Uploader, error) { return up, nil },
		NewPublisher: func(publish.Config) (Publisher, error) { return pub, nil },
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
}
