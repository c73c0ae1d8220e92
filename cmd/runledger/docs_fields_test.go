package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The record's and the envelope's fields are a public interface: agents
// parse them. fieldsTable lists every JSON field of a type, as a path
// (streams.*.sha256, runs[].summary.failures[].origin), with its JSON type
// and the comment its Go declaration carries, so a field added to the code
// appears in docs/record.md when the docs are regenerated.

type fieldDoc struct {
	path, kind, doc string
}

// fieldDocs walks t's JSON fields; comments are read from the Go files of
// the packages in dirs.
func fieldDocs(t *testing.T, typ reflect.Type, dirs ...string) []fieldDoc {
	t.Helper()
	comments := map[string]string{}
	for _, dir := range dirs {
		structComments(t, dir, comments)
	}
	var out []fieldDoc
	walkFields(typ, "", comments, map[reflect.Type]bool{}, &out)
	return out
}

func walkFields(typ reflect.Type, prefix string, comments map[string]string, seen map[reflect.Type]bool, out *[]fieldDoc) {
	typ = derefType(typ)
	if typ.Kind() != reflect.Struct || seen[typ] {
		return
	}
	seen[typ] = true
	defer delete(seen, typ)
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" && f.Anonymous { // an embedded struct's fields are the outer one's
			walkFields(f.Type, prefix, comments, seen, out)
			continue
		}
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		at := prefix + name
		ft, kind := f.Type, jsonKind(f.Type)
		*out = append(*out, fieldDoc{path: at, kind: kind, doc: comments[path.Base(typ.PkgPath())+"."+typ.Name()+"."+f.Name]})
		switch derefType(ft).Kind() {
		case reflect.Slice:
			walkFields(derefType(ft).Elem(), at+"[].", comments, seen, out)
		case reflect.Map:
			walkFields(derefType(ft).Elem(), at+".*.", comments, seen, out)
		case reflect.Struct:
			walkFields(ft, at+".", comments, seen, out)
		}
	}
}

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

var timeType = reflect.TypeOf(time.Time{})

// jsonKind is the field's JSON type; a pointer may also be null.
func jsonKind(t reflect.Type) string {
	null := ""
	if t.Kind() == reflect.Pointer {
		null = " or null"
	}
	t = derefType(t)
	switch {
	case t == timeType:
		return "string (RFC 3339)" + null
	case t.Kind() == reflect.String:
		return "string" + null
	case t.Kind() == reflect.Bool:
		return "boolean" + null
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Float64:
		return "number" + null
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		return "string (base64)" + null
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		return "array" + null
	}
	return "object" + null
}

// structComments reads the doc and line comments of every struct field
// declared in dir's Go files (tests aside), keyed by "pkg.Type.Field"
// (the package named as its directory is).
func structComments(t *testing.T, dir string, into map[string]string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no Go files: %v", dir, err)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				text := strings.TrimSpace(field.Doc.Text() + " " + field.Comment.Text())
				for _, n := range field.Names {
					if text != "" {
						into[filepath.Base(dir)+"."+ts.Name.Name+"."+n.Name] = text
					}
				}
			}
			return true
		})
	}
}

func fieldsTable(fields []fieldDoc) string {
	var b strings.Builder
	b.WriteString("| field | JSON type | what the code says of it |\n| --- | --- | --- |\n")
	for _, f := range fields {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.path, f.kind, cell(f.doc))
	}
	return b.String()
}
