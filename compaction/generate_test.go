package compaction

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// go test ./compaction -run TestGenerateTranscripts -generate [-scenario NAME]
// rebuilds testdata/transcripts from real fix → re-run loops.
var (
	generate = flag.Bool("generate", false, "regenerate testdata/transcripts by running go test and pytest for real")
	only     = flag.String("scenario", "", "with -generate, regenerate only this scenario")
)

// transcript is one recorded session. Run and ExitCode are the ground
// truth the measurement checks decisions against: they come from what was
// executed and how the process exited, not from the text.
type transcript struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Outputs     []recorded `json:"outputs"`
}

type recorded struct {
	ID       string `json:"id"`
	Command  string `json:"command"`
	Run      bool   `json:"run"`
	ExitCode int    `json:"exit_code"`
	Text     string `json:"text"`
}

// step writes files, then runs cmd with bash in the scenario's directory.
type step struct {
	write map[string]string
	cmd   string
	run   bool // a test or build run, as opposed to a read, diff or cat
}

type scenario struct {
	name, desc string
	steps      []step
}

func TestGenerateTranscripts(t *testing.T) {
	if !*generate {
		t.Skip("run with -generate to rebuild testdata/transcripts")
	}
	for _, tool := range []string{"git", "go", "/usr/bin/python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("generator needs %s: %v", tool, err)
		}
	}
	if err := exec.Command("/usr/bin/python3", "-m", "pytest", "--version").Run(); err != nil {
		t.Fatalf("generator needs pytest (apt-get install -y python3-pytest): %v", err)
	}
	dir := filepath.Join("testdata", "transcripts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sc := range scenarios() {
		if *only != "" && sc.name != *only {
			continue
		}
		tr := runScenario(t, sc)
		data, err := json.MarshalIndent(tr, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, sc.name+".json"), append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runScenario(t *testing.T, sc scenario) transcript {
	work := filepath.Join(t.TempDir(), sc.name)
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	setup := "git init -q && git config user.email dev@example.com && git config user.name dev"
	if _, _, err := shell(work, setup); err != nil {
		t.Fatalf("%s: %v", sc.name, err)
	}
	tr := transcript{Name: sc.name, Description: sc.desc}
	for i, st := range sc.steps {
		for name, body := range st.write {
			writeFile(t, filepath.Join(work, name), body)
		}
		if st.cmd == "" {
			continue
		}
		text, code, err := shell(work, st.cmd)
		if err != nil {
			t.Fatalf("%s step %d %q: %v", sc.name, i, st.cmd, err)
		}
		// Stable paths keep regenerated files comparable.
		text = strings.ReplaceAll(text, work, "/work/"+sc.name)
		tr.Outputs = append(tr.Outputs, recorded{ID: stepID(len(tr.Outputs)),
			Command: st.cmd, Run: st.run, ExitCode: code, Text: text})
	}
	return tr
}

func stepID(i int) string { return "o" + string(rune('a'+i)) }

// shell runs cmd and returns its combined output and exit code; err is for
// a command that could not be run at all.
func shell(dir, cmd string) (string, int, error) {
	c := exec.Command("bash", "-c", cmd)
	c.Dir = dir
	c.Env = append(os.Environ(), "PATH=/usr/local/go/bin:/usr/bin:/bin",
		"GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=", "PYTHONDONTWRITEBYTECODE=1",
		"NO_COLOR=1", "GIT_PAGER=cat", "PAGER=cat")
	out, err := c.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(out), exit.ExitCode(), nil
	}
	return string(out), 0, err
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
