package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// nativeFixtures are one small failing suite per runner declared in
// report/runners' declare_ctest.go, declare_prove.go, declare_phpunit.go,
// declare_rspec.go and declare_minitest.go.
var nativeFixtures = map[string]string{
	"cmake/CMakeLists.txt": `cmake_minimum_required(VERSION 3.10)
project(calc NONE)
enable_testing()
add_test(NAME adds COMMAND sh -c "exit 0")
add_test(NAME subtracts COMMAND sh -c "echo 'assertion failed: 5 - 2 == 4'; exit 1")
add_test(NAME divides COMMAND sh -c "exit 0")
`,
	"t/calc.t": `use strict; use warnings;
use Test::More tests => 3;
is(1+1, 2, 'adds');
is(2*3, 7, 'multiplies');
ok(1, 'truthy');
`,
	"t/str.t": "use Test::More tests => 1;\nis(lc('A'), 'a', 'lowercases');\n",
	"tests/CalcTest.php": `<?php
use PHPUnit\Framework\TestCase;
final class CalcTest extends TestCase {
    public function testAdds(): void { $this->assertSame(2, 1 + 1); }
    public function testMultiplies(): void { $this->assertSame(7, 2 * 3); }
    public function testLater(): void { $this->markTestSkipped('later'); }
}
`,
	"spec/calc_spec.rb": `RSpec.describe "Calc" do
  it("adds") { expect(1 + 1).to eq(2) }
  it("multiplies") { expect(2 * 3).to eq(7) }
  it("rounds") { pending "later"; expect(2.5.round).to eq(2) }
end
`,
	"test_calc.rb": `require "minitest/autorun"
class CalcTest < Minitest::Test
  def test_adds; assert_equal 2, 1 + 1; end
  def test_multiplies; assert_equal 7, 2 * 3; end
  def test_divides; raise ZeroDivisionError, "divided by 0"; end
end
`,
}

// TestNativeRunnersEndToEnd runs ctest, prove, phpunit, rspec and a
// minitest file under the real binary, each where it is installed, and
// reads the report: the summary comes from the runner's declaration, its
// counts sit at the byte offsets it cites, it agrees with the exit status,
// and an excerpt quotes the failing assertion.
func TestNativeRunnersEndToEnd(t *testing.T) {
	work := t.TempDir()
	for name, body := range nativeFixtures {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name     string
		needs    []string
		setup    []string // run in work first (cmake's configure step)
		dir      string   // where the run runs, under work
		argv     []string
		source   string
		counts   [5]int // tests, passed, failed, skipped, errors
		failures map[string]string
		cited    []string
		excerpt  []string
	}{
		{"ctest --output-on-failure", []string{"cmake", "ctest", "sh"}, []string{"cmake", "-S", "cmake", "-B", "cmake/build"},
			"cmake/build", []string{"ctest", "--output-on-failure"}, "ctest", [5]int{3, 2, 1, -1, 0},
			map[string]string{"subtracts": "assertion failed: 5 - 2 == 4"},
			[]string{"Test project ", "67% tests passed, 1 tests failed out of 3", "Test #2: subtracts"},
			[]string{"assertion failed: 5 - 2 == 4"}},
		{"prove t/", []string{"prove"}, nil, "", []string{"prove", "t/"}, "prove", [5]int{2, 1, 1, -1, 0},
			map[string]string{"t/calc.t": "Failed test 'multiplies' at t/calc.t line 4: got: '6'; expected: '7'"},
			[]string{"Test Summary Report", "t/calc.t (Wstat: 256 (exited 1) Tests: 3 Failed: 1)", "Files=2, Tests=4, ", "Result: FAIL"},
			[]string{"Failed test 'multiplies'"}},
		{"phpunit", []string{"phpunit"}, nil, "", []string{"phpunit", "tests"}, "phpunit", [5]int{3, 1, 1, 1, 0},
			map[string]string{"testMultiplies": "Failed asserting that 6 is identical to 7."},
			[]string{"There was 1 failure:", "1) CalcTest::testMultiplies", "FAILURES!", "Tests: 3, Assertions: 2, Failures: 1, Skipped: 1."},
			[]string{"Failed asserting that 6 is identical to 7."}},
		{"rspec", []string{"rspec"}, nil, "", []string{"rspec"}, "rspec", [5]int{3, 1, 1, 1, 0},
			map[string]string{"Calc multiplies": "expected: 7 got: 6 (compared using ==)"},
			[]string{"Failures:", "1) Calc multiplies", "3 examples, 1 failure, 1 pending"},
			[]string{"got: 6"}},
		{"ruby test_calc.rb (minitest)", []string{"ruby"}, nil, "", []string{"ruby", "test_calc.rb"}, "minitest", [5]int{3, 1, 1, 0, 1},
			map[string]string{"test_multiplies": "Expected: 7 Actual: 6", "test_divides": "ZeroDivisionError: divided by 0"},
			[]string{"Finished in ", "CalcTest#test_multiplies [test_calc.rb:4]:", "3 runs, 2 assertions, 1 failures, 1 errors, 0 skips"},
			[]string{"Actual: 6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, tool := range tt.needs {
				if _, err := exec.LookPath(tool); err != nil {
					t.Skipf("%s is not installed here", tool)
				}
			}
			if tt.source == "minitest" && exec.Command("ruby", "-e", `require "minitest"`).Run() != nil {
				t.Skip("minitest is not installed here")
			}
			if tt.setup != nil {
				setup := exec.Command(tt.setup[0], tt.setup[1:]...)
				setup.Dir = work
				if out, err := setup.CombinedOutput(); err != nil {
					t.Fatalf("%v: %v\n%s", tt.setup, err, out)
				}
			}
			// runledger exits with the runner's status (ctest's is 8).
			r, store := runAndReport(t, binary, filepath.Join(work, tt.dir), tt.argv, func(int) bool { return true })
			checkDeclaredRun(t, r, store, tt.source, true, tt.counts, tt.failures, tt.cited, tt.excerpt)
		})
	}
}
