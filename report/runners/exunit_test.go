package runners

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// exunitFixture is an umbrella project of two apps with no dependencies:
// calc's tests fail an assertion, a doctest and an assert_raise, raise
// from library code, are excluded and skipped, and a module's setup_all
// fails; strs's pass.
var exunitFixture = map[string]string{
	"mix.exs": `defmodule Umbrella.MixProject do
  use Mix.Project
  def project, do: [apps_path: "apps", version: "0.1.0", deps: []]
end
`,
	"apps/calc/mix.exs": `defmodule Calc.MixProject do
  use Mix.Project
  def project, do: [app: :calc, version: "0.1.0", elixir: "~> 1.14", deps: []]
end
`,
	"apps/calc/lib/calc.ex": `defmodule Calc do
  @doc """
  Adds two numbers.

      iex> Calc.add(2, 1)
      3
  """
  def add(a, b), do: a + b + if(a > 1, do: 1, else: 0)
  def divide(_a, 0), do: raise(ArgumentError, "division by zero")
  def divide(a, b), do: Kernel.div(a, b)
  def parse(s), do: String.to_integer(s)
end
`,
	"apps/calc/test/test_helper.exs": "ExUnit.start(exclude: [:slow])\n",
	"apps/calc/test/calc_test.exs": `defmodule CalcTest do
  use ExUnit.Case
  doctest Calc

  test "adds small numbers" do
    assert Calc.add(1, 1) == 2
  end

  test "adds" do
    assert Calc.add(2, 2) == 4
  end

  test "parses" do
    Calc.parse("x")
  end

  @tag :slow
  test "is slow" do
    assert true
  end

  @tag :skip
  test "is skipped" do
    assert true
  end

  describe "divide" do
    test "by zero" do
      assert_raise RuntimeError, fn -> Calc.divide(1, 0) end
    end
  end
end
`,
	"apps/calc/test/setup_test.exs": `defmodule SetupTest do
  use ExUnit.Case
  setup_all do
    raise "no database"
  end
  test "one", do: assert(true)
  test "two", do: assert(true)
end
`,
	"apps/strs/mix.exs": `defmodule Strs.MixProject do
  use Mix.Project
  def project, do: [app: :strs, version: "0.1.0", elixir: "~> 1.14", deps: []]
end
`,
	"apps/strs/lib/strs.ex":          "defmodule Strs do\n  def shout(s), do: String.upcase(s) <> \"!\"\nend\n",
	"apps/strs/test/test_helper.exs": "ExUnit.start()\n",
	"apps/strs/test/strs_test.exs": `defmodule StrsTest do
  use ExUnit.Case
  test "shouts", do: assert(Strs.shout("hi") == "HI!")
  test "shouts nothing", do: assert(Strs.shout("") == "!")
end
`,
}

// TestExUnitReal runs `mix test --trace` once (Elixir starts slowly) on
// the umbrella fixture, offline: the two apps' totals sum, the failures
// are named by their headings with their assertion or exception as the
// message, and --trace names every test for the index.
func TestExUnitReal(t *testing.T) {
	if _, err := exec.LookPath("mix"); err != nil {
		t.Skip("mix (elixir) is not installed here")
	}
	dir := t.TempDir()
	writeFiles(t, dir, exunitFixture)
	// MIX_HOME and HEX_HOME in the test's directory: nothing is fetched
	// (no dependencies), and nothing of the user's is read or written.
	log := runTool(t, dir, []string{"MIX_HOME=" + filepath.Join(dir, ".mix"), "HEX_HOME=" + filepath.Join(dir, ".hex"), "MIX_ENV=test"},
		"mix", "test", "--trace", "--seed", "0")
	s := scanBytes(t, log)
	sortNames(s)
	// calc: 1 doctest and 8 tests, 4 failures, 1 excluded, 1 skipped, 2
	// invalid (SetupTest's), the setup_all failure named; strs: 2 passed.
	check(t, s, want{"exunit", 11, 3, 4, 2, 2, []string{"doctest Calc.add/2 (1)", "failure on setup_all callback", "test adds", "test divide by zero", "test parses"}, nil, 2}, log)
	for name, want := range map[string]string{
		"test adds":                     "apps/calc/test/calc_test.exs:10: Assertion with == failed; code: assert Calc.add(2, 2) == 4; left: 5; right: 4",
		"doctest Calc.add/2 (1)":        "lib/calc.ex:5: Doctest failed; doctest: iex> Calc.add(2, 1) 3; code: Calc.add(2, 1) === 3; left: 4; right: 3; at lib/calc.ex:5: Calc (module)",
		"test parses":                   "apps/calc/test/calc_test.exs:14: ** (ArgumentError) errors were found at the given arguments: * 1st argument: not a textual representation of an integer; code: Calc.parse(\"x\"); at lib/calc.ex:11: Calc.parse/1",
		"test divide by zero":           "apps/calc/test/calc_test.exs:29: Expected exception RuntimeError but got ArgumentError (division by zero); code: assert_raise RuntimeError, fn -> Calc.divide(1, 0) end; at lib/calc.ex:9: Calc.divide/2",
		"failure on setup_all callback": "test/setup_test.exs:4: ** (RuntimeError) no database",
	} {
		if f := findFailure(s, name); f == nil || fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Message) != want {
			t.Errorf("%s = %+v, want %s", name, f, want)
		}
	}
	var named []string
	for _, e := range s.Index.Entries {
		if e.Name != "" && e.Outcome != OutcomeFailed {
			named = append(named, fmt.Sprintf("%c %s %s", e.Outcome, e.Classname, e.Name))
		}
	}
	slices.Sort(named)
	if want := []string{"P CalcTest test adds small numbers", "P StrsTest test shouts", "P StrsTest test shouts nothing",
		"S CalcTest test is skipped", "S CalcTest test is slow"}; !slices.Equal(named, want) {
		t.Errorf("the index names %q, want %q", named, want)
	}
}

// TestExUnitTotals: what counts as an ExUnit run, what names a failure,
// and what does not.
func TestExUnitTotals(t *testing.T) {
	const finished = "Finished in 0.05 seconds (0.00s async, 0.05s sync)\n"
	block := "  1) test adds (MathTest)\n     test/math_test.exs:12\n     Assertion with == failed\n     code:  assert Math.add(1, 2) == 4\n     left:  3\n     right: 4\n     stacktrace:\n       test/math_test.exs:13: (test)\n\n"
	tests := []struct {
		name string
		log  string
		want want
		note string
	}{
		{"a failing run", block + finished + "5 tests, 1 failure\n", want{"exunit", 5, 4, 1, 0, 0, []string{"test adds"}, nil, 1}, "ExUnit prints no pass count"},
		{"doctests, excluded, skipped", finished + "1 doctest, 5 tests, 2 failures, 1 excluded, 1 skipped\n", want{"exunit", 6, 2, 2, 2, 0, nil, nil, 1}, ""},
		{"properties and invalid tests", finished + "2 properties, 3 tests, 0 failures, 2 invalid\n", want{"exunit", 5, 3, 0, 0, 2, nil, nil, 1}, ""},
		{"older ExUnit's Finished line", "Finished in 0.04 seconds\n3 tests, 0 failures\n", want{"exunit", 3, 3, 0, 0, 0, nil, nil, 1}, ""},
		{"a total alone is none (mix test | tail -1)", "5 tests, 2 failures\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"a total not right under Finished in is none", finished + "\n5 tests, 2 failures\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"a heading without its location names nothing", "  1) test adds (MathTest)\n     Assertion with == failed\n" + finished + "1 test, 1 failure\n",
			want{"exunit", 1, 0, 1, 0, 0, nil, nil, 1}, ""},
		{"an umbrella's apps sum, told apart by ==> even at the same size",
			"==> a\n" + block + finished + "5 tests, 1 failure\n==> b\n" + finished + "5 tests, 0 failures\n",
			want{"exunit", 10, 9, 1, 0, 0, []string{"test adds"}, nil, 2}, ""},
		{"a retry of the same run replaces it", block + finished + "5 tests, 1 failure\n" + finished + "5 tests, 0 failures\n",
			want{"exunit", 5, 5, 0, 0, 0, nil, []string{"test adds"}, 2}, ""},
		{"a setup_all failure invalidates its module's tests",
			"  1) SetupTest: failure on setup_all callback, all tests have been invalidated\n     ** (RuntimeError) no database\n     stacktrace:\n       test/setup_test.exs:4: SetupTest.__ex_unit_setup_all_0/1\n\n" +
				finished + "2 tests, 0 failures, 2 invalid\n",
			want{"exunit", 2, 0, 0, 0, 2, []string{"failure on setup_all callback"}, nil, 1}, ""},
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

// TestExUnitMessage: what of a failure's block is its message and place.
func TestExUnitMessage(t *testing.T) {
	tests := []struct {
		name, test string
		lines      []string
		want       string
		place      string
	}{
		{"an assertion", "test/m_test.exs", []string{"Assertion with == failed", "code:  assert M.f(1) == 2", "left:  1", "right: 2", "stacktrace:", "test/m_test.exs:7: (test)", ""},
			"Assertion with == failed; code: assert M.f(1) == 2; left: 1; right: 2", "test/m_test.exs:7"},
		{"an error in library code", "test/m_test.exs", []string{"** (RuntimeError) boom", "code: M.boom()", "stacktrace:", "(m 0.1.0) lib/m.ex:3: M.inner/0",
			"(m 0.1.0) lib/m.ex:9: M.boom/0", "test/m_test.exs:12: (test)", ""}, "** (RuntimeError) boom; code: M.boom(); at lib/m.ex:3: M.inner/0", "test/m_test.exs:12"},
		{"Elixir's own frames are not the project's", "test/m_test.exs", []string{"** (ArithmeticError) bad argument in arithmetic expression", "stacktrace:",
			"(elixir 1.14.0) lib/enum.ex:1658: Enum.\"-map/2-lists^map/1-0-\"/2", "(m 0.1.0) lib/m.ex:4: M.sum/1", "test/m_test.exs:5: (test)", ""},
			"** (ArithmeticError) bad argument in arithmetic expression; at lib/m.ex:4: M.sum/1", "test/m_test.exs:5"},
		{"a value over several lines", "test/m_test.exs", []string{"Assertion with == failed", "code:  assert M.map() == %{a: 1}", "left:  %{", "a: 2", "}", "right: %{a: 1}", ""},
			"Assertion with == failed; code: assert M.map() == %{a: 1}; left: %{ a: 2 }; right: %{a: 1}", ":0"},
	}
	for _, tt := range tests {
		r := exunitMessage{test: tt.test}
		for _, l := range tt.lines {
			r.line(l)
		}
		file, line := r.place("test x", tt.test)
		if got := r.message(); got != tt.want || fmt.Sprintf("%s:%d", file, line) != tt.place {
			t.Errorf("%s: message = %q at %s:%d, want %q at %s", tt.name, got, file, line, tt.want, tt.place)
		}
	}
}

// TestExUnitLines: what compaction reads of an ExUnit run.
func TestExUnitLines(t *testing.T) {
	checkLines(t, []lineCase{
		{"Finished in 0.05 seconds (0.00s async, 0.05s sync)", "exunit", Ran, false},
		{"1 doctest, 5 tests, 2 failures, 1 excluded", "exunit", Failed, true},
		{"5 tests, 0 failures", "exunit", Passed, true},
		{"3 tests, 0 failures, 3 invalid", "exunit", Failed, true},
		{"2 properties, 3 tests, 0 failures, 1 skipped", "exunit", Passed, true},
	}, "5 tests", "5 tests, 2 assertions", "  1) test adds (MathTest)")
}

func FuzzExUnit(f *testing.F) {
	fuzzParser(f, "  1) test adds (MathTest)\n     test/math_test.exs:12\n     Assertion with == failed\n\nFinished in 0.05 seconds (0.00s async, 0.05s sync)\n1 test, 1 failure\n",
		"Finished in 0.1 seconds (0.00s async, 0.1s sync)\n2 tests, 0 failures\n", "==> app\n  1) test x (M)\n", "MathTest [test/math_test.exs]\n  * test adds (0.02ms) [L#12]\n")
}
