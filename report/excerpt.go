package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report/evidence"
)

// ExcerptOptions bounds a run's excerpts. Zero fields take the defaults.
type ExcerptOptions struct {
	// Bytes is the most quoted of one run, all streams together
	// (default 12 KiB); logs that fit are quoted whole.
	Bytes int64
	// Block is the most one failing test gets before every other failing
	// test has had its first block (default 3 KiB).
	Block int64
	// MaxLineBytes: longer lines are cut in Text, keeping their start and
	// end around a "…[N bytes omitted]…" marker (default 1024).
	MaxLineBytes int
}

// Excerpt reasons, best first: the order in which a size budget keeps them.
var exReasons = [...]string{"failure", "error", "tail", "whole", "summary", "head"}

// StreamFile is one stored stream of a run, as SelectExcerpts reads it.
type StreamFile struct {
	Name   string         // "stdout" or "stderr"
	File   io.ReaderAt    // the stored file
	Stream *record.Stream // its record: size, stored ranges
}

// SelectExcerpts chooses a run's excerpts from its stored stdout and
// stderr: each failing test's own evidence, found by the grammar of the
// runner that printed it (package evidence), within opts' budget; a log
// that fits is quoted whole; a run that did not end by itself (ended
// false) always gets its last lines. Excerpts come best first.
//
// Offsets are original-stream offsets (an excerpt never crosses a gap of
// a truncated stream) and FirstLine/LastLine are 1-based line numbers
// counted in the stored file. SHA256 is of exactly the raw bytes
// [Start, End). Text is those bytes made readable: ANSI escapes removed; a
// line overwritten with carriage returns (a progress bar) shows only its
// last non-empty \r-separated segment, as a terminal would end up showing
// it, and a CR before LF is dropped; invalid UTF-8 becomes U+FFFD and
// control characters their visible control pictures (NUL as ␀); lines over
// MaxLineBytes are cut with a "…[N bytes omitted]…" marker counting raw
// bytes. Text has one line per raw line, so lines in Text map to
// FirstLine…LastLine.
func SelectExcerpts(streams []StreamFile, ended bool, opts ExcerptOptions) ([]Excerpt, error) {
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = 1024
	}
	in := make([]evidence.Input, 0, len(streams))
	for _, s := range streams {
		segs, err := exSegments(s.Stream.StoredBytes, s.Stream.StoredRanges)
		if err != nil {
			return nil, fmt.Errorf("select excerpts of %s: %w", s.Name, err)
		}
		res, err := evidence.Scan(s.File, s.Stream.StoredBytes, segs)
		if err != nil {
			return nil, fmt.Errorf("select excerpts of %s: %w", s.Name, err)
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
		ex, err := exRead(s, pc, opts.MaxLineBytes)
		if err != nil {
			return nil, fmt.Errorf("select excerpts of %s: %w", pc.Stream, err)
		}
		out = append(out, ex)
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

// exRead reads a piece's bytes and builds its Excerpt.
func exRead(s StreamFile, pc evidence.Piece, maxLine int) (Excerpt, error) {
	raw := make([]byte, pc.End-pc.Start)
	if n, err := s.File.ReadAt(raw, pc.Start); n < len(raw) {
		if err == nil {
			err = io.ErrUnexpectedEOF // a ReaderAt must say why a read came short; this one did not
		}
		return Excerpt{}, fmt.Errorf("read [%d,%d): %w", pc.Start, pc.End, err)
	}
	first := pc.First
	if first <= 0 { // a whole piece past the first: count the lines before it
		n, err := exCountLines(s.File, pc.Start)
		if err != nil {
			return Excerpt{}, err
		}
		first = n + 1
	}
	last := first + int64(bytes.Count(raw[:max(len(raw)-1, 0)], []byte{'\n'}))
	sum := sha256.Sum256(raw)
	text := exText(raw, maxLine)
	segStart, segEnd := exSegmentOf(s.Stream, pc.Start)
	switch {
	case pc.End == segEnd && segEnd < s.Stream.StoredBytes:
		_, gapStart := s.Stream.OriginalRange(pc.Start, pc.End)
		gapEnd, _ := s.Stream.OriginalRange(segEnd, segEnd+1)
		text += fmt.Sprintf("\n…[the stream was truncated here: original bytes %d–%d were not stored]…\n", gapStart, gapEnd)
	case !bytes.HasSuffix(raw, []byte{'\n'}) && pc.End < segEnd:
		if next, err := exLineEnd(s.File, pc.End, segEnd); err == nil && next > pc.End {
			text += fmt.Sprintf("…[line continues for %d more bytes]…\n", next-pc.End)
		}
	}
	if pc.Start == segStart && segStart > 0 {
		text = "…[continued after a gap: the original bytes before this were not stored]…\n" + text
	}
	start, end := s.Stream.OriginalRange(pc.Start, pc.End)
	return Excerpt{Stream: s.Name, Start: start, End: end, FirstLine: first, LastLine: last,
		Reason: pc.Reason, Test: pc.Test, Role: pc.Role, Runner: pc.Runner,
		SHA256: hex.EncodeToString(sum[:]), Text: text}, nil
}

// exSegmentOf returns the piece of the stored file that holds off.
func exSegmentOf(s *record.Stream, off int64) (int64, int64) {
	segs, err := exSegments(s.StoredBytes, s.StoredRanges)
	if err != nil {
		return 0, s.StoredBytes
	}
	for _, g := range segs {
		if off >= g[0] && off < g[1] {
			return g[0], g[1]
		}
	}
	return 0, s.StoredBytes
}

// exCountLines counts the newlines before off.
func exCountLines(ra io.ReaderAt, off int64) (int64, error) {
	var n int64
	buf := make([]byte, 1<<20)
	for at := int64(0); at < off; {
		k, err := ra.ReadAt(buf[:min(int64(len(buf)), off-at)], at)
		n += int64(bytes.Count(buf[:k], []byte{'\n'}))
		at += int64(k)
		if k == 0 {
			return 0, fmt.Errorf("count lines before %d: %w", off, err)
		}
	}
	return n, nil
}

// exLineEnd finds where the line holding off ends (bounded look-ahead).
func exLineEnd(ra io.ReaderAt, off, size int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for at := off; at < size; {
		k, err := ra.ReadAt(buf[:min(int64(len(buf)), size-at)], at)
		if i := bytes.IndexByte(buf[:k], '\n'); i >= 0 {
			return at + int64(i) + 1, nil
		}
		at += int64(k)
		if k == 0 {
			return 0, err
		}
	}
	return size, nil
}

// exSegments turns stored ranges into [start, end) pieces of the stored
// file, checking that they are ordered and add up to size.
func exSegments(size int64, stored [][2]int64) ([][2]int64, error) {
	if len(stored) == 0 {
		return [][2]int64{{0, size}}, nil
	}
	segs := make([][2]int64, 0, len(stored))
	var off int64
	for i, r := range stored {
		if r[1] < r[0] || (i > 0 && r[0] < stored[i-1][1]) {
			return nil, fmt.Errorf("stored range %d [%d,%d) is out of order", i, r[0], r[1])
		}
		segs = append(segs, [2]int64{off, off + r[1] - r[0]})
		off += r[1] - r[0]
	}
	if off != size {
		return nil, fmt.Errorf("stored ranges hold %d bytes, file has %d", off, size)
	}
	return segs, nil
}

// exText renders raw log bytes line by line; see SelectExcerpts.
func exText(raw []byte, maxLine int) string {
	var b strings.Builder
	for len(raw) > 0 {
		line, rest, nl := bytes.Cut(raw, []byte{'\n'})
		raw = rest
		b.WriteString(exLineText(line, maxLine))
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func exLineText(line []byte, maxLine int) string {
	line = exLastSegment(bytes.TrimSuffix(line, []byte{'\r'}))
	if len(line) <= maxLine {
		return cleanTerminalText(string(line), false)
	}
	headN := exRuneCut(line, maxLine*3/4)
	tailN := len(line) - exRuneCut(line, len(line)-maxLine/4)
	omitted := len(line) - headN - tailN
	return cleanTerminalText(string(line[:headN]), false) +
		fmt.Sprintf("…[%d bytes omitted]…", omitted) +
		cleanTerminalText(string(line[len(line)-tailN:]), false)
}

// exLastSegment returns the last non-empty \r-separated segment of a line.
func exLastSegment(line []byte) []byte {
	for {
		i := bytes.LastIndexByte(line, '\r')
		if i < 0 {
			return line
		}
		if i+1 < len(line) {
			return line[i+1:]
		}
		line = line[:i]
	}
}

// exRuneCut moves n back to a UTF-8 rune start (at most 3 bytes).
func exRuneCut(b []byte, n int) int {
	for k := 0; k < 3 && n > 0 && n < len(b) && !utf8.RuneStart(b[n]); k++ {
		n--
	}
	return n
}

// runExcerpts selects the excerpts of a stored run.
func runExcerpts(dir string, r *record.Record, opts ExcerptOptions) ([]Excerpt, error) {
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
		streams = append(streams, StreamFile{Name: name, File: f, Stream: s})
	}
	return SelectExcerpts(streams, r.Termination == record.TerminationExited && r.ExitCode != nil, opts)
}
