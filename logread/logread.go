// Package logread reads stored run logs back, exactly: offsets are offsets
// into the original stream, and a range the store did not keep is an
// error, never other bytes. Open checks the stored file against the
// record's hash before any read; FromReaderAt leaves that to its caller.
package logread

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/runledger/runledger/record"
)

// Log is one stream of one run: verified when Open made it.
type Log struct {
	ra     io.ReaderAt // the stored bytes
	closer io.Closer
	Name   string
	Stream *record.Stream
}

// FromReaderAt reads a stream's stored bytes (record.Stream.StoredBytes of
// them, laid out as its stored_ranges say) through ra, such as an artifact
// entry read over HTTP. Nothing is checked here: the caller says what was.
func FromReaderAt(name string, s *record.Stream, ra io.ReaderAt) *Log {
	return &Log{ra: ra, Name: name, Stream: s}
}

// Open opens a run's stream after checking its size and sha256 against the
// record.
func Open(runDir string, rec *record.Record, stream string) (*Log, error) {
	s, ok := rec.Streams[stream]
	if j, isJUnit := JUnitStream(rec, stream); isJUnit {
		s, ok = j, true
	}
	if !ok {
		return nil, fmt.Errorf("stream %q: run %s has none (want stdout, stderr, output, or a junit/… file the run recorded)", stream, rec.ID)
	}
	if s.File == "" || s.File != filepath.Base(s.File) || s.File[0] == '.' {
		// A record is data, not trusted: it may not point outside its run.
		return nil, fmt.Errorf("stream %q of run %s names file %q outside its run directory", stream, rec.ID, s.File)
	}
	path := filepath.Join(runDir, s.File)
	if _, isJUnit := JUnitStream(rec, stream); isJUnit {
		path = filepath.Join(runDir, "junit", s.File)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", stream, err)
	}
	if err := verify(f, s); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s of run %s: %w", s.File, rec.ID, err)
	}
	return &Log{ra: f, closer: f, Name: stream, Stream: s}, nil
}

func verify(f *os.File, s *record.Stream) error {
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return err
	}
	if n != s.StoredBytes {
		return fmt.Errorf("stored file has %d bytes, the record says %d: it changed after the run", n, s.StoredBytes)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != s.SHA256 {
		return fmt.Errorf("sha256 %s does not match the record's %s: the file changed after the run", got[:16], short(s.SHA256))
	}
	return nil
}

func short(s string) string {
	if len(s) > 16 {
		return s[:16]
	}
	return s
}

// Close releases the file, if Open opened one.
func (l *Log) Close() error {
	if l.closer == nil {
		return nil
	}
	return l.closer.Close()
}

// ErrNotStored: the range lies (partly) in a part the store did not keep.
var ErrNotStored = record.ErrNotStored

// CopyRange writes the original bytes [start, end) to w.
func (l *Log) CopyRange(w io.Writer, start, end int64) error {
	if end > l.Stream.Bytes {
		return fmt.Errorf("%s: range %d:%d ends past the stream's %d bytes", l.Name, start, end, l.Stream.Bytes)
	}
	off, err := l.storedOffset(start, end)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, io.NewSectionReader(l.ra, off, end-start))
	return err
}

// storedOffset maps an original range to the stored file, if one stored
// range holds it whole.
func (l *Log) storedOffset(start, end int64) (int64, error) {
	if off, ok := l.Stream.StoredOffset(start, end); ok {
		return off, nil
	}
	return 0, fmt.Errorf("%s: range %d:%d: %w (the log was truncated; stored ranges %v)",
		l.Name, start, end, ErrNotStored, l.Stream.StoredRanges)
}

// Line is one line of a stored file: its 1-based number, original byte
// range (newline included) and at most maxLine bytes of its text.
type Line struct {
	Number     int64
	Start, End int64
	Text       []byte
	Cut        bool // Text holds only the beginning of the line
}

// maxLine bounds the bytes of one line held in memory, whatever the log.
const maxLine = 64 << 10

// Lines calls fn for each line of the stored file, in order, until fn
// returns false. Line numbers count lines of the stored file.
func (l *Log) Lines(fn func(Line) bool) error {
	r := bufio.NewReaderSize(io.NewSectionReader(l.ra, 0, l.Stream.StoredBytes), maxLine)
	var stored, num int64 = 0, 1
	for {
		ln, n, err := readLine(r)
		if n > 0 {
			ln.Number = num
			ln.Start, ln.End = l.Stream.OriginalRange(stored, stored+n)
			if !fn(ln) {
				return nil
			}
			stored += n
			num++
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line, keeping at most maxLine bytes of it.
func readLine(r *bufio.Reader) (Line, int64, error) {
	var ln Line
	var n int64
	for {
		chunk, err := r.ReadSlice('\n')
		n += int64(len(chunk))
		if room := maxLine - len(ln.Text); room > 0 {
			ln.Text = append(ln.Text, chunk[:min(room, len(chunk))]...)
		} else if len(chunk) > 0 {
			ln.Cut = true
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			ln.Text = bytes.TrimRight(ln.Text, "\r\n")
			return ln, n, err
		}
	}
}

// LineRange maps lines first..last (1-based, inclusive) of the stored file
// to their original byte range; lines past the end are dropped.
func (l *Log) LineRange(first, last int64) (int64, int64, error) {
	if first < 1 {
		return 0, 0, fmt.Errorf("%s: lines %d:%d: lines count from 1", l.Name, first, last)
	}
	var start, end int64 = -1, -1
	err := l.Lines(func(ln Line) bool {
		if ln.Number == first {
			start = ln.Start
		}
		if ln.Number >= first && ln.Number <= last {
			end = ln.End
		}
		return ln.Number < last
	})
	if err != nil {
		return 0, 0, err
	}
	if start < 0 {
		return 0, 0, fmt.Errorf("%s: lines %d:%d: the stored log has fewer than %d lines", l.Name, first, last, first)
	}
	return start, end, nil
}

// CopyLines writes lines first..last (1-based, inclusive) of the stored file.
func (l *Log) CopyLines(w io.Writer, first, last int64) error {
	start, end, err := l.LineRange(first, last)
	if err != nil {
		return err
	}
	return l.CopyRange(w, start, end)
}

// Match is a line that matched, with its context lines.
type Match struct {
	Line    Line
	Context []Line
}

// Lines returns the match and its context lines in line order, in a new
// slice.
func (m Match) Lines() []Line {
	lines := append(append([]Line(nil), m.Context...), m.Line)
	slices.SortStableFunc(lines, func(a, b Line) int { return cmp.Compare(a.Number, b.Number) })
	return lines
}

// Grep finds up to max lines matching re, each with up to context lines
// before and after it. It reports whether more matches were left out.
func (l *Log) Grep(re *regexp.Regexp, max, context int) ([]Match, bool, error) {
	var out []Match
	var before []Line
	more, after := false, 0
	err := l.Lines(func(ln Line) bool {
		if after > 0 && len(out) > 0 {
			out[len(out)-1].Context = append(out[len(out)-1].Context, ln)
			after--
		}
		if re.Match(ln.Text) {
			if len(out) == max {
				more = true
				return false
			}
			out = append(out, Match{Line: ln, Context: append([]Line(nil), before...)})
			after = context
		}
		before = append(before, ln)
		if len(before) > context {
			before = before[1:]
		}
		return true
	})
	return out, more, err
}

// JUnitStream describes a JUnit file the run recorded (copied into its
// directory as junit/NNN-name.xml) as a stream, so that excerpts quoted
// from it can be read back and checked like a log's: name is its stored
// path, "junit/NNN-name.xml". File is its base name inside junit/.
func JUnitStream(rec *record.Record, name string) (*record.Stream, bool) {
	base, ok := strings.CutPrefix(name, "junit/")
	if !ok {
		return nil, false
	}
	for _, j := range rec.JUnit {
		if filepath.ToSlash(j.Stored) == name {
			return &record.Stream{File: base, Bytes: j.Bytes, StoredBytes: j.Bytes,
				StoredRanges: [][2]int64{{0, j.Bytes}}, SHA256: j.SHA256, Complete: true}, true
		}
	}
	return nil, false
}
