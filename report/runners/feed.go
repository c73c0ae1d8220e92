package runners

import (
	"fmt"
	"io"

	"github.com/runledger/runledger/report/internal/lines"
)

// Feed is Check for a caller that splits the log into lines itself, as
// the excerpt scan of a stdout that is the whole output does: its lines
// are fed in order, then Finish returns what Check would. The verifier
// still re-reads the counted lines through its own reads of ra.
type Feed struct {
	st   *state
	lr   *lineReader // builds the lines; reads nothing itself
	t    *tap
	done chan verified
	size int64
}

// StartFeed starts checking the log of size bytes at ra.
func StartFeed(ra io.ReaderAt, size int64) *Feed {
	f := &Feed{st: newState(), lr: newLineReader(nil, 0), t: newTap(), done: make(chan verified, 1), size: size}
	f.st.tap = f.t
	go func() { f.done <- replayAll(ra, size, f.t) }()
	return f
}

// Line feeds the next line of the log, split with MaxLineKeep bytes kept.
func (f *Feed) Line(ln *lines.Line) {
	f.st.feed(f.lr.build(ln.Prefix, ln.Len, ln.Cut, ln.Dirty))
}

// Finish ends the feed after the last line and returns what Check would
// have; failed says the caller could not split the whole log, and
// stops the verifier without a result.
func (f *Feed) Finish(failed bool) (Checked, error) {
	var err error
	switch {
	case failed:
		err = fmt.Errorf("scan log: the lines stopped at byte %d of %d", f.lr.off, f.size)
	case f.lr.off != f.size:
		err = fmt.Errorf("scan log: it ended after %d of its %d bytes", f.lr.off, f.size)
	}
	var s *Summary
	if err == nil {
		s = f.st.summary()
	}
	return finish(f.t, f.done, s, err)
}
