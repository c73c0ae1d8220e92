package action

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
// flaky one, each judged the way the Action judges them on GitHub. The
// base branch's runs are real runs of the action, pushed one after the
// other, each zipped as the uploader lays its artifact out and read by the
// next through the baseline lookup (workflow runs, artifacts, the
// artifact's test index and history) that basePublisher serves; the pull
// request's run reads the last of them. TestTax failed twice on the
// branch, apart: two streaks, so its failure on the pull request is
// flaky, not new. docs/picture/make.sh renders the body.

// pictureTest is the demo's test file: TestTotal fails on the pull
// request only, TestDiscount everywhere, TestTax where taxFails says.
func pictureTest(head, taxFails bool) string {
	total, tax := "", ""
	if head {
		total = `t.Errorf("Total(2 items) = 4, want 5")`
	}
	if taxFails {
		tax = `t.Fatal("rates service: timeout after 2s")`
	}
	return "package shop\n\nimport \"testing\"\n\n" +
		"func TestTotal(t *testing.T)    { " + total + " }\n" +
		"func TestDiscount(t *testing.T) { t.Errorf(\"Discount(10%%) = 9.5, want 9\") }\n" +
		"func TestTax(t *testing.T)      { " + tax + " }\n" +
		"func TestRound(t *testing.T)    {}\n"
}

// pictureBranch is which of the branch's pushes TestTax fails on.
var pictureBranch = []bool{false, true, false, false, true, false}

// basePublisher is fakePublisher with one base run: the base commit's run
// of the workflow, and its artifact.
type basePublisher struct {
	fakePublisher
	sha, name, zip string
	id             int64
}

func (p *basePublisher) WorkflowRuns(context.Context, string, githubapi.RunQuery) ([]githubapi.WorkflowRun, error) {
	return []githubapi.WorkflowRun{{ID: p.id, Attempt: 1, HeadSHA: p.sha, Branch: "main", Event: "push",
		Status: "completed", Conclusion: "failure", URL: fmt.Sprintf("https://github.com/o/r/actions/runs/%d", p.id)}}, nil
}

func (p *basePublisher) Artifacts(context.Context, int64) ([]githubapi.Artifact, error) {
	return []githubapi.Artifact{{ID: 77, Name: p.name, Size: 1}}, nil
}

func (p *basePublisher) OpenArtifact(context.Context, int64) (*artifact.Reader, error) {
	return artifact.OpenFile(p.zip)
}

// pictureSHA is the commit of the branch's push i.
func pictureSHA(i int) string { return fmt.Sprintf("%07x%033d", 0x0a1b2c3+i*0x111111, 0) }

// TestCommentPicture: the pull request's comment names TestTotal new,
// TestDiscount pre-existing and TestTax flaky, and is the golden file
// action/testdata/comment/readme.md. With RUNLEDGER_COMMENT_OUT set, the
// body as posted (not normalized) is written there for the picture.
func TestCommentPicture(t *testing.T) {
	inputs := map[string]string{"name": "unit", "command": `go -C "$DEMO" test -v .`}
	var base *basePublisher
	for i, taxFails := range pictureBranch {
		pub := &basePublisher{fakePublisher: fakePublisher{c: &calls{}}}
		if base != nil {
			pub = base
		}
		event := map[string]any{"ref": "refs/heads/main", "after": pictureSHA(i), "before": strings.Repeat("0", 40)}
		if i > 0 {
			event["before"] = pictureSHA(i - 1)
		}
		base = pictureRun(t, inputs, pictureTest(false, taxFails), "push", event, pictureSHA(i), int64(1001+i), pub)
	}
	event := map[string]any{"pull_request": map[string]any{"number": 7, "base": map[string]string{"sha": base.sha, "ref": "main"}}}
	pictureRun(t, inputs, pictureTest(true, true), "pull_request", event, "9f8e7d6c", 2001, base)
	body, err := publish.Body("", base.sections) // the pull request's section, posted through its base's publisher
	if err != nil {
		t.Fatal(err)
	}
	checkComment(t, body, "## ❌ runledger: 1 of 1 step failed")
	for _, want := range []string{"`TestTotal` **new**", "`TestDiscount` _also fails on " + base.sha[:7] + "_", "`TestTax` _flaky_"} {
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

// pictureRun runs the action on a demo module holding test, for an event
// of name with payload on commit sha, reading its base through pub, and
// returns the publisher its successor reads it through: its commit, run
// id and artifact, zipped as the uploader writes it. The run's section is
// posted through pub.
func pictureRun(t *testing.T, inputs map[string]string, test, name string, payload map[string]any, sha string, runID int64, pub *basePublisher) *basePublisher {
	t.Helper()
	demo := goModule(t)
	os.WriteFile(filepath.Join(demo, "demo_test.go"), []byte(test), 0o644)
	eventPath := filepath.Join(t.TempDir(), "event.json")
	data, _ := json.Marshal(payload)
	os.WriteFile(eventPath, data, 0o644)
	env, dir := runnerEnv(t, inputs)
	for k, v := range map[string]string{"GITHUB_EVENT_NAME": name, "GITHUB_EVENT_PATH": eventPath, "GITHUB_SHA": sha,
		"GITHUB_RUN_ID": fmt.Sprint(runID), "GITHUB_RUN_ATTEMPT": "1", "GITHUB_REF_NAME": "main",
		"GITHUB_WORKFLOW_REF": "o/r/.github/workflows/test.yml@refs/heads/main", "GITHUB_WORKFLOW": "test"} {
		env[k] = v
	}
	up := fakeUploader{c: &calls{}}
	runPicture(t, env, goEnviron(demo), up, pub)
	st, err := store.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	rec, runDir, err := st.Find("unit")
	if err != nil {
		t.Fatal(err)
	}
	next := &basePublisher{fakePublisher: fakePublisher{c: &calls{}}, sha: sha, id: runID,
		name: strings.TrimPrefix(up.c.log[0], "upload "), zip: artifacttest.ZipRun(t, runDir, rec.ID, artifacttest.Options{})}
	return next
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
