package peers

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/runledger/runledger/internal/fakegithub"
)

// containerImage is the image the Dockerfile built, named by .ci/run
// (which builds it from a copy of the Dockerfile without the base images'
// digests, over local stand-ins for them: Docker Hub is out of reach
// there; on GitHub the same test can run on the real base images).
func containerImage(t *testing.T) string {
	t.Helper()
	img := os.Getenv("RUNLEDGER_CONTAINER_IMAGE")
	if img == "" {
		if os.Getenv("RUNLEDGER_CONTAINER_REQUIRED") != "" {
			t.Fatal("RUNLEDGER_CONTAINER_IMAGE is not set: build the image first (see .ci/run)")
		}
		t.Skip("no container image built (RUNLEDGER_CONTAINER_IMAGE)")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root, to own the workspace as uid 1001 like a hosted runner")
	}
	return img
}

// runnerStep is a Docker action step as GitHub's runner runs it: the
// workspace, home, workflow and file-command directories mounted at
// /github/*, the job's variables with container paths, INPUT_* from
// action.yml, and a workspace owned by uid 1001.
type runnerStep struct {
	t                         *testing.T
	image                     string
	workspace, home, workflow string
	fileCommands              string
	env                       map[string]string
	name                      string // the container's, for docker kill
}

const runnerUID = 1001

func newRunnerStep(t *testing.T, image string, gh *fakegithub.Server, actURL string) *runnerStep {
	t.Helper()
	temp := t.TempDir()
	s := &runnerStep{t: t, image: image, name: "runledger-step-" + strconv.FormatInt(time.Now().UnixNano(), 36),
		workspace: filepath.Join(temp, "work"), home: filepath.Join(temp, "_github_home"),
		workflow: filepath.Join(temp, "_github_workflow"), fileCommands: filepath.Join(temp, "_runner_file_commands")}
	for _, d := range []string{s.workspace, s.home, s.workflow, s.fileCommands} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	event, err := os.ReadFile(filepath.Join(eventsDir, "pull_request.opened.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(s.workflow, "event.json"), event, 0o644)
	// A checked-out repository, owned as on a hosted runner.
	git := exec.Command("sh", "-c", "git init -q && git -c user.email=a@b -c user.name=n commit -q --allow-empty -m init")
	git.Dir = s.workspace
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git: %v %s", err, out)
	}
	chownAll(t, temp)
	s.env = actionDefaults(t, fakegithub.TokenInstallation)
	for k, v := range map[string]string{
		"HOME": "/github/home", "GITHUB_WORKSPACE": "/github/workspace", "GITHUB_EVENT_PATH": "/github/workflow/event.json",
		"GITHUB_ACTIONS": "true", "CI": "true", "GITHUB_REPOSITORY": repo, "GITHUB_API_URL": gh.APIURL(),
		"GITHUB_SERVER_URL": gh.ServerURL(), "GITHUB_RUN_ID": runID, "GITHUB_RUN_ATTEMPT": "1", "GITHUB_JOB": "test",
		"GITHUB_WORKFLOW": "ci", "GITHUB_SHA": "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", "GITHUB_REF": "refs/pull/2/merge",
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_ACTION": "__runledger_runledger",
		"ACTIONS_RUNTIME_TOKEN": runtimeToken(backendRun, backendJob), "ACTIONS_RESULTS_URL": actURL + "/",
	} {
		s.env[k] = v
	}
	return s
}

func chownAll(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, runnerUID, runnerUID)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// run starts the container for one step, with fresh file-command files
// named as the runner names them, and returns its exit status, output,
// outputs and summary.
func (s *runnerStep) run(id string) result {
	s.t.Helper()
	out, summary := "set_output_"+id, "step_summary_"+id
	for _, f := range []string{out, summary} {
		p := filepath.Join(s.fileCommands, f)
		os.WriteFile(p, nil, 0o644)
		os.Lchown(p, runnerUID, runnerUID)
	}
	s.env["GITHUB_OUTPUT"], s.env["GITHUB_STEP_SUMMARY"] = "/github/file_commands/"+out, "/github/file_commands/"+summary
	args := []string{"run", "--rm", "--network", "host", "--workdir", "/github/workspace", "--name", s.name,
		"-v", s.workspace + ":/github/workspace", "-v", s.home + ":/github/home",
		"-v", s.workflow + ":/github/workflow", "-v", s.fileCommands + ":/github/file_commands"}
	for k, v := range s.env {
		args = append(args, "-e", k+"="+v)
	}
	cmd := exec.Command("docker", append(args, s.image)...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := result{}
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			s.t.Fatalf("docker run: %v", err)
		}
		r.code = ee.ExitCode()
	}
	r.stdout, r.stderr = stdout.String(), stderr.String()
	r.outputs = parseOutputs(s.t, readText(s.t, filepath.Join(s.fileCommands, out)))
	r.summary = readText(s.t, filepath.Join(s.fileCommands, summary))
	return r
}

// TestContainer runs the built image the way the runner runs a `using:
// docker` step and checks, from the host, what a workflow author relies
// on: the command's status, outputs, summary, comment and artifact through
// the fake GitHub and act's artifact server; git working in a workspace of
// another uid; two unnamed steps as two runs; every file the steps left in
// the workspace owned by the workspace's owner; a missing toolchain
// explained; a store outside the workspace refused.
func TestContainer(t *testing.T) {
	image := containerImage(t)
	gh, act := fakegithub.New(t, ""), actServer(t)
	s := newRunnerStep(t, image, gh, act.URL)

	s.env["INPUT_COMMAND"] = "git rev-parse HEAD\necho built > build.out\n" + command(junitFailing, 3)
	s.env["INPUT_JUNIT"] = "junit.xml"
	lint := s.run("0a1b")
	if lint.code != 3 || lint.outputs["status"] != "failed" || lint.outputs["exit-code"] != "3" ||
		lint.outputs["artifact-id"] == "" || !strings.Contains(lint.summary, "TestDivide") {
		t.Fatalf("first step: exit %d outputs %v\nstdout:\n%s\nstderr:\n%s", lint.code, lint.outputs, tail(lint.stdout), lint.stderr)
	}
	if !regexp.MustCompile(`(?m)^[0-9a-f]{40}$`).MatchString(lint.stdout) || strings.Contains(lint.stdout+lint.stderr, "dubious ownership") {
		t.Errorf("git rev-parse HEAD did not work in a workspace of another uid:\n%s\n%s", tail(lint.stdout), lint.stderr)
	}
	s.env["INPUT_COMMAND"], s.env["INPUT_JUNIT"], s.env["GITHUB_ACTION"] = "echo tests pass", "", "__runledger_runledger_2"
	test := s.run("2c3d")
	if test.code != 0 || test.outputs["status"] != "passed" || test.outputs["artifact-id"] == lint.outputs["artifact-id"] {
		t.Errorf("second step: exit %d outputs %v\n%s", test.code, test.outputs, tail(test.stdout))
	}
	if a, b := artifactName(t, act, lint.outputs["artifact-id"]), artifactName(t, act, test.outputs["artifact-id"]); a == b {
		t.Errorf("both steps uploaded artifact %q", a)
	}
	cs := gh.PRComments(prNumber)
	if len(cs) != 1 || strings.Count(cs[0].Body, "\n### test · ") != 2 {
		t.Errorf("want one comment with a section per step, got %d comments", len(cs))
	} else if !strings.HasPrefix(cs[0].Body, "<!-- runledger:comment -->\n## ❌ runledger: 1 of 2 steps failed · 2 tests, 1 failed\n") {
		// One verdict over both steps opens the comment, not the first's.
		t.Errorf("the comment does not open with one verdict over both steps:\n%s", cs[0].Body)
	}
	// Everything left in the workspace is the workspace owner's.
	filepath.WalkDir(s.workspace, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		var st syscall.Stat_t
		if err := syscall.Lstat(p, &st); err == nil && st.Uid != runnerUID {
			t.Errorf("%s is owned by uid %d, not the workspace's owner %d", strings.TrimPrefix(p, s.workspace), st.Uid, runnerUID)
		}
		return nil
	})

	s.env["INPUT_COMMAND"], s.env["GITHUB_ACTION"] = "go test ./...", "__runledger_runledger_3"
	missing := s.run("4e5f")
	if missing.code != 127 || !strings.Contains(missing.stdout, "no language toolchains") {
		t.Errorf("a command the image lacks: exit %d\n%s", missing.code, tail(missing.stdout))
	}
	s.env["INPUT_DIR"], s.env["INPUT_COMMAND"] = "/home/runner/work/_temp/rl", "true"
	lost := s.run("6a7b")
	if lost.code == 0 || !strings.Contains(lost.stdout+lost.stderr, "is outside the workspace") {
		t.Errorf("a store outside the workspace: exit %d\n%s%s", lost.code, lost.stdout, lost.stderr)
	}
}

// TestContainerCancel cancels a step the way the runner does — SIGINT to
// the container, SIGTERM 7.5 s later — and checks that the step reported
// before the SIGTERM: outputs, summary and comment say cancelled.
func TestContainerCancel(t *testing.T) {
	image := containerImage(t)
	gh, act := fakegithub.New(t, ""), actServer(t)
	s := newRunnerStep(t, image, gh, act.URL)
	s.env["INPUT_COMMAND"] = "echo started\nsleep 60\necho never"
	done := make(chan result, 1)
	go func() { done <- s.run("8c9d") }()
	time.Sleep(4 * time.Second) // the container is up and the command sleeping
	start := time.Now()
	if out, err := exec.Command("docker", "kill", "--signal", "SIGINT", s.name).CombinedOutput(); err != nil {
		t.Fatalf("docker kill: %v %s", err, out)
	}
	var r result
	select {
	case r = <-done:
	case <-time.After(7500 * time.Millisecond):
		exec.Command("docker", "kill", "--signal", "SIGTERM", s.name).Run()
		r = <-done
		t.Errorf("still running 7.5 s after SIGINT, when the runner sends SIGTERM")
	}
	t.Logf("SIGINT to exit: %v", time.Since(start))
	if r.outputs["status"] != "cancelled" || !strings.Contains(r.summary, "cancelled") || len(gh.PRComments(prNumber)) != 1 {
		t.Errorf("after SIGINT: exit %d, outputs %v, %d comments\n%s", r.code, r.outputs, len(gh.PRComments(prNumber)), tail(r.stdout))
	}
}
