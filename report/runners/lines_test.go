package runners

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repeatReader yields n copies of b without holding them in memory.
type repeatReader struct {
	b byte
	n int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	return int(k), nil
}

// TestLongLine: a 50 MB line without a newline sits between the lines that
// count; offsets and line numbers after it stay exact and Verify re-reads
// the spans from the file.
func TestLongLine(t *testing.T) {
	const long = 50 << 20
	head := "--- FAIL: TestX (0.00s)\n"
	tail := "\nFAIL\texample.com/x\t0.01s\n"
	p := filepath.Join(t.TempDir(), "output.log")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	src := io.MultiReader(strings.NewReader(head), &repeatReader{'x', long}, strings.NewReader(tail))
	if _, err := io.Copy(f, src); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s := scanFile(t, p)
	pkgStart := int64(len(head)) + long + 1
	want := []Span{{0, int64(len(head)), 1, 1}, {pkgStart, pkgStart + int64(len(tail)) - 1, 3, 3}}
	if len(s.Spans) != 2 || s.Spans[0] != want[0] || s.Spans[1] != want[1] {
		t.Errorf("spans = %+v, want %+v", s.Spans, want)
	}
	if num(s.Failed) != 1 || len(s.Failures) != 1 || s.Failures[0].Classname != "example.com/x" {
		t.Errorf("summary = %+v", s)
	}
}

func TestLineReader(t *testing.T) {
	in := "a\r\n\x1b[1m\x1b[31mTests:\x1b[39m 1 failed, 1 total\x1b[0m\nprogress 10%\rprogress 100%\nlast"
	lr := newLineReader(strings.NewReader(in), 16)
	want := []line{
		{num: 1, start: 0, end: 3, text: "a"},
		{num: 2, start: 3, end: 46, text: "Tests: 1 failed, 1 total"},
		{num: 3, start: 46, end: 73, text: "progress 100%"},
		{num: 4, start: 73, end: 77, text: "last"},
	}
	for i, w := range want {
		l, err := lr.next()
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		l.materialize()
		if l.num != w.num || l.start != w.start || l.end != w.end || l.text != w.text {
			t.Errorf("line %d = %+v, want %+v", i+1, *l, w)
		}
	}
	if _, err := lr.next(); err != io.EOF {
		t.Errorf("after the last line: %v, want EOF", err)
	}
}

// TestAnchored: text that merely mentions runner markers — a diff, a
// numbered source listing, a quoted message — is no runner output.
func TestAnchored(t *testing.T) {
	cases := map[string]string{
		"diff":        "-\t--- FAIL: TestX (0.00s)\n+FAIL\tpkg\t0.01s\n+test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n",
		"listing":     "12  --- FAIL: TestX (0.00s)\n13  Tests:       1 failed, 1 total\n14  # tests 3\n",
		"quoted":      "log: \"Tests run: 5, Failures: 1, Errors: 0, Skipped: 0\"\necho '3 passing (2ms)'\n",
		"green lines": "✓ builds\nOK\nPASS\nAll 12 checks passed\n",
		"words":       "the job FAILED after 3 passed checks in 2s\n",
	}
	for name, log := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := Scan(strings.NewReader(log))
			if err != nil {
				t.Fatal(err)
			}
			if s.Source != SourceNone || s.Failed != nil || s.Passed != nil {
				t.Errorf("Scan(%q) = %+v, want source none and no counts", log, s)
			}
		})
	}
}

// TestVerifyRejects: a summary that the recorded bytes do not reproduce.
func TestVerifyRejects(t *testing.T) {
	log := []byte("ok  \texample.com/a\t0.01s\n--- FAIL: TestB (0.00s)\nFAIL\texample.com/b\t0.01s\n")
	s, err := Scan(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(bytes.NewReader(log), int64(len(log)), s); err != nil {
		t.Fatalf("verify the scanned bytes: %v", err)
	}
	cases := map[string]func() ([]byte, *Summary){
		"bytes changed": func() ([]byte, *Summary) {
			return bytes.Replace(log, []byte("--- FAIL"), []byte("--- PASS"), 1), s
		},
		"count changed": func() ([]byte, *Summary) {
			c := *s
			c.Failed = intp(0)
			return log, &c
		},
		"span dropped": func() ([]byte, *Summary) {
			c := *s
			c.Spans = []Span{{Start: 0, End: 25}}
			return log, &c
		},
		"span beyond the log": func() ([]byte, *Summary) {
			c := *s
			c.Spans = append([]Span{}, s.Spans...)
			c.Spans[0].End = int64(len(log)) + 10
			return log, &c
		},
		"name changed": func() ([]byte, *Summary) {
			c := *s
			c.Failures = []Failure{{Name: "TestOther", Classname: "example.com/b"}}
			return log, &c
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			b, sum := mk()
			if err := Verify(bytes.NewReader(b), int64(len(b)), sum); err == nil {
				t.Errorf("Verify accepted %s", name)
			}
		})
	}
}

// TestTrimSpace: the inline trim agrees with bytes.TrimSpace, Unicode
// spaces at the ends included, and returns a subslice.
func TestTrimSpace(t *testing.T) {
	for _, s := range []string{"", " ", "\t\n\v\f\r ", "a", " a b ", "\u00a0a\u00a0", " \u2003x\u0085 ", "é", " ü\u00a0", "\xff \xfe", "\u00a0"} {
		b := []byte(s)
		got, want := trimSpace(b), bytes.TrimSpace(b)
		if !bytes.Equal(got, want) {
			t.Errorf("trimSpace(%q) = %q, want %q", s, got, want)
		}
		if len(got) > 0 && cap(b)-cap(got) != bytes.Index(b, got) {
			t.Errorf("trimSpace(%q) is not a subslice at its offset", s)
		}
	}
}

// TestSkipTo: skipping counts the lines it passes; an offset inside a line
// or a wrong line number is an error.
func TestSkipTo(t *testing.T) {
	tests := []struct {
		off, num int64
		want     string // error text, "" for none
	}{
		{0, 1, ""},
		{2, 2, ""},
		{5, 3, ""},
		{3, 2, "inside a line"},
		{2, 3, "starts line 2, not line 3"},
		{0, 2, "starts line 1, not line 2"},
		{9, 4, "unexpected EOF"},
	}
	for _, tt := range tests {
		lr := newLineReader(strings.NewReader("a\nbc\nd\n"), readBlock)
		err := lr.skipTo(tt.off, tt.num)
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("skipTo(%d, %d) = %v, want %q", tt.off, tt.num, err, tt.want)
			continue
		}
		if err == nil {
			if l, err := lr.next(); err != nil || l.start != tt.off || l.num != tt.num {
				t.Errorf("after skipTo(%d, %d): line %+v, %v", tt.off, tt.num, l, err)
			}
		}
	}
}

// TestCharsetEscape: `tput sgr0` prints ESC ( B ESC [ m; the charset switch
// is stripped whole, as the excerpt scan strips it, so the line still
// counts.
func TestCharsetEscape(t *testing.T) {
	log := "\x1b(B\x1b[m--- FAIL: TestX (0.00s)\n\x1b(B\x1b[mFAIL\texample.com/x\t0.01s\n"
	s, err := Scan(strings.NewReader(log))
	if err != nil || s.Source != "go" || num(s.Failed) != 1 {
		t.Fatalf("Scan(%q) = %+v, %v; want one go failure", log, s, err)
	}
}
