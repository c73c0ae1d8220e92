package report

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// writeLog writes a log file in t.TempDir() through fill and returns its path.
func writeLog(t *testing.T, name string, fill func(w *bufio.Writer)) string {
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

// selectFile runs SelectExcerpts on a real file and checks every excerpt
// against the file's bytes.
func selectFile(t *testing.T, path string, opts ExcerptOptions) []Excerpt {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	ex, err := SelectExcerpts(f, st.Size(), "stdout", opts)
	if err != nil {
		t.Fatalf("SelectExcerpts: %v", err)
	}
	checkExcerpts(t, f, st.Size(), ex, opts.withDefaults())
	return ex
}

// checkExcerpts verifies ranges, hashes, line numbers and Text of ex
// against the file, counting lines in one streaming pass.
func checkExcerpts(t *testing.T, f *os.File, size int64, ex []Excerpt, opts ExcerptOptions) {
	t.Helper()
	var offs []int64
	for i, e := range ex {
		if e.Start < 0 || e.End < e.Start || e.End > size {
			t.Fatalf("excerpt %d: range [%d,%d) outside file of %d bytes", i, e.Start, e.End, size)
		}
		if e.End-e.Start > opts.MaxBytes {
			t.Errorf("excerpt %d: %d bytes, over the %d cap", i, e.End-e.Start, opts.MaxBytes)
		}
		raw := make([]byte, e.End-e.Start)
		if _, err := f.ReadAt(raw, e.Start); err != nil && err != io.EOF {
			t.Fatal(err)
		}
		sum := sha256.Sum256(raw)
		if e.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("excerpt %d: sha256 %s does not match the file's bytes", i, e.SHA256)
		}
		if !utf8.ValidString(e.Text) || strings.ContainsAny(e.Text, "\x1b\x00\r") {
			t.Errorf("excerpt %d: Text not clean: %q", i, e.Text)
		}
		if e.Stream != "stdout" || mdReasonRank(e.Reason) >= len(exReasons) {
			t.Errorf("excerpt %d: stream %q reason %q", i, e.Stream, e.Reason)
		}
		offs = append(offs, e.Start, max(e.End-1, e.Start))
	}
	lines := lineNumbersAt(t, f, offs)
	for i, e := range ex {
		if e.FirstLine != lines[2*i] || e.LastLine != lines[2*i+1] {
			t.Errorf("excerpt %d: lines %d–%d, want %d–%d", i, e.FirstLine, e.LastLine, lines[2*i], lines[2*i+1])
		}
	}
	for i := range ex {
		for j := i + 1; j < len(ex); j++ {
			if ex[i].Start < ex[j].End && ex[j].Start < ex[i].End {
				t.Errorf("excerpts %d and %d overlap", i, j)
			}
		}
	}
}

// lineNumbersAt returns the 1-based line number of each offset.
func lineNumbersAt(t *testing.T, f *os.File, offs []int64) []int64 {
	t.Helper()
	out := make([]int64, len(offs))
	for i, off := range offs {
		var n int64
		r := bufio.NewReader(io.NewSectionReader(f, 0, off))
		buf := make([]byte, 1<<16)
		for {
			k, err := r.Read(buf)
			n += int64(bytes.Count(buf[:k], []byte{'\n'}))
			if err != nil {
				break
			}
		}
		out[i] = n + 1
	}
	return out
}

// findReason returns the excerpt holding text with the given reason, or a
// better one: a merged excerpt takes the best reason of what it covers.
func findReason(ex []Excerpt, reason, text string) *Excerpt {
	for i := range ex {
		if mdReasonRank(ex[i].Reason) <= mdReasonRank(reason) && strings.Contains(ex[i].Text, text) {
			return &ex[i]
		}
	}
	return nil
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

// TestSelectExcerptsBigLogs finds failures wherever they are in large logs,
// also when a flood of lesser markers follows them.
func TestSelectExcerptsBigLogs(t *testing.T) {
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
			ex := selectFile(t, path, ExcerptOptions{})
			if len(ex) > 16 {
				t.Errorf("%d excerpts, over the default cap of 16", len(ex))
			}
			for i, name := range tt.fails {
				e := findReason(ex, "failure", "--- FAIL: "+name)
				if e == nil {
					t.Fatalf("no failure excerpt for %s in %+v", name, ex)
				}
				if !strings.Contains(e.Text, strings.ToLower(name)+"_test.go:12: want 2, got 1") {
					t.Errorf("%s: block's indented line missing: %q", name, e.Text)
				}
				if ex[i].Reason != "failure" {
					t.Errorf("excerpt %d is %q; failures come first", i, ex[i].Reason)
				}
			}
		})
	}
}

func TestSelectExcerptsHostileBytes(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		reason   string
		wantText []string
	}{
		{"nul and invalid utf8", "start\n" + strings.Repeat("\x00", 100000) + "\npanic: boom\x00\xff\xfe\n" +
			"goroutine 1 [running]:\nmain.main()\n", "error", []string{"panic: boom\u2400\ufffd\ufffd", "goroutine 1 [running]:"}},
		{"progress bar", "Downloading 10%\rDownloading 55%\rDownloading 100%\r\n--- FAIL: TestProgress (0.01s)\n" +
			"    progress_test.go:9: broke\n", "failure", []string{"Downloading 100%\n--- FAIL: TestProgress", "progress_test.go:9: broke"}},
		{"ansi colours", "\x1b[1m=== RUN TestColour\x1b[0m\n\x1b[31m--- FAIL: TestColour (0.00s)\x1b[0m\n" +
			"    colour_test.go:3: \x1b]8;;http://x\x07red\x1b]8;;\x07\n", "failure", []string{"--- FAIL: TestColour (0.00s)\n    colour_test.go:3: red\n"}},
		{"crlf", "ok\r\nTraceback (most recent call last):\r\n  File \"x.py\", line 1\r\nValueError: bad\r\nafter\r\n",
			"error", []string{"Traceback (most recent call last):\n  File \"x.py\", line 1\nValueError: bad\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeLog(t, "x.log", func(w *bufio.Writer) { w.WriteString(tt.content) })
			ex := selectFile(t, path, ExcerptOptions{})
			if len(ex) == 0 || ex[0].Reason != tt.reason {
				t.Fatalf("excerpts %+v, want the first with reason %s", ex, tt.reason)
			}
			for _, want := range tt.wantText {
				if !strings.Contains(ex[0].Text, want) {
					t.Errorf("Text %q lacks %q", ex[0].Text, want)
				}
			}
			if strings.Contains(ex[0].Text, "10%") || strings.Contains(ex[0].Text, "after") {
				t.Errorf("Text %q shows overwritten or unrelated lines", ex[0].Text)
			}
		})
	}
}

// TestSelectExcerptsLongLine covers a single 10 MB line without newline,
// plain (head and tail fallback) and starting with a marker (clipped hit).
func TestSelectExcerptsLongLine(t *testing.T) {
	const size = 10 << 20
	tests := []struct {
		name    string
		prefix  string
		reasons []string
	}{
		{"no marker", "", []string{"head", "tail"}},
		{"panic line", "panic: ", []string{"error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeLog(t, "line.log", func(w *bufio.Writer) {
				w.WriteString(tt.prefix)
				chunk := bytes.Repeat([]byte("0123456789abcdef"), 4096)
				for n := len(tt.prefix); n < size; n += len(chunk) {
					w.Write(chunk[:min(len(chunk), size-n)])
				}
			})
			ex := selectFile(t, path, ExcerptOptions{})
			if len(ex) != len(tt.reasons) {
				t.Fatalf("got %d excerpts %+v, want reasons %v", len(ex), ex, tt.reasons)
			}
			for i, e := range ex {
				if e.Reason != tt.reasons[i] || e.FirstLine != 1 || e.LastLine != 1 {
					t.Errorf("excerpt %d: reason %s lines %d–%d", i, e.Reason, e.FirstLine, e.LastLine)
				}
				if !strings.Contains(e.Text, "bytes omitted]…") || len(e.Text) > 2048 {
					t.Errorf("excerpt %d: long line not cut in Text (%d bytes)", i, len(e.Text))
				}
			}
			if ex[0].Start != 0 || !strings.Contains(ex[0].Text, "…[line continues for") {
				t.Errorf("first excerpt [%d,%d) should start the file and say the line continues", ex[0].Start, ex[0].End)
			}
			if last := ex[len(ex)-1]; tt.reasons[0] == "head" && (last.End != size || !strings.HasPrefix(last.Text, "…[line starts")) {
				t.Errorf("tail [%d,%d) should end the file and say the line starts earlier", last.Start, last.End)
			}
		})
	}
}

// TestSelectExcerptsGolden runs representative runner outputs and compares
// the excerpts with golden files (rewrite with -update).
func TestSelectExcerptsGolden(t *testing.T) {
	logs, err := filepath.Glob("testdata/excerpt/*.log")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no sample logs: %v", err)
	}
	for _, path := range logs {
		name := strings.TrimSuffix(filepath.Base(path), ".log")
		t.Run(name, func(t *testing.T) {
			ex := selectFile(t, path, ExcerptOptions{})
			got, err := json.MarshalIndent(ex, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, strings.TrimSuffix(path, ".log")+".golden.json", append(got, '\n'))
		})
	}
}

// TestSelectExcerptsNotFailures checks that a source listing, a diff or a
// grep result quoting failure markers is not excerpted as one.
func TestSelectExcerptsNotFailures(t *testing.T) {
	ex := selectFile(t, "testdata/excerpt/listing.log", ExcerptOptions{})
	if len(ex) == 0 {
		t.Fatal("no excerpt at all: the fallback head and tail are missing")
	}
	for _, e := range ex {
		if e.Reason != "head" && e.Reason != "tail" {
			t.Errorf("excerpt with reason %s from a listing: %q", e.Reason, e.Text)
		}
	}
}

func TestSelectExcerptsSampleReasons(t *testing.T) {
	tests := []struct {
		log, reason, text string
	}{
		{"cargo", "failure", "thread 'tests::parses' panicked at src/lib.rs:14:9:"},
		{"cargo", "summary", "test result: FAILED. 1 passed; 1 failed"},
		{"jest", "failure", "● sum › adds 2 + 2"},
		{"jest", "failure", "✕ adds 2 + 2"},
		{"jest", "summary", "Tests:       1 failed, 1 passed, 2 total"},
		{"maven", "error", "BUILD FAILURE"},
		{"maven", "error", "java.lang.AssertionError: expected:<42> but was:<41>"},
		{"traceback", "error", "KeyError: 'database'"},
		{"gobuild", "error", "internal/parse/lexer.go:41:12: undefined: tokenKind"},
		{"gobuild", "summary", "FAIL\tgithub.com/acme/tool/internal/parse [build failed]"},
	}
	for _, tt := range tests {
		ex := selectFile(t, "testdata/excerpt/"+tt.log+".log", ExcerptOptions{})
		if findReason(ex, tt.reason, tt.text) == nil {
			t.Errorf("%s: no %s excerpt with %q in %+v", tt.log, tt.reason, tt.text, ex)
		}
	}
}

// TestSelectExcerptsStoredRanges uses a truncated stream's stored file,
// whose failure block runs into the gap between head and tail.
func TestSelectExcerptsStoredRanges(t *testing.T) {
	head := strings.Repeat("setup line\n", 80) + "--- FAIL: TestGap (0.00s)\n    gap_test.go:3: first\n    gap_te"
	tail := "st.go:4: second\n    gap_test.go:5: third\nFAIL\texample.com/gap\t0.1s\n"
	path := writeLog(t, "stored.log", func(w *bufio.Writer) { w.WriteString(head + tail) })
	stored := [][2]int64{{0, int64(len(head))}, {1 << 30, 1<<30 + int64(len(tail))}}
	boundary := int64(len(head))
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	size := int64(len(head) + len(tail))

	ex, err := SelectExcerpts(f, size, "stdout", ExcerptOptions{StoredRanges: stored})
	if err != nil {
		t.Fatal(err)
	}
	checkExcerpts(t, f, size, ex, ExcerptOptions{}.withDefaults())
	for _, e := range ex {
		if e.Start < boundary && e.End > boundary {
			t.Fatalf("excerpt [%d,%d) crosses the stored boundary %d", e.Start, e.End, boundary)
		}
	}
	mapped, err := MapOffsets(f, ex, stored)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range mapped {
		want := ex[i].Start
		if ex[i].Start >= boundary {
			want = ex[i].Start - boundary + 1<<30
		}
		if e.Start != want || e.End-e.Start != ex[i].End-ex[i].Start || e.SHA256 != ex[i].SHA256 {
			t.Errorf("mapped %d: [%d,%d), want start %d and same length and hash", i, e.Start, e.End, want)
		}
	}

	// Selected without the ranges, the block spans the gap; MapOffsets
	// must split it and re-hash each part from the file.
	ex, err = SelectExcerpts(f, size, "stdout", ExcerptOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mapped, err = MapOffsets(f, ex, stored)
	if err != nil {
		t.Fatal(err)
	}
	if len(mapped) != len(ex)+1 {
		t.Fatalf("MapOffsets gave %d excerpts from %d; want one split", len(mapped), len(ex))
	}
	for _, e := range mapped {
		inHead := e.End <= int64(len(head))
		inTail := e.Start >= 1<<30 && e.End <= 1<<30+int64(len(tail))
		if !inHead && !inTail {
			t.Fatalf("mapped excerpt [%d,%d) spans the gap", e.Start, e.End)
		}
		fileStart := e.Start
		if inTail {
			fileStart = e.Start - 1<<30 + boundary
		}
		raw := (head + tail)[fileStart : fileStart+e.End-e.Start]
		if sum := sha256.Sum256([]byte(raw)); hex.EncodeToString(sum[:]) != e.SHA256 {
			t.Errorf("mapped excerpt [%d,%d): hash does not match its bytes", e.Start, e.End)
		}
		if strings.Contains(e.Text, "TestGap") && !strings.Contains(e.Text, "excerpt split") {
			t.Errorf("split part does not say it was split: %q", e.Text)
		}
	}
}

// TestSelectExcerptsRealRunners runs real test runners on tiny failing
// fixtures and checks the failing test's block is excerpted.
func TestSelectExcerptsRealRunners(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real test runners")
	}
	goMod := "module example.com/fixture\n\ngo 1.21\n"
	goTest := "package fixture\n\nimport \"testing\"\n\nfunc TestAdds(t *testing.T) {}\n\n" +
		"func TestBroken(t *testing.T) {\n\tt.Log(\"about to compare\")\n\tif got := 1; got != 2 {\n" +
		"\t\tt.Errorf(\"want 2, got %d\", got)\n\t}\n}\n"
	pyTest := "def test_ok():\n    assert True\n\n\ndef test_broken():\n    got = 1\n    assert got == 2\n"
	nodeTest := "const test = require('node:test');\nconst assert = require('node:assert');\n" +
		"test('adds', () => {});\ntest('broken', () => { assert.strictEqual(1, 2); });\n"
	tests := []struct {
		name  string
		tool  string
		args  []string
		files map[string]string
		want  map[string][]string // reason → texts that must be in one excerpt each
	}{
		{"go test", "go", []string{"test", "./..."}, map[string]string{"go.mod": goMod, "fixture_test.go": goTest},
			map[string][]string{"failure": {"--- FAIL: TestBroken", "fixture_test.go:10: want 2, got 1"},
				"summary": {"FAIL\texample.com/fixture"}}},
		{"go test -v", "go", []string{"test", "-v", "./..."}, map[string]string{"go.mod": goMod, "fixture_test.go": goTest},
			map[string][]string{"failure": {"fixture_test.go:10: want 2, got 1", "--- FAIL: TestBroken"}}},
		{"pytest", "pytest", []string{"-p", "no:cacheprovider", "test_fixture.py"}, map[string]string{"test_fixture.py": pyTest},
			map[string][]string{"failure": {"E       assert 1 == 2", "FAILED test_fixture.py::test_broken"},
				"summary": {"1 failed, 1 passed"}}},
		{"node --test", "node", []string{"--test", "--test-reporter=tap", "fixture.test.js"}, map[string]string{"fixture.test.js": nodeTest},
			map[string][]string{"failure": {"not ok 2 - broken"}, "summary": {"# fail 1"}}},
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
			logPath := filepath.Join(t.TempDir(), "output.log")
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
				t.Fatalf("%s should run and fail, got %v", tt.tool, runErr)
			}
			ex := selectFile(t, logPath, ExcerptOptions{})
			for reason, texts := range tt.want {
				for _, text := range texts {
					if findReason(ex, reason, text) == nil {
						log, _ := os.ReadFile(logPath)
						t.Errorf("no %s excerpt with %q; log:\n%s\nexcerpts: %+v", reason, text, log, ex)
					}
				}
			}
		})
	}
}

func TestSelectExcerptsEmptyAndShort(t *testing.T) {
	empty := writeLog(t, "empty.log", func(*bufio.Writer) {})
	if ex := selectFile(t, empty, ExcerptOptions{}); len(ex) != 0 {
		t.Errorf("empty file gave %+v", ex)
	}
	short := writeLog(t, "short.log", func(w *bufio.Writer) { w.WriteString("one\ntwo\nthree") })
	ex := selectFile(t, short, ExcerptOptions{})
	if len(ex) != 1 || ex[0].Reason != "head" || ex[0].Text != "one\ntwo\nthree" {
		t.Errorf("short file gave %+v, want one head excerpt of everything", ex)
	}
	f, err := os.Open(short)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := SelectExcerpts(f, 100, "stdout", ExcerptOptions{}); err == nil {
		t.Error("a size beyond the file's end should be an error")
	}
	if _, err := SelectExcerpts(f, 13, "stdout", ExcerptOptions{StoredRanges: [][2]int64{{0, 5}}}); err == nil {
		t.Error("stored ranges not adding up to the size should be an error")
	}
}

// FuzzSelectExcerpts: whatever the bytes, excerpts are within the file and
// the cap, do not overlap, hash exactly their bytes and have clean Text.
func FuzzSelectExcerpts(f *testing.F) {
	for _, s := range []string{"", "\n", "--- FAIL: TestX\n    x_test.go:1: y\n", "panic: \x00\xff\r\n",
		"a\rb\r\r\n", "\x1b[31m● x\x1b]0;\n  at y\n", "Traceback (most recent call last):\n  x\nE: y\n"} {
		f.Add([]byte(s), uint8(64))
	}
	f.Fuzz(func(t *testing.T, data []byte, capBytes uint8) {
		path := filepath.Join(t.TempDir(), "f.log")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		selectFile(t, path, ExcerptOptions{MaxBytes: int64(capBytes) + 1, MaxLineBytes: 16})
		for _, l := range bytes.SplitAfter(data, []byte("\n")) {
			checkExMatch(t, l[:min(len(l), exScanPrefix)])
		}
	})
}

// BenchmarkSelectExcerptsGoVerbose: SelectExcerpts over a 64 MiB `go test
// -v` log with one failing test in the middle.
func BenchmarkSelectExcerptsGoVerbose(b *testing.B) {
	path := filepath.Join(b.TempDir(), "stdout.log")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	block := strings.Repeat("=== RUN   TestMany\n--- PASS: TestMany (0.00s)\n", 4096)
	const size = 64 << 20
	for n := 0; n < size; n += len(block) {
		if n <= size/2 && n+len(block) > size/2 {
			w.WriteString("--- FAIL: TestMiddle (0.01s)\n    middle_test.go:42: want 2, got 3\n")
		}
		w.WriteString(block)
	}
	w.WriteString("FAIL\nFAIL\texample.com/pkg\t12.345s\n")
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		ex, err := SelectExcerpts(f, st.Size(), "stdout", ExcerptOptions{})
		if err != nil || len(ex) == 0 || ex[0].Reason != "failure" {
			b.Fatalf("excerpts: %+v %v", ex, err)
		}
	}
	f.Close()
}

// exMatchLinear is exMatch without the first-byte table: every pattern in
// order, as the table must reproduce.
func exMatchLinear(t []byte, indented bool) *exPattern {
	if len(t) == 0 {
		return nil
	}
	for _, p := range exPatterns {
		if p.match(t, indented) {
			return p
		}
	}
	return nil
}

// exMatchCorpus is every line of the committed sample logs plus lines made
// to sit at the edge of each pattern.
func exMatchCorpus(t testing.TB) [][]byte {
	lines := [][]byte{}
	for _, glob := range []string{"testdata/excerpt/*", "runners/testdata/*.log"} {
		paths, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, bytes.Split(b, []byte("\n"))...)
		}
	}
	for _, l := range []string{
		"main.go:3:4: undefined: x", "a.b.c:1:2: x", ".go:1:2: x", "x.:1:2: y", "src/x.cs(3,4): error CS1",
		"x.y (1,2): error", "x.é:1:2: y", "\xffa.b:1:2: y", "==== 1 failed in 0.1s ====", "= 2 passed in 1s",
		"==x 1 passed in 1s", "3 passed in 0.2s", "=== FAILURES ===", "== ERRORS ==", "=== FAILURES === x",
		"_Error: boom", "ValueError: bad", "x.Exception:", "✕ adds", "× adds", "✗ adds", "● suite › t",
		"[INFO] BUILD SUCCESS", "[ERROR] BUILD FAILURE", "[] BUILD FAILED", "FAILURE: Build failed with",
		"fatal: not a repo", "FATAL x", "error[E0308]: mismatched", "error: x", "npm ERR! code 1",
		"goroutine 1 [running]:", "thread 'main' panicked at src/main.rs:2:5:", "Ran 3 tests in 0.1s",
		"# tests 3", "2 passing (3ms)", "Tests:       1 failed", "Test Suites: 1 failed",
		"x_test.go:12: want", "a/b/x_test.go:1: got", "E   assert 1 == 2", "____ test_x ____",
		"---- t stdout ----", "--- FAIL: TestX (0.00s)", "not ok 1 - x", "panic: boom", "ok  \tpkg\t0.1s",
		"FAIL\tpkg\t0.1s", "FAIL  src/x.test.js", "FAILED t.py::x", "Traceback (most recent call last):",
		"test result: ok. 1 passed", "=", "-", "\xe2", "\xc3",
	} {
		lines = append(lines, []byte(l))
	}
	return lines
}

// TestExMatchTable: dispatching on the first byte and the cheap checks
// before each regexp pick the same pattern as trying every pattern.
func TestExMatchTable(t *testing.T) {
	for _, l := range exMatchCorpus(t) {
		checkExMatch(t, l)
	}
}

// checkExMatch checks the shortcuts of matching one line (a line prefix,
// newline included if any) against the plain way.
func checkExMatch(t *testing.T, l []byte) {
	t.Helper()
	view := bytes.TrimLeft(exMatchView(l), " \t")
	for _, ind := range []bool{false, true} {
		if got, want := exMatch(view, ind), exMatchLinear(view, ind); got != want {
			t.Errorf("%q (indented %v): table picks %v, every pattern in order %v", view, ind, got, want)
		}
	}
	if exCompileErr.Match(view) && !exMaybeCompileErr(view) {
		t.Errorf("%q: exMaybeCompileErr rejects a compile error", view)
	}
	if exPytestSum.Match(view) && !exMaybePytestSum(view) {
		t.Errorf("%q: exMaybePytestSum rejects a pytest summary", view)
	}
	if exPytestHead.Match(view) && view[len(view)-1] != '=' {
		t.Errorf("%q: a pytest header that does not end with '='", view)
	}
}
