// Package excerpt quotes the lines of a stored run that explain it: each
// failing test's own evidence, found by the grammar of the runner that
// printed it (package evidence), cited by original byte range, line
// numbers and the sha256 of exactly the quoted bytes.
package excerpt

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report/evidence"
)

// Excerpt is a cited piece of a log: SHA256 is of the raw bytes [Start,
// End) of the stream, and Text is exactly those bytes with ANSI escape
// sequences removed (see Text), nothing cut out of it, nothing added; what
// a reader should know of the bytes around it is in Note. Check holds an
// excerpt to that.
type Excerpt struct {
	// Stream is "stdout" or "stderr", or "junit/NNN-name.xml" for a quote
	// from the run's copy of a JUnit file (in its run directory, read back
	// with show --stream; the artifact holds the file whole, compressed).
	Stream    string `json:"stream"`
	Start     int64  `json:"start"`
	End       int64  `json:"end"`
	FirstLine int64  `json:"first_line"`
	LastLine  int64  `json:"last_line"`
	// Reason: failure (a failing test's evidence), error (a crash, a build
	// error, an error line), tail (the last lines), whole (the log fits),
	// summary (a bare verdict line), head.
	Reason string `json:"reason"`
	// Test names the failing test (or error) the excerpt explains, Role
	// what part of it the excerpt is ("test", "panic", "race", "build",
	// "traceback", "sanitizer", "error", "verdict", …), Runner the runner
	// grammar that recognised it.
	Test   string `json:"test,omitempty"`
	Role   string `json:"role,omitempty"`
	Runner string `json:"runner,omitempty"`
	SHA256 string `json:"sha256"`
	Text   string `json:"text"`
	// Note says what lies around the range that Text does not hold: the
	// rest of a long line quoted in two ranges, a line that goes on past
	// the range, a gap where the stream was not stored.
	Note string `json:"note,omitempty"`
	// Raw is the bytes the range holds, while the excerpt is in memory
	// (never in JSON): a surface that must shorten an excerpt cites a
	// part of them, exactly, instead of cutting its text.
	Raw []byte `json:"-"`
}

// Options bounds a run's excerpts. Zero fields take the defaults.
type Options struct {
	// Bytes is the most quoted of one run, all streams together
	// (default 12 KiB); logs that fit are quoted whole.
	Bytes int64
	// Block is the most one failing test gets before every other failing
	// test has had its first block (default 3 KiB).
	Block int64
}

// Excerpt reasons, best first: the order in which a size budget keeps them.
var Reasons = []string{"failure", "error", "tail", "whole", "summary", "head"}

// Rank is reason's place in Reasons; an unknown reason ranks after all.
func Rank(reason string) int {
	if i := slices.Index(Reasons, reason); i >= 0 {
		return i
	}
	return len(Reasons)
}

// StreamFile is one stored stream of a run, as Select reads it.
type StreamFile struct {
	Name   string         // "stdout" or "stderr"
	File   io.ReaderAt    // the stored file
	Stream *record.Stream // its record: size, stored ranges
	// Scanned, when set, is the evidence scan of File already made (by a
	// pass that read the file for another reader too): Select uses it
	// rather than scanning File again.
	Scanned *evidence.Result
}

// Select chooses a run's excerpts from its stored stdout and
// stderr: each failing test's own evidence, found by the grammar of the
// runner that printed it (package evidence), within opts' budget; a log
// that fits is quoted whole; a run that did not end by itself (ended
// false) always gets its last lines. Excerpts come best first.
//
// Offsets are original-stream offsets (an excerpt never crosses a gap of
// a truncated stream) and FirstLine/LastLine are 1-based line numbers
// counted in the stored file. SHA256 is of exactly the raw bytes
// [Start, End), and Text is exactly those bytes with ANSI escapes removed
// (see Text): it has one line per raw line, so lines in Text map to
// FirstLine…LastLine, however long they are: a surface that shows less
// cites exactly what it shows, never a text with a marker inside. What a
// surface shows of control characters and progress bars is the
// surface's to decide when it prints the text.
func Select(streams []StreamFile, ended bool, opts Options) ([]Excerpt, error) {
	in := make([]evidence.Input, 0, len(streams))
	for _, s := range streams {
		segs, err := s.Stream.Segments()
		if err != nil {
			return nil, fmt.Errorf("select excerpts of %s: %w", s.Name, err)
		}
		res := s.Scanned
		if res == nil {
			if res, err = evidence.Scan(s.File, s.Stream.StoredBytes, segs); err != nil {
				return nil, fmt.Errorf("select excerpts of %s: %w", s.Name, err)
			}
		}
		in = append(in, evidence.Input{Stream: s.Name, RA: s.File, Res: res})
	}
	pieces, err := evidence.Plan(in, evidence.Budget{Bytes: opts.Bytes, Block: opts.Block, Ended: ended})
	if err != nil {
		return nil, fmt.Errorf("select excerpts: %w", err)
	}
	out := make([]Excerpt, 0, len(pieces))
	for _, pc := range pieces {
		s := streamOf(streams, pc.Stream)
		xs, err := readPiece(s, pc)
		if err != nil {
			return nil, fmt.Errorf("select excerpts of %s: %w", pc.Stream, err)
		}
		out = append(out, xs...)
	}
	return out, nil
}

func streamOf(streams []StreamFile, name string) StreamFile {
	for _, s := range streams {
		if s.Name == name {
			return s
		}
	}
	return StreamFile{}
}

// ForRun selects the excerpts of the run r stored in dir. scanned holds
// the streams' evidence scans already made, by stream name (nil: none).
func ForRun(dir string, r *record.Record, opts Options, scanned map[string]*evidence.Result) ([]Excerpt, error) {
	var streams []StreamFile
	for _, name := range []string{record.Stdout, record.Stderr} {
		s, ok := r.Streams[name]
		if !ok {
			continue
		}
		path := filepath.Join(dir, s.File)
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		info, err := f.Stat()
		if err != nil {
			return nil, err
		}
		if info.Size() != s.StoredBytes {
			return nil, fmt.Errorf("%s has %d bytes, the record says %d were stored", path, info.Size(), s.StoredBytes)
		}
		streams = append(streams, StreamFile{Name: name, File: f, Stream: s, Scanned: scanned[name]})
	}
	return Select(streams, r.Termination == record.TerminationExited && r.ExitCode != nil, opts)
}
