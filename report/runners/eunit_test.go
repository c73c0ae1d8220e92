package runners

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// feedAlone runs one parser over a log's lines, as the scan would hand
// them, and returns its attempts.
func feedAlone(p parser, log []byte) []attempt {
	var off int64
	for i, text := range strings.SplitAfter(string(log), "\n") {
		l := &line{num: int64(i + 1), start: off, end: off + int64(len(text)), text: strings.TrimRight(text, "\n"), trim: strings.TrimSpace(text)}
		off = l.end
		p.feed(l, "")
	}
	return p.end("")
}

// TestEUnitNotExUnit: EUnit's output under rebar3 ("Finished in 0.045
// seconds" and "7 tests, 2 failures", as ExUnit prints them) and under
// erl, read by ExUnit's parser alone, makes no ExUnit run (rebar3's was
// once verified as ExUnit's, naming no failure), and the scan calls none
// of them ExUnit's.
func TestEUnitNotExUnit(t *testing.T) {
	logs, err := filepath.Glob("testdata/eunit/*.log")
	if err != nil || len(logs) < 6 {
		t.Fatalf("want the samples gen-samples.sh writes, have %d: %v", len(logs), err)
	}
	for _, path := range logs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			log, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if atts := feedAlone(&exunitParser{}, stripANSI(log)); len(atts) != 0 {
				t.Errorf("ExUnit's parser read %d runs from an EUnit log: %+v", len(atts), atts)
			}
			if s := scanFile(t, path); s.Source == "exunit" {
				t.Errorf("source = exunit, tests %d, failed %d", num(s.Tests), num(s.Failed))
			}
		})
	}
	// ExUnit's own two lines still count: the shape older ExUnit printed.
	s := scanBytes(t, []byte("Finished in 0.04 seconds\n3 tests, 1 failure\n"))
	check(t, s, want{"exunit", 3, 2, 1, 0, 0, nil, nil, 1}, nil)
}

// stripANSI drops SGR escapes, as the scan's lines have them dropped.
func stripANSI(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); i++ {
		if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '[' {
			j := i + 2
			for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == ';') {
				j++
			}
			if j < len(b) {
				i = j
				continue
			}
		}
		out = append(out, b[i])
	}
	return out
}

// TestEUnitSamples reads the real EUnit runs in testdata/eunit
// (gen-samples.sh), checks that each verifies, and compares each summary
// with its golden file.
func TestEUnitSamples(t *testing.T) { checkGoldens(t, "testdata/eunit/*.log", 8) }

// eunitMessages are the fixture's failures as each format shows them:
// place and message.
var eunitMessages = map[string]map[string]string{
	"own": {
		"add_big_test":     `test/calc_tests.erl:4: **error:{assertEqual,[{module,calc_tests}, {line,4}, {expression,"calc : add ( 101 , 1 )"}, {expected,102}, {value,103}]}`,
		"divide_zero_test": "test/calc_tests.erl:6: **error:badarith",
	},
	"progress": {
		"add_big_test":     ":0: ?assertEqual(102, calc : add ( 101 , 1 )) expected: 102 got: 103",
		"divide_zero_test": "/src/test/calc_tests.erl:6: error:badarith",
	},
}

// TestEUnitSummary states what the goldens hold: EUnit's counts, its
// failing tests by module and name with their place and message, and
// "  2 tests passed." alone (erl, no rule over it) as nobody's.
func TestEUnitSummary(t *testing.T) {
	fails := []string{"add_big_test", "divide_zero_test"}
	tests := []struct {
		sample, format string
		want           want
	}{
		{"erl-fail", "own", want{"eunit", 5, 3, 2, 0, 0, fails, nil, 1}},
		{"erl-verbose-fail", "own", want{"eunit", 5, 3, 2, 0, 0, fails, nil, 1}},
		{"erl-pass", "", want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}},
		{"rebar3-fail", "progress", want{"eunit", 7, 5, 2, 0, 0, fails, nil, 1}},
		{"rebar3-verbose-fail", "", want{"eunit", 7, 5, 2, 0, 0, fails, nil, 1}},
		{"rebar3-pass", "", want{"eunit", 2, 2, 0, 0, 0, nil, nil, 1}},
		// A test EUnit cancelled at its timeout is in none of its counts:
		// named *timed out*, it is an error.
		{"erl-timeout", "", want{"eunit", 2, 1, 0, 0, 1, []string{"-slow_test_/0-fun-0-"}, nil, 1}},
		// rebar3 prints "Finished in ? seconds" and counts of its own
		// ("4 tests, 0 failures, 3 cancelled" for one cancelled test under
		// "Pending:"): no count stands.
		{"rebar3-timeout", "", want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}},
	}
	for _, c := range tests {
		t.Run(c.sample, func(t *testing.T) {
			path := filepath.Join("testdata", "eunit", c.sample+".log")
			log, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s := scanFile(t, path)
			check(t, s, c.want, log)
			checkEUnitMessages(t, s, eunitMessages[c.format])
		})
	}
}

func checkEUnitMessages(t *testing.T, s *Summary, messages map[string]string) {
	t.Helper()
	for _, f := range s.Failures {
		if messages != nil && f.Classname != "calc_tests" {
			t.Errorf("failure %s's module = %q", f.Name, f.Classname)
		}
		if m, ok := messages[f.Name]; ok {
			if got := fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Message); got != m {
				t.Errorf("failure %s = %s, want %s", f.Name, got, m)
			}
		}
	}
}

// TestEUnitTotals: what makes an EUnit total, and a total that does not
// agree with the tests it failed by name is no verified count.
func TestEUnitTotals(t *testing.T) {
	const (
		rule    = "=======================================================\n"
		failed  = "m_tests: a_test...*failed*\nin function m_tests:a_test/0 (m_tests.erl, line 3)\n**error:boom\n  output:<<\"\">>\n\n"
		banner  = "===> Performing EUnit tests...\n"
		heading = "Failures:\n\n  1) m_tests:a_test/0\n     Failure/Error: ?assert(false)\n\n"
	)
	tests := []struct {
		name string
		log  string
		want want
		note string
	}{
		{"its own total", failed + rule + "  Failed: 1.  Skipped: 1.  Passed: 2.\n", want{"eunit", 4, 2, 1, 1, 0, []string{"a_test"}, nil, 1}, ""},
		{"cancelled tests are errors", failed + rule + "  Failed: 1.  Skipped: 0.  Passed: 2.  Cancelled: 1.\n", want{"eunit", 4, 2, 1, 0, 1, []string{"a_test"}, nil, 1}, ""},
		{"a timed-out test is an error", "m_tests: slow_test...*timed out*\nin function timer:sleep/1 (timer.erl, line 219)\nundefined\n" + rule +
			"  Failed: 0.  Skipped: 0.  Passed: 2.\nOne or more tests were cancelled.\n", want{"eunit", 3, 2, 0, 0, 1, []string{"slow_test"}, nil, 1}, ""},
		{"cancelled tests it names not", rule + "  Failed: 0.  Skipped: 0.  Passed: 2.\nOne or more tests were cancelled.\n",
			want{"eunit", 2, -1, -1, -1, -1, nil, nil, 1}, "cancelled tests it does not count or name"},
		{"all passed under the rule", rule + "  All 3 tests passed.\n", want{"eunit", 3, 3, 0, 0, 0, nil, nil, 1}, ""},
		{"one test passed under the rule", rule + "  Test passed.\n", want{"eunit", 1, 1, 0, 0, 0, nil, nil, 1}, ""},
		{"a total without its rule is nobody's", failed + "  Failed: 1.  Skipped: 0.  Passed: 2.\n", want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"a failed count that names no test", rule + "  Failed: 1.  Skipped: 0.  Passed: 2.\n", want{"eunit", 3, -1, -1, -1, -1, nil, nil, 1}, "not the number of tests it failed by name"},
		{"rebar3's progress total", banner + "F.\n" + heading + "Finished in 0.01 seconds\n2 tests, 1 failures\n", want{"eunit", 2, 1, 1, 0, 0, []string{"a_test"}, nil, 1}, ""},
		{"the progress total without rebar3's banner is ExUnit's shape", "Finished in 0.01 seconds\n2 tests, 1 failure\n", want{"exunit", 2, 1, 1, 0, 0, nil, nil, 1}, ""},
		{"ExUnit's own run is no EUnit run", "  1) test adds (MathTest)\n     test/math_test.exs:12\n     Assertion with == failed\n\nFinished in 0.05 seconds (0.00s async, 0.05s sync)\n5 tests, 1 failure\n",
			want{"exunit", 5, 4, 1, 0, 0, []string{"test adds"}, nil, 1}, ""},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			s := scanBytes(t, []byte(c.log))
			check(t, s, c.want, []byte(c.log))
			if !strings.Contains(s.Note, c.note) {
				t.Errorf("note = %q, want one saying %q", s.Note, c.note)
			}
		})
	}
}

// TestEUnitReal runs testdata/eunit/fixture with Debian's Erlang: erl's
// eunit:test/1 and, where rebar3 is installed, `rebar3 eunit` (offline: the
// fixture has no dependencies), plainly and with -v.
func TestEUnitReal(t *testing.T) {
	for _, tool := range []string{"erl", "erlc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed here (apt-get install erlang-base erlang-eunit)", tool)
		}
	}
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-R", filepath.Join("testdata", "eunit", "fixture")+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copy the fixture: %v\n%s", err, out)
	}
	// The modules erl runs are compiled outside the project, where rebar3
	// would find them and run their tests twice.
	ebin := t.TempDir()
	erlc := exec.Command("erlc", "-o", ebin, "src/calc.erl", "test/calc_tests.erl", "test/calc_pass_tests.erl")
	erlc.Dir = dir
	if out, err := erlc.CombinedOutput(); err != nil {
		t.Fatalf("erlc: %v\n%s", err, out)
	}
	fails := []string{"add_big_test", "divide_zero_test"}
	t.Run("erl", func(t *testing.T) {
		log := runTool(t, dir, nil, "erl", "-noshell", "-pa", ebin, "-eval", "eunit:test(calc_tests), init:stop()")
		s := scanBytes(t, log)
		check(t, s, want{"eunit", 5, 3, 2, 0, 0, fails, nil, 1}, log)
		checkEUnitMessages(t, s, eunitMessages["own"])
	})
	if _, err := exec.LookPath("rebar3"); err != nil {
		t.Skip("rebar3 is not installed here (apt-get install rebar3)")
	}
	home := []string{"HOME=" + t.TempDir()}
	for _, args := range [][]string{{"eunit"}, {"eunit", "-v"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			log := runTool(t, dir, home, "rebar3", args...)
			s := scanBytes(t, log)
			check(t, s, want{"eunit", 7, 5, 2, 0, 0, fails, nil, 1}, log)
			if s.Source == "exunit" {
				t.Error("rebar3's EUnit run read as ExUnit's")
			}
		})
	}
}

// FuzzEUnit: whatever comes before it, a failing EUnit run (erl's own
// format) leaves a failure or no failure count, never a pass; its fast
// path and its re-read agree with a reading of every line.
func FuzzEUnit(f *testing.F) {
	fuzzDeclared(f, "m_tests: a_test...*failed*\nin function m_tests:a_test/0 (m_tests.erl, line 3)\n**error:boom\n  output:<<\"\">>\n\n"+
		"=======================================================\n  Failed: 1.  Skipped: 0.  Passed: 2.\n",
		sample(f, "eunit/rebar3-fail.log"), sample(f, "eunit/erl-timeout.log"),
		"===> Performing EUnit tests...\nF\nFailures:\n\n  1) m_tests:a_test/0\n     Failure/Error: ?assert(false)\n\nFinished in 0.01 seconds\n2 tests, 1 failures\n")
}
