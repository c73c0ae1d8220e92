package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// The README, CONTRIBUTING.md and docs/*.md link each other, the code and
// the picture by relative paths; a page renamed or a heading reworded
// must not leave a reader on GitHub's 404 page.

var (
	mdLink  = regexp.MustCompile(`!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	htmlSrc = regexp.MustCompile(`<(?:img|a)\b[^>]*\b(?:src|href)="([^"]+)"`)
	heading = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#*$`)
	codeRun = regexp.MustCompile("`[^`\n]*`")
)

// docPages are the documents whose links are checked, relative to the root.
func docPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md", "CONTRIBUTING.md"}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(more) < 5 {
		t.Fatalf("docs/*.md: %d pages, %v", len(more), err)
	}
	for _, p := range more {
		pages = append(pages, "docs/"+filepath.Base(p))
	}
	return pages
}

// prose is a Markdown text without its fenced blocks and code spans, where
// a bracket is not a link.
func prose(md string) string {
	var out []string
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			out = append(out, "")
			continue
		}
		if fenced {
			out = append(out, "")
			continue
		}
		out = append(out, codeRun.ReplaceAllString(line, "``"))
	}
	return strings.Join(out, "\n")
}

// slug is GitHub's anchor for a heading: lower case, punctuation other
// than hyphens dropped, spaces made hyphens.
func slug(h string) string {
	h = strings.ReplaceAll(h, "`", "")
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors are the fragments a page's headings answer to.
func anchors(md string) map[string]bool {
	out := map[string]bool{}
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		if fenced {
			continue
		}
		m := heading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		s := slug(m[1])
		for i := 1; out[s]; i++ { // GitHub numbers repeated headings
			s = fmt.Sprintf("%s-%d", slug(m[1]), i)
		}
		out[s] = true
	}
	return out
}

// brokenLinks lists the relative links of page (relative to root) whose
// file or heading does not exist.
func brokenLinks(dir, page string) ([]string, int, error) {
	data, err := os.ReadFile(filepath.Join(dir, page))
	if err != nil {
		return nil, 0, err
	}
	text := prose(string(data))
	var targets []string
	for _, re := range []*regexp.Regexp{mdLink, htmlSrc} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			targets = append(targets, m[1])
		}
	}
	var bad []string
	for _, target := range targets {
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		path, frag, _ := strings.Cut(target, "#")
		file := page
		if path != "" {
			file = filepath.ToSlash(filepath.Join(filepath.Dir(page), path))
		}
		fi, err := os.Stat(filepath.Join(dir, file))
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s: %s: no such file %s", page, target, file))
			continue
		}
		if frag == "" || fi.IsDir() || !strings.HasSuffix(file, ".md") {
			continue
		}
		md, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			return nil, 0, err
		}
		if !anchors(string(md))[frag] {
			bad = append(bad, fmt.Sprintf("%s: %s: %s has no heading #%s", page, target, file, frag))
		}
	}
	return bad, len(targets), nil
}

// TestDocsLinks: every relative link and image of the docs resolves, to a
// file and, with a fragment, to one of its headings.
func TestDocsLinks(t *testing.T) {
	total := 0
	for _, page := range docPages(t) {
		bad, n, err := brokenLinks(root, page)
		if err != nil {
			t.Fatal(err)
		}
		total += n
		for _, b := range bad {
			t.Error(b)
		}
	}
	if total < 50 {
		t.Errorf("%d links found in the docs: the extraction lost some", total)
	}
}

// TestDocsLinksCatchBreakage: a missing file, a missing heading and a
// missing image are each reported; links in code and absolute URLs are not
// checked, and a heading with code and punctuation is found.
func TestDocsLinksCatchBreakage(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "docs"), 0o755)
	os.WriteFile(filepath.Join(dir, "docs", "a.md"), []byte("# A\n\n## Reading a run back: `show`, `grep`\n"), 0o644)
	page := "[ok](docs/a.md#reading-a-run-back-show-grep) [gone](docs/b.md) [bad](docs/a.md#nope)\n" +
		"![pic](docs/pic.png) [web](https://example.com/x) `[code](nowhere.md)`\n```\n[fenced](nowhere.md)\n```\n"
	os.WriteFile(filepath.Join(dir, "README.md"), []byte(page), 0o644)
	bad, n, err := brokenLinks(dir, "README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"docs/b.md: no such file", "a.md has no heading #nope", "docs/pic.png: no such file"}
	if n != 5 || len(bad) != len(want) {
		t.Fatalf("%d links, broken %q; want 5 links and %d broken", n, bad, len(want))
	}
	for i, w := range want {
		if !strings.Contains(bad[i], w) {
			t.Errorf("broken[%d] = %q, want it to say %q", i, bad[i], w)
		}
	}
}
