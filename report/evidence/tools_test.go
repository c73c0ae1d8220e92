package evidence

import "testing"

func TestToolError(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"collect2: error: ld returned 1 exit status", true},
		{"clang: error: linker command failed with exit code 1 (use -v to see invocation)", true},
		{"make[2]: *** [src/CMakeFiles/core.dir/build.make:76: src/core.o] Error 1", true},
		{"make: *** No rule to make target 'install'.  Stop.", true},
		{"src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.", true},
		{"src/app.ts:12:5 - error TS2322: Type 'string' is not assignable to type 'number'.", true},
		{"12:5  error  'x' is not defined  no-undef", true},
		{"npm ERR! code ELIFECYCLE", true},
		{"npm error Missing script: \"lint\"", true},
		{"E: Unable to locate package libfoo-dev", true},
		{"CMake Error at CMakeLists.txt:12 (find_package):", true},
		{"##[error]Process completed with exit code 1.", true},
		{"::error file=app.js,line=1::Missing semicolon", true},
		{"│ Error: Invalid value for variable", true},
		{"* What went wrong:", true},
		{"bash: line 1: pnpm: command not found", true},
		{"sh: 1: cmake: not found", true},

		{"12:30 error-free run, 3 jobs", false},
		{"INFO: fetched 3 rows; error budget ok", false},
		{"Note: error handling was improved in 2.0", false},
		{"http://example.com: error: page", false},
		{"src/app.ts(12,5): warning TS6133: 'x' is declared but never read.", false},
		{"12:5  warning  'x' is assigned a value but never used  no-unused-vars", false},
		{"npm notice New major version of npm available!", false},
		{"CMake Warning at CMakeLists.txt:3 (message):", false},
		{"* Try:", false},
		{"make[1]: Leaving directory '/src'", false},
		{"processing record batch ok", false},
	} {
		if got := toolError([]byte(c.line)); got != c.want {
			t.Errorf("toolError(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestGenericMatchShapes(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"#12 ERROR: process \"/bin/sh -c make\" did not complete successfully: exit code: 2", true},
		{"#12 3.456 src/app.c:3:1: error: unknown type name 'foo'", true},
		{"#12 3.456 make: *** [Makefile:4: app] Error 1", true},
		{"#12 3.456 gcc -c -o app.o app.c", false},
		{"#12 DONE 0.1s", false},
		{`time="2026-12-03T06:00:00Z" level=error msg="connect to db: refused"`, true},
		{`time=2026-12-03T06:00:00.000Z level=ERROR msg="write failed" err="disk full"`, true},
		{`level=fatal msg="cannot start"`, true},
		{`time="2026-12-03T06:00:00Z" level=info msg="error budget ok"`, false},
		{"ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @acme/web@1.0.0 test: `jest`", true},
		{"# Building the docs", false},
	} {
		line := []byte(c.line)
		if got := genericMatch(line, locationEnd(line)); got != c.want {
			t.Errorf("genericMatch(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
