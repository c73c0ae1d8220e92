package runners

import (
	"errors"
	"fmt"
	"io"
	"slices"
)

// Checked is a scanned summary and the outcome of re-reading it.
type Checked struct {
	*Summary
	// Unverified says why re-reading the counted lines did not reproduce
	// the summary; nil when it did (or when there is no summary: Source
	// "none" has nothing to verify, see Verify).
	Unverified error
}

// Check scans the log of size bytes at ra and verifies the result while it
// scans: a second goroutine re-reads, through its own reads of ra, the exact
// byte ranges of the lines the scan counted, as the scan hands them over,
// and re-parses them with a fresh state. The result must come out the same
// in source, counts, runs, failing and flaky names, and ranges, and every
// re-read line must count again.
//
// It checks what Verify checks, on the exact lines rather than the covering
// ranges the summary cites past 1024 of them; Verify explains why re-parsing
// those wider ranges cannot come out differently. On two cores the check
// costs next to no wall time: it trails the scan instead of following it.
func Check(ra io.ReaderAt, size int64) (Checked, error) {
	t := newTap()
	done := make(chan verified, 1)
	go func() { done <- replayAll(ra, size, t) }()
	st := newState()
	st.tap = t
	st.readerAt(ra)
	in := &counter{r: io.NewSectionReader(ra, 0, size)}
	s, err := scan(st, in)
	if err == nil && in.n != size {
		err = fmt.Errorf("scan log: it ended after %d of its %d bytes", in.n, size)
	}
	return finish(t, done, s, err)
}

// finish ends the verifier's input and compares its result with the
// scan's s (or returns the scan's error once the verifier has stopped).
func finish(t *tap, done <-chan verified, s *Summary, err error) (Checked, error) {
	t.close()
	v := <-done
	if err != nil {
		return Checked{}, err
	}
	if s.Source == SourceNone {
		return Checked{Summary: s}, nil
	}
	return Checked{Summary: s, Unverified: compare(s, v)}, nil
}

type verified struct {
	s   *Summary
	err error
}

func compare(want *Summary, v verified) error {
	if v.err != nil {
		return fmt.Errorf("verify: %w", v.err)
	}
	if err := sameResult(want, v.s); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if !slices.Equal(want.Spans, v.s.Spans) {
		return fmt.Errorf("verify: %s", spanDiff(want.Spans, v.s.Spans))
	}
	return nil
}

// tapBatch is how many ranges go to the verifier at once; with tapBuffers
// batches in flight, the scan runs at most that far ahead of it. Each batch
// the verifier waits for wakes its thread and switches a core: on a dense
// go -v log (a range for each `--- PASS` line, 256 MiB) batches of 1024
// cost 4,100–6,300 context switches and the kernel's switch about 5% of
// the report's CPU; batches of 16384 cost 650–1,150, and the report's CPU
// went from a median 793 ms to 663 ms over eight alternating runs (perf
// stat -e task-clock,context-switches; load 3). The first batch starts
// small and the others are made when first needed, so a log with few
// counted lines allocates a few KiB, not the 2 MiB of four full batches.
const (
	tapBatch   = 16384
	tapBuffers = 4
)

// tap passes the exact ranges of counted lines (adjacent ones merged) from
// the scan to the verifier in batches, recycling the batches so memory
// stays flat however many lines count.
type tap struct {
	cur  []Span
	out  chan []Span
	free chan []Span
}

func newTap() *tap {
	t := &tap{out: make(chan []Span, tapBuffers), free: make(chan []Span, tapBuffers)}
	for range tapBuffers - 1 {
		t.free <- nil // made full size when first taken
	}
	t.cur = make([]Span, 0, tapFirst)
	return t
}

// tapFirst is the first batch's starting size.
const tapFirst = 256

func (t *tap) add(l *line) {
	if n := len(t.cur); n > 0 && t.cur[n-1].End == l.start {
		t.cur[n-1].End, t.cur[n-1].LastLine = l.end, l.num
		return
	}
	if len(t.cur) == cap(t.cur) {
		if len(t.cur) < tapBatch {
			t.cur = append(make([]Span, 0, tapBatch), t.cur...)
		} else {
			t.out <- t.cur
			t.cur = (<-t.free)[:0]
		}
	}
	t.cur = append(t.cur, Span{Start: l.start, End: l.end, FirstLine: l.num, LastLine: l.num})
}

func (t *tap) close() {
	if len(t.cur) > 0 {
		t.out <- t.cur
	}
	close(t.out)
}

// replayAll re-reads every range the tap hands over. After a mismatch it
// keeps taking batches, so the scan never blocks on it.
func replayAll(ra io.ReaderAt, size int64, t *tap) verified {
	st := newVerifier()
	lr := newLineReader(io.NewSectionReader(ra, 0, size), readBlock)
	var err error
	for batch := range t.out {
		if err == nil {
			err = replay(st, lr, batch)
		}
		t.free <- batch
	}
	if err != nil {
		return verified{err: err}
	}
	return verified{s: st.summary()}
}

// replay re-parses the lines of each range; every one must count.
func replay(st *state, lr *lineReader, spans []Span) error {
	for _, sp := range spans {
		if err := lr.skipTo(sp.Start, sp.FirstLine); err != nil {
			return fmt.Errorf("range [%d,%d): %w", sp.Start, sp.End, err)
		}
		for lr.off < sp.End {
			l, err := lr.next()
			if err != nil { // errors.Is only then: a call on every line
				if errors.Is(err, io.EOF) {
					err = io.ErrUnexpectedEOF
				}
				return fmt.Errorf("range [%d,%d): %w", sp.Start, sp.End, err)
			}
			if l.end > sp.End {
				return fmt.Errorf("range [%d,%d) ends inside line %d, which runs to %d", sp.Start, sp.End, l.num, l.end)
			}
			if !st.feed(l) {
				return fmt.Errorf("line %d at [%d,%d) counted in the scan, not when re-read", l.num, l.start, l.end)
			}
		}
	}
	return nil
}

type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// spanDiff says where the re-read ranges first part from the cited ones.
func spanDiff(want, got []Span) string {
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			return fmt.Sprintf("range %d: the summary cites %+v, the re-read lines give %+v", i, want[i], got[i])
		}
	}
	return fmt.Sprintf("the re-read lines give %d ranges, not the %d the summary cites", len(got), len(want))
}
