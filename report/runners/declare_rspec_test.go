package runners

import (
	"os/exec"
	"strings"
	"testing"
)

// rspecFixture is an RSpec suite with a failed expectation, an exception,
// a pending example whose expectation fails (as pending ones should), an
// xit, a pass, an example that aggregates its failures, and a spec file
// that fails to load.
var rspecFixture = map[string]string{
	"spec/calc_spec.rb": `RSpec.describe "Calc" do
  it "adds" do
    expect(1 + 1).to eq(2)
  end
  it "multiplies" do
    expect(2 * 3).to eq(7)
  end
  it "divides" do
    raise ZeroDivisionError, "divided by 0"
  end
  it "rounds later" do
    pending "not yet"
    expect(2.5.round).to eq(2)
  end
  xit "skipped" do
  end
end
`,
	"agg/agg_spec.rb": `RSpec.describe "Agg" do
  it "checks both", :aggregate_failures do
    expect(1).to eq(2)
    expect(3).to eq(4)
  end
end
`,
	"broken/broken_spec.rb": `require "no_such_library"
RSpec.describe "Broken" do
  it("never runs") { }
end
`,
}

// TestRSpecReal runs rspec on the fixture, in its progress and its
// documentation format, and on a spec file that fails to load: the counts
// from the total under "Finished in", the failing examples from the
// numbered items under "Failures:", their messages from what is under
// "Failure/Error:".
func TestRSpecReal(t *testing.T) {
	if _, err := exec.LookPath("rspec"); err != nil {
		t.Skip("rspec is not installed here")
	}
	dir := t.TempDir()
	writeFiles(t, dir, rspecFixture)
	failing := want{"rspec", 5, 1, 2, 2, 0, []string{"Calc multiplies", "Calc divides"}, nil, 1}
	messages := map[string]string{
		"Calc multiplies": "expected: 7 got: 6 (compared using ==)",
		"Calc divides":    "ZeroDivisionError: divided by 0",
		"Agg checks both": "expected: 2 got: 1 (compared using ==)",
	}
	cases := []struct {
		args []string
		want want
	}{
		{[]string{"spec"}, failing},
		{[]string{"--format", "documentation", "spec"}, failing},
		{[]string{"spec/calc_spec.rb", "-e", "adds"}, want{"rspec", 1, 1, 0, 0, 0, nil, nil, 1}},
		// aggregate_failures numbers its failed expectations "1.1)".
		{[]string{"agg/agg_spec.rb"}, want{"rspec", 1, 0, 1, 0, 0, []string{"Agg checks both"}, nil, 1}},
		// The load error is outside any example: errors 1, nothing named.
		{[]string{"broken/broken_spec.rb"}, want{"rspec", 0, 0, 0, 0, 1, nil, nil, 1}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			log := runTool(t, dir, nil, "rspec", c.args...)
			s := checkVerifies(t, log)
			check(t, s, c.want, log)
			for _, f := range s.Failures {
				if f.Message != messages[f.Name] {
					t.Errorf("failure %s has message %q, want %q", f.Name, f.Message, messages[f.Name])
				}
			}
		})
	}
}

// TestRSpecTotals: the total counts only right under "Finished in", a
// numbered item names a failure only under "Failures:", and a total
// quoted elsewhere (a source file, another program's output) is none.
func TestRSpecTotals(t *testing.T) {
	const finished = "Finished in 0.02 seconds (files took 0.1 seconds to load)\n"
	tests := []struct {
		name string
		log  string
		want want
	}{
		{"a total alone is no total (rspec | tail -1)", "10 examples, 2 failures, 1 pending\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
		{"a total quoted in a test's output or a source comment is none",
			"expect(out).to include(\"3 examples, 0 failures\")\n# 3 examples, 0 failures\n  3 examples, 0 failures and counting\n",
			want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
		{"a total under some other line than Finished in",
			finished + "\n3 examples, 1 failure\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
		{"pending items are not failures",
			"Pending: (Failures listed here are expected and do not affect your suite's status)\n\n  1) A waits\n     # later\n\n" +
				"Failures:\n\n  1) A fails\n     Failure/Error: expect(1).to eq(2)\n\n       expected: 2\n            got: 1\n\n     # ./spec/a_spec.rb:3\n\n" +
				finished + "3 examples, 1 failure, 1 pending\n",
			want{"rspec", 3, 1, 1, 1, 0, []string{"A fails"}, nil, 1}},
		{"Ruby's error_highlight under an exception is not its message",
			"Failures:\n\n  1) C#longest is nil\n     Failure/Error: @words.max_by(&:length).upcase\n\n     NoMethodError:\n       undefined method `upcase' for nil:NilClass\n\n" +
				"           @words.max_by(&:length).upcase\n                                  ^^^^^^^\n     # ./lib/counter.rb:11:in `longest'\n\n" + finished + "1 example, 1 failure\n",
			want{"rspec", 1, 0, 1, 0, 0, []string{"C#longest is nil"}, nil, 1}},
		{"a minitest heading is not an RSpec item",
			"  1) Failure:\nT#test_x [t.rb:3]:\nExpected: 1\n" + finished + "1 example, 0 failures\n",
			want{"rspec", 1, 1, 0, 0, 0, nil, nil, 1}},
		{"more failures than examples is no total", finished + "1 example, 2 failures\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := checkVerifies(t, []byte(tt.log))
			check(t, s, tt.want, []byte(tt.log))
		})
	}
}

// TestRSpecLines: what compaction reads of an RSpec run.
func TestRSpecLines(t *testing.T) {
	checkLines(t, []lineCase{
		{"Finished in 0.02772 seconds (files took 0.12243 seconds to load)", "rspec", Ran, false},
		{"5 examples, 2 failures, 2 pending", "rspec", Failed, true},
		{"3 examples, 0 failures", "rspec", Passed, true},
		{"0 examples, 0 failures, 1 error occurred outside of examples", "rspec", Failed, true},
		{"rspec ./spec/calc_spec.rb:5 # Calc multiplies", "rspec", Failed, false},
	}, "3 examples", "rspec ./spec/calc_spec.rb", "Finished in time")
}

func FuzzRSpec(f *testing.F) {
	fuzzDeclared(f, "Failures:\n\n  1) A b\n     Failure/Error: x\n\nFinished in 0.1 seconds (files took 0.1 seconds to load)\n1 example, 1 failure\n",
		"Finished in 0.1 seconds\n2 examples, 0 failures\n", "Failures:\n  1) A c\n", "Finished in 1 minute 2.5 seconds\n")
}

// TestRSpecMessage: what of a failing example's block is its message.
func TestRSpecMessage(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		{"an expectation", []string{"     Failure/Error: expect(2 * 3).to eq(7)", "", "       expected: 7", "            got: 6", "",
			"       (compared using ==)", "     # ./spec/calc_spec.rb:6:in `block (2 levels)'"}, "expected: 7 got: 6 (compared using ==)"},
		{"an exception with error_highlight's carets", []string{"     Failure/Error: @words.max_by(&:length).upcase", "", "     NoMethodError:",
			"       undefined method `upcase' for nil:NilClass", "", "           @words.max_by(&:length).upcase", "                                  ^^^^^^^",
			"     # ./lib/counter.rb:11:in `longest'"}, "NoMethodError: undefined method `upcase' for nil:NilClass"},
		{"aggregate_failures (a real run's lines)", []string{"     Got 2 failures:", "", "     1.1) Failure/Error: expect(1).to eq(2)", "",
			"            expected: 2", "                 got: 1", "", "            (compared using ==)",
			"          # ./spec/a_spec.rb:3:in `block (2 levels) in <top (required)>'"}, "expected: 2 got: 1 (compared using ==)"},
		{"nothing under Failure/Error", []string{"     Failure/Error: raise 'x'", "     # ./spec/a_spec.rb:3"}, "Failure/Error: raise 'x'"},
	}
	for _, tt := range tests {
		r := &rspecMessage{}
		for _, l := range tt.lines {
			r.line(l)
		}
		if got := r.message(); got != tt.want {
			t.Errorf("%s: message = %q, want %q", tt.name, got, tt.want)
		}
	}
}
