package peers

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"github.com/runledger/runledger/internal/fakegithub"
)

// report/action.yml, the native report action, end to end: the CLI runs a
// failing command in the job's workspace (`runledger run`), then the
// action's steps run as the runner runs them. Its runledger step is
// actions/github-script's script, run here by node with what github-script
// gives a script (`require`, `core`) and the environment a JavaScript
// action's process has: the runtime token and results URL, github-script's
// own INPUT_* variables, and none of the composite action's.

type reportAction struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Steps []struct {
			ID   string            `yaml:"id"`
			Run  string            `yaml:"run"`
			Uses string            `yaml:"uses"`
			Env  map[string]string `yaml:"env"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

func readReportAction(t *testing.T) reportAction {
	t.Helper()
	data, err := os.ReadFile("../../report/action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a reportAction
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

func needNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("RUNLEDGER_PEERS_REQUIRED") != "" {
			t.Fatal("node is needed for the report action's github-script step")
		}
		t.Skip("node is needed for the report action's github-script step")
	}
}

// githubScript runs a github-script script as the action would: an async
// function body with require and core in scope.
func githubScript(t *testing.T, script, dir string, env []string) result {
	t.Helper()
	wrapper := `const core = { setFailed(m) { console.log('::error::' + m); process.exitCode = 1; } };
(async () => {` + script + `
})().catch(e => { console.log('::error::Unhandled error: ' + e); process.exitCode = 1; });`
	cmd := exec.Command("node", "-e", wrapper)
	cmd.Dir, cmd.Env = dir, env
	return runCmd(t, cmd)
}

// compositeEnv is s.env without the Docker action's INPUT_* variables, and
// with PATH set.
func compositeEnv(s *step, path string) []string {
	var env []string
	for k, v := range s.env {
		if !strings.HasPrefix(k, "INPUT_") && k != "PATH" {
			env = append(env, k+"="+v)
		}
	}
	return append(env, "PATH="+path)
}

func TestReportAction(t *testing.T) {
	needNode(t)
	a := readReportAction(t)
	gh, act := fakegithub.New(t, ""), actServer(t)
	s := newStep(t, gh, act, "pull_request.opened.json", fakegithub.TokenInstallation)
	bin := runledgerBinary(t)
	path := filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")

	// The project's own step: the CLI, on the runner.
	run := exec.Command(bin, "run", "--name", "unit", "--junit", "junit.xml", "--quiet", "--", "sh", "-c", command(junitFailing, 3))
	run.Dir, run.Env = s.workspace, compositeEnv(s, path)
	if out, err := run.CombinedOutput(); err == nil || run.ProcessState.ExitCode() != 3 {
		t.Fatalf("runledger run: %v, want exit 3\n%s", err, out)
	}

	// The action's inputs as the runner renders toJSON(inputs): the
	// defaults, the token's expression evaluated.
	inputs := map[string]string{}
	for name, in := range a.Inputs {
		inputs[name] = in.Default
		if in.Default == "${{ github.token }}" {
			inputs[name] = fakegithub.TokenInstallation
		}
	}
	js, _ := json.Marshal(inputs)
	var script string
	for _, st := range a.Runs.Steps {
		if st.ID == "action" {
			script = st.With["script"]
		}
	}
	if script == "" {
		t.Fatal("report/action.yml has no step with id action and a script")
	}
	env := append(compositeEnv(s, path), "RUNLEDGER_INPUTS="+string(js),
		// github-script's own inputs, which runledger must not take for its.
		"INPUT_SCRIPT="+script, "INPUT_GITHUB-TOKEN="+fakegithub.TokenInstallation, "INPUT_RETRIES=5",
		"INPUT_RESULT-ENCODING=json", "INPUT_DEBUG=false", "INPUT_USER-AGENT=actions/github-script")
	r := githubScript(t, script, s.workspace, env)
	r.outputs = parseOutputs(t, readText(t, s.env["GITHUB_OUTPUT"]))
	r.summary = readText(t, s.env["GITHUB_STEP_SUMMARY"])
	if r.code != 3 {
		t.Errorf("the step exited %d, want the run's 3 (fail-on: failure)\nstdout:\n%s\nstderr:\n%s", r.code, tail(r.stdout), r.stderr)
	}
	s.env["INPUT_TOKEN"] = fakegithub.TokenInstallation // for checkNoLeak
	local := checkOutputs(t, s, r, "failed", "3")
	checkSummary(t, r, "failed", "")
	// In mode report the section is the step's (job test, step test), the run is unit.
	body := checkComment(t, s, r, true, "### test · unit\n❌ **failed** · ")
	zipped := checkArtifact(t, s, r, local)
	checkNoLeak(t, s, r, body, zipped, readText(t, filepath.Join(s.workspace, r.outputs["report-json"])))
}

// TestReportActionWithoutSetup: without runledger on PATH, both the check
// step and the runledger step say to add the setup action.
func TestReportActionWithoutSetup(t *testing.T) {
	needNode(t)
	a := readReportAction(t)
	empty := t.TempDir()
	var bashPath string
	for _, p := range []string{"/bin/bash", "/usr/bin/bash"} {
		if _, err := os.Stat(p); err == nil {
			bashPath = p
		}
	}
	for _, st := range a.Runs.Steps {
		var r result
		switch {
		case st.Run != "":
			cmd := exec.Command(bashPath, "-e", "-c", st.Run)
			cmd.Env = []string{"PATH=" + empty}
			out, err := cmd.CombinedOutput()
			r.stdout = string(out)
			if err != nil {
				r.code = 1
			}
		case st.With["script"] != "":
			r = githubScript(t, st.With["script"], empty, []string{"PATH=" + empty, "RUNLEDGER_INPUTS={}"})
		default:
			continue
		}
		if r.code == 0 || !strings.Contains(r.stdout, "runledger/runledger/setup") {
			t.Errorf("step %q without runledger on PATH: exit %d, output:\n%s%s", st.ID+st.Uses, r.code, r.stdout, r.stderr)
		}
	}
}
