package runners

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/golden"
)

// TestSamples parses the committed real (or, where testdata/README.md says
// so, format-derived) samples and compares the result with its golden file.
func TestSamples(t *testing.T) { checkGoldens(t, "testdata/*.log", 1) }

// checkGoldens scans each log the pattern matches (at least least of
// them), checks that Verify accepts each summary and compares it with its
// golden file, the log's name with .golden.json for .log.
func checkGoldens(t *testing.T, pattern string, least int) {
	t.Helper()
	logs, err := filepath.Glob(pattern)
	if err != nil || len(logs) < least {
		t.Fatalf("want at least %d samples %s, have %d: %v", least, pattern, len(logs), err)
	}
	for _, path := range logs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s := scanFile(t, path)
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, strings.TrimSuffix(path, ".log")+".golden.json", buf.Bytes())
		})
	}
}

// scanFile scans a stored log and checks that Verify accepts the result.
func scanFile(t *testing.T, path string) *Summary {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := Scan(f)
	if err != nil {
		t.Fatalf("scan %s: %v", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if s.Source != SourceNone {
		if err := Verify(f, st.Size(), s); err != nil {
			t.Errorf("verify %s: %v", path, err)
		}
	}
	checkFailureSpans(t, s, st.Size())
	return s
}

// checkFailureSpans: every failure cites the bytes it was read from.
func checkFailureSpans(t *testing.T, s *Summary, size int64) {
	t.Helper()
	for _, f := range s.Failures {
		if f.Span == nil || f.Span.Start >= f.Span.End || f.Span.End > size {
			t.Errorf("failure %s/%s has span %+v in a %d-byte log", f.Classname, f.Name, f.Span, size)
		}
	}
}

// BenchmarkScan measures throughput over real samples, repeated.
func BenchmarkScan(b *testing.B) {
	var log []byte
	for _, name := range []string{"jest-fail.log", "mocha-fail.log", "gotestsum-fail.log", "surefire-multimodule.log", "surefire-color.log", "gradle-fail.log"} {
		s, err := os.ReadFile("testdata/" + name)
		if err != nil {
			b.Fatal(err)
		}
		log = append(log, s...)
	}
	log = bytes.Repeat(log, 100)
	b.SetBytes(int64(len(log)))
	for b.Loop() {
		s, err := Scan(bytes.NewReader(log))
		if err != nil || s.Source == SourceNone || num(s.Failed) == 0 {
			b.Fatalf("scan: %+v, %v", s, err)
		}
	}
}
