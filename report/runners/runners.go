// Package runners reads test-count summaries out of raw runner logs when no
// JUnit file exists. Every count is tied to the byte ranges of the lines it
// was read from (or, past 1024 ranges, to covering ranges), so Verify can
// re-read those bytes from the stored log and reproduce it. An unfamiliar
// framework yields Source "none" and no counts: a number is never made up
// from green lines.
//
// Use: Check a stored stream (stdout.log, or output.log for runners that
// split their output across both, like jest): it scans and verifies at once.
//
//	c, err := runners.Check(f, size)     // bounded memory, the verification trailing the scan
//	verified := err == nil && c.Source != runners.SourceNone && c.Unverified == nil
//
// Scan and Verify are the two halves apart: Verify is what a reader holding
// only the summary and the log runs, on the ranges the summary cites.
//
// Span offsets are offsets into the scanned bytes. When the stored file is a
// truncated stream (head and tail kept), map them through the record's
// stored_ranges before citing them as original offsets.
//
// Recognised: every runner in the registry (registry.go, README.md;
// Names lists them), each registered once from its own file with a
// parser of its own (go test, pytest, jest, Playwright Test, …) or a
// declared Totals (unittest, RSpec, PHPUnit, …). Matching is anchored at
// line starts (leading blanks allowed) after ANSI colour codes are
// stripped; only the first MaxLineKeep bytes of a line are matched.
//
// Several result blocks in one log: blocks of the same unit (a Go package, a
// cargo test binary, a maven module, a gradle task, an npm workspace, or for
// runners that name none, a suite of the same size) are attempts, and the
// last one counts; different units are summed. Tests that failed in an
// earlier attempt and not in the last are listed in Flaky.
package runners

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// SourceNone is Summary.Source when no runner summary was recognised.
const SourceNone = "none"

// Summary is a test count read from a log. It mirrors report.Summary; counts
// are nil when the log does not say them (e.g. passes of a non-verbose
// `go test`), never guessed.
type Summary struct {
	// Source names the runner as it registered ("go", "pytest", "tap",
	// "unittest", "sympy-bin-test", …; Names lists them), several joined
	// by "+" in their Order when one log holds more than one, or "none".
	Source   string    `json:"source"`
	Tests    *int      `json:"tests,omitempty"`
	Passed   *int      `json:"passed,omitempty"`
	Failed   *int      `json:"failed,omitempty"`
	Skipped  *int      `json:"skipped,omitempty"`
	Errors   *int      `json:"errors,omitempty"`
	Failures []Failure `json:"failures,omitempty"`
	// FailuresOmitted counts failing tests past the first maxNamed (10000)
	// that Failures does not name; Failed and Errors still count them.
	FailuresOmitted int `json:"failures_omitted,omitempty"`
	// Flaky names tests that failed in an earlier attempt of the same runner
	// and unit and not in its last attempt.
	Flaky []TestRef `json:"flaky,omitempty"`
	// Runs is how many result blocks (a package line, a summary line) were
	// read; Superseded how many of them a later attempt of the same unit
	// replaced. Counts are the sum over units of each unit's last attempt.
	Runs       int `json:"runs"`
	Superseded int `json:"superseded,omitempty"`
	// Spans are the raw byte ranges of every line the result depends on;
	// adjacent lines are merged. They are at most 1024 ranges: past that,
	// the closest ranges are merged into ones that also cover the uncounted
	// lines between them (see Verify for why that still verifies).
	Spans []Span `json:"spans,omitempty"`
	Note  string `json:"note,omitempty"`
	// Index is every test the log names, with the units that ran them.
	Index Index `json:"-"`
}

// Failure is one failing test (or a unit that failed without a failing
// test, such as a Go package that did not build).
type Failure struct {
	Name      string `json:"name"`
	Classname string `json:"classname,omitempty"`
	File      string `json:"file,omitempty"`
	Line      int    `json:"line,omitempty"`
	Message   string `json:"message,omitempty"`
	Span      *Span  `json:"span"` // the line(s) it was read from; never nil
}

// TestRef names a test.
type TestRef struct {
	Name      string `json:"name"`
	Classname string `json:"classname,omitempty"`
}

// Span is a byte range [Start, End) of the raw stream and its 1-based lines.
type Span struct {
	Start     int64 `json:"start"`
	End       int64 `json:"end"`
	FirstLine int64 `json:"first_line,omitempty"`
	LastLine  int64 `json:"last_line,omitempty"`
}

// Scan reads a log once, with bounded memory, and returns the runner summary
// it holds, or a Summary with Source "none". When r can also be read at
// offsets and is at offset 0 (a file just opened, a bytes.Reader), a
// declared runner may read a few earlier bytes back for a failure's
// message (Totals.Before); Check always can.
func Scan(r io.Reader) (*Summary, error) {
	st := newState()
	if ra, ok := r.(io.ReaderAt); ok {
		// Read at offsets only from where the scan starts: offset 0.
		if s, ok := r.(io.Seeker); ok {
			if at, err := s.Seek(0, io.SeekCurrent); err == nil && at == 0 {
				st.readerAt(ra)
			}
		}
	}
	return scan(st, r)
}

func scan(st *state, r io.Reader) (*Summary, error) {
	lr := newLineReader(r, readBlock)
	for {
		l, err := lr.next()
		if err == io.EOF { // next returns io.EOF itself, unwrapped
			break
		}
		if err != nil {
			return nil, fmt.Errorf("scan log: %w", err)
		}
		st.feed(l)
	}
	return st.summary(), nil
}

// Verify re-reads the byte ranges s.Spans of the stored log (of size bytes)
// front to back in large blocks, re-parses every line in them, and returns
// nil only when they reproduce the same source, counts, runs, failing and
// flaky test names, and the same ranges.
//
// Ranges may hold lines the scan counted nothing from (once more than 1024
// ranges were merged). Re-parsing them is sound: whether a line counts, and
// what it changes in a count or name, depends only on the line and on
// state that counted lines alone change (a parser's feed reports every
// such change). Lines between ranges were counted by nothing, so skipping
// them leaves that state as the scan had it; lines inside ranges see the
// same state as in the scan, so they count in the re-parse exactly when
// they counted in the scan. The re-parse thus counts the same lines in the
// same order, and rebuilds the same ranges, which is also checked.
func Verify(ra io.ReaderAt, size int64, s *Summary) error {
	if s == nil || s.Source == SourceNone || s.Source == "" {
		return errors.New("verify: no runner summary to verify")
	}
	if err := checkSpans(s.Spans, size); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	st := newVerifier()
	blocks := &blockReader{ra: ra}
	lr := newLineReader(nil, readBlock)
	for _, sp := range s.Spans {
		lr.reset(blocks.section(sp.Start, sp.End), sp.Start, sp.FirstLine)
		for {
			l, err := lr.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("verify span [%d,%d): %w", sp.Start, sp.End, err)
			}
			st.feed(l)
		}
	}
	got := st.summary()
	if err := sameResult(s, got); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if !slices.Equal(s.Spans, got.Spans) {
		return fmt.Errorf("verify: the recorded lines count from %d ranges, not the %d the summary cites", len(got.Spans), len(s.Spans))
	}
	return nil
}

// blockReader reads a ReaderAt in large blocks for ranges that come in
// increasing order, so many short ranges cost one read per block.
type blockReader struct {
	ra    io.ReaderAt
	block []byte
	at    int64 // offset of block[0]
}

// section reads [start, end) through the block cache.
func (b *blockReader) section(start, end int64) *blockSection {
	return &blockSection{b: b, off: start, end: end}
}

type blockSection struct {
	b        *blockReader
	off, end int64
}

func (s *blockSection) Read(p []byte) (int, error) {
	if s.off >= s.end {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), s.end-s.off)]
	b := s.b
	if s.off < b.at || s.off >= b.at+int64(len(b.block)) {
		if len(p) >= readBlock/2 { // a long range: no point copying twice
			n, err := b.ra.ReadAt(p, s.off)
			s.off += int64(n)
			return n, shortRead(n, len(p), err)
		}
		if err := b.load(s.off); err != nil {
			return 0, err
		}
	}
	n := copy(p, b.block[s.off-b.at:])
	s.off += int64(n)
	return n, nil
}

// load reads the block starting at off; it may end early at the log's end.
func (b *blockReader) load(off int64) error {
	if cap(b.block) < readBlock { // small at first, for short logs
		b.block = make([]byte, min(max(2*cap(b.block), 64<<10), readBlock))
	}
	n, err := b.ra.ReadAt(b.block[:cap(b.block)], off)
	b.block, b.at = b.block[:n], off
	if n == 0 {
		return shortRead(0, 1, err)
	}
	return nil
}

// shortRead turns a read of n of want bytes into an error when short: the
// ranges were checked against the log's size, so its end is no EOF.
func shortRead(n, want int, err error) error {
	switch {
	case n == want:
		return nil
	case err == nil || errors.Is(err, io.EOF):
		return io.ErrUnexpectedEOF
	}
	return err
}

func checkSpans(spans []Span, size int64) error {
	if len(spans) == 0 {
		return errors.New("summary has no spans")
	}
	prev := int64(0)
	for i, sp := range spans {
		if sp.Start < prev || sp.End <= sp.Start || sp.End > size {
			return fmt.Errorf("span %d [%d,%d) is out of order or outside the %d-byte log", i, sp.Start, sp.End, size)
		}
		prev = sp.End
	}
	return nil
}

// sameResult compares what a re-parse must reproduce. File, line and message
// of a failure come from lines that carry no count, so they are not compared.
func sameResult(want, got *Summary) error {
	checks := []struct {
		what string
		a, b string
	}{
		{"source", want.Source, got.Source},
		{"tests", fmtp(want.Tests), fmtp(got.Tests)},
		{"passed", fmtp(want.Passed), fmtp(got.Passed)},
		{"failed", fmtp(want.Failed), fmtp(got.Failed)},
		{"skipped", fmtp(want.Skipped), fmtp(got.Skipped)},
		{"errors", fmtp(want.Errors), fmtp(got.Errors)},
		{"runs", fmt.Sprint(want.Runs, "/", want.Superseded), fmt.Sprint(got.Runs, "/", got.Superseded)},
		{"failures", failureNames(want.Failures), failureNames(got.Failures)},
		{"unnamed failures", fmt.Sprint(want.FailuresOmitted), fmt.Sprint(got.FailuresOmitted)},
		{"flaky", refNames(want.Flaky), refNames(got.Flaky)},
	}
	for _, c := range checks {
		if c.a != c.b {
			return fmt.Errorf("%s: summary says %s, the recorded lines say %s", c.what, c.a, c.b)
		}
	}
	return nil
}

func fmtp(p *int) string {
	if p == nil {
		return "unknown"
	}
	return fmt.Sprint(*p)
}

func failureNames(fs []Failure) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%q/%q ", f.Classname, f.Name)
	}
	return b.String()
}

func refNames(rs []TestRef) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%q/%q ", r.Classname, r.Name)
	}
	return b.String()
}
