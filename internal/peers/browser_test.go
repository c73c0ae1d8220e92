package peers

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCommentInBrowser renders the comment's golden files (every case
// action's TestCommentGolden writes, and the job summary's from
// report/render) as GitHub renders a comment: GitHub-flavoured Markdown
// with comment line breaks (marked, pinned in node/package-lock.json),
// GitHub's stylesheet (github-markdown-css), in headless Chromium. It
// checks the page a reader gets and writes a screenshot of each into the
// review folder (RUNLEDGER_REVIEW_DIR, default bench/out/review, which
// git ignores) for a person to look at.
//
// It needs chromium, node and `npm ci --prefix internal/peers/node`;
// without them it skips, unless RUNLEDGER_BROWSER_REQUIRED is set (.ci/run
// sets it once it has installed them).
func TestCommentInBrowser(t *testing.T) {
	chromium := browser(t)
	review := os.Getenv("RUNLEDGER_REVIEW_DIR")
	if review == "" {
		review = filepath.Join("..", "..", "bench", "out", "review")
	}
	if err := os.MkdirAll(review, 0o755); err != nil {
		t.Fatal(err)
	}
	comments, _ := filepath.Glob(filepath.Join("..", "..", "action", "testdata", "comment", "*.md"))
	summaries, _ := filepath.Glob(filepath.Join("..", "..", "report", "render", "testdata", "markdown", "*.md"))
	if len(comments) == 0 || len(summaries) == 0 {
		t.Fatal("no golden comment files to render")
	}
	pages := t.TempDir()
	args := append([]string{filepath.Join("node", "render.mjs"), pages}, append(comments, summaries...)...)
	if out, err := exec.Command("node", args...).CombinedOutput(); err != nil {
		t.Fatalf("render with marked: %v\n%s", err, out)
	}
	for _, md := range append(comments, summaries...) {
		comment := strings.Contains(md, filepath.Join("testdata", "comment"))
		kind := map[bool]string{true: "comment", false: "summary"}[comment]
		name := strings.TrimSuffix(filepath.Base(md), ".md")
		t.Run(kind+"/"+name, func(t *testing.T) {
			source, err := os.ReadFile(md)
			if err != nil {
				t.Fatal(err)
			}
			page := "file://" + absPath(t, filepath.Join(pages, name+".html"))
			if comment { // the summaries' Markdown is checked in report/render
				checkPage(t, string(source), chrome(t, chromium, "--dump-dom", page))
			}
			shot := absPath(t, filepath.Join(review, kind+"-"+name+".png"))
			chrome(t, chromium, "--screenshot="+shot, fmt.Sprintf("--window-size=830,%d", pageHeight(string(source))), page)
			if fi, err := os.Stat(shot); err != nil || fi.Size() == 0 {
				t.Fatalf("no screenshot: %v", err)
			}
		})
	}
}

var (
	tagRE      = regexp.MustCompile(`(?s)<[^>]*>`)
	commentRE  = regexp.MustCompile(`(?s)<!--.*?-->`)
	envelopeRE = regexp.MustCompile(`(?s)<details><summary>envelope</summary>.*?</details>`)
	headingRE  = regexp.MustCompile(`(?s)<h2>(.*?)</h2>`)
)

// checkPage asserts what a reader of a rendered comment gets: the verdict
// first, a heading per section, no hidden marker shown as text, the
// envelope folded away once per section, tables rendered as tables.
func checkPage(t *testing.T, source, dom string) {
	t.Helper()
	body := dom[strings.Index(dom, "<body"):]
	visible := tagRE.ReplaceAllString(envelopeRE.ReplaceAllString(commentRE.ReplaceAllString(body, ""), ""), " ")
	h := headingRE.FindStringSubmatch(body)
	if h == nil || !strings.Contains(h[1], "runledger:") || strings.Index(body, "<h2>") > strings.Index(body, "<h3>") {
		t.Errorf("the page does not open with the verdict heading")
	}
	if got, want := strings.Count(body, "<summary>envelope</summary>"), strings.Count(source, "\n<!-- rl k="); got != want {
		t.Errorf("%d folded envelopes for %d sections", got, want)
	}
	if got, want := strings.Count(body, "<h3>"), strings.Count(source, "\n<!-- rl k="); got != want {
		t.Errorf("%d section headings for %d sections", got, want)
	}
	for _, internal := range []string{"rl k=", "rl:body", "rl:was", "rl:history", "runledger:envelope", "runledger:comment -->"} {
		if strings.Contains(visible, internal) {
			t.Errorf("the page shows %q as text", internal)
		}
	}
	if strings.Contains(source, "\n| run |") && !strings.Contains(body, "<table") {
		t.Error("the runs table did not render as a table")
	}
	if strings.Count(body, "<details") != strings.Count(body, "</details>") {
		t.Error("an unbalanced <details>")
	}
}

// pageHeight guesses the rendered height from the source's lines (the
// envelope's one long line folded away), so that a screenshot holds the
// whole comment.
func pageHeight(source string) int {
	lines := strings.Count(envelopeRE.ReplaceAllString(source, ""), "\n")
	return min(16000, 240+30*lines)
}

// chrome runs headless Chromium on a closed network with a fresh profile
// and returns its stdout. Chromium that dies of a signal (it segfaults now
// and then on a loaded machine, whatever the page) is started again, at
// most three times in all; any other failure is the test's.
func chrome(t *testing.T, chromium string, args ...string) string {
	t.Helper()
	for try := 1; ; try++ {
		flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--hide-scrollbars", "--user-data-dir=" + t.TempDir()}
		cmd := exec.Command(chromium, append(flags, args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var ee *exec.ExitError
		switch {
		case err == nil:
			return string(out)
		case errors.As(err, &ee) && ee.ExitCode() == -1 && try < 3:
			t.Logf("chromium %s: %v (try %d); starting it again", strings.Join(args, " "), err, try)
			continue
		}
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
}

// browser finds chromium and the node renderer, or skips (fails under
// RUNLEDGER_BROWSER_REQUIRED).
func browser(t *testing.T) string {
	t.Helper()
	var missing []string
	chromium := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			chromium = p
			break
		}
	}
	if chromium == "" {
		missing = append(missing, "chromium (apt-get install chromium)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing = append(missing, "node")
	}
	for _, mod := range []string{"marked", "github-markdown-css"} {
		if _, err := os.Stat(filepath.Join("node", "node_modules", mod, "package.json")); err != nil {
			missing = append(missing, mod+" (npm ci --prefix internal/peers/node)")
		}
	}
	if len(missing) == 0 {
		return chromium
	}
	msg := "the browser test needs " + strings.Join(missing, ", ")
	if os.Getenv("RUNLEDGER_BROWSER_REQUIRED") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func absPath(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestReadmeInBrowser renders README.md, CONTRIBUTING.md and docs/*.md as
// GitHub shows a repository's files (GFM without comment line breaks,
// GitHub's stylesheet, headless Chromium, relative images resolved) and
// checks what a newcomer gets: the README opens with its two commands,
// every image loads, every table is a table, and no Markdown is left
// showing as text (a link or fence that did not parse). Screenshots go to
// the review folder as readme-*.png, for a person to look at.
func TestReadmeInBrowser(t *testing.T) {
	chromium := browser(t)
	review := os.Getenv("RUNLEDGER_REVIEW_DIR")
	if review == "" {
		review = filepath.Join("..", "..", "bench", "out", "review")
	}
	if err := os.MkdirAll(review, 0o755); err != nil {
		t.Fatal(err)
	}
	root := absPath(t, filepath.Join("..", ".."))
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files := append([]string{filepath.Join(root, "README.md"), filepath.Join(root, "CONTRIBUTING.md")}, docs...)
	pages := t.TempDir()
	cmd := exec.Command("node", append([]string{filepath.Join("node", "render.mjs"), pages}, files...)...)
	cmd.Env = append(os.Environ(), "RENDER_DOCUMENT="+root)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("render with marked: %v\n%s", err, out)
	}
	for _, md := range files {
		name := strings.TrimSuffix(filepath.Base(md), ".md")
		t.Run(name, func(t *testing.T) {
			source, err := os.ReadFile(md)
			if err != nil {
				t.Fatal(err)
			}
			page := "file://" + filepath.Join(pages, name+".html")
			dom := chrome(t, chromium, "--window-size=1040,2000", "--allow-file-access-from-files", "--dump-dom", page)
			height := checkDocument(t, name, string(source), dom)
			shot := absPath(t, filepath.Join(review, "readme-"+name+".png"))
			chrome(t, chromium, "--screenshot="+shot, fmt.Sprintf("--window-size=1040,%d", min(16000, height)), "--allow-file-access-from-files", page)
			if fi, err := os.Stat(shot); err != nil || fi.Size() == 0 {
				t.Fatalf("no screenshot: %v", err)
			}
		})
	}
}

var (
	dataAttr = regexp.MustCompile(`data-(broken-images|h)="(\d+)"`)
	preRE    = regexp.MustCompile(`(?s)<pre[^>]*>.*?</pre>`)
)

// checkDocument asserts what a reader of a rendered file gets, and returns
// the page's height.
func checkDocument(t *testing.T, name, source, dom string) int {
	t.Helper()
	body := dom[strings.Index(dom, "<body"):]
	attrs := map[string]int{}
	for _, m := range dataAttr.FindAllStringSubmatch(body, -1) {
		var n int
		fmt.Sscan(m[2], &n)
		attrs[m[1]] = n
	}
	if _, ok := attrs["h"]; !ok {
		t.Fatal("the page did not finish loading (no data-h)")
	}
	if n := attrs["broken-images"]; n > 0 || strings.Count(source, "![") != strings.Count(body, "<img") {
		t.Errorf("%d of %d images did not load", n, strings.Count(body, "<img"))
	}
	if got, want := strings.Count(body, "<table"), strings.Count(source, "\n| --- |")+strings.Count(source, "\n| ---: |"); got < want {
		t.Errorf("%d tables rendered for %d in the source", got, want)
	}
	visible := tagRE.ReplaceAllString(preRE.ReplaceAllString(commentRE.ReplaceAllString(body, ""), ""), " ")
	for _, raw := range []string{"](", "```", "<!--", "-->"} {
		if strings.Contains(visible, raw) {
			i := strings.Index(visible, raw)
			t.Errorf("the page shows %q as text: …%s…", raw, visible[max(0, i-80):min(len(visible), i+40)])
		}
	}
	if name == "README" {
		first := preRE.FindString(body)
		if !strings.Contains(first, "go run ./cmd/runledger run --report -- go test ./...") || !strings.Contains(first, "go test ./...") {
			t.Errorf("the README's first block is not its two commands: %s", first)
		}
		if strings.Index(body, "<pre") > strings.Index(body, "<img") {
			t.Error("the README shows its picture before its two commands")
		}
	}
	return attrs["h"]
}
