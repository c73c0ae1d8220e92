package lint

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestWindowsListsAgree: ci.yml's windows leg runs natively the packages
// .ci/wine/test runs under Wine, so a package that passes here as a
// Windows binary is the one that must pass on Windows.
func TestWindowsListsAgree(t *testing.T) {
	wine := wineList(t, string(readRoot(t, ".ci/wine/test")))
	leg := legList(t, string(readRoot(t, ".github/workflows/ci.yml")))
	if len(wine) < 5 || !slices.Equal(wine, leg) {
		t.Errorf(".ci/wine/test runs %q under Wine, ci.yml's windows leg %q", wine, leg)
	}
}

// wineList is the script's `for pkg in … ; do` list.
func wineList(t *testing.T, script string) []string {
	t.Helper()
	m := regexp.MustCompile(`(?s)\nfor pkg in (.*?); do`).FindStringSubmatch(script)
	if m == nil {
		t.Fatal(".ci/wine/test: no `for pkg in …; do` list")
	}
	return sorted(strings.Fields(strings.ReplaceAll(m[1], "\\\n", " ")))
}

// legList is the windows leg's `go test` packages, `/...` expanded.
func legList(t *testing.T, workflow string) []string {
	t.Helper()
	m := regexp.MustCompile(`(?s)go test -count=1 (\./capture .*?)\n\s*#`).FindStringSubmatch(workflow)
	if m == nil {
		t.Fatal("ci.yml: no windows leg `go test -count=1 ./capture …`")
	}
	pkgs, err := goPackages(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range strings.Fields(strings.ReplaceAll(m[1], "\\\n", " ")) {
		p := strings.TrimPrefix(f, "./")
		if prefix, ok := strings.CutSuffix(p, "/..."); ok {
			for _, q := range pkgs {
				if q == prefix || strings.HasPrefix(q, prefix+"/") {
					out = append(out, q)
				}
			}
			continue
		}
		out = append(out, p)
	}
	return sorted(out)
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}
