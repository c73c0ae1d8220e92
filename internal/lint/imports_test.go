package lint

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// importProblems lists imports out of the house order in the Go files
// below dir: the standard library first, then modules, each group
// separated by a blank line and never mixed.
func importProblems(dir string) ([]string, error) {
	var problems []string
	err := walkGo(dir, func(p string) error {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return fmt.Errorf("parse %s: %w", p, err)
		}
		prevLine, prevStd, modules := 0, true, false
		for _, im := range f.Imports {
			line := fset.Position(im.Pos()).Line
			path := strings.Trim(im.Path.Value, `"`)
			std := !strings.Contains(strings.Split(path, "/")[0], ".")
			switch {
			case std && modules:
				problems = append(problems, fmt.Sprintf("%s: standard library %q after modules", p, path))
			case prevLine != 0 && line == prevLine+1 && std != prevStd:
				problems = append(problems, fmt.Sprintf("%s: %q shares a group with the other kind", p, path))
			}
			modules = modules || !std
			prevLine, prevStd = line, std
		}
		return nil
	})
	return problems, err
}

// walkGo calls visit with each Go file below dir, leaving out test data
// and node modules.
func walkGo(dir string, visit func(path string) error) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(p, ".go"):
			return nil
		}
		return visit(p)
	})
}

// TestImportsGrouped keeps the house order in every Go file.
func TestImportsGrouped(t *testing.T) {
	problems, err := importProblems(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestImportsGroupedCatchesMixing: the check above can fail.
func TestImportsGroupedCatchesMixing(t *testing.T) {
	dir := t.TempDir()
	src := "package x\n\nimport (\n\t\"fmt\"\n\t\"github.com/a/b\"\n\t\"os\"\n)\n"
	if err := writeFile(filepath.Join(dir, "x.go"), src); err != nil {
		t.Fatal(err)
	}
	problems, err := importProblems(dir)
	if err != nil || len(problems) != 2 {
		t.Fatalf("problems %q, err %v: want the mixed group and the late os", problems, err)
	}
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }
