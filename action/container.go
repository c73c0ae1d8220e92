package action

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/runledger/runledger/record"
)

// imageEnv is set by the Dockerfile: the action runs in runledger's own
// image, which has a shell and git but no language toolchain, and only
// the workspace (and /github/*) mounted from the runner.
const imageEnv = "RUNLEDGER_IMAGE"

// checkImageDir refuses, inside the image, a store dir outside the
// workspace: everything else is the container's own filesystem and is
// gone when the step ends (runner.temp is not mounted at its host path).
func checkImageDir(dir, workspace string) error {
	if workspace == "" || !filepath.IsAbs(dir) {
		return nil // relative: inside the working directory, the workspace
	}
	rel, err := filepath.Rel(workspace, dir)
	if err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return nil
	}
	return fmt.Errorf("input dir %q is outside the workspace %s: inside the action's container it would be lost when the step ends; use a path in the workspace, such as .runledger", dir, workspace)
}

// imageHint explains a command the image could not run: exit 127 is the
// shell's "not found", and the image holds no Go, Node, Python or Rust.
func imageHint(rec *record.Record) string {
	if rec == nil || rec.ExitCode == nil || *rec.ExitCode != 127 {
		return ""
	}
	return "the command exited 127 (not found): runledger's Docker action runs it in its own image, " +
		"which has a shell and git but no language toolchains. Run it on the runner with the CLI " +
		"(`runledger run -- …` in your own step, after setup) and publish with `mode: report`."
}

// gitSafeDirectory adds the workspace to git's safe.directory for the
// command, through git's GIT_CONFIG_COUNT variables rather than a config
// file: inside the container the workspace belongs to another uid and git
// refuses it ("detected dubious ownership"); the runner does not set it
// for Docker actions (https://github.com/actions/runner/issues/2033).
func gitSafeDirectory(env []string, workspace string) []string {
	if workspace == "" {
		return env
	}
	n := 0
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GIT_CONFIG_COUNT="); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	out := make([]string, 0, len(env)+3)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GIT_CONFIG_COUNT=") {
			out = append(out, kv)
		}
	}
	return append(out, fmt.Sprintf("GIT_CONFIG_KEY_%d=safe.directory", n),
		fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", n, workspace), fmt.Sprintf("GIT_CONFIG_COUNT=%d", n+1))
}
