package runners

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ctestFixture is a CMake project whose tests pass, fail with output, are
// disabled, skip at run time and time out: every status ctest prints. Its
// tests are shell commands, so no compiler is needed.
var ctestFixture = map[string]string{
	"CMakeLists.txt": `cmake_minimum_required(VERSION 3.10)
project(calc NONE)
enable_testing()
add_test(NAME adds COMMAND sh -c "exit 0")
add_test(NAME subtracts COMMAND sh -c "echo 'expected 3, got 4'; exit 1")
add_test(NAME divides COMMAND sh -c "exit 0")
add_test(NAME rounds COMMAND sh -c "echo 'checking rounding'; echo 'assertion failed: round(2.5) == 3' >&2; exit 2")
add_test(NAME later COMMAND sh -c "exit 0")
set_tests_properties(later PROPERTIES DISABLED TRUE)
add_test(NAME skipme COMMAND sh -c "exit 77")
set_tests_properties(skipme PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME hangs COMMAND sh -c "sleep 5")
set_tests_properties(hangs PROPERTIES TIMEOUT 1)
`,
}

// TestCTestReal configures the fixture with cmake and runs ctest on it,
// plain, with --output-on-failure, verbose, in parallel and on one passing
// test: the counts come from "N% tests passed, F tests failed out of T"
// after the "Test project" banner, the failing tests from their status
// lines, the messages from the output under them.
func TestCTestReal(t *testing.T) {
	for _, tool := range []string{"cmake", "ctest", "sh"} { // the fixture's tests are sh commands
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed here", tool)
		}
	}
	dir := t.TempDir()
	writeFiles(t, dir, ctestFixture)
	build := filepath.Join(dir, "build")
	if err := os.Mkdir(build, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cmake", "-S", dir, "-B", build).CombinedOutput(); err != nil {
		t.Fatalf("cmake: %v\n%s", err, out)
	}
	failing := want{"ctest", 6, 3, 3, -1, 0, []string{"subtracts", "rounds", "hangs"}, nil, 1}
	messages := map[string]string{"subtracts": "expected 3, got 4", "rounds": "assertion failed: round(2.5) == 3", "hangs": ""}
	cases := []struct {
		args     []string
		want     want
		messages map[string]string
	}{
		{nil, failing, map[string]string{"subtracts": "", "rounds": "", "hangs": ""}},
		{[]string{"--output-on-failure"}, failing, messages},
		// -V prints a test's output before its status line, prefixed "2: ".
		{[]string{"-V"}, failing, nil},
		{[]string{"-j", "2", "--output-on-failure"}, failing, messages},
		{[]string{"-R", "^adds$"}, want{"ctest", 1, 1, 0, -1, 0, nil, nil, 1}, nil},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			log := runTool(t, build, nil, "ctest", c.args...)
			s := checkVerifies(t, log)
			if c.args != nil && c.args[0] == "-j" { // parallel: the order the tests finished in
				sortNames(s)
				c.want.failures = []string{"hangs", "rounds", "subtracts"}
			}
			check(t, s, c.want, log)
			for name, msg := range c.messages {
				if f := findFailure(s, name); f == nil || f.Message != msg {
					t.Errorf("failure %s = %+v, want message %q", name, f, msg)
				}
			}
		})
	}
}

// sortNames orders a summary's failures by name, for runs whose order
// depends on scheduling.
func sortNames(s *Summary) {
	fs := s.Failures
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].Name < fs[j-1].Name; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}

// TestCTestTotals: ctest's total counts only after its banner, a status
// line outside a run names nothing, and a total quoted in another
// program's output is not one.
func TestCTestTotals(t *testing.T) {
	const banner = "Test project /src/build\n"
	tests := []struct {
		name string
		log  string
		want want
	}{
		{"a total without its banner is no total (ctest | tail -3)",
			"\n100% tests passed, 0 tests failed out of 4\n\nTotal Test time (real) =   0.01 sec\n",
			want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
		{"a total quoted by a script that greps ctest's log",
			"+ grep -c 'tests passed' LastTest.log\n# 95% tests passed, 1 tests failed out of 20\necho '95% tests passed, 1 tests failed out of 20'\n",
			want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
		{"a status line before the banner names nothing",
			"1/2 Test #1: a .....***Failed    0.00 sec\n" + banner + "1/1 Test #2: b .....   Passed    0.00 sec\n\n100% tests passed, 0 tests failed out of 1\n",
			want{"ctest", 1, 1, 0, -1, 0, nil, nil, 1}},
		{"disabled and skipped tests are not failures",
			banner + "1/3 Test #1: a ....***Not Run (Disabled)   0.00 sec\n2/3 Test #2: b ....***Skipped   0.00 sec\n" +
				"3/3 Test #3: c ....***Exception: SegFault  0.01 sec\n\n50% tests passed, 1 tests failed out of 2\n",
			want{"ctest", 2, 1, 1, -1, 0, []string{"c"}, nil, 1}},
		{"a missing executable and a failed regular expression",
			banner + "1/2 Test #1: gone ....***Not Run   0.00 sec\n2/2 Test #2: re ....***Failed  Required regular expression not found. Regex=[ok]  0.00 sec\n" +
				"\n0% tests passed, 2 tests failed out of 2\n",
			want{"ctest", 2, 0, 2, -1, 0, []string{"gone", "re"}, nil, 1}},
		{"a rerun that passed: the failure is flaky",
			banner + "1/1 Test #1: net ....***Failed    0.00 sec\n\n0% tests passed, 1 tests failed out of 1\n" +
				banner + "1/1 Test #1: net ....   Passed    0.00 sec\n\n100% tests passed, 0 tests failed out of 1\n",
			want{"ctest", 1, 1, 0, -1, 0, nil, []string{"net"}, 2}},
		{"more failed than run is no total",
			banner + "\n0% tests passed, 3 tests failed out of 2\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := checkVerifies(t, []byte(tt.log))
			check(t, s, tt.want, []byte(tt.log))
		})
	}
}

// TestCTestLines: what compaction reads of a ctest run.
func TestCTestLines(t *testing.T) {
	checkLines(t, []lineCase{
		{"Test project /tmp/ct/b", "ctest", Ran, false},
		{"50% tests passed, 3 tests failed out of 6", "ctest", Failed, true},
		{"100% tests passed, 0 tests failed out of 1", "ctest", Passed, true},
		{"The following tests FAILED:", "ctest", Failed, false},
		{"Errors while running CTest", "ctest", Failed, false},
	}, "Test project", "tests passed", "100% tests passed")
}

func FuzzCTest(f *testing.F) {
	fuzzDeclared(f, "Test project /b\n1/1 Test #1: a ....***Failed    0.00 sec\nboom\n\n0% tests passed, 1 tests failed out of 1\n",
		"Test project /b\n\n100% tests passed, 0 tests failed out of 3\n", "Test project /b\n1/2 Test #1: x ...***Timeout   1.00 sec\n")
}

// TestCTestPlace: a failing test's place is its reason's own `file.c:18:`,
// else the first frame of a sanitizer's stack in the project's code.
func TestCTestPlace(t *testing.T) {
	for _, c := range []struct {
		name, out, file string
		line            int
	}{
		{"the reason's location", "running parse\ncheck_parse.cpp:18: parse_hex: expected 255, got 0\n", "check_parse.cpp", 18},
		{"a sanitizer's first project frame", "=================================================================\n" +
			"==774==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x603000000090\n" +
			"WRITE of size 4 at 0x603000000090 thread T0\n" +
			"    #0 0x7fa in __interceptor_memcpy ../../../../src/libsanitizer/sanitizer_common/sanitizer_common_interceptors.inc:827\n" +
			"    #1 0x564b in ring_push /src/ring/ring.c:13\n    #2 0x564c in main /src/ring/test_wrap.c:5\n",
			"/src/ring/ring.c", 13},
		{"none", "checking rounding\nassertion failed: round(2.5) == 3\n", "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &ctestOutput{}
			for _, l := range strings.Split(strings.TrimSuffix(c.out, "\n"), "\n") {
				r.line(l)
			}
			if file, line := r.place(); file != c.file || line != c.line {
				t.Errorf("place = %s:%d, want %s:%d (message %q)", file, line, c.file, c.line, r.message())
			}
		})
	}
}
