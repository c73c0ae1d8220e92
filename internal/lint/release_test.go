package lint

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// TestReleaseStampsSetup: release.yml's pin step, run as written on copies
// of action.yml and setup/action.yml, names the image by digest in one and
// makes the tag setup's default version in the other; `uses:
// runledger/runledger/setup@v1` then installs that release.
func TestReleaseStampsSetup(t *testing.T) {
	data := readRoot(t, filepath.Join(".github", "workflows", "release.yml"))
	var wf struct {
		Jobs map[string]struct {
			Steps []struct{ Name, Run string }
		}
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	var script string
	for _, s := range wf.Jobs["release"].Steps {
		if strings.HasPrefix(s.Name, "pin the image") {
			script, _, _ = strings.Cut(s.Run, "git config") // the edits, not the commit and push
		}
	}
	if script == "" || strings.Contains(script, "${{") {
		t.Fatalf("release.yml: no pin step, or one the runner would rewrite (an expression in its script): %q", script)
	}
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "setup"), 0o755)
	for _, f := range []string{"action.yml", "setup/action.yml"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	const version, image = "v9.8.7", "docker://ghcr.io/runledger/runledger@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "VERSION="+version, "IMAGE="+image)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the pin step: %v\n%s", err, out)
	}
	var action struct {
		Runs struct{ Image string }
	}
	b, _ := os.ReadFile(filepath.Join(dir, "action.yml"))
	if err := yaml.Unmarshal(b, &action); err != nil || action.Runs.Image != image {
		t.Errorf("stamped action.yml runs.image %q (%v), want %s", action.Runs.Image, err, image)
	}
	b, _ = os.ReadFile(filepath.Join(dir, "setup", "action.yml"))
	var setup compositeAction
	if err := yaml.Unmarshal(b, &setup); err != nil || setup.Inputs["version"].Default != version {
		t.Errorf("stamped setup/action.yml version default %q (%v), want %s", setup.Inputs["version"].Default, err, version)
	}
}
