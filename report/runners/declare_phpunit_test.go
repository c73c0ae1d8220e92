package runners

import (
	"os/exec"
	"strings"
	"testing"
)

// phpunitFixture is a PHPUnit suite with each outcome PHPUnit 9 counts:
// a failed assertion, an exception, a skip, an incomplete and a risky
// test, failing data sets, a string diff, a PHP warning.
var phpunitFixture = map[string]string{
	"tests/CalcTest.php": `<?php
use PHPUnit\Framework\TestCase;
final class CalcTest extends TestCase {
    public function testAdds(): void { $this->assertSame(2, 1 + 1); }
    public function testMultiplies(): void { $this->assertSame(7, 2 * 3); }
    public function testDivides(): void { throw new RuntimeException('division by zero'); }
    public function testLater(): void { $this->markTestSkipped('later'); }
    public function testTodo(): void { $this->markTestIncomplete('todo'); }
    public function testRisky(): void { }
}
`,
	"tests/DataTest.php": `<?php
use PHPUnit\Framework\TestCase;
final class DataTest extends TestCase {
    /** @dataProvider sums */
    public function testSum(int $a, int $b, int $c): void { $this->assertSame($c, $a + $b); }
    public static function sums(): array { return ['small' => [1, 2, 3], 'wrong' => [2, 2, 5], [3, 3, 7]]; }
    public function testStrings(): void { $this->assertSame("alpha\nbeta", "alpha\ngamma"); }
    public function testWarn(): void { trigger_error('deprecated call', E_USER_WARNING); }
}
`,
	"tests/GreenTest.php": `<?php
use PHPUnit\Framework\TestCase;
final class GreenTest extends TestCase {
    public function testOne(): void { $this->assertTrue(true); }
    public function testTwo(): void { $this->assertSame('a', 'a'); }
}
`,
}

// TestPHPUnitReal runs phpunit on the fixture: the counts from the
// verdict and "Tests: …" line (or "OK (…)"), the failing tests from the
// numbered items of the failure and error sections only, their messages
// from the assertion line under each.
func TestPHPUnitReal(t *testing.T) {
	if _, err := exec.LookPath("phpunit"); err != nil {
		t.Skip("phpunit is not installed here")
	}
	dir := t.TempDir()
	writeFiles(t, dir, phpunitFixture)
	all := []string{"testDivides", "testWarn", "testMultiplies", `testSum with data set "wrong"`, "testSum with data set #0", "testStrings"}
	messages := map[string]string{
		"testDivides":                   "RuntimeException: division by zero",
		"testWarn":                      "deprecated call",
		"testMultiplies":                "Failed asserting that 6 is identical to 7.",
		`testSum with data set "wrong"`: "Failed asserting that 4 is identical to 5.",
		"testSum with data set #0":      "Failed asserting that 6 is identical to 7.",
		"testStrings":                   "Failed asserting that two strings are identical.",
	}
	cases := []struct {
		args []string
		want want
	}{
		{[]string{"tests"}, want{"phpunit", 13, 5, 4, 2, 2, all, nil, 1}},
		// -v lists the risky, incomplete and skipped tests in numbered
		// sections too: they are not failures.
		{[]string{"-v", "tests"}, want{"phpunit", 13, 5, 4, 2, 2, all, nil, 1}},
		// --testdox names no numbered items: counts only.
		{[]string{"--testdox", "tests/CalcTest.php"}, want{"phpunit", 6, 2, 1, 2, 1, nil, nil, 1}},
		{[]string{"tests/GreenTest.php"}, want{"phpunit", 2, 2, 0, 0, 0, nil, nil, 1}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			log := runTool(t, dir, nil, "phpunit", c.args...)
			s := checkVerifies(t, log)
			check(t, s, c.want, log)
			for _, f := range s.Failures {
				if f.Message != messages[f.Name] {
					t.Errorf("failure %s has message %q, want %q", f.Name, f.Message, messages[f.Name])
				}
			}
			if f := findFailure(s, "testMultiplies"); f != nil && f.Classname != "CalcTest" {
				t.Errorf("testMultiplies's class = %q, want CalcTest", f.Classname)
			}
		})
	}
}

// TestPHPUnitTotals: the counts line counts only under a verdict, numbered
// items name failures only in a failure or error section of a run, and a
// total quoted in other output is none.
func TestPHPUnitTotals(t *testing.T) {
	const banner = "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\n"
	tests := []struct {
		name string
		log  string
		want want
		note string
	}{
		{"a counts line without its verdict is no total",
			"Tests: 6, Assertions: 2, Errors: 1, Failures: 1.\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"a total quoted in a source file or a shell transcript is none",
			"    echo 'OK (5 tests, 8 assertions)';\n> OK (5 tests, 8 assertions)\n# FAILURES!\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"a risky section's items are not failures",
			banner + "There was 1 failure:\n\n1) A::testX\nFailed asserting that false is true.\n\n--\n\nThere was 1 risky test:\n\n1) A::testR\nThis test did not perform any assertions\n\n" +
				"FAILURES!\nTests: 3, Assertions: 2, Failures: 1, Risky: 1.\n",
			want{"phpunit", 3, 2, 1, 0, 0, []string{"testX"}, nil, 1}, "passed is Tests minus"},
		{"a numbered item outside a run names nothing",
			"There was 1 failure:\n1) A::testQuoted\n" + banner + "OK (2 tests, 2 assertions)\n",
			want{"phpunit", 2, 2, 0, 0, 0, nil, nil, 1}, ""},
		{"PHPUnit 10's issue counts leave passed unknown",
			banner + "OK, but there were issues!\nTests: 4, Assertions: 4, Deprecations: 2.\n",
			want{"phpunit", 4, -1, 0, 0, 0, nil, nil, 1}, "passed is unknown"},
		{"a verdict cut before its counts is no total",
			banner + "FAILURES!\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, ""},
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

// TestPHPUnitLines: what compaction reads of a PHPUnit run.
func TestPHPUnitLines(t *testing.T) {
	checkLines(t, []lineCase{
		{"PHPUnit 9.6.7 by Sebastian Bergmann and contributors.", "phpunit", Ran, false},
		{"OK (5 tests, 8 assertions)", "phpunit", Passed, true},
		{"Tests: 6, Assertions: 2, Errors: 1, Failures: 1, Skipped: 1.", "phpunit", Failed, true},
		{"Tests: 6, Assertions: 6, Skipped: 1.", "phpunit", Passed, true},
		{"FAILURES!", "phpunit", Failed, false},
	}, "OK (5 tests)", "Tests: 6", "PHPUnit is great")
}

func FuzzPHPUnit(f *testing.F) {
	fuzzDeclared(f, "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\nThere was 1 failure:\n1) A::testX\nFailed asserting.\nFAILURES!\nTests: 1, Assertions: 1, Failures: 1.\n",
		"OK (2 tests, 2 assertions)\n", "ERRORS!\nTests: 2, Assertions: 1, Errors: 1.\n", "There were 2 errors:\n1) A::b\n")
}
