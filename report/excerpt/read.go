package excerpt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report/evidence"
)

// readPiece reads a piece's bytes and builds its Excerpt: the piece
// whole, however long its lines (the planner bounds its bytes); a
// surface that shows fewer cites exactly what it keeps (render's
// trimExcerpt).
func readPiece(s StreamFile, pc evidence.Piece) ([]Excerpt, error) {
	raw := make([]byte, pc.End-pc.Start)
	if n, err := s.File.ReadAt(raw, pc.Start); n < len(raw) {
		if err == nil {
			err = io.ErrUnexpectedEOF // a ReaderAt must say why a read came short; this one did not
		}
		return nil, fmt.Errorf("read [%d,%d): %w", pc.Start, pc.End, err)
	}
	first := pc.First
	if first <= 0 { // a whole piece past the first: count the lines before it
		n, err := countLines(s.File, pc.Start)
		if err != nil {
			return nil, err
		}
		first = n + 1
	}
	out := []Excerpt{cite(s, pc, raw, pc.Start, first)}
	notePiece(s, pc, raw, out)
	return out, nil
}

// cite is the Excerpt of raw, stored at offset at of s, its first line
// first.
func cite(s StreamFile, pc evidence.Piece, raw []byte, at, first int64) Excerpt {
	sum := sha256.Sum256(raw)
	start, end := s.Stream.OriginalRange(at, at+int64(len(raw)))
	return Excerpt{Stream: s.Name, Start: start, End: end, FirstLine: first,
		LastLine: first + int64(bytes.Count(raw[:max(len(raw)-1, 0)], []byte{'\n'})),
		Reason:   pc.Reason, Test: pc.Test, Role: pc.Role, Runner: pc.Runner,
		SHA256: hex.EncodeToString(sum[:]), Text: Text(raw), Raw: raw}
}

// notePiece says in the Notes of a piece's first and last excerpts what
// lies around it that the text does not hold: a gap where the stream was
// not stored, a line that goes on past the piece.
func notePiece(s StreamFile, pc evidence.Piece, raw []byte, xs []Excerpt) {
	segStart, segEnd := segmentOf(s.Stream, pc.Start)
	last := &xs[len(xs)-1]
	switch {
	case pc.End == segEnd && segEnd < s.Stream.StoredBytes:
		_, gapStart := s.Stream.OriginalRange(pc.Start, pc.End)
		gapEnd, _ := s.Stream.OriginalRange(segEnd, segEnd+1)
		last.Note = joinNote(last.Note, fmt.Sprintf("the stream was truncated here: original bytes %d–%d were not stored", gapStart, gapEnd))
	case !bytes.HasSuffix(raw, []byte{'\n'}) && pc.End < segEnd:
		if next, err := lineEnd(s.File, pc.End, segEnd); err == nil && next > pc.End {
			last.Note = joinNote(last.Note, fmt.Sprintf("the line continues for %d more bytes", next-pc.End))
		}
	}
	if pc.Start == segStart && segStart > 0 {
		xs[0].Note = joinNote("continued after a gap: the original bytes before this were not stored", xs[0].Note)
	}
}

func joinNote(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// segmentOf returns the piece of the stored file that holds off.
func segmentOf(s *record.Stream, off int64) (int64, int64) {
	segs, err := s.Segments()
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

// countLines counts the newlines before off.
func countLines(ra io.ReaderAt, off int64) (int64, error) {
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

// lineEnd finds where the line holding off ends (bounded look-ahead).
func lineEnd(ra io.ReaderAt, off, size int64) (int64, error) {
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
