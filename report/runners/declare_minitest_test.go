package runners

import (
	"os/exec"
	"strings"
	"testing"
)

// minitestFixture is a minitest suite with a failed assertion, an error,
// a skip, a pass, and one that passes altogether.
var minitestFixture = map[string]string{
	"test_calc.rb": `require "minitest/autorun"
class CalcTest < Minitest::Test
  def test_adds; assert_equal 2, 1 + 1; end
  def test_multiplies; assert_equal 7, 2 * 3; end
  def test_divides; raise ZeroDivisionError, "divided by 0"; end
  def test_later; skip "not yet"; end
end
module Shop
  class CartTest < Minitest::Test
    def test_label; assert_equal "apple", "apples"; end
  end
end
`,
	"test_green.rb": `require "minitest/autorun"
class GreenTest < Minitest::Test
  def test_one; assert true; end
  def test_two; assert_nil nil; end
end
`,
}

// TestMinitestReal runs the fixture's files with ruby, plain and verbose:
// the counts from the total after "Finished in", the failing tests from
// the names under "1) Failure:" and "2) Error:", their messages from the
// assertion or exception under each.
func TestMinitestReal(t *testing.T) {
	if _, err := exec.LookPath("ruby"); err != nil {
		t.Skip("ruby is not installed here")
	}
	if err := exec.Command("ruby", "-e", `require "minitest"`).Run(); err != nil {
		t.Skip("minitest is not installed here")
	}
	dir := t.TempDir()
	writeFiles(t, dir, minitestFixture)
	messages := map[string]string{
		"test_multiplies": "Expected: 7 Actual: 6",
		"test_divides":    "ZeroDivisionError: divided by 0",
		"test_label":      `Expected: "apple" Actual: "apples"`,
	}
	failing := want{"minitest", 5, 1, 2, 1, 1, []string{"test_divides", "test_label", "test_multiplies"}, nil, 1}
	cases := []struct {
		args []string
		want want
	}{
		{[]string{"test_calc.rb"}, failing},
		{[]string{"test_calc.rb", "--verbose"}, failing},
		{[]string{"test_green.rb"}, want{"minitest", 2, 2, 0, 0, 0, nil, nil, 1}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			log := runTool(t, dir, nil, "ruby", c.args...)
			s := checkVerifies(t, log)
			sortNames(s) // minitest runs its tests in random order
			check(t, s, c.want, log)
			for _, f := range s.Failures {
				if f.Message != messages[f.Name] {
					t.Errorf("failure %s has message %q, want %q", f.Name, f.Message, messages[f.Name])
				}
			}
			if f := findFailure(s, "test_label"); f != nil && (f.Classname != "Shop::CartTest" || f.File != "test_calc.rb") {
				t.Errorf("test_label = %+v, want class Shop::CartTest in test_calc.rb", f)
			}
		})
	}
}

// TestMinitestTotals: the total counts only after "Finished in", a test's
// name only inside a run, and a total quoted elsewhere is none.
func TestMinitestTotals(t *testing.T) {
	const finished = "Finished in 0.001042s, 3837.3906 runs/s, 1918.6953 assertions/s.\n\n"
	tests := []struct {
		name string
		log  string
		want want
	}{
		{"a total alone is no total (ruby t.rb | tail -1)", "4 runs, 2 assertions, 1 failures, 1 errors, 1 skips\n",
			want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
		{"a total quoted in a test's output is none",
			"assert_match /4 runs, 4 assertions, 0 failures, 0 errors, 0 skips/, out\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
		{"a name line before the run names nothing",
			"CalcTest#test_quoted [t.rb:3]:\n" + finished + "1 runs, 1 assertions, 0 failures, 0 errors, 0 skips\n",
			want{"minitest", 1, 1, 0, 0, 0, nil, nil, 1}},
		{"minitest 4's tests, and a rerun that passed",
			"Finished tests in 0.003s, 666.6 tests/s, 666.6 assertions/s.\n\n  1) Failure:\nT#test_net [t.rb:3]:\nExpected true\n\n2 tests, 2 assertions, 1 failures, 0 errors, 0 skips\n" +
				finished + "2 runs, 2 assertions, 0 failures, 0 errors, 0 skips\n",
			want{"minitest", 2, 2, 0, 0, 0, nil, []string{"test_net"}, 2}},
		{"a skipped item (--verbose) is not a failure",
			finished + "  1) Skipped:\nT#test_later [t.rb:4]:\nnot yet\n\n  2) Failure:\nT#test_x [t.rb:3]:\nExpected: 1\n\n2 runs, 1 assertions, 1 failures, 0 errors, 1 skips\n",
			want{"minitest", 2, 0, 1, 1, 0, []string{"test_x"}, nil, 1}},
		{"more failures than runs is no total", finished + "1 runs, 1 assertions, 2 failures, 0 errors, 0 skips\n",
			want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := checkVerifies(t, []byte(tt.log))
			check(t, s, tt.want, []byte(tt.log))
		})
	}
}

// TestMinitestLines: what compaction reads of a minitest run.
func TestMinitestLines(t *testing.T) {
	checkLines(t, []lineCase{
		{"Finished in 0.001042s, 3837.3906 runs/s, 1918.6953 assertions/s.", "minitest", Ran, false},
		{"4 runs, 2 assertions, 1 failures, 1 errors, 1 skips", "minitest", Failed, true},
		{"4 runs, 4 assertions, 0 failures, 0 errors, 2 skips", "minitest", Passed, true},
	}, "4 runs", "Finished in 0.1s")
}

func FuzzMinitest(f *testing.F) {
	fuzzDeclared(f, "Finished in 0.1s, 1.0 runs/s, 1.0 assertions/s.\n\n  1) Failure:\nT#test_x [t.rb:3]:\nExpected: 1\n\n1 runs, 1 assertions, 1 failures, 0 errors, 0 skips\n",
		"Finished in 0.1s, 1.0 runs/s, 1.0 assertions/s.\n2 runs, 2 assertions, 0 failures, 0 errors, 0 skips\n", "T#test_y:\n")
}
