// Package testreport reads the test report files a run wrote (JUnit,
// NUnit, xUnit.net, TRX, CTRF, mocha, jest, RSpec, go test -json, Dart),
// telling their formats apart by content, never by file name, and counts
// every test once by its final outcome, the same way for every format.
//
// Each format is one register call in its own file (formats.go holds the
// registry); JUnit is read through github.com/joshdk/go-junit, one suite
// at a time (see README.md for what is added around it).
package testreport

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/runledger/runledger/report/testindex"
)

// Format names, as summary.source gives them.
const (
	FormatJUnit  = "junit"
	FormatNUnit  = "nunit"
	FormatXUnit  = "xunit"
	FormatTRX    = "trx"
	FormatCTRF   = "ctrf"
	FormatMocha  = "mocha"
	FormatJest   = "jest"
	FormatGoJSON = "gotest"
	FormatDart   = "dart"
	FormatRSpec  = "rspec"
)

// Result is what the report files of a run say.
type Result struct {
	// Source names the formats read, joined by "+"; with no file read, the
	// formats of the broken files, or "unknown".
	Source string
	// Counts is nil when no file could be read: there are no numbers then.
	Counts *Counts
	// Failures are the first MaxFailures failing tests; FailuresOmitted
	// counts the rest, and failures of suites counted by their attributes.
	Failures        []Failure
	FailuresOmitted int
	// Flaky are the tests that failed and passed, or whose file says so.
	Flaky    []TestID
	Warnings []string
	// Read counts files read whole; Broken those that could not be, each
	// named in Warnings.
	Read, Broken int
	tally        *tally
}

// Each hands every test, in the order first seen, with its final outcome
// and whether its attempts disagreed.
func (r Result) Each(fn func(id TestID, outcome testindex.Outcome, flaky bool)) {
	if r.tally != nil {
		r.tally.each(fn)
	}
}

// Complete: every test counted is named; none was counted only from a
// suite's attributes.
func (r Result) Complete() bool { return r.tally == nil || r.tally.fallbackSuites == 0 }

// fileSink receives one file's test cases. The tally is the file's own,
// merged into the run's only when the whole file was read: a truncated
// file contributes no partial counts.
type fileSink struct {
	t        *tally
	path     string
	format   string
	nameless int
	// file is the open report, for readers that look ahead in it (TRX).
	file *os.File
	// notes say why a file read whole may still not hold the whole run
	// (a stream of events that never says it is done).
	notes []string
}

func (s *fileSink) test(c caseResult) {
	if c.ID.Name == "" {
		// Nameless test cases are distinct tests, told apart by position.
		s.nameless++
		c.ID.Params = fmt.Sprintf("#%d", s.nameless)
	}
	s.t.add(c)
}

// Read reads each file by the format its content shows. A file that is
// empty, truncated, malformed or of a format not read is a warning naming
// it, and contributes nothing; with no file read at all there are no
// counts.
func Read(paths []string) Result {
	defer lowerMemoryLimit(reportHeapLimit)()
	out := Result{tally: newTally()}
	var formats, brokenFormats []string
	for _, p := range paths {
		sink := &fileSink{t: newTally(), path: p}
		err := readReport(p, sink)
		if err != nil {
			out.Broken++
			out.Warnings = append(out.Warnings, fmt.Sprintf("report %s: %v", p, err))
			brokenFormats = addName(brokenFormats, sink.format)
			continue
		}
		out.Read++
		formats = addName(formats, sink.format)
		out.Warnings = append(out.Warnings, sink.warnings()...)
		out.tally.absorb(sink.t)
	}
	if out.Read == 0 {
		out.Source = strings.Join(brokenFormats, "+")
		if out.Source == "" {
			out.Source = "unknown"
		}
		return out
	}
	out.Source = strings.Join(formats, "+")
	c, failures, omitted := out.tally.summary()
	out.Counts, out.Failures, out.FailuresOmitted = &c, failures, omitted
	out.Flaky = out.tally.flaky()
	return out
}

// warnings say what a file read whole still lacks.
func (s *fileSink) warnings() []string {
	var out []string
	if s.t.count == 0 && s.t.fallbackSuites == 0 {
		out = append(out, fmt.Sprintf("report %s (%s): holds no test case", s.path, s.format))
	}
	for _, n := range s.notes {
		out = append(out, fmt.Sprintf("report %s (%s): %s", s.path, s.format, n))
	}
	if s.t.fallbackSuites > 0 {
		out = append(out, fmt.Sprintf("report %s (%s): %d suites list no test case; their own attributes are counted, unverified", s.path, s.format, s.t.fallbackSuites))
	}
	return out
}

func addName(names []string, n string) []string {
	if n == "" || slices.Contains(names, n) {
		return names
	}
	return append(names, n)
}
