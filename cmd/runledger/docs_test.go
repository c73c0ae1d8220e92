package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/golden"
	"go.yaml.in/yaml/v4"
)

// The reference docs' tables of names are generated from the code, so they
// cannot drift from it: docs/*.md hold blocks
//
//	<!-- generated:NAME (go generate ./cmd/runledger; …) -->
//	…
//	<!-- /generated:NAME -->
//
// whose contents TestDocsGenerated rewrites with -update (which is what
// `go generate ./cmd/runledger` runs) and otherwise compares: a flag, an
// input, an output, a runner or a report format added to the code and not
// regenerated fails the test. Everything the generators read from the rest
// of the code base is in docSources, so that when the runners and formats
// become registries only that function changes.

const docsDir = "../../docs"

// docSources are what the generated sections are made of.
type docSources struct {
	commands []commandDoc
	actions  []actionDoc
	formats  []string       // report.Formats: summary.source of each report format
	runners  []runnerDoc    // report/runners' parsers and declarations
	declared map[string]int // runners whose declaration has Totals, for the prose table's check
	record   []fieldDoc     // record.Record's JSON fields
	envelope []fieldDoc     // report.Envelope's JSON fields
}

// generators are the generated sections, by name.
func generators(src docSources) map[string]func() (string, error) {
	return map[string]func() (string, error){
		"cli-commands":   func() (string, error) { return commandsTable(src.commands), nil },
		"cli-flags":      func() (string, error) { return flagTables(src.commands), nil },
		"action-inputs":  func() (string, error) { return inputsTable(src.actions[0]), nil },
		"action-outputs": func() (string, error) { return outputsTable(src.actions[0]), nil },
		"composite-actions": func() (string, error) {
			return compositeTables(src.actions[1:]), nil
		},
		"report-formats":  func() (string, error) { return formatsTable(src.formats) },
		"runner-sources":  func() (string, error) { return runnersTable(src.runners), nil },
		"record-fields":   func() (string, error) { return fieldsTable(src.record), nil },
		"envelope-fields": func() (string, error) { return fieldsTable(src.envelope), nil },
	}
}

//go:generate go test . -run TestDocsGenerated -update

// TestDocsGenerated: every generated block in docs/ is what its generator
// makes now, every generator's block exists, and no block names an unknown
// generator.
func TestDocsGenerated(t *testing.T) {
	gens := generators(loadDocSources(t))
	files, err := filepath.Glob(filepath.Join(docsDir, "*.md"))
	if err != nil || len(files) < 5 {
		t.Fatalf("docs/*.md: %d files, %v", len(files), err)
	}
	used := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, names, err := regenerate(string(data), gens)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, n := range names {
			used[n] = true
		}
		if len(names) > 0 {
			golden.Check(t, f, []byte(got))
		}
	}
	for n := range gens {
		if !used[n] {
			t.Errorf("no docs page holds the generated block %q", n)
		}
	}
}

var blockStart = regexp.MustCompile(`(?m)^<!-- generated:([a-z-]+)\b[^\n]*-->\n`)

// regenerate replaces the contents of every generated block in doc and
// returns the new text and the blocks' names.
func regenerate(doc string, gens map[string]func() (string, error)) (string, []string, error) {
	var out strings.Builder
	var names []string
	for {
		loc := blockStart.FindStringSubmatchIndex(doc)
		if loc == nil {
			out.WriteString(doc)
			return out.String(), names, nil
		}
		name := doc[loc[2]:loc[3]]
		end := "<!-- /generated:" + name + " -->\n"
		stop := strings.Index(doc[loc[1]:], end)
		if stop < 0 {
			return "", nil, fmt.Errorf("generated block %q has no %q line", name, strings.TrimSpace(end))
		}
		gen, ok := gens[name]
		if !ok {
			return "", nil, fmt.Errorf("generated block %q: no such generator (cmd/runledger/docs_test.go)", name)
		}
		body, err := gen()
		if err != nil {
			return "", nil, fmt.Errorf("generated block %q: %w", name, err)
		}
		out.WriteString(doc[:loc[1]])
		out.WriteString(body)
		out.WriteString(end)
		names = append(names, name)
		doc = doc[loc[1]+stop+len(end):]
	}
}

// TestRegenerateCatchesStaleness: a block whose contents differ from its
// generator's is rewritten, text around it is kept, and an unknown or
// unterminated block is an error naming it.
func TestRegenerateCatchesStaleness(t *testing.T) {
	gens := map[string]func() (string, error){"x": func() (string, error) { return "new\n", nil }}
	got, names, err := regenerate("a\n<!-- generated:x (note) -->\nold\n<!-- /generated:x -->\nb\n", gens)
	if err != nil || got != "a\n<!-- generated:x (note) -->\nnew\n<!-- /generated:x -->\nb\n" || !slices.Equal(names, []string{"x"}) {
		t.Errorf("regenerate = %q, %q, %v", got, names, err)
	}
	if _, _, err := regenerate("<!-- generated:y -->\n<!-- /generated:y -->\n", gens); err == nil || !strings.Contains(err.Error(), `"y"`) {
		t.Errorf("unknown block: err %v", err)
	}
	if _, _, err := regenerate("<!-- generated:x -->\nold\n", gens); err == nil || !strings.Contains(err.Error(), "/generated:x") {
		t.Errorf("unterminated block: err %v", err)
	}
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
}

// code is s as a code span, or empty.
func code(s string) string {
	if s == "" {
		return ""
	}
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// ---- the CLI

type commandDoc struct {
	name, summary, synopsis string
	flags                   []*flag.Flag
}

// flagRecorder is a stderr that keeps the flag set a command builds: each
// command is run with -h, which parses its flags and returns before doing
// anything (newFlagSet hands the set to a flagSetObserver).
type flagRecorder struct {
	bytes.Buffer
	fs *flag.FlagSet
}

func (r *flagRecorder) observeFlagSet(fs *flag.FlagSet) { r.fs = fs }

// commandDocs runs every command but the Action's entrypoint (which reads
// INPUT_* and ignores its arguments) with -h and collects its flags.
func commandDocs(t *testing.T) []commandDoc {
	t.Helper()
	var out []commandDoc
	for _, c := range commands() {
		d := commandDoc{name: c.name, summary: c.summary}
		if c.name != "action" {
			rec := &flagRecorder{}
			a := &app{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: rec, getenv: func(string) string { return "" }}
			a.status(c, c.run(a, []string{"-h"}))
			if rec.fs != nil {
				d.synopsis, _, _ = strings.Cut(rec.String(), "\n")
				d.synopsis = strings.TrimPrefix(d.synopsis, "usage: ")
				rec.fs.VisitAll(func(f *flag.Flag) { d.flags = append(d.flags, f) })
			}
		}
		out = append(out, d)
	}
	return out
}

func commandsTable(cmds []commandDoc) string {
	var b strings.Builder
	b.WriteString("| command | what it does |\n| --- | --- |\n")
	for _, c := range cmds {
		name := code("runledger " + c.name)
		if len(c.flags) > 0 {
			name = fmt.Sprintf("[%s](#runledger-%s)", name, c.name)
		}
		fmt.Fprintf(&b, "| %s | %s |\n", name, cell(c.summary))
	}
	return b.String()
}

// flagTables is a heading, the synopsis and a table of flags per command.
func flagTables(cmds []commandDoc) string {
	var b strings.Builder
	for _, c := range cmds {
		if len(c.flags) == 0 {
			continue
		}
		fmt.Fprintf(&b, "### runledger %s\n\n```\nrunledger %s\n```\n\n", c.name, strings.TrimPrefix(c.synopsis, "runledger "))
		b.WriteString("| flag | default | meaning |\n| --- | --- | --- |\n")
		for _, f := range c.flags {
			name, _ := flag.UnquoteUsage(f)
			flagCell := code("--" + f.Name)
			if name != "" {
				flagCell = code("--" + f.Name + " " + name)
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", flagCell, code(f.DefValue), cell(f.Usage))
		}
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// ---- the Actions

type actionDoc struct {
	path string // relative to the repository's root
	file struct {
		Name    string `yaml:"name"`
		Inputs  map[string]struct{ Description, Default string }
		Outputs map[string]struct{ Description string }
	}
	inputs, outputs []string // in the file's order
}

func loadAction(t *testing.T, rel string) actionDoc {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	a := actionDoc{path: rel}
	if err := yaml.Unmarshal(data, &a.file); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	// The maps lose the file's order, which is the order a reader wants.
	var order struct{ Inputs, Outputs yaml.Node }
	if err := yaml.Unmarshal(data, &order); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	a.inputs, a.outputs = keysInOrder(order.Inputs), keysInOrder(order.Outputs)
	return a
}

func keysInOrder(n yaml.Node) []string {
	var out []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, n.Content[i].Value)
	}
	return out
}

func inputsTable(a actionDoc) string {
	var b strings.Builder
	b.WriteString("| input | default | meaning |\n| --- | --- | --- |\n")
	for _, n := range a.inputs {
		in := a.file.Inputs[n]
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", n, code(in.Default), cell(in.Description))
	}
	return b.String()
}

func outputsTable(a actionDoc) string {
	var b strings.Builder
	b.WriteString("| output | meaning |\n| --- | --- |\n")
	for _, n := range a.outputs {
		fmt.Fprintf(&b, "| `%s` | %s |\n", n, cell(a.file.Outputs[n].Description))
	}
	return b.String()
}

// compositeTables are the setup and report actions' inputs and outputs.
func compositeTables(as []actionDoc) string {
	var b strings.Builder
	for _, a := range as {
		fmt.Fprintf(&b, "### `runledger/runledger/%s@v1`\n\n", filepath.Dir(a.path))
		b.WriteString(inputsTable(a) + "\n" + outputsTable(a) + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// ---- formats and runners

// formatDocs say, for each report format the code reads, what it is and
// what tells it apart. A format added to report.Formats without a line here
// fails TestDocsGenerated until it is described.
var formatDocs = map[string][2]string{
	"junit":  {"JUnit XML: Surefire, Gradle, pytest, jest-junit, PHPUnit, go-junit-report, `node --test`, …", "`<testsuites>`/`<testsuite>` root"},
	"nunit":  {"NUnit 2.x and 3.x", "`<test-results>`, `<test-run>` (or a bare `<test-suite>`) root"},
	"xunit":  {"xUnit.net v1 and v2 XML", "`<assembly>`, `<assemblies>` root"},
	"trx":    {"VSTest TRX (`dotnet test -l trx`)", "`<TestRun>` root"},
	"ctrf":   {"CTRF JSON", "a `results` object with `tests`"},
	"mocha":  {"mocha's JSON reporter", "`passes`/`failures`/`pending` arrays"},
	"jest":   {"`jest --json`", "`testResults` array"},
	"rspec":  {"`rspec --format json`", "`examples` array"},
	"gotest": {"`go test -json` saved to a file", "lines of events with `Action`"},
	"dart":   {"`dart test --reporter json`, `flutter test --machine`", "lines of events, the first with `protocolVersion`"},
}

func formatsTable(formats []string) (string, error) {
	var b strings.Builder
	b.WriteString("| `summary.source` | format | read from |\n| --- | --- | --- |\n")
	for _, f := range formats {
		d, ok := formatDocs[f]
		if !ok {
			return "", fmt.Errorf("report format %q has no description in formatDocs", f)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f, d[0], d[1])
	}
	for f := range formatDocs {
		if !slices.Contains(formats, f) {
			return "", fmt.Errorf("formatDocs describes %q, which report.Formats does not list", f)
		}
	}
	return b.String(), nil
}

type runnerDoc struct {
	name     string
	parser   bool // a hand-written parser in report/runners
	totals   bool // a declaration with Totals
	lines    bool // a declaration with Lines (compaction's families)
	evidence bool // a declaration with Evidence (the excerpts)
}

func runnersTable(rs []runnerDoc) string {
	var b strings.Builder
	b.WriteString("| runner | its summary is read by | its declaration (`declare_*.go`) holds |\n| --- | --- | --- |\n")
	for _, r := range rs {
		summary := "— (compaction only)"
		switch {
		case r.parser:
			summary = "a parser of its own"
		case r.totals:
			summary = "its declaration's `Totals`"
		}
		var parts []string
		for _, p := range []struct {
			on   bool
			name string
		}{{r.lines, "`Lines`"}, {r.totals, "`Totals`"}, {r.evidence, "`Evidence`"}} {
			if p.on {
				parts = append(parts, p.name)
			}
		}
		decl := strings.Join(parts, ", ")
		if decl == "" {
			decl = "— (no declaration)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", r.name, summary, decl)
	}
	return b.String()
}

// TestDocsDeclaredRunnersTable: the prose table of declared runners in
// docs/runners.md ("Declared so far") has one row for each runner whose
// declaration has Totals, and no other.
func TestDocsDeclaredRunnersTable(t *testing.T) {
	src := loadDocSources(t)
	data, err := os.ReadFile(filepath.Join(docsDir, "runners.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "| `summary.source` | runner | the total |")
	if !ok {
		t.Fatal(`docs/runners.md has no table headed "| summary.source | runner | the total |"`)
	}
	table, _, _ = strings.Cut(table, "\n\n")
	var rows []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|").FindAllStringSubmatch(table, -1) {
		rows = append(rows, m[1])
	}
	var want []string
	for n := range src.declared {
		want = append(want, n)
	}
	sort.Strings(rows)
	sort.Strings(want)
	if len(want) < 5 || !slices.Equal(rows, want) {
		t.Errorf("docs/runners.md's declared runners %q, the code's %q", rows, want)
	}
}
