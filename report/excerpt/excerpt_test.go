package excerpt

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/runledger/runledger/internal/golden"
	"github.com/runledger/runledger/record"
)

// writeLog writes a log file in t.TempDir() through fill and returns its path.
func writeLog(t testing.TB, name string, fill func(w *bufio.Writer)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fill(w)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// selectFile runs Select on a real file as a run's whole stdout
// (stored is its record's stored ranges, nil for all of it) and checks
// every excerpt against the file's bytes.
func selectFile(t testing.TB, path string, stored [][2]int64, ended bool, opts Options) []Excerpt {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	s := &record.Stream{File: "stdout.log", StoredBytes: info.Size(), StoredRanges: stored}
	if stored == nil {
		s.StoredRanges = [][2]int64{{0, info.Size()}}
	}
	ex, err := Select([]StreamFile{{Name: "stdout", File: f, Stream: s}}, ended, opts)
	if err != nil {
		t.Fatalf("Select: %v", err)
	}
	checkExcerpts(t, f, s, ex)
	return ex
}

// checkExcerpts verifies each excerpt against the stored file: its original
// range maps to one stored piece, the hash is of exactly those bytes, the
// line numbers count the newlines before them, Text is exactly those bytes
// less their escape sequences (Check), and no two excerpts overlap.
func checkExcerpts(t testing.TB, f *os.File, s *record.Stream, ex []Excerpt) {
	t.Helper()
	for i, e := range ex {
		at, ok := s.StoredOffset(e.Start, e.End)
		if !ok || e.End <= e.Start {
			t.Fatalf("excerpt %d: original range [%d,%d) is not in one stored piece of %v", i, e.Start, e.End, s.StoredRanges)
		}
		raw := make([]byte, e.End-e.Start)
		if _, err := f.ReadAt(raw, at); err != nil && err != io.EOF {
			t.Fatal(err)
		}
		if err := Check(e, raw); err != nil {
			t.Errorf("excerpt %d: %v", i, err)
		}
		if !utf8.ValidString(e.Text) || strings.Contains(e.Text, "\x1b") {
			t.Errorf("excerpt %d: Text holds an escape or invalid UTF-8: %q", i, e.Text)
		}
		if e.Stream != "stdout" || Rank(e.Reason) >= len(Reasons) {
			t.Errorf("excerpt %d: stream %q reason %q", i, e.Stream, e.Reason)
		}
		before := make([]byte, at)
		if _, err := f.ReadAt(before, 0); err != nil && err != io.EOF {
			t.Fatal(err)
		}
		first := int64(bytes.Count(before, []byte{'\n'})) + 1
		last := first + int64(bytes.Count(raw[:max(len(raw)-1, 0)], []byte{'\n'}))
		if e.FirstLine != first || e.LastLine != last {
			t.Errorf("excerpt %d [%d,%d): lines %d–%d, want %d–%d", i, e.Start, e.End, e.FirstLine, e.LastLine, first, last)
		}
		for j, o := range ex[:i] {
			if e.Start < o.End && o.Start < e.End {
				t.Errorf("excerpts %d and %d overlap", j, i)
			}
		}
	}
}

// quotedText joins the excerpts' Text.
func quotedText(ex []Excerpt) string {
	var b strings.Builder
	for _, e := range ex {
		b.WriteString(e.Text)
		b.WriteString("\n")
	}
	return b.String()
}

const noiseLine = "2025-01-01T00:00:00Z INFO worker 17 processed batch 123456 in 12ms\n"

func writeNoise(w *bufio.Writer, n int) {
	for written := 0; written < n; written += len(noiseLine) {
		w.WriteString(noiseLine)
	}
}

func goFailBlock(name string) string {
	return "--- FAIL: " + name + " (0.01s)\n    " + strings.ToLower(name) + "_test.go:12: want 2, got 1\n"
}

// TestSelectBigLogs finds failures wherever they are in large logs,
// also when a flood of lesser error lines follows them.
func TestSelectBigLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("writes tens of MB")
	}
	tests := []struct {
		name  string
		fill  func(w *bufio.Writer)
		fails []string
	}{
		{"start middle end", func(w *bufio.Writer) {
			w.WriteString("=== RUN TestStart\n" + goFailBlock("TestStart"))
			writeNoise(w, 12<<20)
			w.WriteString(goFailBlock("TestMiddle"))
			writeNoise(w, 12<<20)
			w.WriteString(goFailBlock("TestEnd") + "FAIL\texample.com/big\t1.2s\n")
		}, []string{"TestStart", "TestMiddle", "TestEnd"}},
		{"failure then 20 MB of cleanup noise", func(w *bufio.Writer) {
			writeNoise(w, 1<<20)
			w.WriteString(goFailBlock("TestHidden"))
			for i := 0; i < 20<<20; {
				for _, l := range []string{noiseLine, "Error: cleanup of /tmp/x failed\n",
					"panic: cleanup\n", "goroutine 7 [running]:\n", "npm ERR! code ELIFECYCLE\n"} {
					w.WriteString(l)
					i += len(l)
				}
			}
		}, []string{"TestHidden"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeLog(t, "big.log", tt.fill)
			ex := selectFile(t, path, nil, true, Options{})
			var n int64
			for _, e := range ex {
				n += e.End - e.Start
			}
			if n > 12<<10 {
				t.Errorf("%d bytes quoted, over the 12 KiB budget", n)
			}
			for i, name := range tt.fails {
				want := strings.ToLower(name) + "_test.go:12: want 2, got 1"
				if !strings.Contains(quotedText(ex), want) {
					t.Errorf("%s: %q not quoted", name, want)
				}
				if ex[i].Reason != "failure" || ex[i].Test != name {
					t.Errorf("excerpt %d is %s of %q; every failing test's own comes first", i, ex[i].Reason, ex[i].Test)
				}
			}
		})
	}
}

func TestSelectHostileBytes(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		wantText []string
	}{
		{"nul and invalid utf8", "start\n" + strings.Repeat("\x00", 100000) + "\npanic: boom\x00\xff\xfe\n" +
			"goroutine 1 [running]:\nmain.main()\n", []string{"panic: boom\x00\ufffd\ufffd", "goroutine 1 [running]:"}},
		{"progress bar", "Downloading 10%\rDownloading 55%\rDownloading 100%\r\n--- FAIL: TestProgress (0.01s)\n" +
			"    progress_test.go:9: broke\n" + strings.Repeat("ok  \tx\t0.1s\n", 2000), []string{"--- FAIL: TestProgress", "progress_test.go:9: broke"}},
		{"ansi colours", "\x1b[1m=== RUN   TestColour\x1b[0m\n    colour_test.go:3: \x1b]8;;http://x\x07red\x1b]8;;\x07\n\x1b[31m--- FAIL: TestColour (0.00s)\x1b[0m\n" +
			strings.Repeat("ok  \tx\t0.1s\n", 2000), []string{"    colour_test.go:3: red\n--- FAIL: TestColour (0.00s)\n"}},
		{"crlf", "ok\r\nTraceback (most recent call last):\r\n  File \"x.py\", line 1\r\nValueError: bad\r\n" + strings.Repeat("after\r\n", 3000),
			[]string{"Traceback (most recent call last):\r\n  File \"x.py\", line 1\r\nValueError: bad\r\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeLog(t, "x.log", func(w *bufio.Writer) { w.WriteString(tt.content) })
			ex := selectFile(t, path, nil, true, Options{Bytes: 2 << 10})
			if len(ex) == 0 {
				t.Fatal("no excerpt")
			}
			q := quotedText(ex)
			for _, want := range tt.wantText {
				if !strings.Contains(q, want) {
					t.Errorf("Text %q lacks %q", q, want)
				}
			}
			if strings.Contains(q, "Downloading 10%") && !strings.Contains(q, "Downloading 10%\rDownloading 55%\rDownloading 100%\r\n") {
				t.Errorf("Text %q holds a progress line, but not as its bytes", q)
			}
		})
	}
}

// TestSelectLongLine covers a single 10 MB line without newline,
// plain (head and tail) and starting with a panic (its start quoted): each
// excerpt is exactly its bytes, within the run's budget, and says the
// line goes on.
func TestSelectLongLine(t *testing.T) {
	const size = 10 << 20
	for _, prefix := range []string{"", "panic: "} {
		t.Run(fmt.Sprintf("%q", prefix), func(t *testing.T) {
			path := writeLog(t, "line.log", func(w *bufio.Writer) {
				w.WriteString(prefix)
				chunk := bytes.Repeat([]byte("0123456789abcdef"), 4096)
				for n := len(prefix); n < size; n += len(chunk) {
					w.Write(chunk[:min(len(chunk), size-n)])
				}
			})
			ex := selectFile(t, path, nil, true, Options{})
			if len(ex) == 0 || ex[0].Start != 0 || !strings.Contains(ex[0].Note, "continues") {
				t.Fatalf("the first excerpt should start the file and its note say the line continues: %d excerpts, the first [%d,%d) noted %q",
					len(ex), ex[0].Start, ex[0].End, ex[0].Note)
			}
			for i, e := range ex {
				if e.FirstLine != 1 || e.LastLine != 1 || len(e.Text) > 12<<10 { // the run's budget bounds it
					t.Errorf("excerpt %d: lines %d–%d, %d bytes of Text", i, e.FirstLine, e.LastLine, len(e.Text))
				}
			}
		})
	}
}

// fileSize is the size of the file at path.
func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

// TestSelectGolden runs representative runner outputs and compares
// the excerpts with golden files (rewrite with -update). The budget is a
// byte short of each log, so that the grammars, not the whole-log rule,
// choose.
func TestSelectGolden(t *testing.T) {
	logs, err := filepath.Glob("testdata/*.log")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no sample logs: %v", err)
	}
	for _, path := range logs {
		name := strings.TrimSuffix(filepath.Base(path), ".log")
		t.Run(name, func(t *testing.T) {
			ex := selectFile(t, path, nil, true, Options{Bytes: fileSize(t, path) - 1})
			got, err := json.MarshalIndent(ex, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, strings.TrimSuffix(path, ".log")+".golden.json", append(got, '\n'))
		})
	}
}

// TestSelectNotFailures: a source listing, a diff or grep hits that
// quote failure markers are not taken for failures.
func TestSelectNotFailures(t *testing.T) {
	ex := selectFile(t, "testdata/listing.log", nil, true, Options{Bytes: 200})
	if len(ex) == 0 {
		t.Fatal("no excerpt at all: the fallback head and tail are missing")
	}
	for _, e := range ex {
		if e.Reason == "failure" {
			t.Errorf("a listing quoted as a failure: %q", e.Text)
		}
	}
}

func TestSelectSampleReasons(t *testing.T) {
	tests := []struct {
		log, reason, text string
	}{
		{"cargo", "failure", "thread 'tests::parses' panicked at src/lib.rs:14:9:"},
		{"jest", "failure", "● sum › adds 2 + 2"},
		{"maven", "failure", "java.lang.AssertionError: expected:<42> but was:<41>"},
		{"traceback", "error", "KeyError: 'database'"},
		{"gobuild", "error", "internal/parse/lexer.go:41:12: undefined: tokenKind"},
	}
	for _, tt := range tests {
		path := "testdata/" + tt.log + ".log"
		ex := selectFile(t, path, nil, true, Options{Bytes: fileSize(t, path) - 1})
		found := false
		for _, e := range ex {
			found = found || e.Reason == tt.reason && strings.Contains(e.Text, tt.text)
		}
		if !found {
			t.Errorf("%s: no %s excerpt with %q in %+v", tt.log, tt.reason, tt.text, ex)
		}
	}
}

// TestSelectStoredRanges uses a truncated stream's stored file,
// whose failure block runs into the gap between head and tail: excerpts
// stay in one piece, carry original offsets and say where the gap is. The
// lines that open the tail piece belong to a block whose start was not
// stored; they are not guessed to belong to the head's failure.
func TestSelectStoredRanges(t *testing.T) {
	head := strings.Repeat("setup line\n", 80) + "--- FAIL: TestGap (0.00s)\n    gap_test.go:3: first\n    gap_te"
	tail := "st.go:4: second\n    gap_test.go:5: third\n--- FAIL: TestTail (0.00s)\n    tail_test.go:9: got 1, want 2\nFAIL\texample.com/gap\t0.1s\n" +
		strings.Repeat("teardown\n", 2000)
	path := writeLog(t, "stored.log", func(w *bufio.Writer) { w.WriteString(head + tail) })
	stored := [][2]int64{{0, int64(len(head))}, {1 << 30, 1<<30 + int64(len(tail))}}
	ex := selectFile(t, path, stored, true, Options{Bytes: 1 << 10})
	q := quotedText(ex)
	for _, want := range []string{"gap_test.go:3: first", "tail_test.go:9: got 1, want 2"} {
		if !strings.Contains(q, want) {
			t.Errorf("%q not quoted:\n%s", want, q)
		}
	}
	noted := false
	for _, x := range ex {
		noted = noted || strings.Contains(x.Note, "truncated here")
	}
	if !noted {
		t.Errorf("the excerpt ending at the gap does not say so:\n%s", q)
	}
}

// TestSelectRealRunners runs real test runners on tiny failing
// fixtures, with enough passing output that the log does not fit whole,
// and checks the failing test's own evidence is quoted.
func TestSelectRealRunners(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real test runners")
	}
	goMod := "module example.com/fixture\n\ngo 1.21\n"
	goTest := "package fixture\n\nimport \"testing\"\n\nfunc TestAdds(t *testing.T) {\n\tfor i := 0; i < 300; i++ {\n\t\tt.Logf(\"row %d ok\", i)\n\t}\n}\n\n" +
		"func TestBroken(t *testing.T) {\n\tt.Log(\"about to compare\")\n\tif got := 1; got != 2 {\n" +
		"\t\tt.Errorf(\"want 2, got %d\", got)\n\t}\n}\n"
	pyTest := "import pytest\n\n@pytest.mark.parametrize('n', range(300))\ndef test_ok(n):\n    assert True\n\n\ndef test_broken():\n    got = 1\n    assert got == 2\n"
	nodeTest := "const test = require('node:test');\nconst assert = require('node:assert');\n" +
		"for (let i = 0; i < 300; i++) test('adds ' + i, () => {});\ntest('broken', () => { assert.strictEqual(1, 2); });\n"
	tests := []struct {
		name  string
		tool  string
		args  []string
		files map[string]string
		want  []string
	}{
		{"go test -v", "go", []string{"test", "-v", "./..."}, map[string]string{"go.mod": goMod, "fixture_test.go": goTest},
			[]string{"fixture_test.go:14: want 2, got 1", "--- FAIL: TestBroken"}},
		{"pytest -v", "/usr/bin/python3", []string{"-m", "pytest", "-v", "-p", "no:cacheprovider", "test_fixture.py"}, map[string]string{"test_fixture.py": pyTest},
			[]string{"E       assert 1 == 2", "test_fixture.py:10: AssertionError"}},
		{"node --test", "node", []string{"--test", "--test-reporter=tap", "fixture.test.js"}, map[string]string{"fixture.test.js": nodeTest},
			[]string{"not ok 301 - broken", "expected: 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin, err := exec.LookPath(tt.tool)
			if err != nil {
				t.Skipf("%s not installed", tt.tool)
			}
			dir := t.TempDir()
			for name, content := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			logPath := filepath.Join(t.TempDir(), "stdout.log")
			out, err := os.Create(logPath)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, tt.args...)
			cmd.Dir, cmd.Stdout, cmd.Stderr = dir, out, out
			cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "NO_COLOR=1", "PYTHONDONTWRITEBYTECODE=1")
			runErr := cmd.Run()
			out.Close()
			if _, ok := runErr.(*exec.ExitError); !ok {
				if tt.tool == "/usr/bin/python3" && os.Getenv("RUNLEDGER_PEERS_REQUIRED") == "" {
					t.Skipf("pytest not runnable: %v", runErr)
				}
				t.Fatalf("%s should run and fail, got %v", tt.tool, runErr)
			}
			ex := selectFile(t, logPath, nil, true, Options{Bytes: 2 << 10})
			for _, text := range tt.want {
				if !strings.Contains(quotedText(ex), text) {
					log, _ := os.ReadFile(logPath)
					t.Errorf("%q not quoted; log:\n%s\nexcerpts: %+v", text, log, ex)
				}
			}
		})
	}
}

func TestSelectEmptyAndShort(t *testing.T) {
	empty := writeLog(t, "empty.log", func(*bufio.Writer) {})
	if ex := selectFile(t, empty, nil, true, Options{}); len(ex) != 0 {
		t.Errorf("empty file gave %+v", ex)
	}
	short := writeLog(t, "short.log", func(w *bufio.Writer) { w.WriteString("one\ntwo\nthree") })
	ex := selectFile(t, short, nil, true, Options{})
	if len(ex) != 1 || ex[0].Reason != "whole" || ex[0].Text != "one\ntwo\nthree" {
		t.Errorf("short file gave %+v, want one excerpt of everything", ex)
	}
	f, err := os.Open(short)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	big := &record.Stream{StoredBytes: 100, StoredRanges: [][2]int64{{0, 100}}}
	if _, err := Select([]StreamFile{{Name: "stdout", File: f, Stream: big}}, true, Options{}); err == nil {
		t.Error("a size beyond the file's end should be an error")
	}
	odd := &record.Stream{StoredBytes: 13, StoredRanges: [][2]int64{{0, 5}}}
	if _, err := Select([]StreamFile{{Name: "stdout", File: f, Stream: odd}}, true, Options{}); err == nil {
		t.Error("stored ranges not adding up to the size should be an error")
	}
}

// FuzzSelect: whatever the bytes and the budget, excerpts lie in
// the file, hash exactly their bytes, count their lines right, have as
// Text exactly their bytes less escape sequences, and do not overlap.
func FuzzSelect(f *testing.F) {
	for _, s := range []string{"", "\n", "--- FAIL: TestX (0.00s)\n    x_test.go:1: y\n", "panic: \x00\xff\r\n",
		"a\rb\r\r\n", "\x1b[31m● x\x1b]0;\n  at y\n", "Traceback (most recent call last):\n  x\nE: y\n"} {
		f.Add([]byte(s), uint8(64), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, budget uint8, ended bool) {
		path := filepath.Join(t.TempDir(), "f.log")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		selectFile(t, path, nil, ended, Options{Bytes: int64(budget) + 1})
	})
}

// BenchmarkSelectGoVerbose: Select over a 64 MiB `go test
// -v` log of tests that log with t.Log, one failing in the middle.
func BenchmarkSelectGoVerbose(b *testing.B) {
	path := writeLog(b, "stdout.log", func(w *bufio.Writer) {
		// Counted, not w.Buffered(), which a flush empties: the log is
		// 64 MiB, the failure about in its middle.
		for i, n := 0, 0; n < 64<<20; i++ {
			k, _ := fmt.Fprintf(w, "=== RUN   TestRecord%04d\n", i)
			n += k
			for j := 0; j < 8; j++ {
				k, _ = fmt.Fprintf(w, "    record_test.go:%d: record %04d: step %d verified, checksum 0x%08x\n", 10+j, i, j, i*j)
				n += k
			}
			if i == 40000 {
				k, _ = fmt.Fprintf(w, "    record_test.go:30: Checksum(%d) = 1, want 2\n--- FAIL: TestRecord%04d (0.00s)\n", i, i)
				n += k
				continue
			}
			k, _ = fmt.Fprintf(w, "--- PASS: TestRecord%04d (0.00s)\n", i)
			n += k
		}
		w.WriteString("FAIL\nFAIL\texample.com/records\t1.234s\n")
	})
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	s := &record.Stream{StoredBytes: info.Size(), StoredRanges: [][2]int64{{0, info.Size()}}}
	b.SetBytes(info.Size())
	b.ResetTimer()
	for range b.N {
		ex, err := Select([]StreamFile{{Name: "stdout", File: f, Stream: s}}, true, Options{})
		if err != nil || !strings.Contains(quotedText(ex), "Checksum(40000) = 1, want 2") {
			b.Fatalf("failure not quoted: %v", err)
		}
	}
}

// TestJUnitElements: every <failure> and <error> element's range is
// exactly its bytes, however the file is laid out.
func TestJUnitElements(t *testing.T) {
	doc := `<testsuites><testsuite><testcase name="a"/><testcase name="b" classname="c">` +
		`<failure message="m">stack</failure></testcase>` + "\n" +
		`<testcase name="d"><error type="E"/></testcase><testcase name="e"><skipped/></testcase></testsuite></testsuites>`
	els, runner, err := failureElements(strings.NewReader(doc), 10)
	if err != nil || len(els) != 2 || runner != "junit" {
		t.Fatalf("%d elements, %v", len(els), err)
	}
	for i, want := range []string{`<failure message="m">stack</failure>`, `<error type="E"/>`} {
		if got := doc[els[i].start:els[i].end]; got != want {
			t.Errorf("element %d: %q, want %q", i, got, want)
		}
	}
	if els[0].name != "b" || els[0].classname != "c" || els[0].message != "m" || els[1].name != "d" {
		t.Errorf("names %+v", els)
	}
}

// TestReportElements: the failure elements of NUnit, xUnit.net and TRX
// files are found with their tests' names and exact ranges; a failure
// outside any test (an NUnit suite's SetUp) is not quoted as a test's.
func TestReportElements(t *testing.T) {
	cases := []struct {
		runner, doc, want, test string
	}{
		{"nunit", `<test-run><test-suite name="F"><failure><message>setup</message></failure>` +
			`<test-case name="T(1)" result="Failed"><failure><message>no</message></failure></test-case></test-suite></test-run>`,
			`<failure><message>no</message></failure>`, "T(1)"},
		{"xunit", `<assemblies><assembly><collection><test name="C.T" result="Fail"><failure exception-type="E"><message>no</message></failure></test></collection></assembly></assemblies>`,
			`<failure exception-type="E"><message>no</message></failure>`, "C.T"},
		{"trx", `<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results><UnitTestResult testName="T" outcome="Failed"><Output><ErrorInfo><Message>no</Message></ErrorInfo></Output></UnitTestResult></Results></TestRun>`,
			`<ErrorInfo><Message>no</Message></ErrorInfo>`, "T"},
	}
	for _, tc := range cases {
		t.Run(tc.runner, func(t *testing.T) {
			els, runner, err := failureElements(strings.NewReader(tc.doc), 10)
			if err != nil || len(els) != 1 || runner != tc.runner {
				t.Fatalf("%d elements, runner %q, %v", len(els), runner, err)
			}
			if got := tc.doc[els[0].start:els[0].end]; got != tc.want || els[0].name != tc.test {
				t.Errorf("element %q of %q, want %q of %q", got, els[0].name, tc.want, tc.test)
			}
		})
	}
}
