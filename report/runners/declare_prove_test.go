package runners

import (
	"os/exec"
	"strings"
	"testing"
)

// proveFixture is a Perl test suite: a failed assertion beside a skip, a
// file that dies after its first test, a file with a TODO test, and one
// that passes.
var proveFixture = map[string]string{
	"t/calc.t": `use strict; use warnings;
use Test::More tests => 4;
is(1+1, 2, 'adds');
is(2*3, 7, 'multiplies');
ok(1, 'truthy');
SKIP: { skip 'no network', 1; ok(0, 'fetches'); }
`,
	"t/die.t": `use strict; use warnings;
use Test::More tests => 3;
ok(1, 'first');
die "cannot open config: No such file\n";
`,
	"t/str.t": `use strict; use warnings;
use Test::More;
is(lc("ABC"), "abc", 'lowercases');
TODO: { local $TODO = 'unicode'; is(uc("\x{df}"), "SS", 'sharp s'); }
done_testing();
`,
}

// TestProveReal runs prove on the fixture, plain, verbose, in parallel and
// on the passing file alone: the files from Files= and Result: under it,
// the failing files (and so their count) from the Test Summary Report,
// their messages from the lines indented under each.
func TestProveReal(t *testing.T) {
	if _, err := exec.LookPath("prove"); err != nil {
		t.Skip("prove is not installed here")
	}
	dir := t.TempDir()
	writeFiles(t, dir, proveFixture)
	failing := want{"prove", 3, 1, 2, -1, 0, []string{"t/calc.t", "t/die.t"}, nil, 1}
	messages := map[string]string{
		"t/calc.t": "Failed test: 2; Non-zero exit status: 1",
		"t/die.t":  "Non-zero exit status: 255; Parse errors: Bad plan. You planned 3 tests but ran 1.",
	}
	cases := []struct {
		args []string
		want want
	}{
		{[]string{"t/"}, failing},
		{[]string{"-v", "t/"}, failing},
		{[]string{"-j", "2", "t/"}, failing},
		{[]string{"t/str.t"}, want{"prove", 1, 1, 0, -1, 0, nil, nil, 1}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			log := runTool(t, dir, nil, "prove", c.args...)
			s := checkVerifies(t, log)
			sortNames(s) // -j reports the files in the order they finished
			check(t, s, c.want, log)
			for _, f := range s.Failures {
				if f.Message != messages[f.Name] {
					t.Errorf("failure %s has message %q, want %q", f.Name, f.Message, messages[f.Name])
				}
			}
		})
	}
}

// TestProveTotals: a Result line counts only right under Files=, a failing
// file's line only inside the Test Summary Report, and a total quoted in
// another program's output is none.
func TestProveTotals(t *testing.T) {
	const files = "Files=2, Tests=5,  0 wallclock secs ( 0.01 usr  0.00 sys +  0.04 cusr  0.00 csys =  0.05 CPU)\n"
	tests := []struct {
		name string
		log  string
		want want
	}{
		{"Result: alone is no total", "Result: FAIL\nResult: PASS\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
		{"Files= quoted after a prompt is no total",
			"$ prove t/ | tail -2\n> " + files + "Result: PASS\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
		{"a passing run", "t/a.t .. ok\nAll tests successful.\n" + files + "Result: PASS\n",
			want{"prove", 2, 2, 0, -1, 0, nil, nil, 1}},
		// Unverifiable, not made up: a failed run whose report names no file.
		{"a file line outside the report names nothing",
			"t/x.t (Wstat: 256 (exited 1) Tests: 1 Failed: 1)\n" + files + "Result: FAIL\n",
			want{"prove", 2, -1, -1, -1, -1, nil, nil, 1}},
		{"Files= cut before its Result",
			"Test Summary Report\n-------------------\nt/x.t (Wstat: 256 (exited 1) Tests: 1 Failed: 1)\n  Failed test:  1\n" + files,
			want{"prove", 2, 1, 1, -1, 0, []string{"t/x.t"}, nil, 1}},
		{"prove -j pads a failing file's name (a real prove -j run's line)",
			"Test Summary Report\n-------------------\nt/conf.t   (Wstat: 256 (exited 1) Tests: 6 Failed: 1)\n  Failed test:  5\n" + files + "Result: FAIL\n",
			want{"prove", 2, 1, 1, -1, 0, []string{"t/conf.t"}, nil, 1}},
		{"a rerun that passed: the file is flaky",
			"Test Summary Report\n-------------------\nt/net.t (Wstat: 256 (exited 1) Tests: 5 Failed: 1)\n  Failed test:  3\n" + files + "Result: FAIL\n" +
				files + "Result: PASS\n",
			want{"prove", 2, 2, 0, -1, 0, nil, []string{"t/net.t"}, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := checkVerifies(t, []byte(tt.log))
			check(t, s, tt.want, []byte(tt.log))
		})
	}
}

// TestProveLines: what compaction reads of a prove run.
func TestProveLines(t *testing.T) {
	checkLines(t, []lineCase{
		{"Result: PASS", "prove", Passed, true},
		{"Result: FAIL", "prove", Failed, true},
		{"Files=3, Tests=7,  0 wallclock secs ( 0.02 usr  0.01 sys +  0.14 cusr  0.02 csys =  0.19 CPU)", "prove", Ran, false},
		{"Test Summary Report", "prove", Failed, false},
		{"Dubious, test returned 1 (wstat 256, 0x100)", "prove", Failed, false},
	}, "Result: PASSED", "Files=3", "Test Summary Report:")
}

func FuzzProve(f *testing.F) {
	fuzzDeclared(f, "Test Summary Report\n---\nt/a.t (Wstat: 256 (exited 1) Tests: 2 Failed: 1)\n  Failed test:  2\nFiles=1, Tests=2,  0 wallclock secs\nResult: FAIL\n",
		"Files=1, Tests=2,  0 wallclock secs\nResult: PASS\n", "Files=1, Tests=2, \n")
}
