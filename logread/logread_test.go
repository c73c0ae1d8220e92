package logread

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

// captured runs a real command and opens one of its streams.
func captured(t *testing.T, script string, limit int64) (*Log, *record.Record, string) {
	t.Helper()
	needSh(t)
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	recs, err := capture.Run(st, capture.Options{Argv: []string{"sh", "-c", script}, MaxLogBytes: limit})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(st.Dir, recs[0].ID)
	l, err := Open(dir, recs[0], record.Stdout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, recs[0], dir
}

const numbered = `i=1; while [ $i -le 1000 ]; do echo "line $i"; i=$((i+1)); done`

// lineStart is the original offset of "line n\n" in the numbered log.
func lineStart(n int) int64 {
	var off int64
	for i := 1; i < n; i++ {
		off += int64(len(fmt.Sprintf("line %d\n", i)))
	}
	return off
}

func TestCopyRange(t *testing.T) {
	l, _, _ := captured(t, numbered, 0)
	var b bytes.Buffer
	if err := l.CopyRange(&b, lineStart(500), lineStart(502)); err != nil {
		t.Fatal(err)
	}
	if b.String() != "line 500\nline 501\n" {
		t.Fatalf("got %q", b.String())
	}
	if err := l.CopyRange(&b, 0, l.Stream.Bytes+1); err == nil {
		t.Fatal("a range past the end must be an error")
	}
}

func TestTruncatedRanges(t *testing.T) {
	l, rec, _ := captured(t, numbered, 2000)
	s := rec.Streams[record.Stdout]
	if !s.Truncated {
		t.Fatal("expected a truncated stream")
	}
	var b bytes.Buffer
	err := l.CopyRange(&b, lineStart(500), lineStart(501))
	if !errors.Is(err, ErrNotStored) {
		t.Fatalf("reading the omitted middle: err %v, want ErrNotStored", err)
	}
	// The tail is stored: its original offsets still work.
	b.Reset()
	if err := l.CopyRange(&b, lineStart(1000), s.Bytes); err != nil || b.String() != "line 1000\n" {
		t.Fatalf("tail read: %q, %v", b.String(), err)
	}
}

func TestOpenDetectsTampering(t *testing.T) {
	_, rec, dir := captured(t, numbered, 0)
	path := filepath.Join(dir, "stdout.log")
	data, _ := os.ReadFile(path)
	data[10] ^= 1
	os.WriteFile(path, data, 0o644)
	if _, err := Open(dir, rec, record.Stdout); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("Open of a modified log: %v, want a sha256 mismatch", err)
	}
	if _, err := Open(dir, rec, "nonsense"); err == nil || !strings.Contains(err.Error(), `"nonsense"`) {
		t.Fatalf("unknown stream: %v", err)
	}
	rec.Streams[record.Stderr].File = "../../../etc/passwd"
	if _, err := Open(dir, rec, record.Stderr); err == nil || !strings.Contains(err.Error(), "outside its run directory") {
		t.Fatalf("a record pointing outside its run: %v", err)
	}
}

func TestLinesAndGrep(t *testing.T) {
	l, _, _ := captured(t, numbered, 0)
	var b bytes.Buffer
	if err := l.CopyLines(&b, 999, 1005); err != nil || b.String() != "line 999\nline 1000\n" {
		t.Fatalf("CopyLines past the end: %q, %v", b.String(), err)
	}
	if err := l.CopyLines(&b, 2000, 2001); err == nil {
		t.Fatal("lines past the end must be an error")
	}
	matches, more, err := l.Grep(regexp.MustCompile(`^line 7\d$`), 3, 1)
	if err != nil || len(matches) != 3 || !more {
		t.Fatalf("grep: %d matches, more %v, %v", len(matches), more, err)
	}
	m := matches[0]
	if string(m.Line.Text) != "line 70" || m.Line.Number != 70 || m.Line.Start != lineStart(70) {
		t.Fatalf("first match %+v", m.Line)
	}
	if len(m.Context) != 2 || m.Context[0].Number != 69 || m.Context[1].Number != 71 {
		t.Fatalf("context %+v", m.Context)
	}
}

// TestLongLine: a line longer than the buffer is matched on its head and
// counted exactly.
func TestLongLine(t *testing.T) {
	l, _, _ := captured(t, `head -c 200000 /dev/zero | tr '\0' x; echo; echo after`, 0)
	var lines []Line
	if err := l.Lines(func(ln Line) bool { lines = append(lines, ln); return true }); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || !lines[0].Cut || lines[0].End != 200001 || string(lines[1].Text) != "after" {
		t.Fatalf("lines: %d, first cut %v end %d", len(lines), lines[0].Cut, lines[0].End)
	}
}

// needSh skips a test whose command is a shell script where there is no
// sh (Windows without Git Bash on PATH).
func needSh(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skipf("the command is a shell script and there is no sh: %v", err)
	}
}
