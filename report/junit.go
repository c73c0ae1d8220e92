package report

import (
	"fmt"
	"os"
	"strconv"
	"unicode/utf8"

	junit "github.com/joshdk/go-junit"
	"github.com/runledger/runledger/report/testindex"
)

// maxJUnitBytes bounds a JUnit file given to go-junit, which builds the
// whole XML tree: it allocates about 55 bytes per byte of file
// (BenchmarkJUnit100k). A bigger file is streamed by streamJUnit instead.
const maxJUnitBytes = 32 << 20

// junitTally keeps each test's last verdict (runners that re-run failures
// write a test twice) and whether it ever failed; failing tests' details
// only, so that memory grows with the number of tests, not their output.
type junitTally struct {
	order      []junitKey
	status     map[junitKey]junit.Status
	failedOnce map[junitKey]bool
	failing    map[junitKey]junit.Test
}

type junitKey struct{ class, name string }

func (j *junitTally) add(t junit.Test) {
	k := junitKey{t.Classname, t.Name}
	if _, seen := j.status[k]; !seen {
		j.order = append(j.order, k)
	}
	j.status[k] = t.Status
	if isFailure(t) {
		j.failedOnce[k] = true
		t.SystemOut, t.SystemErr = "", ""
		j.failing[k] = t
	}
}

// readJUnit reads the JUnit files of a run. An earlier failure of a test
// that later passed is returned as flaky. A file that does not parse, or
// holds no test, is a warning and makes the summary unverifiable: it is
// never read as "no failures".
func readJUnit(paths []string) (Summary, []TestRef, *testindex.Index, []string) {
	j := &junitTally{status: map[junitKey]junit.Status{}, failedOnce: map[junitKey]bool{}, failing: map[junitKey]junit.Test{}}
	var warnings []string
	for _, p := range paths {
		n := 0
		if err := visitJUnit(p, func(t junit.Test) { j.add(t); n++ }); err != nil {
			warnings = append(warnings, fmt.Sprintf("JUnit %s: does not parse: %v", p, err))
			continue
		}
		if n == 0 {
			warnings = append(warnings, fmt.Sprintf("JUnit %s: holds no test case", p))
		}
	}
	return j.summary(), j.flaky(), j.index(), warnings
}

// visitJUnit hands each test case of a file to visit: through go-junit,
// or streamed when the file is too big for its in-memory tree.
func visitJUnit(path string, visit func(junit.Test)) error {
	if info, err := os.Stat(path); err == nil && info.Size() > maxJUnitBytes {
		return streamJUnit(path, visit)
	}
	suites, err := junit.IngestFile(path)
	if err != nil {
		return err
	}
	for _, t := range allTests(suites) {
		visit(t)
	}
	return nil
}

func (j *junitTally) summary() Summary {
	s := Summary{Source: "junit"}
	var tests, passed, failed, skipped, errs int
	for _, k := range j.order {
		tests++
		switch j.status[k] {
		case junit.StatusPassed:
			passed++
		case junit.StatusSkipped:
			skipped++
		case junit.StatusFailed:
			failed++
			s.Failures = append(s.Failures, junitFailure(j.failing[k]))
		case junit.StatusError:
			errs++
			s.Failures = append(s.Failures, junitFailure(j.failing[k]))
		}
	}
	s.Tests, s.Passed, s.Failed, s.Skipped, s.Errors = &tests, &passed, &failed, &skipped, &errs
	bound(&s)
	return s
}

func (j *junitTally) flaky() []TestRef {
	var out []TestRef
	for _, k := range j.order {
		if j.status[k] == junit.StatusPassed && j.failedOnce[k] {
			out = append(out, TestRef{Name: k.name, Classname: k.class})
		}
	}
	return out
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
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
