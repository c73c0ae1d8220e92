package evidence

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// plan scans log as one stdout stream and plans it with budget.
func plan(t testing.TB, log string, b Budget) ([]Piece, *Result) {
	t.Helper()
	ra := strings.NewReader(log)
	res, err := Scan(ra, int64(len(log)), nil)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Plan([]Input{{Stream: "stdout", RA: ra, Res: res}}, b)
	if err != nil {
		t.Fatal(err)
	}
	return ps, res
}

func quoted(log string, ps []Piece) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(log[p.Start:p.End])
		b.WriteString("\n@@\n")
	}
	return b.String()
}

// noise is what a real log has around its failures: passing tests that
// log, a deprecation warning, ok lines.
func noise(n int, name string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "=== RUN   Test%s%d\n    %s_test.go:%d: fetched %d rows; error budget ok\n    %s_test.go:%d: expected cache hit, got miss (retrying)\n--- PASS: Test%s%d (0.00s)\n",
			name, i, strings.ToLower(name), 10+i%50, i, strings.ToLower(name), 11+i%50, name, i)
	}
	return b.String()
}

// TestGrammars: at a budget far below the log's size, each runner's own
// evidence is quoted — the lines an agent needs — and its noise is not.
func TestGrammars(t *testing.T) {
	tests := []struct {
		name, log string
		want      []string // each must be quoted
		not       []string // none may be quoted
	}{
		{
			name: "go -v: a subtest's output far from its verdict",
			log: "=== RUN   TestParse\n=== RUN   TestParse/negative\n    parse_test.go:30: Parse(\"-7\") = 7, want -7\n" +
				noise(200, "Other") + "--- FAIL: TestParse (0.00s)\n    --- FAIL: TestParse/negative (0.00s)\nFAIL\nFAIL\tex.com/p\t0.01s\n",
			want: []string{`parse_test.go:30: Parse("-7") = 7, want -7`, "--- FAIL: TestParse/negative"},
			not:  []string{"fetched 3 rows"},
		},
		{
			name: "go: a package that passed printed --- FAIL lines it expected (testify's suite)",
			log: "=== RUN   TestSuiteFails\n=== RUN   TestSuiteFails/Inner\n    suite_test.go:42: inner failure the suite expects\n" +
				"    --- FAIL: TestSuiteFails/Inner (0.00s)\n--- PASS: TestSuiteFails (0.00s)\nPASS\nok  \tex.com/suite\t0.1s\n" +
				noise(150, "Other") + "=== RUN   TestReal\n    real_test.go:7: got 3, want 2\n--- FAIL: TestReal (0.00s)\nFAIL\nFAIL\tex.com/real\t0.1s\n",
			want: []string{"real_test.go:7: got 3, want 2"},
			not:  []string{"inner failure the suite expects"},
		},
		{
			name: "go -v: a failed example's got and want, unindented under its verdict, far from the end",
			log: noise(200, "Other") + "=== RUN   ExampleGreet\n--- FAIL: ExampleGreet (0.00s)\ngot:\nhello bob\nwant:\nhi bob\n" +
				"=== RUN   ExampleLast\n--- PASS: ExampleLast (0.00s)\nFAIL\nFAIL\tex.com/greet\t0.01s\n" +
				strings.Repeat("ok  \tex.com/z\t0.01s\n", 300),
			want: []string{"--- FAIL: ExampleGreet", "got:", "hello bob", "want:", "hi bob"},
			not:  []string{"ok  \tex.com/z"},
		},
		{
			name: "go plain: indented output under --- FAIL",
			log: strings.Repeat("ok  \tex.com/a\t0.01s\n", 300) + "--- FAIL: TestAdd (0.00s)\n    add_test.go:9: Add(2,2) = 5, want 4\nFAIL\nFAIL\tex.com/add\t0.01s\n" +
				strings.Repeat("ok  \tex.com/z\t0.01s\n", 300),
			want: []string{"add_test.go:9: Add(2,2) = 5, want 4"},
			not:  []string{"ok  \tex.com/a"},
		},
		{
			name: "go -v: the packages a build error stopped, printed first, far from the error",
			log: "FAIL\tex.com/app [build failed]\nFAIL\tex.com/app/cli [build failed]\n" + noise(200, "Other") +
				"PASS\nok  \tex.com/other\t0.2s\nFAIL\tex.com/app/internal/store [build failed]\nFAIL\n",
			want: []string{"FAIL\tex.com/app [build failed]", "FAIL\tex.com/app/cli [build failed]", "FAIL\tex.com/app/internal/store [build failed]"},
			not:  []string{"fetched 3 rows"},
		},
		{
			name: "unknown runner: a coverage table's error.js row is a file, not an error",
			log: strings.Repeat("step ok: building index of the sources\n", 300) +
				"File          | % Stmts | % Branch\nerror.js      |     100 |      100\nerror/index.js|     100 |      100\n" +
				strings.Repeat("step ok: building index of the sources\n", 300) + "FAIL: test_resize expected 640 got 480\n" +
				strings.Repeat("step ok: building index of the sources\n", 300),
			want: []string{"FAIL: test_resize expected 640 got 480"},
			not:  []string{"error.js      |", "error/index.js"},
		},
		{
			name: "go race report from its rule to its rule",
			log: noise(100, "A") + "==================\nWARNING: DATA RACE\nWrite at 0x00c000012345 by goroutine 8:\n  ex.com/c.(*Counter).Inc()\n      /src/c/counter.go:12 +0x44\n\nPrevious write at 0x00c000012345 by goroutine 7:\n  ex.com/c.(*Counter).Inc()\n      /src/c/counter.go:12 +0x44\n==================\n" +
				noise(100, "B"),
			want: []string{"WARNING: DATA RACE", "/src/c/counter.go:12", "Previous write at"},
		},
		{
			name: "pytest section, not the passing lines",
			log: strings.Repeat("tests/test_a.py::test_ok PASSED [ 10%]\n", 400) + "=================================== FAILURES ===================================\n" +
				"_________________________________ test_total _________________________________\n\n    def test_total():\n>       assert total([1, 2]) == 4\nE       assert 3 == 4\nE        +  where 3 = total([1, 2])\n\ntests/test_cart.py:7: AssertionError\n" +
				"=========================== short test summary info ============================\nFAILED tests/test_cart.py::test_total - assert 3 == 4\n========================= 1 failed, 400 passed in 0.51s =========================\n",
			want: []string{"E       assert 3 == 4", "tests/test_cart.py:7: AssertionError", "_ test_total _"},
			not:  []string{"test_ok PASSED"},
		},
		{
			name: "jest failure block, never console noise",
			log: strings.Repeat("  ● Console\n\n    console.log\n      loading fixtures 1..1000\n\n      at Object.<anonymous> (tests/setup.js:3:11)\n\n", 60) +
				"  ● Cart › adds totals\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: 4\n    Received: 5\n\n      3 | test('adds totals', () => {\n    > 4 |   expect(total([2, 2])).toBe(4);\n        |                         ^\n\n      at Object.toBe (tests/cart.test.js:4:25)\n\n" +
				"Test Suites: 1 failed, 1 total\nTests:       1 failed, 3 passed, 4 total\n",
			want: []string{"Expected: 4", "Received: 5", "tests/cart.test.js:4:25"},
			not:  []string{"loading fixtures"},
		},
		{
			name: "cargo panic block, not the other crates' results",
			log: strings.Repeat("test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n", 80) +
				"failures:\n\n---- tests::long_is_cut stdout ----\n\nthread 'tests::long_is_cut' panicked at src/lib.rs:21:9:\nassertion `left == right` failed\n  left: \"abcdef\"\n right: \"abc\"\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\nfailures:\n    tests::long_is_cut\n\ntest result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
			want: []string{"panicked at src/lib.rs:21:9:", `left: "abcdef"`, `right: "abc"`},
		},
		{
			name: "mocha numbered failure blocks after N failing",
			log:  strings.Repeat("    ✔ keeps order\n", 300) + "\n  300 passing (40ms)\n  1 failing\n\n  1) Cart\n       adds totals:\n\n      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n5 !== 4\n\n      + expected - actual\n\n      -5\n      +4\n      \n      at Context.<anonymous> (test/cart.test.js:7:12)\n      at process.processImmediate (node:internal/timers:476:21)\n\n\n",
			want: []string{"AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:", "test/cart.test.js:7:12"},
			not:  []string{"keeps order"},
		},
		{
			name: "unittest FAIL block from its header to the rule",
			log:  strings.Repeat("test_ok (tests.test_a.T.test_ok) ... ok\n", 300) + "\n======================================================================\nFAIL: test_area (tests.test_geo.GeoTest.test_area)\n----------------------------------------------------------------------\nTraceback (most recent call last):\n  File \"/src/tests/test_geo.py\", line 9, in test_area\n    self.assertEqual(area(2), 12.56)\nAssertionError: 12.57 != 12.56\n\n----------------------------------------------------------------------\nRan 301 tests in 0.012s\n\nFAILED (failures=1)\n",
			want: []string{"FAIL: test_area (tests.test_geo.GeoTest.test_area)", "AssertionError: 12.57 != 12.56", `File "/src/tests/test_geo.py", line 9, in test_area`},
			not:  []string{"test_ok"},
		},
		{
			name: "AddressSanitizer report without the shadow map",
			log: strings.Repeat("cc -g -fsanitize=address -c src/part.c -o build/part.o\n", 200) +
				"=================================================================\n==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000014 at pc 0x55d4 bp 0x7ffd sp 0x7ffd\nWRITE of size 4 at 0x602000000014 thread T0\n    #0 0x55d4 in fill src/crash.c:7\n    #1 0x55d5 in main src/crash.c:13\n\n0x602000000014 is located 0 bytes after 4-byte region\nallocated by thread T0 here:\n    #0 0x7f1 in malloc\n    #1 0x55d6 in main src/crash.c:12\n\nSUMMARY: AddressSanitizer: heap-buffer-overflow src/crash.c:7 in fill\nShadow bytes around the buggy address:\n" +
				strings.Repeat("  0x0c047fff7fb0: fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa\n", 40) + "==4242==ABORTING\n",
			want: []string{"ERROR: AddressSanitizer: heap-buffer-overflow", "#0 0x55d4 in fill src/crash.c:7", "SUMMARY: AddressSanitizer"},
			not:  []string{"0x0c047fff7fb0"},
		},
		{
			name: "an unknown framework's FAIL line in the middle",
			log:  strings.Repeat("[widget] rendering frame\n", 3000) + "FAIL: test_widget_resize expected 640 got 480\n" + strings.Repeat("[widget] rendering frame\n", 3000),
			want: []string{"FAIL: test_widget_resize expected 640 got 480"},
		},
		{
			name: "a logger's ERROR line behind its time stamp, in an unknown program",
			log: strings.Repeat("2026-12-02 03:56:23,101 INFO worker: processed batch of 6000 (ok)\n", 3000) +
				"2026-12-02 03:56:24,001 ERROR storage: write /var/lib/app/seg-17 failed: no space left on device\n" +
				strings.Repeat("2026-12-02 03:56:25,101 INFO worker: processed batch of 6000 (ok)\n", 3000),
			want: []string{"ERROR storage: write /var/lib/app/seg-17 failed: no space left on device"},
		},
		{
			name: "a compiler's error in a file whose name starts with an error word's letter, mid-build",
			log: strings.Repeat("Step 12 of 3000: Building C object src/CMakeFiles/core.dir/unit.c.o\n", 1500) +
				"gcc -Wall -o app app.c\napp.c: In function 'main':\napp.c:4:11: error: too few arguments to function 'add'\n" +
				"    4 |   int x = add(1);\n      |           ^~~\nFoo.java:12: error: cannot find symbol\n\n" +
				strings.Repeat("Step 13 of 3000: Building C object src/CMakeFiles/core.dir/unit.c.o\n", 1500),
			want: []string{"app.c:4:11: error: too few arguments to function 'add'", "Foo.java:12: error: cannot find symbol"},
		},
		{
			name: "make -k: compiler, linker and make errors printed together, each quoted",
			log: strings.Repeat("Step 12 of 3000: Building C object src/CMakeFiles/core.dir/unit.c.o\n", 1500) +
				"gcc -Wall -o a a.c\na.c: In function 'main':\na.c:4:11: error: too few arguments to function 'add'\n" +
				"    4 |   int x = add(1);\n      |           ^~~\na.c:2:5: note: declared here\n    2 | int add(int a, int b) { return a + b; }\n      |     ^~~\n" +
				"a.c:5:20: error: expected ';' before 'return'\n    5 |   printf(\"%d\\n\", x)\n      |                    ^\n      |                    ;\n" +
				"    6 |   return 0;\n      |   ~~~~~~\nmake: *** [Makefile:3: a] Error 1\ngcc -o b b.c\n" +
				"/usr/bin/ld: /tmp/ccYBTZei.o: in function `main':\nb.c:(.text+0x5): undefined reference to `helper'\n" +
				"collect2: error: ld returned 1 exit status\nmake: *** [Makefile:5: b] Error 1\nmake: Target 'all' not remade because of errors.\n\n" +
				strings.Repeat("Step 13 of 3000: Building C object src/CMakeFiles/core.dir/unit.c.o\n", 1500),
			want: []string{"a.c:4:11: error: too few arguments", "a.c:5:20: error: expected ';' before 'return'", "make: *** [Makefile:3: a] Error 1",
				"b.c:(.text+0x5): undefined reference to `helper'", "collect2: error: ld returned 1 exit status", "make: *** [Makefile:5: b] Error 1"},
		},
		{
			name: "an exception name starting with a letter an error word starts with, in an unknown program",
			log: strings.Repeat("processing record batch ok\n", 3000) + "KeyError: 'user_id'\n" +
				strings.Repeat("processing record batch ok\n", 1000) + "FileNotFoundError: [Errno 2] No such file or directory: 'conf.yml'\n" +
				strings.Repeat("processing record batch ok\n", 1000) + "AttributeError: 'NoneType' object has no attribute 'id'\n" +
				strings.Repeat("processing record batch ok\n", 3000),
			want: []string{"KeyError: 'user_id'", "FileNotFoundError: [Errno 2]", "AttributeError: 'NoneType' object has no attribute 'id'"},
		},
		{
			name: "go -v: a panicking test with no output of its own keeps its --- FAIL line",
			log: noise(150, "A") + "=== RUN   TestRegister\n--- FAIL: TestRegister (0.00s)\npanic: assignment to entry in nil map [recovered]\n\tpanic: assignment to entry in nil map\n\n" +
				"goroutine 7 [running]:\nex.com/b.TestRegister(0xc0001)\n\t/src/b/b_test.go:12 +0x65\n\nFAIL\tex.com/b\t0.01s\n" + noise(150, "C"),
			want: []string{"--- FAIL: TestRegister", "panic: assignment to entry in nil map", "/src/b/b_test.go:12"},
		},
		{
			name: "cucumber-js's progress formatter: the failed step and its assertion, not the totals and what follows",
			log: strings.Repeat("webpack: compiled module src/widget.js 1.2 KiB [built]\n", 300) + "..F" + strings.Repeat(".", 450) + "\n\nFailures:\n\n" +
				cucumberBlock + "\n151 scenarios (1 failed, 150 passed)\n453 steps (1 failed, 452 passed)\n0m00.141s (executing steps: 0m00.043s)\n" +
				strings.Repeat("cleanup: removed tmp/cache/x\n", 300),
			want: []string{"1) Scenario: total with tax # features/cart.feature:3", "✖ Then the total with 20% tax is 14.40 euros", "17.28 !== 14.4"},
			not:  []string{"cleanup: removed", "webpack: compiled"},
		},
		{
			name: "PHPUnit failure blocks",
			log:  strings.Repeat(".", 60) + "  60 / 61 ( 98%)\nF\n\nTime: 00:00.012, Memory: 4.00 MB\n\nThere was 1 failure:\n\n1) CartTest::testTotal\nFailed asserting that 5 matches expected 4.\n\n/src/tests/CartTest.php:12\n\nFAILURES!\nTests: 61, Assertions: 61, Failures: 1.\n" + strings.Repeat("deprecated: x\n", 600),
			want: []string{"Failed asserting that 5 matches expected 4.", "/src/tests/CartTest.php:12", "1) CartTest::testTotal"},
			not:  []string{"deprecated: x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, _ := plan(t, tt.log, Budget{Bytes: 1200, Block: 1200, Ended: true})
			q := quoted(tt.log, ps)
			for _, w := range tt.want {
				if !strings.Contains(q, w) {
					t.Errorf("not quoted: %q\nquoted:\n%s", w, q)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(q, n) {
					t.Errorf("noise quoted: %q\nquoted:\n%s", n, q)
				}
			}
			checkPieces(t, tt.log, nil, ps)
		})
	}
}

// TestVerdictInAnotherStream: prove -v -j2 prints `not ok 5 - x` on
// stdout and its diagnostics on stderr; both are quoted.
func TestVerdictInAnotherStream(t *testing.T) {
	out := strings.Repeat("ok 1 - loads\nok 2 - arithmetic\n", 400) + "not ok 5 - two documents in one file are read\nok 6 - port\n" +
		strings.Repeat("ok 1 - loads\nok 2 - arithmetic\n", 400)
	errs := "\n#   Failed test 'two documents in one file are read'\n#   at t/conf.t line 11.\n# parse error: garbage after JSON object, at character offset 17\n"
	var in []Input
	for _, s := range []struct{ name, log string }{{"stdout", out}, {"stderr", errs}} {
		ra := strings.NewReader(s.log)
		res, err := Scan(ra, int64(len(s.log)), nil)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, Input{Stream: s.name, RA: ra, Res: res})
	}
	ps, err := Plan(in, Budget{Bytes: 2048, Ended: true})
	if err != nil {
		t.Fatal(err)
	}
	var q strings.Builder
	for _, p := range ps {
		q.WriteString(map[string]string{"stdout": out, "stderr": errs}[p.Stream][p.Start:p.End])
	}
	for _, w := range []string{"not ok 5 - two documents in one file are read", "#   Failed test 'two documents", "garbage after JSON object"} {
		if !strings.Contains(q.String(), w) {
			t.Errorf("not quoted: %q\nquoted:\n%s", w, q.String())
		}
	}
}

// TestEveryFailureFirst: with more failing tests than the budget holds
// whole, each one's evidence is quoted before any gets a second block.
func TestEveryFailureFirst(t *testing.T) {
	var b strings.Builder
	for i := range 12 {
		fmt.Fprintf(&b, "=== RUN   TestCase%d\n", i)
		for j := range 60 {
			fmt.Fprintf(&b, "    case_test.go:%d: step %d of case %d\n", 100+j, j, i)
		}
		fmt.Fprintf(&b, "    case_test.go:200: case %d: got %d, want %d\n--- FAIL: TestCase%d (0.01s)\n", i, i, i+1, i)
	}
	b.WriteString("FAIL\nFAIL\tex.com/c\t0.2s\n")
	log := b.String()
	ps, _ := plan(t, log, Budget{Ended: true})
	q := quoted(log, ps)
	for i := range 12 {
		if w := fmt.Sprintf("case %d: got %d, want %d", i, i, i+1); !strings.Contains(q, w) {
			t.Errorf("failure %d not quoted: %q", i, w)
		}
	}
	checkPieces(t, log, nil, ps)
}

// TestTailOfAKilledRun: a run that did not end by itself always shows its
// last lines, even when a failure was found elsewhere.
func TestTailOfAKilledRun(t *testing.T) {
	log := "--- FAIL: TestA (0.00s)\n    a_test.go:3: boom\n" + strings.Repeat("ok  \tex.com/x\t0.1s\n", 2000) + "processing item 42\n"
	ps, _ := plan(t, log, Budget{Ended: false})
	q := quoted(log, ps)
	if !strings.Contains(q, "processing item 42") || !strings.Contains(q, "a_test.go:3: boom") {
		t.Errorf("tail or failure missing:\n%s", q)
	}
	if ps[0].Reason != "tail" {
		t.Errorf("the tail of a killed run comes first, got %q", ps[0].Reason)
	}
}

// TestWholeWhenItFits: a short log is quoted whole, not in pieces.
func TestWholeWhenItFits(t *testing.T) {
	log := strings.Repeat("line\n", 100) + "--- FAIL: TestA (0.00s)\n"
	ps, _ := plan(t, log, Budget{Ended: true})
	if len(ps) != 1 || ps[0].Reason != "whole" || ps[0].Start != 0 || ps[0].End != int64(len(log)) || ps[0].First != 1 || ps[0].Last != 101 {
		t.Errorf("got %+v, want the whole log", ps)
	}
}

// TestSegments: a truncated stream's pieces are scanned apart; no block and
// no quoted piece crosses from one to the next.
func TestSegments(t *testing.T) {
	head := "=== RUN   TestA\n    a_test.go:1: start\n"
	tail := "    a_test.go:9: got 1, want 2\n--- FAIL: TestA (0.00s)\nFAIL\n"
	log := head + strings.Repeat("x", 20000) + "\n" + tail
	segs := [][2]int64{{0, int64(len(head))}, {int64(len(head)), int64(len(log))}}
	ra := strings.NewReader(log)
	res, err := Scan(ra, int64(len(log)), segs)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Plan([]Input{{Stream: "stdout", RA: ra, Res: res}}, Budget{Bytes: 1000, Ended: true})
	if err != nil {
		t.Fatal(err)
	}
	checkPieces(t, log, segs, ps)
	if q := quoted(log, ps); !strings.Contains(q, "got 1, want 2") {
		t.Errorf("the failure in the second piece is not quoted:\n%s", q)
	}
	if _, err := Scan(ra, int64(len(log)), [][2]int64{{0, 10}, {11, int64(len(log))}}); err == nil {
		t.Error("pieces with a hole were accepted")
	}
}

// checkPieces: pieces lie in the file, within one segment each, do not
// overlap, and their line numbers count the newlines before them.
func checkPieces(t testing.TB, log string, segs [][2]int64, ps []Piece) {
	t.Helper()
	if segs == nil {
		segs = [][2]int64{{0, int64(len(log))}}
	}
	for i, p := range ps {
		if p.Start < 0 || p.End <= p.Start || p.End > int64(len(log)) {
			t.Fatalf("piece %d [%d,%d) outside the %d-byte log", i, p.Start, p.End, len(log))
		}
		in := false
		for _, s := range segs {
			in = in || (p.Start >= s[0] && p.End <= s[1])
		}
		if !in {
			t.Errorf("piece %d [%d,%d) crosses a segment boundary %v", i, p.Start, p.End, segs)
		}
		if p.First > 0 {
			if want := int64(strings.Count(log[:p.Start], "\n")) + 1; p.First != want {
				t.Errorf("piece %d [%d,%d) first line %d, want %d", i, p.Start, p.End, p.First, want)
			}
		}
		for j, o := range ps[:i] {
			if p.Start < o.End && o.Start < p.End {
				t.Errorf("pieces %d [%d,%d) and %d [%d,%d) overlap", j, o.Start, o.End, i, p.Start, p.End)
			}
		}
	}
}

// FuzzPlan: on any bytes, any split into pieces and any budget, planning
// stays in bounds: pieces in the file and in one piece of it, no overlap,
// true line numbers, and no more than the budget plus the forced tail.
func FuzzPlan(f *testing.F) {
	f.Add([]byte("=== RUN   TestA\n    a_test.go:3: got 1\n--- FAIL: TestA (0.00s)\n"), uint16(0), uint16(64), false)
	f.Add([]byte("___ t ___\nE   x\n=== 1 failed ===\n● A › b\n    x\n✖ c\n  d\nnot ok 1 - e\n  ---\n"), uint16(5), uint16(32), true)
	f.Add([]byte("Traceback (most recent call last):\n  File \"a\", line 1\nValueError: x\n\x1b[31mFAIL\x1b[0m\r\n"), uint16(9), uint16(16), true)
	f.Fuzz(func(t *testing.T, log []byte, cut, budget uint16, ended bool) {
		s := string(log)
		var segs [][2]int64
		if c := int64(cut); c > 0 && c < int64(len(s)) {
			segs = [][2]int64{{0, c}, {c, int64(len(s))}}
		}
		ra := bytes.NewReader(log)
		res, err := Scan(ra, int64(len(s)), segs)
		if err != nil {
			t.Fatal(err)
		}
		b := Budget{Bytes: int64(budget) + 1, Block: int64(budget)/2 + 1, Ended: ended}
		ps, err := Plan([]Input{{Stream: "stdout", RA: ra, Res: res}}, b)
		if err != nil {
			t.Fatal(err)
		}
		checkPieces(t, s, segs, ps)
		var n int64
		for _, p := range ps {
			n += p.End - p.Start
		}
		limit := b.Bytes
		if !ended || len(ps) > 0 && ps[0].Reason == "head" {
			limit += 2 * tailBytes // the forced tail, or head and tail when nothing was found
		}
		if n > limit {
			t.Errorf("quoted %d bytes, budget %d", n, b.Bytes)
		}
	})
}

// cucumberBlock is cucumber-js 11's report of a failed scenario (its
// progress formatter, the default).
const cucumberBlock = `1) Scenario: total with tax # features/cart.feature:3
   ✔ Given an empty cart # features/steps/cart.js:3
   ✔ When I add 4 items at 3 euros # features/steps/cart.js:4
   ✖ Then the total with 20% tax is 14.40 euros # features/steps/cart.js:7
       AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

       17.28 !== 14.4

           + expected - actual

           -17.28
           +14.4

           at World.<anonymous> (/tmp/cuke/features/steps/cart.js:9:10)
`

// TestNumberedLabels: a numbered block under "Failures:" is labelled by
// the runner that printed it (RSpec's, rebar3's EUnit's, cucumber-js's),
// and ends where its section does.
func TestNumberedLabels(t *testing.T) {
	tests := []struct {
		name, log    string
		runner, last string // the block's runner and its last line
	}{
		{"rspec", "Failures:\n\n  1) Calc adds\n     Failure/Error: expect(1).to eq(2)\n\n       expected: 2\n            got: 1\n\nFinished in 0.01 seconds\n1 example, 1 failure\n",
			"rspec", "            got: 1"},
		{"rebar3's EUnit", "===> Performing EUnit tests...\nF\nFailures:\n\n  1) calc_tests:add_test/0\n     Failure/Error: ?assertEqual(2, 3)\n\nFinished in 0.01 seconds\n1 tests, 1 failures\n",
			"eunit", "     Failure/Error: ?assertEqual(2, 3)"},
		{"cucumber-js", "..F.\n\nFailures:\n\n" + cucumberBlock + "\n2 scenarios (1 failed, 1 passed)\n6 steps (1 failed, 5 passed)\n",
			"cucumber", "           at World.<anonymous> (/tmp/cuke/features/steps/cart.js:9:10)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, res := plan(t, tt.log, Budget{Bytes: 4000, Ended: true})
			var b *Block
			for _, x := range res.Blocks {
				if x.Kind == KindTest {
					b = x
					break
				}
			}
			if b == nil {
				t.Fatalf("no test block in %q", tt.log)
			}
			sp := b.Spans[len(b.Spans)-1]
			lines := strings.Split(strings.TrimRight(tt.log[sp.Start:sp.End], "\n"), "\n") // blank lines under it may be its
			if b.Runner != tt.runner || lines[len(lines)-1] != tt.last {
				t.Errorf("block %q of %s ends %q; want %s's, ending %q", b.Test, b.Runner, lines[len(lines)-1], tt.runner, tt.last)
			}
		})
	}
}
