// Package evidence finds, in one pass over a stored log, the lines that
// explain each failure, following each runner's own grammar: a failing Go
// test's own output however far it is from its `--- FAIL` line, pytest's
// `____ test ____` section, cargo's `---- name stdout ----` block, jest's
// `● Suite › test` block (never `● Console`), a race or sanitizer report
// from its first line to its last, and so on (see grammars). What no
// grammar claims is checked against generic error words, so an unknown
// framework's `FAIL: x` line is found too.
//
// Scan only finds blocks; Plan decides, within a byte budget, which of
// their lines are quoted. Both work on offsets of the stored file and do no
// I/O beyond the io.ReaderAt they are given; the caller maps offsets to the
// original stream and hashes the bytes it quotes.
package evidence

import (
	"errors"
	"fmt"
	"io"

	"github.com/runledger/runledger/report/internal/lines"
)

// Kind orders blocks by how directly they explain a failure.
type Kind int

const (
	// KindTest is a failing test's own evidence: its output, assertion,
	// location and stack.
	KindTest Kind = iota
	// KindCrash is a root cause outside any one test's verdict: a panic,
	// a race or sanitizer report, a build error, an uncaught traceback.
	KindCrash
	// KindError is a generic error line with its context, from a runner no
	// grammar knows.
	KindError
	// KindVerdict is a bare verdict or summary line (`--- FAIL: X`,
	// `FAILED a.py::t`): quoted only when nothing explains it better.
	KindVerdict
	// KindExpected is an expected failure (a traceback or error an
	// `XFAIL`/"expected to fail" line says was meant): quoted last.
	KindExpected
)

// Span is a byte range [Start, End) of the stored file holding whole lines
// First…Last (1-based, counted in the stored file).
type Span struct {
	Start, End  int64
	First, Last int64
	// cutStart and cutEnd mark a span that starts or ends inside a line
	// (a line longer than what is quoted of it).
	cutStart, cutEnd bool
}

// Block is the evidence of one failure.
type Block struct {
	Runner string // the grammar that found it: "go", "pytest", …, "generic"
	Test   string // the failing test, unit or error it explains
	Role   string // "test", "panic", "race", "build", "traceback", "sanitizer", "error", "verdict", "expected", …
	Kind   Kind
	Spans  []Span // in file order, adjacent lines merged
	Lines  int64  // lines in Spans (as added, before any bound)
	// heading marks a block whose first line is a verdict line; a block
	// of that line alone is a bare verdict.
	heading bool
	// failure marks a generic block opened on a line that says a test
	// failed (`==== name FAILED`, `Test: x ...FAILED`, `[  FAIL  ]`),
	// not on any error word: the first of the generic blocks quoted.
	failure bool
}

// maxSpans bounds a block's spans (a parallel test's output comes in many
// pieces): the first half are kept, then the latest ones.
const maxSpans = 128

// add appends line l, merging it into the last span when adjacent.
func (b *Block) add(l *Line) {
	b.Lines++
	if n := len(b.Spans); n > 0 && b.Spans[n-1].End == l.Start {
		b.Spans[n-1].End, b.Spans[n-1].Last = l.End, l.No
		return
	}
	if len(b.Spans) == maxSpans {
		copy(b.Spans[maxSpans/2:], b.Spans[maxSpans/2+1:])
		b.Spans = b.Spans[:maxSpans-1]
	}
	b.Spans = append(b.Spans, Span{Start: l.Start, End: l.End, First: l.No, Last: l.No})
}

// addSpan appends a span of lines after the block's, merging it when
// adjacent; Lines is the caller's to count.
func (b *Block) addSpan(sp Span) {
	if n := len(b.Spans); n > 0 && b.Spans[n-1].End == sp.Start {
		b.Spans[n-1].End, b.Spans[n-1].Last = sp.End, sp.Last
		return
	}
	if len(b.Spans) == maxSpans {
		copy(b.Spans[maxSpans/2:], b.Spans[maxSpans/2+1:])
		b.Spans = b.Spans[:maxSpans-1]
	}
	b.Spans = append(b.Spans, sp)
}

// bare reports whether the block is only its verdict line.
func (b *Block) bare() bool { return b.heading && b.Lines <= 1 }

// Result is what Scan found in one stored file.
type Result struct {
	Size   int64
	Blocks []*Block // in the order they were opened
	Head   []Span   // the first lines of the file
	Tail   []Span   // the last lines of its last piece
	// Segments are the stored file's pieces ([start, end) in the file):
	// more than one when the stream was truncated. No span crosses one.
	Segments [][2]int64
}

// Limits on what one scan keeps, so memory stays flat on any log.
const (
	maxBlocks  = 2000 // blocks of all kinds
	maxGeneric = 48   // generic error blocks
	headLines  = 20
	tailLines  = 40
	scanPrefix = 4096 // bytes of each line the grammars see
)

// Scan reads the stored file [0, size) once, front to back, with bounded
// memory. segs are its pieces when it holds several parts of the original
// stream (head and tail of a truncated one); nil means one piece. A block
// never crosses from one piece to the next.
func Scan(ra io.ReaderAt, size int64, segs [][2]int64) (*Result, error) {
	return ScanAlso(ra, size, segs, nil)
}

// LineKeep is how many bytes of each line Scan keeps: what ScanAlso's
// also sees of a line.
const LineKeep = scanPrefix

// ScanAlso is Scan that also hands each line, as split, to also (when not
// nil) before the grammars see it: a second reader of the same file, the
// runner summary of a run whose stdout is its whole output, then costs no
// second read and split. also must not keep the line past its call.
func ScanAlso(ra io.ReaderAt, size int64, segs [][2]int64, also func(*lines.Line)) (*Result, error) {
	if len(segs) == 0 {
		segs = [][2]int64{{0, size}}
	}
	if err := checkSegments(segs, size); err != nil {
		return nil, err
	}
	sc := newScanner()
	lr := lines.NewReader(nil, scanPrefix, lines.ReadBlock)
	var no int64 = 1
	for _, seg := range segs {
		sc.resetSegment()
		lr.Reset(io.NewSectionReader(ra, seg[0], seg[1]-seg[0]))
		for off := seg[0]; off < seg[1]; {
			ln, err := lr.Next()
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			if err != nil {
				return nil, fmt.Errorf("scan evidence at byte %d: %w", off, err)
			}
			if also != nil {
				also(ln)
			}
			l := sc.view(ln, off, no)
			off = l.End
			sc.line(l)
			if ln.NL {
				no++
			}
		}
		sc.endSegment()
	}
	return &Result{Size: size, Blocks: sc.blocks, Head: sc.head, Tail: sc.tail(), Segments: segs}, nil
}

func checkSegments(segs [][2]int64, size int64) error {
	var at int64
	for i, s := range segs {
		if s[0] != at || s[1] < s[0] {
			return fmt.Errorf("scan evidence: piece %d [%d,%d) does not follow byte %d", i, s[0], s[1], at)
		}
		at = s[1]
	}
	if at != size {
		return errors.New("scan evidence: the pieces do not add up to the file's size")
	}
	return nil
}
