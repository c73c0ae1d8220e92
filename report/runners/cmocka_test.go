package runners

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCmockaSamples reads the real cmocka runs in testdata/cmocka
// (gen-samples.sh), checks that each verifies, and compares each summary
// with its golden file.
func TestCmockaSamples(t *testing.T) { checkGoldens(t, "testdata/cmocka/*.log", 6) }

// cmockaCalc is what testdata/cmocka/calc_test.c's run says: its counts,
// and each failing test's place and message.
var (
	cmockaCalc         = want{"cmocka", 6, 1, 4, 1, 0, []string{"test_add_big", "test_string", "test_true", "test_fail_msg"}, nil, 1}
	cmockaCalcMessages = map[string]string{
		"test_add_big":     "calc_test.c:11: 0x67 != 0x66",
		"test_string":      `calc_test.c:12: "hello" != "world"`,
		"test_true":        "calc_test.c:13: add(0, 0) == 1",
		"test_fail_msg":    "calc_test.c:15: ERROR: unexpected state 7",
		"test_needs_setup": ":0: Could not run test: Test setup failed",
	}
)

// TestCmockaSummary states what the goldens hold: exact counts (one
// failure once, not again for the list under the total), every failing
// test named with its file:line and message, no crash on a clean run, and
// a run a crash cut short counted from its verdicts, with a note.
func TestCmockaSummary(t *testing.T) {
	tests := []struct {
		sample string
		want   want
		note   string
	}{
		{"calc-fail", cmockaCalc, ""},
		{"pass", want{"cmocka", 2, 2, 0, 0, 0, nil, nil, 1}, ""},
		{"crash-abort", want{"cmocka", -1, 1, 1, 0, 0, []string{"test_aborts"}, nil, 1}, "ended without its total"},
		{"two-programs", want{"cmocka", 8, 3, 4, 1, 0, cmockaCalc.failures, nil, 2}, ""},
		// A test whose setup failed is in the tests run and no other count
		// of cmocka's: an error; a group whose setup failed ran nothing.
		{"setup-error", want{"cmocka", 2, 1, 0, 0, 1, []string{"test_needs_setup"}, nil, 1}, ""},
		{"group-setup", want{"cmocka", 0, 0, 0, 0, 1, []string{"GROUP SETUP"}, nil, 1}, ""},
	}
	for _, c := range tests {
		t.Run(c.sample, func(t *testing.T) {
			path := filepath.Join("testdata", "cmocka", c.sample+".log")
			log, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s := scanFile(t, path)
			check(t, s, c.want, log)
			if c.note == "" && strings.Contains(s.Note, "cmocka") || !strings.Contains(s.Note, c.note) {
				t.Errorf("note = %q, want one saying %q", s.Note, c.note)
			}
			for _, f := range s.Failures {
				if m, ok := cmockaCalcMessages[f.Name]; ok {
					if got := fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Message); got != m {
						t.Errorf("failure %s = %s, want %s", f.Name, got, m)
					}
				}
			}
		})
	}
}

// TestCmockaTotals: what makes a cmocka run, and a total that does not
// agree with the tests it failed by name is no verified count.
func TestCmockaTotals(t *testing.T) {
	const (
		banner = "[==========] Running 2 test(s).\n"
		one    = "[ RUN      ] test_a\n[       OK ] test_a\n"
		bad    = "[ RUN      ] test_b\n[  ERROR   ] --- 1 != 2\n[   LINE   ] --- t.c:4: error: Failure!\n[  FAILED  ] test_b\n"
		total  = "[==========] 2 test(s) run.\n[  PASSED  ] 1 test(s).\n[  FAILED  ] 1 test(s), listed below:\n[  FAILED  ] test_b\n\n 1 FAILED TEST(S)\n"
	)
	tests := []struct {
		name string
		log  string
		want want
		note string
	}{
		{"a whole run", banner + one + bad + total, want{"cmocka", 2, 1, 1, 0, 0, []string{"test_b"}, nil, 1}, ""},
		{"without its banner it is nobody's run", one + bad + total, want{SourceNone, -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"a failed count that names no test", banner + one + "[ RUN      ] test_b\n[       OK ] test_b\n" +
			"[==========] 2 test(s) run.\n[  PASSED  ] 1 test(s).\n[  FAILED  ] 1 test(s), listed below:\n[  FAILED  ] test_b\n",
			want{"cmocka", 2, -1, -1, -1, -1, nil, nil, 1}, "not the number of tests it failed by name"},
		{"a total that does not add up", banner + one + bad + "[==========] 3 test(s) run.\n[  PASSED  ] 1 test(s).\n[  FAILED  ] 1 test(s), listed below:\n[  FAILED  ] test_b\n",
			want{"cmocka", 3, -1, -1, -1, -1, []string{"test_b"}, nil, 1}, "does not add up"},
		{"a gtest run is no cmocka run", "[==========] Running 1 test from 1 test suite.\n[ RUN      ] S.T\n[       OK ] S.T (0 ms)\n" +
			"[==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.\n", want{"gtest", 1, 1, 0, 0, 0, nil, nil, 1}, ""},
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

// TestCmockaNotGtest: cmocka's GoogleTest-shaped lines, read by gtest's
// parser alone, make no gtest run (it once counted the failed test twice,
// for its verdict and its line under the total, and called a clean run a
// crash), and a real cmocka log's summary is cmocka's.
func TestCmockaNotGtest(t *testing.T) {
	logs, err := filepath.Glob("testdata/cmocka/*.log")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	for _, path := range logs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			log, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if atts := feedAlone(&gtestParser{}, log); len(atts) != 0 {
				t.Errorf("gtest's parser read %d runs from a cmocka log: %+v", len(atts), atts)
			}
			if s := scanFile(t, path); s.Source != "cmocka" {
				t.Errorf("source = %q, want cmocka", s.Source)
			}
		})
	}
}

// TestCmockaReal compiles testdata/cmocka's fixtures with gcc against
// Debian's libcmocka-dev and runs them: the same counts, names and
// messages as the committed samples, from this machine's cmocka.
func TestCmockaReal(t *testing.T) {
	if _, err := os.Stat("/usr/include/cmocka.h"); err != nil {
		t.Skip("cmocka's header is not installed here (apt-get install libcmocka-dev)")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not installed here")
	}
	dir := t.TempDir()
	for _, name := range []string{"calc", "pass", "crash", "setup", "group"} {
		src, err := os.ReadFile(filepath.Join("testdata", "cmocka", name+"_test.c"))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, map[string]string{name + "_test.c": string(src)})
		cc := exec.Command("gcc", "-o", name, name+"_test.c", "-lcmocka")
		cc.Dir = dir
		if out, err := cc.CombinedOutput(); err != nil {
			t.Fatalf("gcc %s: %v\n%s", name, err, out)
		}
	}
	cases := []struct {
		prog string
		want want
	}{
		{"calc", cmockaCalc},
		{"pass", want{"cmocka", 2, 2, 0, 0, 0, nil, nil, 1}},
		{"crash", want{"cmocka", -1, 1, 1, 0, 0, []string{"test_aborts"}, nil, 1}},
		{"setup", want{"cmocka", 2, 1, 0, 0, 1, []string{"test_needs_setup"}, nil, 1}},
		{"group", want{"cmocka", 0, 0, 0, 0, 1, []string{"GROUP SETUP"}, nil, 1}},
	}
	for _, c := range cases {
		t.Run(c.prog, func(t *testing.T) {
			log := runTool(t, dir, nil, filepath.Join(dir, c.prog))
			s := scanBytes(t, log)
			check(t, s, c.want, log)
			for _, f := range s.Failures {
				if m, ok := cmockaCalcMessages[f.Name]; ok {
					if got := fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Message); got != m {
						t.Errorf("failure %s = %s, want %s", f.Name, got, m)
					}
				}
			}
		})
	}
}

// FuzzCmocka: whatever comes before it, a failing cmocka run leaves a
// failure or no failure count, never a pass.
func FuzzCmocka(f *testing.F) {
	fuzzDeclared(f, sample(f, "cmocka/calc-fail.log"), sample(f, "cmocka/crash-abort.log"), sample(f, "cmocka/group-setup.log"))
}
