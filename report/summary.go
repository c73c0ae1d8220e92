package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report/internal/clip"
	"github.com/runledger/runledger/report/runners"
	"github.com/runledger/runledger/report/testindex"
	"github.com/runledger/runledger/report/testreport"
)

// summarize finds the best test count for a run and says how far it can be
// trusted. Report files the run wrote (JUnit, NUnit, TRX, … by content)
// come first; else a runner summary read from the combined log; else
// nothing, and no numbers. The test index comes from the same source.
// pre is a runner summary already checked in a shared pass (nil: none).
func summarize(dir string, r *record.Record, extra []string, pre *shared, warnings *[]string) (Summary, []TestRef, *testindex.Index) {
	var attributed []string
	for _, j := range r.JUnit {
		attributed = append(attributed, filepath.Join(dir, j.Stored))
	}
	if len(attributed)+len(extra) > 0 {
		rr := testreport.Read(append(attributed, extra...))
		*warnings = append(*warnings, rr.Warnings...)
		s, flaky := fromReports(rr)
		s.Verified, s.Note = reportVerified(r, s, len(extra) > 0, rr)
		if s.Note != "" && !s.Verified {
			*warnings = append(*warnings, "report summary not verified: "+s.Note)
		}
		return s, flaky, reportIndex(rr)
	}
	return runnerSummary(dir, r, pre, warnings)
}

// reportVerified: report counts are trusted only when capture attributed
// the files to this run, they all were read whole and hold tests, and they
// agree with the exit status.
func reportVerified(r *record.Record, s Summary, extra bool, rr testreport.Result) (bool, string) {
	switch {
	case extra:
		return false, "some report files were named at report time, not attributed to the run by capture"
	case rr.Read == 0:
		return false, "no report file could be read, so there are no counts: " + clipNote(strings.Join(rr.Warnings, "; "))
	case len(rr.Warnings) > 0:
		return false, clipNote(strings.Join(rr.Warnings, "; "))
	case r.ExitCode == nil:
		return false, fmt.Sprintf("the run is %s: reports written before the end may be partial", statusOf(r))
	}
	return consistent(r, s)
}

// fromReports is what the report files say, as the envelope gives it: no
// counts when no file could be read.
func fromReports(rr testreport.Result) (Summary, []TestRef) {
	s := Summary{Source: rr.Source, FailuresOmitted: rr.FailuresOmitted}
	if c := rr.Counts; c != nil {
		s.Tests, s.Passed, s.Failed, s.Skipped, s.Errors = &c.Tests, &c.Passed, &c.Failed, &c.Skipped, &c.Errors
	}
	for _, f := range rr.Failures {
		s.Failures = append(s.Failures, Failure{Name: f.Name, Classname: f.Classname, Suite: f.Suite,
			Params: f.Params, File: f.File, Line: f.Line, Message: f.Message})
	}
	bound(&s)
	var flaky []TestRef
	for _, id := range rr.Flaky {
		flaky = append(flaky, TestRef{Name: id.Name, Classname: id.Classname})
	}
	return s, flaky
}

// consistent checks counts against the exit status: failures with exit 0,
// or exit ≠ 0 with no failure at all, mean one of the two is wrong.
func consistent(r *record.Record, s Summary) (bool, string) {
	if s.Failed == nil && s.Errors == nil {
		return false, "the summary gives no failure count to check against the exit status"
	}
	bad := deref(s.Failed) + deref(s.Errors)
	code := *r.ExitCode
	switch {
	case bad > 0 && code == 0:
		return false, fmt.Sprintf("inconsistent: %d failures reported but the command exited 0", bad)
	case bad == 0 && code != 0:
		return false, fmt.Sprintf("inconsistent: no failures reported but the command exited %d", code)
	}
	return true, ""
}

func runnerSummary(dir string, r *record.Record, pre *shared, warnings *[]string) (Summary, []TestRef, *testindex.Index) {
	none := Summary{Source: runners.SourceNone}
	out, ok := r.Streams[record.Output]
	if !ok {
		return none, nil, nil
	}
	rs, size, err := checkOutput(filepath.Join(dir, out.File), pre)
	if err != nil {
		*warnings = append(*warnings, "summary: "+err.Error())
		return none, nil, nil
	}
	if rs.Source == runners.SourceNone {
		none.Note = "no known runner summary in the output; counts are not guessed"
		return none, nil, nil
	}
	s := fromRunner(rs.Summary, out)
	verified, why := runnerVerified(rs, size, out, r, s)
	// The runner's own note (how a count was derived, names left out)
	// stays next to why the counts are or are not verified.
	s.Verified, s.Note = verified, strings.Trim(why+"; "+rs.Note, "; ")
	return s, convertRefs(rs.Flaky), runnerIndex(rs.Index)
}

// checkOutput scans and checks the output log at path, unless pre did.
func checkOutput(path string, pre *shared) (runners.Checked, int64, error) {
	if pre != nil {
		return pre.checked, pre.size, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return runners.Checked{}, 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return runners.Checked{}, 0, err
	}
	rs, err := runners.Check(f, info.Size())
	return rs, info.Size(), err
}

func runnerVerified(rs runners.Checked, size int64, out *record.Stream, r *record.Record, s Summary) (bool, string) {
	switch {
	case size != out.StoredBytes:
		return false, fmt.Sprintf("%s has %d bytes, the record says %d were stored", out.File, size, out.StoredBytes)
	case rs.Unverified != nil:
		return false, "re-reading the cited lines did not reproduce the counts: " + rs.Unverified.Error()
	case out.Truncated:
		return false, "the log was truncated: the omitted middle may hold more results"
	case r.ExitCode == nil:
		return false, fmt.Sprintf("the run is %s: its summary may be partial", statusOf(r))
	}
	return consistent(r, s)
}

func fromRunner(rs *runners.Summary, out *record.Stream) Summary {
	s := Summary{Source: rs.Source, Tests: rs.Tests, Passed: rs.Passed, Failed: rs.Failed,
		Skipped: rs.Skipped, Errors: rs.Errors, Note: rs.Note, FailuresOmitted: rs.FailuresOmitted}
	for _, sp := range rs.Spans {
		start, end := out.OriginalRange(sp.Start, sp.End)
		s.Spans = append(s.Spans, Span{Stream: record.Output, Start: start, End: end})
	}
	for _, f := range rs.Failures {
		start, end := out.OriginalRange(f.Span.Start, f.Span.End)
		span := Span{Stream: record.Output, Start: start, End: end}
		s.Failures = append(s.Failures, Failure{Name: f.Name, Classname: f.Classname,
			File: f.File, Line: f.Line, Message: clip.String(f.Message, 1000), Span: &span})
	}
	bound(&s)
	return s
}

// Bounds on what one summary carries in the envelope; the counts always
// cover everything.
const (
	maxFailures = 100
	maxSpans    = 32
)

// bound keeps the envelope small however many tests a log holds.
func bound(s *Summary) {
	if n := len(s.Failures); n > maxFailures {
		s.Failures, s.FailuresOmitted = s.Failures[:maxFailures], s.FailuresOmitted+n-maxFailures
	}
	if n := len(s.Spans); n > maxSpans {
		kept := append(s.Spans[:maxSpans/2:maxSpans/2], s.Spans[n-maxSpans/2:]...)
		s.Spans, s.SpansOmitted = kept, n-maxSpans
	}
}

func convertRefs(in []runners.TestRef) []TestRef {
	var out []TestRef
	for _, t := range in {
		out = append(out, TestRef{Name: t.Name, Classname: t.Classname})
	}
	return out
}

func clipNote(s string) string { return clip.String(s, 2000) }

func statusOf(r *record.Record) string { return string(r.Status) }
