package lint

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"go.yaml.in/yaml/v4"
)

// The composite actions, setup/action.yml and report/action.yml. actionlint
// checks workflows, and action metadata only where a workflow uses it (the
// self-test's `uses: ./setup`, `uses: ./report`); their steps are linted
// here as the steps of a workflow_call workflow with the same inputs.

type compositeAction struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string           `yaml:"using"`
		Steps []map[string]any `yaml:"steps"`
	} `yaml:"runs"`
}

func readComposite(t *testing.T, path string) compositeAction {
	t.Helper()
	data := readRoot(t, path)
	var a compositeAction
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("%s: runs.using %q, want composite", path, a.Runs.Using)
	}
	return a
}

// lintComposite lints an action's steps as a workflow's and returns the
// errors as text.
func lintComposite(t *testing.T, a compositeAction) []string {
	t.Helper()
	inputs := map[string]any{}
	for name := range a.Inputs {
		inputs[name] = map[string]any{"type": "string", "required": false}
	}
	wf := map[string]any{
		"on":   map[string]any{"workflow_call": map[string]any{"inputs": inputs}},
		"jobs": map[string]any{"action": map[string]any{"runs-on": "ubuntu-latest", "steps": a.Runs.Steps}},
	}
	data, err := yaml.Marshal(wf)
	if err != nil {
		t.Fatal(err)
	}
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.Lint("composite.yml", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range errs {
		out = append(out, fmt.Sprintf("%d:%d: %s [%s]", e.Line, e.Column, e.Message, e.Kind))
	}
	if len(out) > 0 {
		t.Logf("as a workflow:\n%s", data)
	}
	return out
}

// TestCompositeActions: each composite action's steps lint clean, every
// run: step names its shell (a composite action requires it), and every
// output is one of a step's.
func TestCompositeActions(t *testing.T) {
	for _, path := range []string{"setup/action.yml", "report/action.yml"} {
		t.Run(path, func(t *testing.T) {
			a := readComposite(t, path)
			for _, e := range lintComposite(t, a) {
				t.Errorf("%s steps: %s", path, e)
			}
			ids := map[string]bool{}
			for i, s := range a.Runs.Steps {
				if _, ok := s["run"]; ok && s["shell"] == nil {
					t.Errorf("%s: step %d runs a script without shell:", path, i)
				}
				if id, ok := s["id"].(string); ok {
					ids[id] = true
				}
			}
			for name, o := range a.Outputs {
				m := regexp.MustCompile(`^\$\{\{ steps\.([a-z-]+)\.outputs\.([a-z-]+) \}\}$`).FindStringSubmatch(o.Value)
				if m == nil || !ids[m[1]] {
					t.Errorf("%s: output %s is %q, want a step's output", path, name, o.Value)
				}
			}
		})
	}
}

// TestCompositeLintCatchesBreakage: the step lint can fail, on an input
// the action does not declare.
func TestCompositeLintCatchesBreakage(t *testing.T) {
	a := readComposite(t, "setup/action.yml")
	a.Runs.Steps = append(a.Runs.Steps, map[string]any{"shell": "bash", "run": "echo ${{ inputs.verison }}"})
	if errs := lintComposite(t, a); len(errs) != 1 || !strings.Contains(errs[0], `"verison"`) {
		t.Errorf("want the undeclared input reported, got %v", errs)
	}
}

// runOnly are the Docker action's inputs that only mode run reads.
var runOnly = map[string]bool{"command": true, "name": true, "timeout": true, "retries": true, "retry-effects": true, "reports": true, "junit": true, "max-log-bytes": true}

// TestReportActionMatchesDockerAction: report/action.yml takes the Docker
// action's inputs for modes report and aggregate, with the same defaults
// (mode's is report), and gives all of its outputs under the same names,
// each the runledger step's own.
func TestReportActionMatchesDockerAction(t *testing.T) {
	data := readRoot(t, "action.yml")
	var docker compositeAction
	if err := yaml.Unmarshal(data, &docker); err != nil {
		t.Fatal(err)
	}
	rep := readComposite(t, "report/action.yml")
	for name, in := range docker.Inputs {
		got, ok := rep.Inputs[name]
		switch {
		case runOnly[name]:
			if ok {
				t.Errorf("report/action.yml has input %s, which only mode run reads", name)
			}
		case !ok:
			t.Errorf("report/action.yml lacks the Docker action's input %s", name)
		case name == "mode":
			if got.Default != "report" {
				t.Errorf("input mode defaults to %q, want report", got.Default)
			}
		case got.Default != in.Default:
			t.Errorf("input %s defaults to %q, the Docker action's to %q", name, got.Default, in.Default)
		}
	}
	for name := range rep.Inputs {
		if _, ok := docker.Inputs[name]; !ok {
			t.Errorf("report/action.yml input %s is not the Docker action's", name)
		}
	}
	if got, want := keysOf(rep.Outputs), keysOf(docker.Outputs); !equal(got, want) {
		t.Errorf("report/action.yml outputs %v, the Docker action's %v", got, want)
	}
	for name, o := range rep.Outputs {
		if want := "${{ steps.action.outputs." + name + " }}"; o.Value != want {
			t.Errorf("output %s is %q, want %q", name, o.Value, want)
		}
	}
	// Every input reaches runledger: the step hands it all of them.
	var step map[string]any
	for _, s := range rep.Runs.Steps {
		if s["id"] == "action" {
			step = s
		}
	}
	env, _ := step["env"].(map[string]any)
	if step == nil || env["RUNLEDGER_INPUTS"] != "${{ toJSON(inputs) }}" {
		t.Errorf("the runledger step does not get every input as RUNLEDGER_INPUTS: %v", step)
	}
}
