package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's shell blocks are what a newcomer pastes, so each one runs
// here, through the real binary, on a small Go module with one failing
// test (the README's example). A block that cannot run here (it needs
// GitHub, the network, or is this repository's own command) says so on the
// line above its fence: <!-- docs-test: skip (reason) -->.

const readmeModule = `package shop

import "testing"

func TestTotal(t *testing.T) {
	if got := 2 + 2; got != 5 {
		t.Errorf("Total() = %d, want 5", got)
	}
}

func TestEmpty(t *testing.T) {}
`

type shellBlock struct {
	line     int    // of the fence in README.md
	skip     string // the reason it is not run, or ""
	commands []string
}

var skipMark = regexp.MustCompile(`^<!-- docs-test: skip \((.+)\) -->$`)

// shellBlocks are the ```sh blocks of a Markdown text, each command a
// line (a trailing backslash joins the next).
func shellBlocks(md string) []shellBlock {
	var out []shellBlock
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```sh" && lines[i] != "```bash" {
			continue
		}
		b := shellBlock{line: i + 1}
		if i > 0 {
			if m := skipMark.FindStringSubmatch(lines[i-1]); m != nil {
				b.skip = m[1]
			}
		}
		cmd := ""
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			cmd += strings.TrimSuffix(lines[i], "\\")
			if strings.HasSuffix(lines[i], "\\") {
				continue
			}
			if strings.TrimSpace(cmd) != "" && !strings.HasPrefix(strings.TrimSpace(cmd), "#") {
				b.commands = append(b.commands, cmd)
			}
			cmd = ""
		}
		out = append(out, b)
	}
	return out
}

// TestReadmeCommands runs every README shell block not marked skip, in
// order, in one module: `runledger run` may exit 1 (the module's test
// fails on purpose), every other command must exit 0, and none may meet a
// flag or command runledger does not have.
func TestReadmeCommands(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("the README's example module needs go: %v", err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := shellBlocks(string(readme))
	dir, bin := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{"go.mod": "module example.com/shop\n\ngo 1.22\n", "cart_test.go": readmeModule})
	if err := os.Symlink(binary, filepath.Join(bin, "runledger")); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-mod=mod", "NO_COLOR=1", "RUNLEDGER_DIR=")
	ran, skipped := 0, 0
	for _, b := range blocks {
		if b.skip != "" {
			skipped++
			continue
		}
		for _, c := range b.commands {
			ran++
			code, stderr := runShell(t, dir, env, c)
			allowed := code == 0 || (code == 1 && strings.HasPrefix(c, "runledger run "))
			if !allowed || strings.Contains(stderr, "flag provided but not defined") || strings.Contains(stderr, "unknown command") {
				t.Errorf("README.md:%d: %s: exit %d\n%s", b.line, c, code, stderr)
			}
		}
	}
	if ran < 4 || skipped > 3 {
		t.Errorf("%d README commands run, %d blocks skipped: want most blocks run", ran, skipped)
	}
}

func runShell(t *testing.T, dir string, env []string, command string) (int, string) {
	t.Helper()
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	return 0, stderr.String()
}

// TestReadmeTerminalSample: the terminal output the README shows is what
// its command prints as text (what a terminal gets by default), run ids,
// times and durations aside.
func TestReadmeTerminalSample(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("the README's example module needs go: %v", err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sample, ok := strings.Cut(string(readme), "What the terminal sees")
	if ok {
		_, sample, ok = strings.Cut(sample, "```text\n")
		sample, _, _ = strings.Cut(sample, "```\n")
	}
	if !ok || !strings.Contains(sample, "runledger: failed") {
		t.Fatal("README.md has no terminal sample under \"What the terminal sees\"")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"go.mod": "module example.com/shop\n\ngo 1.22\n", "cart_test.go": readmeModule})
	cmd := exec.Command(binary, "run", "--name", "unit", "--report", "--format", "text", "--", "go", "test", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-mod=mod", "NO_COLOR=1", "RUNLEDGER_DIR=")
	out, _ := cmd.CombinedOutput() // exit 1: the test fails on purpose
	if got, want := normalizeSample(string(out)), normalizeSample(sample); got != want {
		t.Errorf("README's terminal sample differs from what the command prints:\n--- README ---\n%s\n--- now ---\n%s", want, got)
	}
}

var sampleNoise = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\d{8}T\d{9}Z-[0-9a-f]{8}`), "RUN-ID"},
	{regexp.MustCompile(`\b\d+(\.\d+)?(ms|s)\b`), "TIME"},
	{regexp.MustCompile(`[ \t]+`), " "},
}

func normalizeSample(s string) string {
	for _, n := range sampleNoise {
		s = n.re.ReplaceAllString(s, n.with)
	}
	return strings.TrimSpace(s)
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
