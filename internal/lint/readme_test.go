package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The workflows in README.md and docs/*.md (```yaml blocks with on: and
// jobs:) are linted as workflows, with the released actions they use
// (runledger/runledger@v1, …/setup@v1, …/report@v1) resolved to this
// checkout's, so that an input the docs pass must be one the action
// declares.

type snippet struct {
	file string // the document, relative to the repository's root
	line int    // of the block's first line in it
	text string
}

// readmeWorkflows are the README's ```yaml blocks that are whole workflows.
func readmeWorkflows(file, readme string) []snippet {
	var out []snippet
	lines := strings.Split(readme, "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```yaml" {
			continue
		}
		start := i + 1
		for i++; i < len(lines) && lines[i] != "```"; i++ {
		}
		text := strings.Join(lines[start:i], "\n") + "\n"
		if strings.HasPrefix(text, "on:") || strings.Contains(text, "\non:") {
			if strings.Contains(text, "\njobs:") {
				out = append(out, snippet{file: file, line: start + 1, text: text})
			}
		}
	}
	return out
}

var released = strings.NewReplacer(
	"uses: runledger/runledger/setup@v1", "uses: ./setup",
	"uses: runledger/runledger/report@v1", "uses: ./report",
	"uses: runledger/runledger@v1", "uses: ./",
)

// lintReadme lints each workflow of the documents (name → text) in a copy
// of the repository's actions and returns the errors, each with its
// document's line.
func lintReadme(t *testing.T, docs map[string]string) ([]string, int) {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{".git", ".github/workflows", "setup", "report"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"action.yml", "Dockerfile", "setup/action.yml", "report/action.yml"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	var snippets []snippet
	for _, name := range keysOf(docs) {
		snippets = append(snippets, readmeWorkflows(name, docs[name])...)
	}
	for i, s := range snippets {
		os.WriteFile(filepath.Join(dir, ".github", "workflows", fmt.Sprintf("readme-%d.yml", i)), []byte(released.Replace(s.text)), 0o644)
	}
	var out []string
	for _, e := range lintRepo(t, dir) {
		var i int
		fmt.Sscanf(filepath.Base(e.Filepath), "readme-%d.yml", &i)
		out = append(out, fmt.Sprintf("%s:%d: %s [%s]", snippets[i].file, snippets[i].line+e.Line-1, e.Message, e.Kind))
	}
	return out, len(snippets)
}

// TestReadmeWorkflows: every workflow in README.md and docs/*.md lints
// clean.
func TestReadmeWorkflows(t *testing.T) {
	docs := map[string]string{"README.md": string(readRoot(t, "README.md"))}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, p := range pages {
		rel := "docs/" + filepath.Base(p)
		docs[rel] = string(readRoot(t, rel))
	}
	errs, n := lintReadme(t, docs)
	for _, e := range errs {
		t.Error(e)
	}
	// README's, and docs/action.md's: Go, Python, Node, Rust, the OS
	// matrix, the Docker action, report mode, the regression gate, the
	// fork recipe and the monorepo.
	if n < 10 {
		t.Errorf("%d workflows found in README.md and docs/, want at least 10: the extraction lost some", n)
	}
}

// TestReadmeLintCatchesBreakage: an input the report action does not
// declare, and a broken expression, are reported at their README lines.
func TestReadmeLintCatchesBreakage(t *testing.T) {
	readme := "x\n\n```yaml\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n" +
		"      - uses: runledger/runledger/report@v1\n        with: {mod: aggregate}\n" +
		"      - run: echo ${{ matrix.os }}\n```\n\n```yaml\n- run: not a workflow\n```\n"
	errs, n := lintReadme(t, map[string]string{"README.md": readme})
	if n != 1 || len(errs) != 2 || !strings.HasPrefix(errs[0], "README.md:10: ") || !strings.Contains(errs[0], `input "mod" is not defined`) ||
		!strings.HasPrefix(errs[1], "README.md:11: ") {
		t.Errorf("%d workflows, errors %q; want 1, the undeclared input at line 10 and the matrix at line 11", n, errs)
	}
}
