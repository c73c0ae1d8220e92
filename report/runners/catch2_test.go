package runners

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// catch2Fixture is a Catch2 v2 suite (Debian's header-only catch2) with a
// failed REQUIRE, an exception in a section, a matcher, a long name Catch2
// wraps, a hidden test, a test case that passes and one that crashes.
var catch2Fixture = map[string]string{
	"calc.hpp": `#pragma once
#include <stdexcept>
#include <vector>
inline int Sum(const std::vector<int>& v) { int s = 0; for (size_t i = 1; i < v.size(); i++) s += v[i]; return s; }
inline int Div(int a, int b) { if (b == 0) throw std::runtime_error("division by zero"); return a / b; }
`,
	"test_calc.cpp": `#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include "calc.hpp"

TEST_CASE("sums a vector", "[sum]") {
    std::vector<int> v{1, 2, 3};
    REQUIRE( Sum(v) == 6 );
}

TEST_CASE("sums nothing", "[sum]") {
    REQUIRE( Sum({}) == 0 );
}

TEST_CASE("divides", "[div]") {
    CHECK( Div(6, 3) == 2 );
    SECTION("by zero") {
        CHECK( Div(1, 0) == 0 );
    }
    SECTION("by one") {
        REQUIRE( Div(5, 1) == 5 );
    }
}

TEST_CASE("a test case with a name long enough that the console reporter wraps it over two lines", "[long]") {
    std::string s = "hello";
    CHECK_THAT( s, Catch::Matchers::StartsWith("world") );
}

TEST_CASE("hidden", "[.]") {
    REQUIRE( false );
}

TEST_CASE("crashes", "[.crash]") {
    CHECK( 1 == 1 );
    volatile int *p = nullptr;
    *p = 3;
}
`,
}

// TestCatch2Real compiles the fixture with g++ against Debian's Catch2
// headers and runs it plainly, with -s, on passing tests only, into a
// crash, and under ctest (-V and --output-on-failure) as three tests of
// one program: the counts from "test cases: …" or "All tests passed (…)",
// the failing test cases from the headers over their FAILED lines, each
// message from the assertion and its expansion.
func TestCatch2Real(t *testing.T) {
	if _, err := os.Stat("/usr/include/catch2/catch.hpp"); err != nil {
		t.Skip("Catch2's header is not installed here (apt-get install catch2)")
	}
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("g++ is not installed here")
	}
	dir := t.TempDir()
	writeFiles(t, dir, catch2Fixture)
	gxx := exec.Command("g++", "-std=c++17", "-O0", "-o", "calc_tests", "test_calc.cpp")
	gxx.Dir = dir
	if out, err := gxx.CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, out)
	}
	long := "a test case with a name long enough that the console reporter wraps it over two lines"
	failing := want{"catch2", 4, 1, 3, 0, 0, []string{"sums a vector", "divides", long}, nil, 1}
	messages := map[string]string{
		"sums a vector": "test_calc.cpp:7: REQUIRE( Sum(v) == 6 ) with expansion: 5 == 6",
		"divides":       "test_calc.cpp:17: by zero: CHECK( Div(1, 0) == 0 ) due to unexpected exception with message: division by zero",
		long:            `test_calc.cpp:26: CHECK_THAT( s, Catch::Matchers::StartsWith("world") ) with expansion: "hello" starts with: "world"`,
		"crashes":       "test_calc.cpp:33: {Unknown expression after the reported line} due to a fatal error condition: SIGSEGV - Segmentation violation signal",
	}
	cases := []struct {
		args  []string
		want  want
		named []string // the passing test cases the index names
	}{
		{nil, failing, nil},
		{[]string{"-s"}, failing, []string{"sums nothing"}},
		{[]string{"[sum]"}, want{"catch2", 2, 1, 1, 0, 0, []string{"sums a vector"}, nil, 1}, nil},
		{[]string{"sums nothing"}, want{"catch2", 1, 1, 0, 0, 0, nil, nil, 1}, nil},
		// The crash ends the run: Catch2 prints its totals, the crashed
		// test case failed, and no later test case ran.
		{[]string{"[.crash]"}, want{"catch2", 1, 0, 1, 0, 0, []string{"crashes"}, nil, 1}, nil},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			log := runTool(t, dir, nil, filepath.Join(dir, "calc_tests"), c.args...)
			s := scanBytes(t, log)
			check(t, s, c.want, log)
			for _, f := range s.Failures {
				if got := fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Message); got != messages[f.Name] {
					t.Errorf("failure %q = %s, want %s", f.Name, got, messages[f.Name])
				}
			}
			var passed []string
			for _, e := range s.Index.Entries {
				if e.Name != "" && e.Outcome == OutcomePassed {
					passed = append(passed, e.Name)
				}
			}
			if strings.Join(passed, "|") != strings.Join(c.named, "|") {
				t.Errorf("index names passes %q, want %q", passed, c.named)
			}
		})
	}
	t.Run("ctest", func(t *testing.T) { catch2UnderCTest(t, dir, messages) })
}

// catch2UnderCTest runs the fixture's program as three ctest tests: their
// Catch2 totals sum (told apart by ctest -V's test numbers, and under
// --output-on-failure by the status line over each), next to ctest's
// count of programs; and as catch_discover_tests registers a program's
// test cases, one ctest test for each.
func catch2UnderCTest(t *testing.T, dir string, messages map[string]string) {
	for _, tool := range []string{"cmake", "ctest"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed here", tool)
		}
	}
	src, build := filepath.Join(dir, "ctest"), filepath.Join(dir, "ctest", "build")
	writeFiles(t, src, map[string]string{"CMakeLists.txt": `cmake_minimum_required(VERSION 3.13)
project(calc NONE)
enable_testing()
add_test(NAME sums COMMAND ` + filepath.Join(dir, "calc_tests") + ` [sum])
add_test(NAME divides COMMAND ` + filepath.Join(dir, "calc_tests") + ` [div],[long],*nothing)
add_test(NAME nothing COMMAND ` + filepath.Join(dir, "calc_tests") + ` "sums nothing")
add_test(NAME one_sum COMMAND ` + filepath.Join(dir, "calc_tests") + ` "sums a vector")
add_test(NAME one_div COMMAND ` + filepath.Join(dir, "calc_tests") + ` "divides")
`})
	if out, err := exec.Command("cmake", "-S", src, "-B", build).CombinedOutput(); err != nil {
		t.Fatalf("cmake: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"-V"}, {"--output-on-failure"}} {
		t.Run(args[0], func(t *testing.T) {
			log := runTool(t, build, nil, "ctest", args...)
			s := scanBytes(t, log)
			// ctest: 5 programs, 4 failed; Catch2: 2+3+1+1 test cases of
			// the failing ones (+1 under -V, where the passing program's
			// totals are shown too).
			w := want{"catch2+ctest", 5 + 7, 1 + 2, 4 + 5, -1, 0, []string{"sums a vector", "divides", "a test case with a name long enough that the console reporter wraps it over two lines",
				"sums a vector", "divides", "sums", "divides", "one_sum", "one_div"}, nil, 4 + 1}
			if args[0] == "-V" {
				w.tests, w.passed, w.runs = w.tests+1, w.passed+1, w.runs+1
			}
			check(t, s, w, log)
			if !strings.Contains(s.Note, "the totals add both") {
				t.Errorf("note = %q", s.Note)
			}
			if f := findFailure(s, "sums a vector"); f == nil || f.Message != strings.TrimPrefix(messages["sums a vector"], "test_calc.cpp:7: ") {
				t.Errorf("sums a vector = %+v", f)
			}
		})
	}
}

// TestCatch2Totals: what counts as a Catch2 run, what names a failing test
// case, and what does not.
func TestCatch2Totals(t *testing.T) {
	const banner = "\n~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\nt is a Catch v2.13.10 host application.\nRun with -? for options\n\n"
	rule, eq := strings.Repeat("-", 79)+"\n", strings.Repeat("=", 79)+"\n"
	block := func(name, place string) string {
		return rule + name + "\n" + rule + "t.cpp:3\n" + strings.Repeat(".", 79) + "\n\n" + place + ": FAILED:\n  REQUIRE( 1 == 2 )\n\n"
	}
	tests := []struct {
		name string
		log  string
		want want
		note string
	}{
		{"all passed", eq + "All tests passed (12 assertions in 5 test cases)\n\n", want{"catch2", 5, 5, 0, 0, 0, nil, nil, 1}, ""},
		{"a failing run", banner + block("adds", "t.cpp:4") + eq + "test cases: 3 | 2 passed | 1 failed\nassertions: 5 | 4 passed | 1 failed\n",
			want{"catch2", 3, 2, 1, 0, 0, []string{"adds"}, nil, 1}, ""},
		{"failed as expected is skipped", eq + "test cases: 7 | 1 passed | 5 failed | 1 failed as expected\nassertions: 8 | 2 passed | 5 failed | 1 failed as expected\n",
			want{"catch2", 7, 1, 5, 1, 0, nil, nil, 1}, ""},
		{"none passed", eq + "test cases: 1 | 1 failed\nassertions: 2 | 1 passed | 1 failed\n", want{"catch2", 1, 0, 1, 0, 0, nil, nil, 1}, ""},
		{"no assertions", eq + "test cases: 1 | 1 passed\nassertions: - none -\n", want{"catch2", 1, 1, 0, 0, 0, nil, nil, 1}, ""},
		{"a header without its banner names nothing (catch2 | tail cut it)", block("adds", "t.cpp:4") + eq + "test cases: 1 | 1 failed\n",
			want{"catch2", 1, 0, 1, 0, 0, nil, nil, 1}, ""},
		{"a FAILED line outside a header names nothing", banner + "t.cpp:4: FAILED:\n  REQUIRE( x )\n" + eq + "test cases: 1 | 1 failed\n",
			want{"catch2", 1, 0, 1, 0, 0, nil, nil, 1}, ""},
		{"a blank line in a header makes it none", banner + rule + "adds\n\n" + rule + "t.cpp:3\n\nt.cpp:4: FAILED:\n" + eq + "test cases: 1 | 1 failed\n",
			want{"catch2", 1, 0, 1, 0, 0, nil, nil, 1}, ""},
		{"two programs sum, a retry of one replaces it",
			banner + block("adds", "t.cpp:4") + eq + "test cases: 2 | 1 passed | 1 failed\n" +
				eq + "All tests passed (3 assertions in 3 test cases)\n" +
				banner + block("adds", "t.cpp:4") + eq + "test cases: 2 | 1 passed | 1 failed\n",
			want{"catch2", 5, 4, 1, 0, 0, []string{"adds"}, nil, 3}, ""},
		{"a total quoted elsewhere is none", "  test cases: 3 | 2 passed | 1 failed x\nAll tests passed (3 assertions)\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"ctest -V's numbers are passed over", "1: " + strings.ReplaceAll(strings.TrimSuffix(banner+block("adds", "t.cpp:4")+eq+"test cases: 2 | 1 passed | 1 failed\n", "\n"), "\n", "\n1: ") + "\n" +
			"2: " + eq + "2: All tests passed (2 assertions in 2 test cases)\n",
			want{"catch2", 4, 3, 1, 0, 0, []string{"adds"}, nil, 2}, ""},
		{"under ctest, a program that died before its totals names nothing of the next one's",
			"Test project /b\n1/2 Test #1: a ...***Exception: SegFault  0.01 sec\n" + banner + block("dies", "t.cpp:4") +
				"2/2 Test #2: b ...***Failed  0.01 sec\n" + eq + "All tests passed (1 assertion in 1 test case)\n\n50% tests passed, 2 tests failed out of 2\n",
			want{"catch2+ctest", 3, 1, 2, -1, 0, []string{"a", "b"}, nil, 2}, ""},
		{"a wrapped name and sections", banner + rule + "a test case with a name long enough that the console reporter wraps it over\ntwo lines\n  outer\n  inner\n" + rule +
			"t.cpp:3\n\nt.cpp:9: FAILED:\n  CHECK( a == b )\nwith expansion:\n  1 == 2\n\n" + eq + "test cases: 1 | 1 failed\n",
			want{"catch2", 1, 0, 1, 0, 0, []string{"a test case with a name long enough that the console reporter wraps it over two lines"}, nil, 1}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := checkVerifies(t, []byte(tt.log))
			check(t, s, tt.want, []byte(tt.log))
			if !strings.Contains(s.Note, tt.note) {
				t.Errorf("note = %q, want it to say %q", s.Note, tt.note)
			}
		})
	}
}

// TestCatch2Name: how a header's wrapped lines are joined.
func TestCatch2Name(t *testing.T) {
	tests := []struct {
		lines    []string
		name     string
		sections []string
	}{
		{[]string{"divides", "  by zero"}, "divides", []string{"by zero"}},
		{[]string{"nested sections", "  outer", "  inner"}, "nested sections", []string{"outer", "inner"}},
		{[]string{"a very long test case name that certainly does not fit on one line of the", "console reporter at eighty columns",
			"  and a section whose name is also rather long so that it wraps around the", "  eightieth column as well"},
			"a very long test case name that certainly does not fit on one line of the console reporter at eighty columns",
			[]string{"and a section whose name is also rather long so that it wraps around the eightieth column as well"}},
		{[]string{"Scenario: parser: handles a long name with a colon so the continuation lines", "          get indented after it"},
			"Scenario: parser: handles a long name with a colon so the continuation lines get indented after it", nil},
		// SCENARIO's GIVEN, WHEN and THEN sections, as Catch2 2.13 prints them.
		{[]string{"Scenario: vectors can be sized", "      Given: A vector with some items", "       When: the size is increased", "       Then: the size changes"},
			"Scenario: vectors can be sized", []string{"Given: A vector with some items", "When: the size is increased", "Then: the size changes"}},
		{[]string{"a test case whose name is seventy-five characters long, give or take a few", "  parses input"},
			"a test case whose name is seventy-five characters long, give or take a few", []string{"parses input"}},
	}
	for _, tt := range tests {
		name, sections := Catch2Name(tt.lines)
		if name != tt.name || strings.Join(sections, "|") != strings.Join(tt.sections, "|") {
			t.Errorf("Catch2Name(%q) = %q %q, want %q %q", tt.lines, name, sections, tt.name, tt.sections)
		}
	}
}

// TestCatch2Lines: what compaction reads of a Catch2 run.
func TestCatch2Lines(t *testing.T) {
	checkLines(t, []lineCase{
		{"test cases: 4 | 1 passed | 3 failed", "catch2", Failed, true},
		{"test cases: 2 | 1 passed | 1 failed as expected", "catch2", Passed, true},
		{"All tests passed (12 assertions in 5 test cases)", "catch2", Passed, true},
		{"calc_tests is a Catch v2.13.10 host application.", "catch2", Ran, false},
		{"test_calc.cpp:7: FAILED:", "catch2", Failed, false},
	}, "assertions: 8 | 5 passed | 3 failed", "All tests passed", "test_calc.cpp:7: PASSED:")
}

func FuzzCatch2(f *testing.F) {
	rule, eq := strings.Repeat("-", 79)+"\n", strings.Repeat("=", 79)+"\n"
	fuzzParser(f, "t is a Catch v2.13.10 host application.\n"+rule+"adds\n"+rule+"t.cpp:3\n\nt.cpp:4: FAILED:\n  REQUIRE( 1 == 2 )\n\n"+eq+"test cases: 1 | 1 failed\nassertions: 1 | 1 failed\n",
		eq+"All tests passed (1 assertion in 1 test case)\n", rule+"x\n", "t is a Catch v2.13.10 host application.\n"+rule+"a\n", "1: "+eq+"1: test cases: 2 | 2 passed\n")
}
