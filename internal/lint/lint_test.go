package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"go.yaml.in/yaml/v4"
)

const root = "../.."

// readRoot reads a file of the repository, rel to its root.
func readRoot(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func lintRepo(t *testing.T, dir string) []*actionlint.Error {
	t.Helper()
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintRepository(dir)
	if err != nil {
		t.Fatalf("actionlint: %v", err)
	}
	return errs
}

// TestWorkflows: every workflow, and action.yml as the self-test uses it
// (inputs passed with `with:` are checked against its inputs), is clean.
func TestWorkflows(t *testing.T) {
	for _, e := range lintRepo(t, root) {
		t.Errorf("%s:%d:%d: %s [%s]", e.Filepath, e.Line, e.Column, e.Message, e.Kind)
	}
}

// TestLintCatchesBreakage: the check above can fail. A copy of the repo's
// action with a workflow passing an input action.yml does not declare.
func TestLintCatchesBreakage(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o755)
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	action := readRoot(t, "action.yml")
	os.WriteFile(filepath.Join(dir, "action.yml"), action, 0o644)
	os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM scratch\n"), 0o644)
	wf := "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: ./\n        with:\n          comand: make test\n"
	os.WriteFile(filepath.Join(dir, ".github", "workflows", "w.yml"), []byte(wf), 0o644)
	errs := lintRepo(t, dir)
	if len(errs) != 1 || !strings.Contains(errs[0].Message, `input "comand" is not defined`) {
		t.Fatalf("want exactly the undeclared input reported, got %v", errs)
	}
}

type actionFile struct {
	Inputs  map[string]struct{ Default string } `yaml:"inputs"`
	Outputs map[string]any                      `yaml:"outputs"`
}

// TestDocsMatchAction: the inputs and outputs tables of docs/action.md
// (generated from action.yml by cmd/runledger's TestDocsGenerated) list
// exactly action.yml's names, and the inputs' defaults agree.
func TestDocsMatchAction(t *testing.T) {
	data := readRoot(t, "action.yml")
	var a actionFile
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	doc := readRoot(t, "docs/action.md")
	inputs, outputs := readmeTable(string(doc), "## Inputs"), readmeTable(string(doc), "## Outputs")
	if got, want := keys(inputs), keysOf(a.Inputs); !equal(got, want) {
		t.Errorf("docs/action.md inputs %v, action.yml %v", got, want)
	}
	if got, want := keys(outputs), keysOf(a.Outputs); !equal(got, want) {
		t.Errorf("docs/action.md outputs %v, action.yml %v", got, want)
	}
	for name, in := range a.Inputs {
		if d, ok := inputs[name]; ok && d != strings.TrimSpace(in.Default) {
			t.Errorf("input %s: docs/action.md default %q, action.yml %q", name, d, in.Default)
		}
	}
}

var row = regexp.MustCompile("^\\| `([a-z-]+)` \\| ([^|]*) \\|")

// readmeTable reads "| `name` | `default` | …" rows under a heading, up to
// the next heading.
func readmeTable(readme, heading string) map[string]string {
	_, rest, ok := strings.Cut(readme, "\n"+heading+"\n")
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, line := range strings.Split(rest, "\n") {
		if strings.HasPrefix(line, "#") {
			break
		}
		if m := row.FindStringSubmatch(line); m != nil {
			out[m[1]] = strings.Trim(strings.TrimSpace(m[2]), "`")
		}
	}
	return out
}

func keys(m map[string]string) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}

func keysOf[V any](m map[string]V) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}

func equal(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

// pinnedFrom is a FROM line whose image names a tag and a digest.
var pinnedFrom = regexp.MustCompile(`^FROM [a-z0-9./-]+:[A-Za-z0-9._-]+@sha256:[0-9a-f]{64}( AS [a-z]+)?$`)

// unpinnedFroms lists the FROM lines of a Dockerfile that lack a tag or a
// digest.
func unpinnedFroms(dockerfile string) []string {
	var bad []string
	for _, line := range strings.Split(dockerfile, "\n") {
		if strings.HasPrefix(strings.ToUpper(line), "FROM ") && !pinnedFrom.MatchString(line) {
			bad = append(bad, line)
		}
	}
	return bad
}

// TestDockerfilePinned: every base image is pinned by tag and digest, and
// the check tells a tag-only line apart.
func TestDockerfilePinned(t *testing.T) {
	data := readRoot(t, "Dockerfile")
	if n := strings.Count(string(data), "\nFROM "); n != 2 {
		t.Errorf("%d FROM lines, want the build and the run stage", n)
	}
	if bad := unpinnedFroms(string(data)); len(bad) > 0 {
		t.Errorf("not pinned by tag and digest: %q", bad)
	}
	if bad := unpinnedFroms("FROM debian:bookworm-slim\nFROM golang@sha256:" + strings.Repeat("a", 64) + "\n"); len(bad) != 2 {
		t.Errorf("the check accepts %d unpinned lines, want it to reject both", 2-len(bad))
	}
}

// TestDocsCompactionTable: the compaction table in docs/compaction.md is
// the one TestTranscriptTable measures and keeps as its golden file.
func TestDocsCompactionTable(t *testing.T) {
	golden := readRoot(t, filepath.Join("compaction", "testdata", "transcripts.golden.md"))
	readme := readRoot(t, "docs/compaction.md")
	table := strings.TrimSpace(string(golden))
	if !strings.HasPrefix(table, "| transcript |") || !strings.Contains(string(readme), table+"\n") {
		t.Errorf("docs/compaction.md does not hold compaction/testdata/transcripts.golden.md as it is:\n%s", table)
	}
}

// TestDocsRecallTable: the excerpt recall table in docs/measurements.md is
// the one TestCorpusRecall measures and keeps as its golden file.
func TestDocsRecallTable(t *testing.T) {
	golden := readRoot(t, filepath.Join("report", "testdata", "corpus", "RECALL.md"))
	readme := readRoot(t, "docs/measurements.md")
	want := "<!-- corpus-recall:begin -->\n" + string(golden) + "<!-- corpus-recall:end -->\n"
	if !strings.HasPrefix(string(golden), "| case |") || !strings.Contains(string(readme), want) {
		t.Errorf("docs/measurements.md does not hold report/testdata/corpus/RECALL.md as it is, between its corpus-recall markers")
	}
}

// TestReleasePinsTheImage: the release workflow rewrites action.yml's
// `  image: Dockerfile` line to the published image's digest; the line it
// looks for must be there, once, or a release would ship an action that
// builds in every job (or the step would fail).
func TestReleasePinsTheImage(t *testing.T) {
	action := readRoot(t, "action.yml")
	release := readRoot(t, filepath.Join(".github", "workflows", "release.yml"))
	if n := strings.Count(string(action), "\n  image: Dockerfile\n"); n != 1 {
		t.Errorf("action.yml has %d '  image: Dockerfile' lines, want 1", n)
	}
	if !strings.Contains(string(release), `sed -i "s#^  image: Dockerfile\$#  image: ${IMAGE}#" action.yml`) {
		t.Error("release.yml no longer pins the image the way this test checks")
	}
}
