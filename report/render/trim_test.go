package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/excerpt"
)

// trimText shortens x as a view does and returns the pieces as a reader
// is shown them, and the bytes left out. Every piece must be exactly the
// bytes of x it cites, and every gap between two pieces named by a note.
func trimText(run string, x report.Excerpt, c Cut, w Words) (string, int64) {
	xs, n := trimExcerpt(run, x, c, w)
	for i, p := range xs {
		if i > 0 && p.Start > xs[i-1].End && xs[i-1].Note == "" {
			panic(fmt.Sprintf("bytes [%d,%d) left out between two pieces, and no note says so", xs[i-1].End, p.Start))
		}
		if p.Start < x.Start || p.End > x.End {
			panic(fmt.Sprintf("piece [%d,%d) outside its excerpt [%d,%d)", p.Start, p.End, x.Start, x.End))
		}
		if err := excerpt.Check(p, x.Raw[p.Start-x.Start:p.End-x.Start]); err != nil {
			panic(err)
		}
	}
	return groupText(xs), n
}

// tLogTest is a go test -v failure that logs n progress lines and then
// fails: its assertion and verdict are the last lines.
func tLogTest(name string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "=== RUN   %s\n", name)
	for i := range n {
		fmt.Fprintf(&b, "    cart_test.go:%d: line %02d SKU-%05d qty=25 price=1000\n", 20+i, i, i)
	}
	fmt.Fprintf(&b, "    cart_test.go:34: Total(350 units) = 350000, want 297500\n--- FAIL: %s (0.00s)\n", name)
	return b.String()
}

// TestTrimKeepsEvidence: shortening an excerpt leaves out progress
// logging far from the failure, never the assertion, its location or the
// verdict; capped, the assertion is the last to go.
func TestTrimKeepsEvidence(t *testing.T) {
	raw := tLogTest("TestCart", 60)
	x := fixtureExcerpt("stdout", 0, 1, "failure", raw)
	tests := []struct {
		name       string
		cut        Cut
		want, gone []string
		maxLines   int // lines of text, markers included
	}{
		{"context trimmed", Cut{Lines: 10, Width: 160},
			[]string{"Total(350 units) = 350000, want 297500", "--- FAIL: TestCart", "line 59 SKU-00059"},
			[]string{"line 00 SKU-00000", "line 30 SKU-00030"}, 12},
		{"evidence only", Cut{Lines: 2, Width: 120, Evidence: 2},
			[]string{"Total(350 units) = 350000, want 297500", "--- FAIL: TestCart"},
			[]string{"line 59 SKU-00059"}, 4},
		// The verdict after it is shorter than a note naming it: it stays.
		{"the assertion alone", Cut{Lines: 2, Width: 120, Evidence: 1},
			[]string{"Total(350 units) = 350000, want 297500"},
			[]string{"line 58 SKU", "line 00"}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, n := trimText("r1", x, tc.cut, markdownWords{})
			if n == 0 {
				t.Fatalf("nothing left out of %d lines", strings.Count(raw, "\n"))
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("%q left out:\n%s", w, text)
				}
			}
			for _, g := range tc.gone {
				if strings.Contains(text, g) {
					t.Errorf("%q kept:\n%s", g, text)
				}
			}
			if k := strings.Count(text, "\n"); k > tc.maxLines {
				t.Errorf("%d lines, want at most %d:\n%s", k, tc.maxLines, text)
			}
			if xs, _ := trimExcerpt("r1", x, tc.cut, markdownWords{}); xs[0].FirstLine == x.FirstLine && !strings.Contains(text, "bytes not quoted here: line") {
				t.Errorf("neither a note nor the first line cited says which lines went:\n%s", text)
			}
		})
	}
}

// TestMarkdownKeepsEveryAssertion: a comment shows every failing test's
// assertion when their excerpts fit at all; with more tests than room, no
// test's context is shown while another test's assertion is left out; a
// body with room to spare leaves out no verdict line.
func TestMarkdownKeepsEveryAssertion(t *testing.T) {
	for _, tc := range []struct {
		tests, logs, budget int
		all                 bool // every assertion fits
	}{
		{1, 400, 16384, true}, {12, 40, 16384, true}, {20, 30, 16384, true}, {30, 30, 16384, false}, {40, 10, 8192, false},
	} {
		t.Run(fmt.Sprintf("%d tests of %d log lines in %d bytes", tc.tests, tc.logs, tc.budget), func(t *testing.T) {
			r := fixtureRun("unit", 1, "failed", intp(1))
			var at int64
			for i := range tc.tests {
				raw := tLogTest(fmt.Sprintf("TestCart%02d", i), tc.logs)
				x := fixtureExcerpt("stdout", at, at/10+1, "failure", raw)
				x.Test = fmt.Sprintf("TestCart%02d", i)
				r.Excerpts = append(r.Excerpts, x)
				at += int64(len(raw)) + 1000
			}
			env := &report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{r}}
			body, err := Markdown(env, Options{Budget: tc.budget})
			if err != nil {
				t.Fatal(err)
			}
			if len(body) > tc.budget {
				t.Fatalf("body is %d bytes, over %d", len(body), tc.budget)
			}
			md, _, _ := strings.Cut(body, "<!-- runledger:envelope -->")
			n := strings.Count(md, "Total(350 units) = 350000, want 297500")
			if tc.all && n != tc.tests {
				t.Errorf("%d of %d assertions in the comment (%d bytes of %d)", n, tc.tests, len(body), tc.budget)
			}
			if n < tc.tests && strings.Contains(md, " SKU-") {
				t.Errorf("%d of %d assertions shown, but context lines are too:\n%s", n, tc.tests, md)
			}
			if n == 0 {
				t.Errorf("no assertion in the comment")
			}
			if len(body) < tc.budget*9/10 && strings.Count(md, "--- FAIL: TestCart") != tc.tests {
				t.Errorf("a %d-byte body of %d left out a verdict line", len(body), tc.budget)
			}
		})
	}
}

// jsonEvent is one go test -json output event of test name.
func jsonEvent(name, output string) string {
	return fmt.Sprintf(`{"Time":"2026-12-02T15:15:58.170208734Z","Action":"output","Package":"github.com/acme/cli","Test":%q,"Output":%q}`+"\n", name, output)
}

// TestRepeatsKeepTheAssertion: a test whose output is quoted in two
// pieces, a CLI's own `Error:` and usage first and its assertion and
// verdict last (go test -json), keeps the piece with the assertion when
// one must go, and a go test -json line too wide gives up its wrapper
// before what the test printed.
func TestRepeatsKeepTheAssertion(t *testing.T) {
	r := fixtureRun("unit", 1, "failed", intp(1))
	var at int64
	const tests = 6
	for i := range tests {
		name := fmt.Sprintf("TestFlagGroups/exclusive_group_case_%02d_with_a_long_descriptive_name", i)
		head := jsonEvent(name, "=== RUN   "+name+"\n") + jsonEvent(name, "Error: if any flags in the group [a b] are set none of the others can be set\n")
		for _, u := range []string{"Usage:\n", "  testcmd [flags]\n", "\n", "Flags:\n", "  -a, --a string\n", "  -b, --b string\n"} {
			head += jsonEvent(name, u)
		}
		tail := jsonEvent(name, "\n") + jsonEvent(name, fmt.Sprintf("    flag_groups_test.go:191: Expected error %q but got %q\n",
			"if any flags in the group [a b] are set none of the others can be", "if any flags in the group [a b] are set none of the others can be set")) +
			jsonEvent(name, "--- FAIL: "+name+" (0.00s)\n")
		for _, raw := range []string{head, tail} {
			x := fixtureExcerpt("stdout", at, at/10+1, "failure", raw)
			x.Test = name
			r.Excerpts = append(r.Excerpts, x)
			at += int64(len(raw)) + 1000
		}
	}
	env := &report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{r}}
	for _, budget := range []int{16384, 12288} {
		body, err := Markdown(env, Options{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		md, _, _ := strings.Cut(body, "<!-- runledger:envelope -->")
		for _, want := range []string{`flag_groups_test.go:191: Expected error \"if any flags in the group [a b] are set none of the others can be\" but got`, `"Output":"--- FAIL: TestFlagGroups/`} {
			if n := strings.Count(md, want); n != tests {
				t.Errorf("at %d bytes (body %d): %d of %d tests show %q:\n%s", budget, len(body), n, tests, want, md)
			}
		}
	}
}

// jestFailure is a jest failure block: heading, matcher, legend, diff,
// code frame, stack.
func jestFailure(name string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  ● %s\n\n    expect(received).toBe(expected) // Object.is equality\n\n    - Expected  - 1\n    + Received  + 1\n\n      Usage: cli [options]\n\n", name)
	fmt.Fprintf(&b, "    -   -h, --help%s  display help\n    +   -h, --help%s   display help\n\n", strings.Repeat(" ", n), strings.Repeat(" ", n))
	b.WriteString("      24 |   program.name('test');\n    > 26 |   expect(help).toBe(expectedHelp);\n         |                ^\n      27 | });\n\n")
	fmt.Fprintf(&b, "      at Object.<anonymous> (tests/help%d.test.js:26:27)\n\n", n)
	return b.String()
}

// TestEvidenceCapsKeepWhere: capped, a jest failure keeps its matcher,
// its heading and its stack's head before its diff, and the diff's first
// lines before its legend and code frame.
func TestEvidenceCapsKeepWhere(t *testing.T) {
	x := fixtureExcerpt("stderr", 0, 1, "failure", jestFailure("help › shows options", 1))
	for _, tc := range []struct {
		cap        int
		want, gone []string
	}{
		{2, []string{"expect(received).toBe(expected)", "at Object.<anonymous> (tests/help1.test.js:26:27)"}, []string{"-   -h, --help"}},
		{3, []string{"● help › shows options", "expect(received).toBe(expected)", "at Object.<anonymous>"}, []string{"-   -h, --help", "> 26 |"}},
		// Five lines of a failure this short leave gaps shorter than a
		// piece's citation, which are quoted (joinClose): nothing is gone.
		{5, []string{"● help › shows options", "-   -h, --help ", "+   -h, --help ", "at Object.<anonymous>"}, nil},
	} {
		t.Run(fmt.Sprint(tc.cap), func(t *testing.T) {
			text, _ := trimText("r1", x, Cut{Lines: 2, Width: 120, Evidence: tc.cap}, markdownWords{})
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("%q left out:\n%s", w, text)
				}
			}
			for _, g := range tc.gone {
				if strings.Contains(text, g) {
					t.Errorf("%q kept:\n%s", g, text)
				}
			}
		})
	}
}

// TestTighterCapsOneByOne: with room for some excerpts' received diff
// line but not all, the comment tightens the lowest-priority excerpts
// one by one instead of every excerpt at once, so the more room, the more
// of them show it; every stack head stays throughout.
func TestTighterCapsOneByOne(t *testing.T) {
	r := fixtureRun("unit", 1, "failed", intp(1))
	var at int64
	for i := range 8 {
		raw := jestFailure(fmt.Sprintf("help › case %d", i), i)
		x := fixtureExcerpt("stderr", at, at/10+1, "failure", raw)
		x.Test = fmt.Sprintf("help › case %d", i)
		r.Excerpts = append(r.Excerpts, x)
		at += int64(len(raw)) + 1000
	}
	env := &report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{r}}
	last, partial := -1, false
	for budget := 8400; budget <= 10000; budget += 40 { // each excerpt cut in pieces cites each piece: 8 heads fit from 8.4 KB
		body, err := Markdown(env, Options{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if len(body) > budget {
			t.Fatalf("body %d bytes, over %d", len(body), budget)
		}
		md, _, _ := strings.Cut(body, "<!-- runledger:envelope -->")
		if n := strings.Count(md, "at Object.<anonymous> (tests/help"); n != 8 {
			t.Errorf("at %d bytes: %d of 8 stack heads shown", budget, n)
		}
		n := strings.Count(md, "+   -h, --help")
		if n < last {
			t.Errorf("at %d bytes: %d received lines, fewer than %d with less room", budget, n, last)
		}
		last, partial = n, partial || n > 0 && n < 8
	}
	if !partial {
		t.Errorf("no budget showed some excerpts' received line and not others': caps are lowered all at once")
	}
}

// TestLongFailureListGivesWay: a run failing more tests than the comment
// lists names the rest in the embedded envelope only while there is room;
// short of room, their count stays and the excerpts keep the space.
func TestLongFailureListGivesWay(t *testing.T) {
	const failing = 18
	r := fixtureRun("unit", 1, "failed", intp(1))
	var at int64
	for i := range failing {
		name := fmt.Sprintf("tests/test_graph_generators.py::TestGenerators::test_case_with_a_long_name_%02d", i)
		r.Summary.Failures = append(r.Summary.Failures, report.Failure{Name: name, File: "tests/test_graph_generators.py", Message: "assert False"})
		raw := fmt.Sprintf("E       assert False\nE        +  where False = edges_equal(EdgeView([(0, 1)]), [(0, %d)])\n\ntests/test_graph_generators.py:%d: AssertionError\n", i, 100+i)
		x := fixtureExcerpt("stdout", at, at/10+1, "failure", raw)
		x.Test = name
		r.Excerpts = append(r.Excerpts, x)
		at += int64(len(raw)) + 1000
	}
	env := &report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{r}}
	body, err := Markdown(env, Options{Budget: 16384})
	if err != nil {
		t.Fatal(err)
	}
	md, _, _ := strings.Cut(body, "<!-- runledger:envelope -->")
	// Every failure keeps what says it (the `+  where` line under a bare
	// `assert False`) before any keeps more, and most keep where too: the
	// list's names gave way first.
	where, locs := strings.Count(md, "+  where False"), strings.Count(md, ": AssertionError")
	if where != failing || locs < failing/2 {
		t.Errorf("%d where lines and %d locations of %d failures in the comment (%d bytes)", where, locs, failing, len(body))
	}
	got, err := ExtractEnvelope(body)
	if err != nil {
		t.Fatal(err)
	}
	if s := got.Runs[0].Summary; len(s.Failures) != listedFailures || s.FailuresOmitted != failing-listedFailures {
		t.Errorf("embedded envelope names %d failures, %d omitted; want %d and %d", len(s.Failures), s.FailuresOmitted, listedFailures, failing-listedFailures)
	}
}

// TestPytestPiecesKeepTheMessage: pytest's failure is quoted in pieces
// (its heading, its source with the `E` lines, its `file.py:N:
// AssertionError` location); when a test may keep one, it keeps the `E`
// lines, not the location (which says where, not what) nor a piece of
// its source listing, whose `assert` lines are code.
func TestPytestPiecesKeepTheMessage(t *testing.T) {
	pieces := []string{
		"____________________ TestGrid.test_periodic _____________________\n",
		"        G = nx.grid_2d_graph(0, 0, periodic=True)\n        assert dict(G.degree()) == {}\n",
		">       assert nx.could_be_isomorphic(nx.grid_2d_graph(m, n, periodic=True), nx.circular_ladder_graph(5))\n" +
			"E       assert False\nE        +  where False = could_be_isomorphic(G, H)\n",
		"\nnetworkx/generators/tests/test_lattice.py:52: AssertionError\n",
	}
	r := fixtureRun("unit", 1, "failed", intp(1))
	var at int64
	for _, p := range pieces {
		x := fixtureExcerpt("stdout", at, at/10+1, "failure", p)
		x.Test = "TestGrid.test_periodic"
		r.Excerpts = append(r.Excerpts, x)
		at += int64(len(p)) + 100
	}
	env := &report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{r}}
	ord := orderOf(env)
	kept := map[int]bool{0: true, 1: true, 2: true, 3: true}
	for _, x := range ord.repeats {
		delete(kept, x[1])
	}
	if len(kept) != 1 || !kept[2] {
		t.Fatalf("kept pieces %v, want only the E lines (2)", kept)
	}
	// Dropped first: what says least (the heading), then where, then code.
	want := []int{0, 3, 1}
	for i, x := range ord.repeats {
		if x[1] != want[i] {
			t.Errorf("repeat %d is piece %d, want %d (order %v)", i, x[1], want[i], ord.repeats)
		}
	}
	// Cut to one line, the E piece keeps the line that says what failed
	// (a bare `assert False` shorter than its omission marker stays too).
	text, _ := trimText("unit", r.Excerpts[2], Cut{Evidence: 1}, markdownWords{})
	if !strings.Contains(text, "+  where False = could_be_isomorphic") || strings.Contains(text, "circular_ladder_graph") {
		t.Errorf("one evidence line kept:\n%s", text)
	}
}

// TestLineMarkers: a marker names the lines it stands for by number, one
// line as one, and not again the excerpt's byte range, which its heading
// and the envelope give.
func TestLineMarkers(t *testing.T) {
	long := strings.Repeat("noise ", 20)
	raw := long + "\n" + "    calc_test.go:9: want 4, got 5\n" + long + "\n" + long + "\n"
	x := fixtureExcerpt("stdout", 1000, 40, "failure", raw)
	text, _ := trimText("unit", x, Cut{Evidence: 1}, markdownWords{})
	want := "    calc_test.go:9: want 4, got 5\n…[242 bytes not quoted here: lines 42–43]…\n"
	if text != want {
		t.Errorf("trimmed:\n%s\nwant:\n%s", text, want)
	}
}
