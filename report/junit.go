package report

import (
	"fmt"
	"os"
	"strconv"

	junit "github.com/joshdk/go-junit"
)

// maxJUnitBytes bounds one JUnit file: go-junit builds the whole XML tree,
// about 60 bytes of heap per byte of file (BenchmarkJUnit100k), so a
// bigger file is reported unparsed rather than risking the runner's memory.
const maxJUnitBytes = 32 << 20

// readJUnit reads the JUnit files of a run. Each test's verdict is its
// last appearance (runners that re-run failures write a test twice); an
// earlier failure of a test that later passed is returned as flaky. A file
// that does not parse, or holds no test, is a warning and makes the summary
// unverifiable: it is never read as "no failures".
func readJUnit(paths []string) (Summary, []TestRef, []string) {
	type key struct{ class, name string }
	var order []key
	last := map[key]junit.Test{}
	failedOnce := map[key]bool{}
	var warnings []string
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil && info.Size() > maxJUnitBytes {
			warnings = append(warnings, fmt.Sprintf("JUnit %s: %d bytes, over the %d this report parses (go-junit holds the whole tree in memory, about 60 times the file)", p, info.Size(), maxJUnitBytes))
			continue
		}
		suites, err := junit.IngestFile(p)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("JUnit %s: does not parse: %v", p, err))
			continue
		}
		n := 0
		for _, t := range allTests(suites) {
			k := key{t.Classname, t.Name}
			if _, seen := last[k]; !seen {
				order = append(order, k)
			}
			last[k] = t
			failedOnce[k] = failedOnce[k] || isFailure(t)
			n++
		}
		if n == 0 {
			warnings = append(warnings, fmt.Sprintf("JUnit %s: holds no test case", p))
		}
	}
	s := Summary{Source: "junit"}
	var tests, passed, failed, skipped, errs int
	var flaky []TestRef
	for _, k := range order {
		t := last[k]
		tests++
		switch t.Status {
		case junit.StatusPassed:
			passed++
			if failedOnce[k] {
				flaky = append(flaky, TestRef{Name: t.Name, Classname: t.Classname})
			}
		case junit.StatusSkipped:
			skipped++
		case junit.StatusFailed:
			failed++
		case junit.StatusError:
			errs++
		}
		if isFailure(t) {
			s.Failures = append(s.Failures, junitFailure(t))
		}
	}
	s.Tests, s.Passed, s.Failed, s.Skipped, s.Errors = &tests, &passed, &failed, &skipped, &errs
	bound(&s)
	return s, flaky, warnings
}

func allTests(suites []junit.Suite) []junit.Test {
	var out []junit.Test
	for _, s := range suites {
		out = append(out, s.Tests...)
		out = append(out, allTests(s.Suites)...)
	}
	return out
}

func isFailure(t junit.Test) bool {
	return t.Status == junit.StatusFailed || t.Status == junit.StatusError
}

func junitFailure(t junit.Test) Failure {
	f := Failure{Name: t.Name, Classname: t.Classname, File: t.Properties["file"], Message: t.Message}
	if f.Message == "" && t.Error != nil {
		f.Message = t.Error.Error()
	}
	f.Message = clip(f.Message, 1000)
	if n, err := strconv.Atoi(t.Properties["line"]); err == nil {
		f.Line = n
	}
	return f
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
