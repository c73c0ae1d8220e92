package capture

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestGlob: patterns relative to the base, with **, and absolute ones
// (a workflow's ${{ runner.temp }}/junit.xml) from a relative base.
func TestGlob(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"junit.xml", "a/b/TEST-x.xml", "a/TEST-y.xml", "a/c.txt"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	tests := []struct {
		pattern string
		want    []string
	}{
		{"junit.xml", []string{"junit.xml"}},
		{"a/**/TEST-*.xml", []string{filepath.Join("a", "TEST-y.xml"), filepath.Join("a", "b", "TEST-x.xml")}},
		{filepath.Join(dir, "junit.xml"), []string{"junit.xml"}},
		{filepath.Join(dir, "a", "**", "*.xml"), []string{filepath.Join("a", "TEST-y.xml"), filepath.Join("a", "b", "TEST-x.xml")}},
		{"nothing*.xml", nil},
	}
	for _, tt := range tests {
		got, err := Glob(".", tt.pattern)
		slices.Sort(got)
		slices.Sort(tt.want)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Glob(., %q) = %q, %v; want %q", tt.pattern, got, err, tt.want)
		}
	}
}
