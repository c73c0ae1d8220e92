package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/golden"
	"github.com/runledger/runledger/report/excerpt"
	"github.com/runledger/runledger/store"
)

// corpusCase is one real runner's output under testdata/corpus (made by the
// scripts in testdata/corpus/gen) and the root-cause lines it must show.
type corpusCase struct {
	name   string
	dir    string
	Runner string   `json:"runner"`
	Must   []string `json:"must"`
	// Message maps a failing test to what its failures[].message must
	// hold: the assertion, not the test's first output line.
	Message map[string]string `json:"message"`
	// CommentMisses are root-cause lines the comment at 16 KiB is known
	// to leave out for want of room (the case then counts as missed); any
	// other miss, or one of these found again, fails the test.
	CommentMisses []string `json:"comment_misses"`
	Why           string   `json:"why"`
}

func loadCorpus(t *testing.T) []corpusCase { return loadCases(t, "testdata/corpus") }

// loadCases reads the cases under dir (one directory each with its
// want.json and store).
func loadCases(t *testing.T, dir string) []corpusCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*", "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no corpus cases under %s", dir)
	}
	var cases []corpusCase
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c := corpusCase{name: filepath.Base(filepath.Dir(p)), dir: filepath.Dir(p)}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(c.Must) == 0 {
			t.Fatalf("%s: no root-cause lines listed", p)
		}
		cases = append(cases, c)
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].name < cases[j].name })
	return cases
}

// RenderComment renders an envelope as the comment's Markdown within a
// byte budget. The renderer lives in report/render, which imports this
// package, so the external test package sets it (recall_render_test.go).
var RenderComment func(env *Envelope, budget int) (string, error)

// commentBudget is the Markdown's budget the recall is checked at: what
// `runledger report --max-bytes 16384` prints.
const commentBudget = 16384

// markdownRecall checks the rendered comment of env against the case's
// root-cause lines: what a reader of the comment sees, not only what the
// excerpts hold.
func markdownRecall(t *testing.T, c corpusCase, env *Envelope) (recallRow, string) {
	t.Helper()
	if RenderComment == nil {
		t.Fatal("RenderComment is not set")
	}
	md, err := RenderComment(env, commentBudget)
	if err != nil {
		t.Fatalf("%s: render: %v", c.name, err)
	}
	// Log text cannot forge a hidden marker or open an HTML comment: the
	// body's only ones are the comment's and the envelope's.
	if n := strings.Count(md, "<!--"); n != 3 || strings.Count(md, "<!-- runledger:envelope -->") != 1 ||
		strings.Count(md, "<!-- /runledger:envelope -->") != 1 || !strings.HasPrefix(md, "<!-- runledger:comment -->") {
		t.Errorf("%s: the comment holds %d HTML comments, want its 3 markers", c.name, n)
	}
	// The zero-width space that keeps `-->` from closing an HTML comment
	// is not seen by a reader.
	seen := strings.ReplaceAll(md, "\u200b", "")
	return recall(c.Must, []string{seen}, int64(len(md))), md
}

// recallRow is what one way of quoting a log shows of one case.
type recallRow struct {
	found, of int
	bytes     int64
	missing   []string
}

func (r recallRow) all() bool { return r.found == r.of }

func recall(must []string, texts []string, quoted int64) recallRow {
	row := recallRow{of: len(must), bytes: quoted}
	for _, m := range must {
		ok := false
		for _, t := range texts {
			if strings.Contains(t, m) {
				ok = true
				break
			}
		}
		if ok {
			row.found++
		} else {
			row.missing = append(row.missing, m)
		}
	}
	return row
}

// excerptRecall builds the case's report with the given budget and checks
// the excerpts against the case's root-cause lines.
func excerptRecall(t *testing.T, c corpusCase, opts excerpt.Options) (recallRow, *Envelope) {
	t.Helper()
	st, err := store.Open(filepath.Join(c.dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	env, err := Build(st, Options{Excerpt: opts})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	var quoted int64
	for _, r := range env.Runs {
		for _, x := range r.Excerpts {
			texts = append(texts, x.Text)
			quoted += x.End - x.Start
		}
	}
	return recall(c.Must, texts, quoted), env
}

// messageMisses lists the case's failing tests whose failures[].message
// does not hold the assertion want.json names (or that are not listed).
func messageMisses(c corpusCase, env *Envelope) []string {
	var misses []string
	for test, want := range c.Message {
		got, found := "", false
		for _, r := range env.Runs {
			for _, f := range r.Summary.Failures {
				if sameTest(f.Name, test) {
					got, found = f.Message, true
				}
			}
		}
		if !found || !strings.Contains(got, want) {
			misses = append(misses, fmt.Sprintf("%s: message %q, want it to hold %q (listed: %v)", test, got, want, found))
		}
	}
	sort.Strings(misses)
	return misses
}

// sameTest: a failure's name is the test want.json names, or ends with it
// after a separator (pytest's node id, mocha's suite path).
func sameTest(name, test string) bool {
	if !strings.HasSuffix(name, test) {
		return false
	}
	rest := strings.TrimSuffix(name, test)
	return rest == "" || strings.HasSuffix(rest, "::") || strings.HasSuffix(rest, " ")
}

// headTail is what truncating the combined log keeps: its first and last
// bytes (cut at line ends when lines is true, as Codex keeps lines).
func headTail(t *testing.T, c corpusCase, n int, lines bool) recallRow {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(c.dir, "store", "*", "output.log"))
	if err != nil || len(logs) != 1 {
		t.Fatalf("%s: want one output.log, got %v (%v)", c.name, logs, err)
	}
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	var head, tail []byte
	if lines {
		ls := bytes.SplitAfter(data, []byte("\n"))
		if len(ls) > 0 && len(ls[len(ls)-1]) == 0 {
			ls = ls[:len(ls)-1]
		}
		if len(ls) <= 2*n {
			head = data
		} else {
			head, tail = bytes.Join(ls[:n], nil), bytes.Join(ls[len(ls)-n:], nil)
		}
	} else if len(data) <= 2*n {
		head = data
	} else {
		head, tail = data[:n], data[len(data)-n:]
	}
	return recall(c.Must, []string{string(head), string(tail)}, int64(len(head)+len(tail)))
}

// TestCorpusRecall: on real runners' output, the excerpts and the comment
// rendered from them at 16 KiB show every root-cause line of every case
// (a case counts only when both do), at the default budget and at a tight
// one (which forces the grammars to choose). The table comparing them with
// head+tail truncation is testdata/corpus/RECALL.md, shown in the README
// (rewrite with -update).
func TestCorpusRecall(t *testing.T) {
	cases := loadCorpus(t)
	var b strings.Builder
	b.WriteString("| case | runner | log bytes | excerpts: all root-cause lines? | bytes quoted | comment at 16 KiB | bytes | at a 1 KiB budget | bytes | head+tail 8+8 KiB | bytes | head+tail 128+128 lines | bytes |\n")
	b.WriteString("| --- | --- | ---: | --- | ---: | --- | ---: | --- | ---: | --- | ---: | --- | ---: |\n")
	var sum [5]int
	for _, c := range cases {
		def, env := excerptRecall(t, c, excerpt.Options{})
		md, body := markdownRecall(t, c, env)
		tight, _ := excerptRecall(t, c, excerpt.Options{Bytes: 1 << 10, Block: 1 << 10})
		ht := headTail(t, c, 8<<10, false)
		lines := headTail(t, c, 128, true)
		if !def.all() {
			t.Errorf("%s (%s): the excerpts miss %q", c.name, c.Runner, def.missing)
			for _, r := range env.Runs {
				for _, x := range r.Excerpts {
					t.Logf("%s %s [%d,%d) %s %q", x.Stream, x.Reason, x.Start, x.End, x.Test, x.Text)
				}
			}
		}
		switch known := strings.Join(c.CommentMisses, "\n"); {
		case def.all() && strings.Join(md.missing, "\n") != known && !md.all():
			t.Errorf("%s (%s): the comment at %d bytes misses %q (the excerpts hold them; known: %q):\n%s", c.name, c.Runner, commentBudget, md.missing, c.CommentMisses, body)
		case md.all() && known != "":
			t.Errorf("%s (%s): the comment now holds its comment_misses %q: drop them from want.json", c.name, c.Runner, c.CommentMisses)
		case !md.all():
			t.Logf("%s (%s): the comment at %d bytes leaves out %q, as want.json records", c.name, c.Runner, commentBudget, md.missing)
		}
		if def.all() && !md.all() && len(body)*10 < commentBudget*9 {
			// the planner cut evidence while a tenth of the room was unused
			t.Errorf("%s (%s): the comment misses %q at %d of %d bytes", c.name, c.Runner, md.missing, len(body), commentBudget)
		}
		if !def.all() {
			md = def // a case counts only when the excerpts and the comment both hold every line
		}
		if misses := messageMisses(c, env); len(misses) > 0 {
			t.Errorf("%s (%s): failures[].message is not the assertion: %s", c.name, c.Runner, strings.Join(misses, "; "))
		}
		if !tight.all() {
			t.Logf("%s (%s): at a 1 KiB budget the excerpts miss %q (measured, not required)", c.name, c.Runner, tight.missing)
		}
		var logBytes int64
		for _, r := range env.Runs {
			for _, n := range []string{"stdout", "stderr"} {
				logBytes += r.Logs[n].Bytes
			}
		}
		for i, r := range []recallRow{def, md, tight, ht, lines} {
			if r.all() {
				sum[i]++
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %d | %s | %d | %s | %d | %s | %d | %s | %d |\n", c.name, c.Runner, logBytes,
			yesNo(def), def.bytes, yesNo(md), md.bytes, yesNo(tight), tight.bytes, yesNo(ht), ht.bytes, yesNo(lines), lines.bytes)
	}
	fmt.Fprintf(&b, "| **all %d cases** | | | **%d** | | **%d** | | **%d** | | **%d** | | **%d** | |\n", len(cases), sum[0], sum[1], sum[2], sum[3], sum[4])
	golden.Check(t, "testdata/corpus/RECALL.md", []byte(b.String()))
}

func yesNo(r recallRow) string {
	if r.all() {
		return "yes"
	}
	return fmt.Sprintf("no (%d of %d)", r.found, r.of)
}
