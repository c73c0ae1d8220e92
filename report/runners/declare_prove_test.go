package runners

import (
	"os/exec"
	"strings"
	"testing"
)

// proveFixture is a Perl test suite: a failed assertion beside a skip, a
// file that dies after its first test with a message of its own, one that
// dies after its second with Perl's (naming the file and line), a file
// with a TODO test, and one that passes.
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
	"t/open.t": `use strict; use warnings;
use Test::More tests => 3;
ok(1, 'reads');
ok(1, 'parses');
open(my $fh, '<', '/nonexistent/app.conf') or die "cannot open /nonexistent/app.conf: $!";
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
// their messages from what the tests printed on stderr before it: the
// first failed assertion, or the die message.
func TestProveReal(t *testing.T) {
	if _, err := exec.LookPath("prove"); err != nil {
		t.Skip("prove is not installed here")
	}
	dir := t.TempDir()
	writeFiles(t, dir, proveFixture)
	failing := want{"prove", 4, 1, 3, -1, 0, []string{"t/calc.t", "t/die.t", "t/open.t"}, nil, 1}
	type message struct {
		text string
		line int
	}
	messages := map[string]message{
		"t/calc.t": {"Failed test 'multiplies' at t/calc.t line 4: got: '6'; expected: '7'", 4},
		"t/die.t":  {"cannot open config: No such file; Looks like your test exited with 255 just after 1.", 0},
		"t/open.t": {"cannot open /nonexistent/app.conf: No such file or directory at t/open.t line 5.; Looks like your test exited with 2 just after 2.", 5},
	}
	// Under -j another file's line may come between a die message and
	// the "Looks like" line under it (two writes): the death is then not
	// known and the report's lines are the message, never another's.
	reportLines := map[string]string{
		"t/die.t":  "Non-zero exit status: 255; Parse errors: Bad plan. You planned 3 tests but ran 1.",
		"t/open.t": "Non-zero exit status: 2; Parse errors: Bad plan. You planned 3 tests but ran 2.",
	}
	cases := []struct {
		args     []string
		want     want
		parallel bool
	}{
		{[]string{"t/"}, failing, false},
		{[]string{"-v", "t/"}, failing, false},
		{[]string{"-j", "2", "t/"}, failing, true},
		{[]string{"-v", "-j", "2", "t/"}, failing, true},
		{[]string{"t/str.t"}, want{"prove", 1, 1, 0, -1, 0, nil, nil, 1}, false},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			log := runTool(t, dir, nil, "prove", c.args...)
			s := checkVerifies(t, log)
			sortNames(s) // -j reports the files in the order they finished
			check(t, s, c.want, log)
			for _, f := range s.Failures {
				w := messages[f.Name]
				if c.parallel && f.Message == reportLines[f.Name] {
					t.Logf("%s: a line came between its die message and its death: %q", f.Name, f.Message)
					continue
				}
				if f.Message != w.text || f.Line != w.line {
					t.Errorf("failure %s has message %q at line %d, want %q at %d\nlog:\n%s", f.Name, f.Message, f.Line, w.text, w.line, log)
				}
			}
		})
	}
}

// TestProveTotals: a Result line counts only right under Files=, a failing
// file's line only inside the Test Summary Report, and a total quoted in
// another program's output is none. A failing file's message is its first
// failed assertion placed in it (by its "at FILE line N." line), else its
// die message when it is known to be the file's, else the report's lines
// under it; none of those lines counts, so every row still verifies.
func TestProveTotals(t *testing.T) {
	const files = "Files=2, Tests=5,  0 wallclock secs ( 0.01 usr  0.00 sys +  0.04 cusr  0.00 csys =  0.05 CPU)\n"
	const report = "Test Summary Report\n-------------------\n"
	const fail = "t/x.t (Wstat: 256 (exited 1) Tests: 4 Failed: 1)\n  Failed test:  3\n  Non-zero exit status: 1\n"
	const died = "t/x.t (Wstat: 65280 (exited 255) Tests: 1 Failed: 0)\n  Non-zero exit status: 255\n"
	const assertion = "\n#   Failed test 'trims'\n#   at t/x.t line 9.\n#          got: '-a-'\n#     expected: 'a'\n# Looks like you failed 1 test of 4.\n"
	x := []string{"t/x.t"}
	xFailing := want{"prove", 2, 1, 1, -1, 0, x, nil, 1}
	type message struct {
		text string
		line int
	}
	asserted := map[string]message{"t/x.t": {"Failed test 'trims' at t/x.t line 9: got: '-a-'; expected: 'a'", 9}}
	reportOnly := map[string]message{"t/x.t": {"Failed test: 3; Non-zero exit status: 1", 0}}
	tests := []struct {
		name     string
		log      string
		want     want
		messages map[string]message // nil: not checked
	}{
		{"Result: alone is no total", "Result: FAIL\nResult: PASS\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, nil},
		{"Files= quoted after a prompt is no total",
			"$ prove t/ | tail -2\n> " + files + "Result: PASS\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, nil},
		{"a passing run", "t/a.t .. ok\nAll tests successful.\n" + files + "Result: PASS\n",
			want{"prove", 2, 2, 0, -1, 0, nil, nil, 1}, nil},
		// Unverifiable, not made up: a failed run whose report names no file.
		{"a file line outside the report names nothing",
			"t/x.t (Wstat: 256 (exited 1) Tests: 1 Failed: 1)\n" + files + "Result: FAIL\n",
			want{"prove", 2, -1, -1, -1, -1, nil, nil, 1}, nil},
		{"Files= cut before its Result",
			"Test Summary Report\n-------------------\nt/x.t (Wstat: 256 (exited 1) Tests: 1 Failed: 1)\n  Failed test:  1\n" + files,
			want{"prove", 2, 1, 1, -1, 0, []string{"t/x.t"}, nil, 1}, map[string]message{"t/x.t": {"Failed test: 1", 0}}},
		{"prove -j pads a failing file's name (a real prove -j run's line)",
			"Test Summary Report\n-------------------\nt/conf.t   (Wstat: 256 (exited 1) Tests: 6 Failed: 1)\n  Failed test:  5\n" + files + "Result: FAIL\n",
			want{"prove", 2, 1, 1, -1, 0, []string{"t/conf.t"}, nil, 1}, nil},
		{"a rerun that passed: the file is flaky",
			"Test Summary Report\n-------------------\nt/net.t (Wstat: 256 (exited 1) Tests: 5 Failed: 1)\n  Failed test:  3\n" + files + "Result: FAIL\n" +
				files + "Result: PASS\n",
			want{"prove", 2, 2, 0, -1, 0, nil, []string{"t/net.t"}, 2}, nil},

		{"the assertion placed in the file is its message", assertion + "t/x.t .. \nDubious, test returned 1 (wstat 256, 0x100)\n" + report + fail + files + "Result: FAIL\n",
			xFailing, asserted},
		{"an unnamed assertion, and only the first of a file's",
			"\n#   Failed test at t/x.t line 14.\n#          got: '1'\n#     expected: '2'\n\n#   Failed test at t/x.t line 15.\n#          got: '3'\n#     expected: '4'\n" +
				"# Looks like you failed 2 tests of 2.\n" + report + strings.Replace(fail, "Failed test:  3", "Failed tests:  1-2", 1) + files + "Result: FAIL\n",
			xFailing, map[string]message{"t/x.t": {"Failed test at t/x.t line 14: got: '1'; expected: '2'", 14}}},
		{"an error's message under the assertion (a diag of the test's own), and is_deeply's three lines",
			"#   Failed test 'reads'\n#   at t/x.t line 11.\n# parse error: garbage after JSON object at lib/Conf.pm line 8.\n" +
				"#   Failed test 'deep'\n#   at t/y.t line 3.\n#     Structures begin differing at:\n#          $got->[1] = '2'\n#     $expected->[1] = '3'\n" + report + fail +
				"t/y.t (Wstat: 256 (exited 1) Tests: 1 Failed: 1)\n  Failed test:  1\n" + files + "Result: FAIL\n",
			want{"prove", 2, 0, 2, -1, 0, []string{"t/x.t", "t/y.t"}, nil, 1}, map[string]message{
				"t/x.t": {"Failed test 'reads' at t/x.t line 11: parse error: garbage after JSON object at lib/Conf.pm line 8.", 11},
				"t/y.t": {"Failed test 'deep' at t/y.t line 3: Structures begin differing at:; $got->[1] = '2'; $expected->[1] = '3'", 3}}},
		// A real prove -j2 run's order: another file's death between an
		// assertion's place and its details.
		{"prove -j: another file's lines between the assertion and its details",
			"\n#   Failed test 'multiplies'\n#   at t/x.t line 4.\ncannot open config: No such file\n# Looks like your test exited with 255 just after 1.\n" +
				"t/d.t ... \nDubious, test returned 255 (wstat 65280, 0xff00)\nFailed 2/3 subtests \n#          got: '6'\n#     expected: '7'\n# Looks like you failed 1 test of 4.\n" +
				report + strings.Replace(died, "t/x.t", "t/d.t", 1) + fail + files + "Result: FAIL\n",
			want{"prove", 2, 0, 2, -1, 0, []string{"t/d.t", "t/x.t"}, nil, 1}, map[string]message{
				"t/d.t": {"cannot open config: No such file; Looks like your test exited with 255 just after 1.", 0},
				"t/x.t": {"Failed test 'multiplies' at t/x.t line 4: got: '6'; expected: '7'", 4}}},
		{"details stop at four lines, and at what a message keeps",
			"#   Failed test 'many'\n#   at t/x.t line 2.\n# a\n# b\n# c\n# d\n# e\n" +
				"#   Failed test 'long'\n#   at t/y.t line 3.\n# " + strings.Repeat("y", 400) + "\n# more\n" + report + fail +
				"t/y.t (Wstat: 256 (exited 1) Tests: 1 Failed: 1)\n  Failed test:  1\n" + files + "Result: FAIL\n",
			want{"prove", 2, 0, 2, -1, 0, []string{"t/x.t", "t/y.t"}, nil, 1}, map[string]message{
				"t/x.t": {"Failed test 'many' at t/x.t line 2: a; b; c; d", 2},
				"t/y.t": {("Failed test 'long' at t/y.t line 3: " + strings.Repeat("y", 400))[:maxProveMessage], 3}}},
		{"an assertion placed in another file, or TODO, explains nothing",
			"#   Failed test 'other'\n#   at t/other.t line 2.\n#   Failed (TODO) test 'later'\n#   at t/x.t line 5.\n" + report + fail + files + "Result: FAIL\n",
			xFailing, reportOnly},
		{"an at line too far under its assertion places nothing",
			"#   Failed test 'far'\n" + strings.Repeat("ok\n", proveDiagWindow) + "#   at t/x.t line 5.\n" + report + fail + files + "Result: FAIL\n",
			xFailing, reportOnly},
		{"a die message naming the file, and its line",
			"ok 1\ncannot open /etc/app.conf: No such file or directory at t/x.t line 5.\n# Looks like your test exited with 2 just after 1.\n" +
				report + "t/x.t (Wstat: 512 (exited 2) Tests: 1 Failed: 0)\n  Non-zero exit status: 2\n" + files + "Result: FAIL\n",
			xFailing, map[string]message{"t/x.t": {"cannot open /etc/app.conf: No such file or directory at t/x.t line 5.; Looks like your test exited with 2 just after 1.", 5}}},
		{"a death before any output, the log's first line its message",
			"no database\n# Looks like your test exited with 255 before it could output anything.\n" +
				report + "t/x.t (Wstat: 65280 (exited 255) Tests: 0 Failed: 0)\n  Non-zero exit status: 255\n" + files + "Result: FAIL\n",
			xFailing, map[string]message{"t/x.t": {"no database; Looks like your test exited with 255 before it could output anything.", 0}}},
		{"two deaths alike: neither file is known to be whose",
			"no config\n# Looks like your test exited with 255 just after 1.\nno network\n# Looks like your test exited with 255 just after 1.\n" +
				report + died + strings.Replace(died, "t/x.t", "t/y.t", 1) + files + "Result: FAIL\n",
			want{"prove", 2, 0, 2, -1, 0, []string{"t/x.t", "t/y.t"}, nil, 1}, map[string]message{
				"t/x.t": {"Non-zero exit status: 255", 0}, "t/y.t": {"Non-zero exit status: 255", 0}}},
		{"a death under a TAP or prove line has no die message",
			"t/w.t .. ok\n# Looks like your test exited with 255 just after 1.\n" + report + died + files + "Result: FAIL\n",
			xFailing, map[string]message{"t/x.t": {"Non-zero exit status: 255", 0}}},
		{"a die message naming another file is not this one's",
			"oops at t/y.t line 3.\n# Looks like your test exited with 255 just after 1.\n" + report + died + files + "Result: FAIL\n",
			xFailing, map[string]message{"t/x.t": {"Non-zero exit status: 255", 0}}},
		{"a rerun's file is explained by its own run's lines only",
			assertion + report + fail + files + "Result: FAIL\n" + report + fail + files + "Result: FAIL\n",
			want{"prove", 2, 1, 1, -1, 0, x, nil, 2}, reportOnly},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := checkVerifies(t, []byte(tt.log))
			check(t, s, tt.want, []byte(tt.log))
			if tt.messages == nil {
				return
			}
			for _, f := range s.Failures {
				if w := tt.messages[f.Name]; f.Message != w.text || f.Line != w.line {
					t.Errorf("failure %s has message %q at line %d, want %q at %d", f.Name, f.Message, f.Line, w.text, w.line)
				}
			}
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
		"Files=1, Tests=2,  0 wallclock secs\nResult: PASS\n", "Files=1, Tests=2, \n",
		// What explains a failing file, before the report names it: an
		// assertion (its details after another file's death), a die message.
		"#   Failed test 'x'\n#   at t/a.t line 3.\nboom\n# Looks like your test exited with 255 just after 1.\n#          got: '1'\n",
		"#   Failed test at t/a.t line 3.\n#   Failed test at t/b.t line 4.\ndied at t/a.t line 9.\n# Looks like your test exited with 2 before it could output anything.\n")
}
