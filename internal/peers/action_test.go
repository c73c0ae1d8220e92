package peers

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/internal/fakegithub"
	"github.com/runledger/runledger/publish"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/render"
	"github.com/runledger/runledger/store"
)

// The built runledger binary runs as the action's container entrypoint
// (`runledger action`) against two independent peers: the fake GitHub
// (every request held to GitHub's OpenAPI description) for the comment, and
// nektos/act's artifact service for the upload. The test then reads back what
// a workflow would see: the outputs file, the job summary, the comment and
// the artifact.

// What the payloads in publish/testdata/events name.
const (
	eventsDir = "../../publish/testdata/events"
	repo      = "Codertocat/Hello-World"
	prNumber  = 2
	runID     = "7001" // GITHUB_RUN_ID, in the artifact's URL
	// The artifact service's backend ids, from the runtime token.
	backendRun, backendJob = "21", "49"
)

const junitFailing = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="pkg" tests="2" failures="1">
  <testcase classname="pkg" name="TestAdd"/>
  <testcase classname="pkg" name="TestDivide"><failure message="want 2, got 3">divide_test.go:14: want 2, got 3</failure></testcase>
</testsuite>`

const junitPassing = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="pkg" tests="2" failures="0">
  <testcase classname="pkg" name="TestAdd"/>
  <testcase classname="pkg" name="TestDivide"/>
</testsuite>`

// command is a test run through `sh -c`: enough output that a log is more
// than one write, a JUnit file, then its exit status.
func command(junit string, exit int) string {
	return fmt.Sprintf("seq 1 40000\necho 'divide_test.go:14: want 2, got 3' >&2\ncat > junit.xml <<'EOF'\n%s\nEOF\nexit %d", junit, exit)
}

var (
	buildOnce sync.Once
	binDir    string
	binPath   string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	if smallRelease.dir != "" { // setup_test.go's
		os.RemoveAll(smallRelease.dir)
	}
	os.Exit(code)
}

// runledgerBinary builds cmd/runledger once, in the main module as the
// Dockerfile does, so the binary links the versions runledger's own go.mod
// selects rather than this module's (act pulls in its own).
func runledgerBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "runledger-bin-"); buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "runledger")
		cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-o", binPath, "./cmd/runledger")
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/runledger: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// actionDefaults are the INPUT_* variables the runner sets from action.yml's
// defaults, with the token input's `${{ github.token }}` as token.
func actionDefaults(t *testing.T, token string) map[string]string {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatalf("parse action.yml: %v", err)
	}
	env := map[string]string{}
	for name, in := range action.Inputs {
		v := in.Default
		if v == "${{ github.token }}" {
			v = token
		}
		env["INPUT_"+strings.ToUpper(name)] = v
	}
	return env
}

// step is one fabricated run of the action's container.
type step struct {
	t         *testing.T
	gh        *fakegithub.Server
	act       *httptest.Server
	workspace string
	env       map[string]string
}

// newStep fabricates the environment of a Docker action's container on a
// pull_request event whose payload is events/<event>.
func newStep(t *testing.T, gh *fakegithub.Server, act *httptest.Server, event, token string) *step {
	t.Helper()
	home, workspace := t.TempDir(), t.TempDir()
	outputs, summary := filepath.Join(home, "output"), filepath.Join(home, "step_summary")
	for _, p := range []string{outputs, summary} { // the runner creates both
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	eventPath, err := filepath.Abs(filepath.Join(eventsDir, event))
	if err != nil {
		t.Fatal(err)
	}
	env := actionDefaults(t, token)
	for k, v := range map[string]string{
		"PATH": os.Getenv("PATH"), "HOME": home, "TMPDIR": home,
		"GITHUB_ACTIONS": "true", "CI": "true", "GITHUB_WORKSPACE": workspace,
		"GITHUB_REPOSITORY": repo, "GITHUB_API_URL": gh.APIURL(), "GITHUB_SERVER_URL": gh.ServerURL(),
		"GITHUB_RUN_ID": runID, "GITHUB_RUN_ATTEMPT": "1", "GITHUB_JOB": "test", "GITHUB_WORKFLOW": "ci",
		"GITHUB_SHA": "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", "GITHUB_REF": "refs/pull/2/merge",
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": eventPath,
		"GITHUB_OUTPUT": outputs, "GITHUB_STEP_SUMMARY": summary,
		"ACTIONS_RUNTIME_TOKEN": runtimeToken(backendRun, backendJob), "ACTIONS_RESULTS_URL": act.URL + "/",
	} {
		env[k] = v
	}
	return &step{t: t, gh: gh, act: act, workspace: workspace, env: env}
}

// result is what the step left behind.
type result struct {
	code           int
	stdout, stderr string
	outputs        map[string]string
	summary        string
}

func (s *step) run() result {
	s.t.Helper()
	cmd := exec.Command(runledgerBinary(s.t), "action")
	cmd.Dir = s.workspace
	for k, v := range s.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	r := runCmd(s.t, cmd)
	r.outputs = parseOutputs(s.t, readText(s.t, s.env["GITHUB_OUTPUT"]))
	r.summary = readText(s.t, s.env["GITHUB_STEP_SUMMARY"])
	return r
}

// runCmd runs cmd to its end: its exit code (a non-zero one is a result,
// not an error) and its output.
func runCmd(t testing.TB, cmd *exec.Cmd) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := result{}
	var exit *exec.ExitError
	if err := cmd.Run(); errors.As(err, &exit) {
		r.code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("run %s: %v", cmd.Args[0], err)
	}
	r.stdout, r.stderr = stdout.String(), stderr.String()
	return r
}

// parseOutputs reads a GITHUB_OUTPUT file as the runner does: name=value
// lines and name<<DELIMITER heredocs. A name set twice is an error, since
// the runner would keep only the last.
func parseOutputs(t *testing.T, text string) map[string]string {
	t.Helper()
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		name, value, _ := strings.Cut(line, "=")
		eq, here := strings.Index(line, "="), strings.Index(line, "<<")
		switch {
		case here >= 0 && (eq < 0 || here < eq):
			name, value = line[:here], readHeredoc(t, sc, line[here+2:])
		case eq < 0:
			t.Fatalf("outputs file: line %q is neither name=value nor a heredoc", line)
		}
		if _, dup := out[name]; dup {
			t.Errorf("outputs file: %s set twice", name)
		}
		out[name] = value
	}
	return out
}

func readHeredoc(t *testing.T, sc *bufio.Scanner, delim string) string {
	t.Helper()
	var lines []string
	for sc.Scan() {
		if sc.Text() == delim {
			return strings.Join(lines, "\n")
		}
		lines = append(lines, sc.Text())
	}
	t.Fatalf("outputs file: heredoc never closed by %q", delim)
	return ""
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var outputNames = []string{"status", "exit-code", "timed-out", "report-json", "comment-url", "artifact-id", "artifact-url", "regressions"}

func TestActionEntrypoint(t *testing.T) {
	tests := []struct {
		name, event, token, command, failOn string
		wantCode                            int    // the step's exit status
		wantStatus, wantExit                string // outputs
		wantComment                         bool
		wantWarning                         string // in stdout and the summary
	}{
		{name: "failing command", event: "pull_request.opened.json", token: fakegithub.TokenInstallation,
			command: command(junitFailing, 3), wantCode: 3, wantStatus: "failed", wantExit: "3", wantComment: true},
		{name: "passing command", event: "pull_request.opened.json", token: fakegithub.TokenInstallation,
			command: command(junitPassing, 0), wantCode: 0, wantStatus: "passed", wantExit: "0", wantComment: true},
		{name: "failing command, fail-on never", event: "pull_request.opened.json", token: fakegithub.TokenInstallation,
			command: command(junitFailing, 3), failOn: "never", wantCode: 0, wantStatus: "failed", wantExit: "3", wantComment: true},
		// A test suite that dumps its environment (many do on failure) must
		// not publish the secrets only the action was given: a plain `run:`
		// step never sees INPUT_TOKEN or ACTIONS_RUNTIME_TOKEN.
		{name: "command prints its environment", event: "pull_request.opened.json", token: fakegithub.TokenInstallation,
			command: "env\n" + command(junitFailing, 3), wantCode: 3, wantStatus: "failed", wantExit: "3", wantComment: true},
		{name: "fork pull request, read-only token", event: "pull_request.opened.fork.json", token: fakegithub.TokenReadOnly,
			command: command(junitFailing, 3), wantCode: 3, wantStatus: "failed", wantExit: "3", wantWarning: "create comment on pull request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gh, act := fakegithub.New(t, ""), actServer(t)
			s := newStep(t, gh, act, tt.event, tt.token)
			s.env["INPUT_COMMAND"], s.env["INPUT_NAME"], s.env["INPUT_JUNIT"] = tt.command, "unit", "junit.xml"
			if tt.failOn != "" {
				s.env["INPUT_FAIL-ON"] = tt.failOn
			}
			r := s.run()
			if r.code != tt.wantCode {
				t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.wantCode, tail(r.stdout), r.stderr)
			}
			env := checkOutputs(t, s, r, tt.wantStatus, tt.wantExit)
			checkSummary(t, r, tt.wantStatus, tt.wantWarning)
			body := checkComment(t, s, r, tt.wantComment, "### unit\n"+render.Icon(tt.wantStatus)+" **"+tt.wantStatus+"** · ")
			if body != "" {
				// The section embeds this run's envelope for agents.
				got, err := render.ExtractEnvelope(body)
				if err != nil || got.Status != tt.wantStatus {
					t.Errorf("envelope in the comment: %v (status %v)", err, got)
				}
			}
			if tt.wantWarning != "" && !strings.Contains(r.stdout, "::warning::runledger: "+tt.wantWarning) {
				t.Errorf("stdout has no ::warning::%s", tt.wantWarning)
			}
			zipped := checkArtifact(t, s, r, env)
			checkNoLeak(t, s, r, body, zipped, readText(t, filepath.Join(s.workspace, r.outputs["report-json"])))
			if body != "" {
				checkPinned(t, body, unzip(t, zipped))
			}
		})
	}
}

// checkPinned: the envelope the comment embeds carries each log's
// blocks_sha256, and it is the hash of the uploaded manifest's block list
// for that log, so a reader holding the comment can pin the artifact.
func checkPinned(t *testing.T, body string, entries map[string][]byte) {
	t.Helper()
	got, err := render.ExtractEnvelope(body)
	if err != nil {
		t.Fatal(err)
	}
	var m artifact.Manifest
	if err := json.Unmarshal(entries[artifact.ManifestName], &m); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	for _, run := range got.Runs {
		for stream, l := range run.Logs {
			want := ""
			for _, e := range m.Entries {
				if e.Name == run.ID+"/"+filepath.Base(l.Path) {
					want = e.BlocksSHA256
				}
			}
			if l.BlocksSHA256 == "" || l.BlocksSHA256 != want || artifact.BlocksSum(nil) == want {
				t.Errorf("%s: the comment's blocks_sha256 %q, the manifest's %q", stream, l.BlocksSHA256, want)
			}
		}
	}
}

// checkOutputs checks every declared output and returns the local report.
func checkOutputs(t *testing.T, s *step, r result, status, exit string) *report.Envelope {
	t.Helper()
	for _, name := range outputNames {
		if _, ok := r.outputs[name]; !ok {
			t.Errorf("output %s not set; outputs: %q", name, r.outputs)
		}
	}
	if r.outputs["status"] != status || r.outputs["exit-code"] != exit || r.outputs["timed-out"] != "false" {
		t.Errorf("outputs status %q exit-code %q timed-out %q, want %q %q false",
			r.outputs["status"], r.outputs["exit-code"], r.outputs["timed-out"], status, exit)
	}
	id := r.outputs["artifact-id"]
	if !regexp.MustCompile(`^[0-9]+$`).MatchString(id) {
		t.Fatalf("output artifact-id %q: not an id (stdout:\n%s)", id, tail(r.stdout))
	}
	if want := fmt.Sprintf("%s/%s/actions/runs/%s/artifacts/%s", s.gh.ServerURL(), repo, runID, id); r.outputs["artifact-url"] != want {
		t.Errorf("output artifact-url %q, want %q", r.outputs["artifact-url"], want)
	}
	path := r.outputs["report-json"]
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.workspace, path)
	}
	env := &report.Envelope{}
	if err := json.Unmarshal([]byte(readText(t, path)), env); err != nil {
		t.Fatalf("report-json %s: %v", path, err)
	}
	if env.Schema != report.Schema || env.Status != status || len(env.Runs) != 1 {
		t.Errorf("report-json: schema %q status %q with %d runs, want %q %q with 1", env.Schema, env.Status, len(env.Runs), report.Schema, status)
	}
	return env
}

func checkSummary(t *testing.T, r result, status, warning string) {
	t.Helper()
	if len(r.summary) >= publish.MaxSummaryBytes {
		t.Errorf("summary is %d bytes; GitHub drops a summary of 1 MiB or more", len(r.summary))
	}
	// The status comes first, so that a cut summary still says it.
	if i := strings.Index(r.summary, statusLine(status)); i < 0 || i > 100 {
		t.Errorf("summary does not open with %q:\n%s", statusLine(status), tail(r.summary))
	}
	if status == "failed" && !strings.Contains(r.summary, "TestDivide") {
		t.Errorf("summary does not name the failing test:\n%s", tail(r.summary))
	}
	if warning != "" && !strings.Contains(r.summary, "runledger warning: "+warning) {
		t.Errorf("summary does not say the comment failed:\n%s", r.summary)
	}
}

// checkComment checks the sticky comment and returns its body.
func checkComment(t *testing.T, s *step, r result, want bool, section string) string {
	t.Helper()
	cs := s.gh.PRComments(prNumber)
	if !want {
		if len(cs) != 0 || r.outputs["comment-url"] != "" {
			t.Errorf("%d comments, comment-url %q; want none", len(cs), r.outputs["comment-url"])
		}
		if s.gh.CallCount(fakegithub.RouteCreate) == 0 {
			t.Error("the action never tried to comment")
		}
		return ""
	}
	if len(cs) != 1 {
		t.Fatalf("%d comments on pull request %d, want 1", len(cs), prNumber)
	}
	c := cs[0]
	if c.User != fakegithub.ActionsBot || !strings.HasPrefix(c.Body, publish.CommentMarker) || strings.Count(c.Body, section) != 1 {
		t.Errorf("comment by %s lacks the marker or this job's section %q once:\n%s", c.User, section, c.Body)
	}
	if want := fmt.Sprintf("%s/%s/pull/%d#issuecomment-%d", s.gh.ServerURL(), repo, prNumber, c.ID); r.outputs["comment-url"] != want {
		t.Errorf("output comment-url %q, want %q", r.outputs["comment-url"], want)
	}
	return c.Body
}

// checkArtifact downloads the artifact the outputs name from act and holds
// it to the local run store; it returns the zip.
func checkArtifact(t *testing.T, s *step, r result, local *report.Envelope) []byte {
	t.Helper()
	name := artifactName(t, s.act, r.outputs["artifact-id"])
	zipped := download(t, s.act, s.env["ACTIONS_RUNTIME_TOKEN"], name)
	entries := unzip(t, zipped)
	env := &report.Envelope{}
	if err := json.Unmarshal(entries["report.json"], env); err != nil {
		t.Fatalf("artifact's report.json: %v", err)
	}
	if env.Status != local.Status || len(env.Runs) != len(local.Runs) {
		t.Errorf("artifact's report: %q with %d runs; local %q with %d", env.Status, len(env.Runs), local.Status, len(local.Runs))
	}
	for _, run := range env.Runs {
		if run.Logs[record.Stdout].Artifact != name {
			t.Errorf("the artifact's report names artifact %q, uploaded as %q", run.Logs[record.Stdout].Artifact, name)
		}
	}
	for _, run := range local.Runs {
		if run.Logs[record.Stdout].Artifact != name {
			t.Errorf("local report names artifact %q, uploaded as %q", run.Logs[record.Stdout].Artifact, name)
		}
		checkRunFiles(t, filepath.Join(s.workspace, ".runledger", run.ID), run.ID, entries)
	}
	return zipped
}

// checkRunFiles: each log in the zip is the stored log byte for byte, and
// hashes to what record.json says was captured.
func checkRunFiles(t *testing.T, dir, id string, entries map[string][]byte) {
	t.Helper()
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(entries[id+"/"+record.FileName], []byte(readText(t, filepath.Join(dir, record.FileName)))) {
		t.Errorf("%s/record.json in the zip differs from the store", id)
	}
	for _, stream := range record.StreamNames {
		st := rec.Streams[stream]
		got, ok := entries[id+"/"+st.File]
		if !ok {
			t.Errorf("zip lacks %s/%s", id, st.File)
			continue
		}
		stored := readText(t, filepath.Join(dir, st.File))
		if !bytes.Equal(got, []byte(stored)) || st.Truncated || sha(got) != st.SHA256 || int64(len(got)) != st.Bytes {
			t.Errorf("%s/%s: %d bytes %s in the zip; store %d bytes, record %d bytes %s (truncated %v)",
				id, st.File, len(got), sha(got), len(stored), st.Bytes, st.SHA256, st.Truncated)
		}
	}
	if rec.Streams[record.Stdout].Bytes < 200_000 {
		t.Errorf("stdout.log is %d bytes; the command printed more", rec.Streams[record.Stdout].Bytes)
	}
}

// artifactName asks act's ListArtifacts for the artifact with this id.
func artifactName(t *testing.T, srv *httptest.Server, id string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"workflow_run_backend_id": backendRun, "workflow_job_run_backend_id": backendJob, "id_filter": id})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/twirp/github.actions.results.api.v1.ArtifactService/ListArtifacts", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+runtimeToken(backendRun, backendJob))
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Artifacts []struct {
			Name string `json:"name"`
		} `json:"artifacts"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list.Artifacts) != 1 {
		t.Fatalf("ListArtifacts id %s: HTTP %d, %d artifacts, %v", id, resp.StatusCode, len(list.Artifacts), err)
	}
	return list.Artifacts[0].Name
}

func unzip(t *testing.T, zipped []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name], err = io.ReadAll(rc) // archive/zip checks the CRC-32 at EOF
		rc.Close()
		if err != nil {
			t.Fatalf("zip entry %s: %v", f.Name, err)
		}
	}
	return out
}

// checkNoLeak: the token reaches GitHub only in the Authorization header. The
// one place it may be printed is the ::add-mask:: command the runner
// swallows; the runtime token is never printed at all.
func checkNoLeak(t *testing.T, s *step, r result, comment string, zipped []byte, localReport string) {
	t.Helper()
	token, runtime := s.env["INPUT_TOKEN"], s.env["ACTIONS_RUNTIME_TOKEN"]
	if !strings.Contains(r.stdout, "::add-mask::"+token+"\n") {
		t.Error("the token was never masked")
	}
	stdout := strings.ReplaceAll(r.stdout, "::add-mask::"+token+"\n", "")
	places := []struct{ where, text string }{
		{"stdout", stdout}, {"stderr", r.stderr}, {"job summary", r.summary}, {"comment", comment},
		{"artifact", string(zipped)}, {"local report.json", localReport},
		{"requests to GitHub", strings.Join(s.gh.Bodies(), "\n")},
	}
	for _, p := range places {
		for _, secret := range []struct{ what, value string }{{"token", token}, {"runtime token", runtime}} {
			if strings.Contains(p.text, secret.value) {
				t.Errorf("the %s appears in the %s", secret.what, p.where)
			}
		}
	}
}

func statusLine(status string) string { return "**runledger: " + status + "**" }

func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

// TestActionAggregate: two matrix legs upload their artifacts; the final job
// downloads each leg's report.json into a directory of its own, as
// actions/download-artifact does, and `mode: aggregate` writes one comment
// holding both legs' sections.
func TestActionAggregate(t *testing.T) {
	act := actServer(t)
	legs := uploadLegs(t, act)
	tests := []struct {
		name, event, token string
		wantComment        bool
		wantWarning        string // in stdout and the summary
	}{
		{"same-repository pull request", "pull_request.opened.json", fakegithub.TokenInstallation, true, ""},
		{"fork pull request, read-only token", "pull_request.opened.fork.json", fakegithub.TokenReadOnly, false, "create comment on pull request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gh := fakegithub.New(t, "")
			links := addLegArtifacts(t, gh, legs)
			s := newStep(t, gh, act, tt.event, tt.token)
			s.env["INPUT_MODE"], s.env["INPUT_DIR"] = "aggregate", legs
			r := s.run()
			if r.code != 1 || r.outputs["status"] != "failed" || r.outputs["exit-code"] != "" {
				t.Errorf("exit status %d, outputs status %q exit-code %q; want 1, failed and none (no command ran)\n%s%s",
					r.code, r.outputs["status"], r.outputs["exit-code"], tail(r.stdout), r.stderr)
			}
			body := checkComment(t, s, r, tt.wantComment, "### runledger-test-linux\n❌ **failed** · ")
			if tt.wantComment && strings.Count(body, "### runledger-test-macos\n✅ **passed** · ") != 1 {
				t.Errorf("comment lacks the macos leg's section:\n%s", body)
			}
			checkSummary(t, r, "failed", "")
			// Failing runs point to their full logs (a passing one has no
			// pointers, as in mode run): the failing leg's go to its artifact.
			if link := links["runledger-test-linux"]; tt.wantComment && !strings.Contains(body, "[artifact]("+link+")") {
				t.Errorf("comment does not link the linux leg's artifact %s:\n%s", link, body)
			}
			if n := gh.CallCount(fakegithub.RouteArtifacts); n != 1 {
				t.Errorf("%d artifact listings, want 1", n)
			}
			if tt.wantWarning != "" && !strings.Contains(r.stdout, "::warning::runledger: "+tt.wantWarning) {
				t.Errorf("stdout has no ::warning::runledger: %s\n%s", tt.wantWarning, tail(r.stdout))
			}
			// As in mode run: a comment that could not be written is said
			// where the reader looks instead, the job summary.
			if tt.wantWarning != "" && !strings.Contains(r.summary, tt.wantWarning) {
				t.Errorf("summary does not say the comment failed (%q):\n%s", tt.wantWarning, tail(r.summary))
			}
			checkNoLeak(t, s, r, body, nil, "")
		})
	}
}

// TestActionAggregateGreen: when every leg passed, no section points to
// logs, so the aggregate does not list the run's artifacts.
func TestActionAggregateGreen(t *testing.T) {
	act := actServer(t)
	legs := uploadLegs(t, act)
	green := t.TempDir()
	if err := os.CopyFS(filepath.Join(green, "runledger-test-macos"), os.DirFS(filepath.Join(legs, "runledger-test-macos"))); err != nil {
		t.Fatal(err)
	}
	gh := fakegithub.New(t, "")
	s := newStep(t, gh, act, "pull_request.opened.json", fakegithub.TokenInstallation)
	s.env["INPUT_MODE"], s.env["INPUT_DIR"] = "aggregate", green
	r := s.run()
	if r.code != 0 || r.outputs["status"] != "passed" {
		t.Fatalf("exit %d, status %q\n%s%s", r.code, r.outputs["status"], tail(r.stdout), r.stderr)
	}
	if n := gh.CallCount(fakegithub.RouteArtifacts); n != 0 {
		t.Errorf("%d artifact listings for an all-green matrix, want none", n)
	}
	checkComment(t, s, r, true, "### runledger-test-macos\n✅ **passed** · ")
}

// addLegArtifacts lists each leg's artifact (a directory under legs) as an
// artifact of the workflow run, and returns the link each should get.
func addLegArtifacts(t *testing.T, gh *fakegithub.Server, legs string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(legs)
	if err != nil || len(entries) != 2 {
		t.Fatalf("legs: %d, %v", len(entries), err)
	}
	run, _ := strconv.ParseInt(runID, 10, 64)
	gh.AddArtifact(run, "runledger-expired", true)
	links := map[string]string{}
	for _, e := range entries {
		id := gh.AddArtifact(run, e.Name(), false)
		links[e.Name()] = fmt.Sprintf("%s/%s/actions/runs/%s/artifacts/%d", gh.ServerURL(), repo, runID, id)
	}
	return links
}

// uploadLegs runs a failing linux leg and a passing macos leg with
// comment: false, and downloads each one's report.json from its artifact
// into <dir>/<artifact name>/, returning dir.
func uploadLegs(t *testing.T, act *httptest.Server) string {
	t.Helper()
	gh, legs := fakegithub.New(t, ""), t.TempDir()
	for _, leg := range []struct {
		name, command, status string
	}{
		{"linux", command(junitFailing, 3), "failed"},
		{"macos", command(junitPassing, 0), "passed"},
	} {
		s := newStep(t, gh, act, "pull_request.opened.json", fakegithub.TokenInstallation)
		s.env["INPUT_COMMAND"], s.env["INPUT_NAME"], s.env["INPUT_JUNIT"] = leg.command, leg.name, "junit.xml"
		s.env["INPUT_COMMENT"] = "false" // the aggregate job comments
		r := s.run()
		if r.outputs["status"] != leg.status || r.outputs["artifact-id"] == "" {
			t.Fatalf("leg %s: status %q, artifact-id %q\n%s", leg.name, r.outputs["status"], r.outputs["artifact-id"], tail(r.stdout))
		}
		name := artifactName(t, act, r.outputs["artifact-id"])
		envelope := unzip(t, download(t, act, s.env["ACTIONS_RUNTIME_TOKEN"], name))["report.json"]
		if err := os.MkdirAll(filepath.Join(legs, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(legs, name, "report.json"), envelope, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n := gh.TotalCalls(); n != 0 {
		t.Fatalf("legs with comment: false made %d calls to GitHub", n)
	}
	return legs
}

// TestActionTwoUnnamedSteps: two steps of one job with no name input — a
// lint step that fails, then a test step that passes — are two runs, not
// two attempts of one: the lint failure is not superseded and the store
// reads failed, each step uploads an artifact of its own (one name twice
// is a 409 on GitHub), and the comment keeps a section per step.
func TestActionTwoUnnamedSteps(t *testing.T) {
	gh, act := fakegithub.New(t, ""), actServer(t)
	s := newStep(t, gh, act, "pull_request.opened.json", fakegithub.TokenInstallation)
	s.env["INPUT_COMMAND"], s.env["GITHUB_ACTION"] = "echo linting; exit 2", "__runledger_runledger"
	lint := s.run()
	for _, f := range []string{s.env["GITHUB_OUTPUT"], s.env["GITHUB_STEP_SUMMARY"]} { // a step's own files
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s.env["INPUT_COMMAND"], s.env["GITHUB_ACTION"] = "echo testing", "__runledger_runledger_2"
	test := s.run()
	if lint.code != 2 || test.code != 0 || lint.outputs["status"] != "failed" || test.outputs["status"] != "passed" {
		t.Fatalf("lint exit %d %s, test exit %d %s", lint.code, lint.outputs["status"], test.code, test.outputs["status"])
	}
	if a, b := lint.outputs["artifact-id"], test.outputs["artifact-id"]; a == "" || a == b ||
		artifactName(t, s.act, a) == artifactName(t, s.act, b) {
		t.Errorf("both steps uploaded one artifact name (ids %s, %s)", a, b)
	}
	st, err := store.Open(filepath.Join(s.workspace, ".runledger"))
	if err != nil {
		t.Fatal(err)
	}
	env, err := report.Build(st, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(env.Runs) != 2 || len(env.Superseded) != 0 || env.Status != "failed" {
		t.Errorf("the store: %d runs, %d superseded, %s; want 2 runs, none superseded, failed", len(env.Runs), len(env.Superseded), env.Status)
	}
	cs := s.gh.PRComments(prNumber)
	if len(cs) != 1 || !strings.Contains(cs[0].Body, "echo linting; exit (test/__runledger_runledger)") ||
		!strings.Contains(cs[0].Body, "echo testing (test/__runledger_runledger_2)") {
		t.Errorf("want one comment with a section per step, got %d:\n%v", len(cs), cs)
	} else if testing.Verbose() {
		t.Log(cs[0].Body)
	}
}

// TestActionInImage: run as in runledger's image (RUNLEDGER_IMAGE set by
// the Dockerfile), a command the image lacks gets a report that says so
// and names the way that works; a store dir outside the workspace, lost
// with the container, is refused with an error naming it.
func TestActionInImage(t *testing.T) {
	gh, act := fakegithub.New(t, ""), actServer(t)
	s := newStep(t, gh, act, "pull_request.opened.json", fakegithub.TokenInstallation)
	s.env["RUNLEDGER_IMAGE"], s.env["INPUT_COMMAND"] = "1", "no-such-toolchain test ./..."
	r := s.run()
	if r.code != 127 || !strings.Contains(r.stdout, "::error::runledger: the command exited 127 (not found)") {
		t.Fatalf("exit %d; stdout:\n%s", r.code, tail(r.stdout))
	}
	env := &report.Envelope{}
	if err := json.Unmarshal([]byte(readText(t, filepath.Join(s.workspace, r.outputs["report-json"]))), env); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(env.Warnings, "\n"), "mode: report") {
		t.Errorf("the report does not explain the missing tool: %q", env.Warnings)
	}
	for _, f := range []string{s.env["GITHUB_OUTPUT"], s.env["GITHUB_STEP_SUMMARY"]} {
		os.WriteFile(f, nil, 0o644)
	}
	s.env["INPUT_DIR"], s.env["INPUT_COMMAND"] = "/tmp/elsewhere", "true"
	r = s.run()
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, `input dir "/tmp/elsewhere" is outside the workspace`) {
		t.Errorf("a store outside the workspace: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestActionCancelledPublishesFirst: the runner cancels a step with SIGINT
// and kills it 7.5 s later (after a SIGTERM). The action then writes the
// summary and the comment before it uploads, and gives the upload only
// the time left: here the artifact service never answers, and the step
// still reports, within the budget, that the run was cancelled.
func TestActionCancelledPublishesFirst(t *testing.T) {
	gh := fakegithub.New(t, "")
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(time.Minute):
		}
	}))
	t.Cleanup(hang.Close)
	s := newStep(t, gh, hang, "pull_request.opened.json", fakegithub.TokenInstallation)
	s.env["INPUT_COMMAND"], s.env["INPUT_NAME"] = "echo started\nsleep 60\necho never", "unit"
	cmd := exec.Command(runledgerBinary(t), "action")
	cmd.Dir = s.workspace
	for k, v := range s.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 30 s after SIGINT:\n%s", tail(stdout.String()))
	}
	took := time.Since(start)
	outputs := parseOutputs(t, readText(t, s.env["GITHUB_OUTPUT"]))
	summary := readText(t, s.env["GITHUB_STEP_SUMMARY"])
	if outputs["status"] != "cancelled" || !strings.Contains(summary, "cancelled") || len(gh.PRComments(prNumber)) != 1 {
		t.Errorf("after SIGINT: outputs %v, summary %d bytes, %d comments\n%s", outputs, len(summary), len(gh.PRComments(prNumber)), tail(stdout.String()))
	}
	if !strings.Contains(stdout.String(), "::warning::runledger: artifact:") {
		t.Errorf("the upload that ran out of time is not reported:\n%s", tail(stdout.String()))
	}
	// The fake GitHub validates every request against GitHub's OpenAPI
	// description, about two seconds each: the comment's time is the
	// fake's. What bounds the rest is the action's budget.
	t.Logf("SIGINT to exit: %v", took)
}

// TestActionArtifactNameTaken: GitHub refuses a second artifact of one name
// in a workflow run (409 already_exists; act's server does not, so a
// proxy in front of it answers as GitHub does). A step whose artifact-name
// was used already uploads under the next free suffix and says so.
func TestActionArtifactNameTaken(t *testing.T) {
	gh, act := fakegithub.New(t, ""), actServer(t)
	target, _ := url.Parse(act.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	seen := map[string]bool{}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/CreateArtifact") {
			body, _ := io.ReadAll(r.Body)
			var req struct {
				Name string `json:"name"`
			}
			json.Unmarshal(body, &req)
			mu.Lock()
			taken := seen[req.Name]
			seen[req.Name] = true
			mu.Unlock()
			if taken {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusConflict)
				io.WriteString(w, `{"code":"already_exists","msg":"an artifact with this name already exists on the workflow run"}`)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	s := newStep(t, gh, front, "pull_request.opened.json", fakegithub.TokenInstallation)
	s.env["INPUT_COMMAND"], s.env["INPUT_ARTIFACT-NAME"] = "echo first", "logs"
	first := s.run()
	for _, f := range []string{s.env["GITHUB_OUTPUT"], s.env["GITHUB_STEP_SUMMARY"]} {
		os.WriteFile(f, nil, 0o644)
	}
	s.env["INPUT_COMMAND"], s.env["GITHUB_ACTION"] = "echo second", "__runledger_runledger_2"
	second := s.run()
	if first.outputs["artifact-id"] == "" || second.outputs["artifact-id"] == "" || first.outputs["artifact-id"] == second.outputs["artifact-id"] {
		t.Fatalf("artifact ids %q, %q\n%s", first.outputs["artifact-id"], second.outputs["artifact-id"], tail(second.stdout))
	}
	if name := artifactName(t, act, second.outputs["artifact-id"]); name != "logs-2" ||
		!strings.Contains(second.stdout, `artifact \"logs\" exists in this workflow run already`) && !strings.Contains(second.stdout, `artifact "logs" exists in this workflow run already`) {
		t.Errorf("second upload named %q; stdout:\n%s", name, tail(second.stdout))
	}
}
