package report

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFormatsListsEveryFormat: Formats holds every Format* constant of
// reports.go, so a format added there reaches the docs' generated table.
func TestFormatsListsEveryFormat(t *testing.T) {
	f, err := goparser.ParseFile(token.NewFileSet(), "reports.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var consts []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 {
			return true
		}
		lit, ok := vs.Values[0].(*ast.BasicLit)
		if ok && lit.Kind == token.STRING && strings.HasPrefix(vs.Names[0].Name, "Format") {
			v, _ := strconv.Unquote(lit.Value)
			consts = append(consts, v)
		}
		return true
	})
	if len(consts) < 10 {
		t.Fatalf("found %d Format constants in reports.go: the parse is broken", len(consts))
	}
	for _, c := range consts {
		if !slices.Contains(Formats, c) {
			t.Errorf("Formats lacks %q", c)
		}
	}
	if len(Formats) != len(consts) {
		t.Errorf("Formats has %d entries for %d constants", len(Formats), len(consts))
	}
}
