package testreport

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJUnitBig: a JUnit file bigger than any read buffer is streamed
// whole; a big file of NULs is a warning naming it, never a pass.
func TestJUnitBig(t *testing.T) {
	const size = 40 << 20
	dir := t.TempDir()
	path := filepath.Join(dir, "huge.xml")
	f, _ := os.Create(path)
	fmt.Fprint(f, `<testsuites><testsuite name="big">`)
	n := 0
	for written := int64(0); written <= size; n++ {
		k, _ := fmt.Fprintf(f, `<testcase name="T%d" classname="pkg" time="0.001"/>`, n)
		written += int64(k)
	}
	fmt.Fprint(f, `<testcase name="Bad" classname="pkg"><failure message="boom">trace</failure></testcase></testsuite></testsuites>`)
	f.Close()
	rr := Read([]string{path})
	s := rr.Counts
	if len(rr.Warnings) != 0 || s.Tests != n+1 || s.Failed != 1 || rr.Failures[0].Name != "Bad" || rr.Failures[0].Message != "boom" {
		t.Fatalf("warnings %v tests %d failed %d", rr.Warnings, s.Tests, s.Failed)
	}
	junk := filepath.Join(dir, "junk.xml")
	g, _ := os.Create(junk)
	g.Truncate(size)
	g.Close()
	rr = Read([]string{junk})
	if len(rr.Warnings) != 1 || !strings.Contains(rr.Warnings[0], junk) || !strings.Contains(rr.Warnings[0], "neither XML nor JSON") || rr.Counts != nil {
		t.Fatalf("a big file of NULs: warnings %v, counts %v", rr.Warnings, rr.Counts)
	}
}
