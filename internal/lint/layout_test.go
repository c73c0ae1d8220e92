package lint

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// layoutDoc holds the Layout table.
const layoutDoc = "docs/architecture.md"

// goPackages lists the directories below dir that hold Go files, as
// slash paths relative to dir, leaving out test data and node modules.
func goPackages(dir string) ([]string, error) {
	seen := map[string]bool{}
	err := walkGo(dir, func(p string) error {
		rel, _ := filepath.Rel(dir, filepath.Dir(p))
		seen[filepath.ToSlash(rel)] = true
		return nil
	})
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, err
}

// layoutRows are the packages the Layout table of docs/architecture.md
// names in its first column (a cell may name several, each in backticks).
func layoutRows(readme string) map[string]bool {
	rows := map[string]bool{}
	_, section, _ := strings.Cut(readme, "\n## Layout\n")
	section, _, _ = strings.Cut(section, "\n## ")
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cells[1], -1) {
			rows[m[1]] = true
		}
	}
	return rows
}

// TestLayoutTable: every package has its row, and every row its package,
// so the table a newcomer to the code reads first is the tree as it is.
func TestLayoutTable(t *testing.T) {
	readme := readRoot(t, layoutDoc)
	rows := layoutRows(string(readme))
	pkgs, err := goPackages(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 || len(rows) < 10 {
		t.Fatalf("found %d packages and %d rows: the walk or the table's parse is broken", len(pkgs), len(rows))
	}
	covered := map[string]bool{}
	for _, p := range pkgs {
		name := p
		for name != "." && !rows[name] {
			name = filepath.ToSlash(filepath.Dir(name)) // a nested module's own packages belong to its row
		}
		if name == "." {
			t.Errorf("%s's Layout table has no row for package %s", layoutDoc, p)
		}
		covered[name] = true
	}
	for r := range rows {
		if !covered[r] {
			t.Errorf("%s's Layout table names %s, which holds no Go package", layoutDoc, r)
		}
	}
}
