package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/evidence"
	"github.com/runledger/runledger/report/excerpt"
)

// trimExcerpt shortens x to at most c.Lines lines, each at most c.Width
// bytes, and returns what stays and how many bytes it left out. What stays
// is cited exactly: each run of kept bytes is an excerpt of its own, with
// its own range, lines and hash, and a note (in w's words) says what went
// after it; a text is never cut inside. What goes first is what explains
// least: the lines that carry the failure (see evidenceLines) stay
// whatever c.Lines says, up to c.Evidence of them when that is set; the
// other lines are kept nearest the evidence first, so a test's progress
// logging far from its assertion goes before the assertion's context. An
// excerpt whose bytes are not at hand (read back from JSON, its text not
// its bytes) stays whole: the plan then cuts elsewhere.
func trimExcerpt(run string, x report.Excerpt, c Cut, w Words) ([]report.Excerpt, int64) {
	raw := rawOf(x)
	if len(raw) == 0 {
		return []report.Excerpt{x}, 0
	}
	lines := bytes.SplitAfter(raw, []byte{'\n'})
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	texts := make([]string, len(lines))
	for i, ln := range lines {
		texts[i] = excerpt.Text(ln)
	}
	keep := keptLines(texts, c.Lines, c.Evidence)
	ev := evidenceLines(texts)
	var spans [][2]int // kept byte ranges of raw
	off := 0
	for i, ln := range lines {
		if keep[i] {
			from, to := lineSpan(ln, ev[i] > 0, c.Width)
			spans = appendSpan(spans, off+from, off+to)
		}
		off += len(ln)
	}
	spans = joinClose(spans)
	if len(spans) == 0 {
		return []report.Excerpt{x}, 0
	}
	if last := &spans[len(spans)-1]; len(raw)-last[1] < noteCost {
		last[1] = len(raw) // a tail shorter than the note that would name it
	}
	return cite(run, x, raw, spans, w)
}

// noteCost is about what a note naming left-out bytes costs a surface.
const noteCost = 48

// failuresIn is how many failing tests excerpt x explains: one for a
// test's own excerpt, else (a whole log, its tail) the failures whose names
// it quotes, at least one. An evidence cap is per failure: a whole log of
// eight failures capped at two lines keeps two of each, not two in all.
func failuresIn(x report.Excerpt, failures []report.Failure) int {
	if x.Test != "" {
		return 1
	}
	n := 0
	for _, f := range failures {
		if f.Name != "" && strings.Contains(x.Text, f.Name) {
			n++
		}
	}
	return max(n, 1)
}

// pieceCost is about what one more piece of an excerpt costs a surface:
// its range, lines, hash and labels in the envelope. A gap shorter than
// that is quoted rather than cited around, so that a tighter cut never
// costs more than a looser one.
const pieceCost = 192

// joinClose joins spans whose gap is shorter than pieceCost.
func joinClose(spans [][2]int) [][2]int {
	out := spans[:0:0]
	for _, sp := range spans {
		if n := len(out); n > 0 && sp[0]-out[n-1][1] < pieceCost {
			out[n-1][1] = sp[1]
			continue
		}
		out = append(out, sp)
	}
	return out
}

// rawOf is the bytes x cites when they are at hand: kept from the log
// (Raw), or its text when that hashes to its sha256 (a log without escape
// sequences read back from JSON).
func rawOf(x report.Excerpt) []byte {
	if x.Raw != nil {
		return x.Raw
	}
	sum := sha256.Sum256([]byte(x.Text))
	if hex.EncodeToString(sum[:]) == x.SHA256 {
		return []byte(x.Text)
	}
	return nil
}

// lineSpan is the part [from, to) of ln that stays: all of it, or when it
// is wider than width (twice that for an evidence line) its start, cut
// where no character or escape sequence is split (excerpt.SafeCut); a go
// test -json event too wide is shown from its output, its wrapper (time,
// action, package, test: the label says the test) left out.
func lineSpan(ln []byte, evidenceLine bool, width int) (int, int) {
	if width <= 0 || len(ln) <= width+1 {
		return 0, len(ln)
	}
	from := 0
	if evidenceLine {
		width *= 2
		if field, at := evidence.PayloadAt(string(ln)); at > 0 && len(ln) > width+1 {
			from = field
		}
	}
	if len(ln)-from <= width+1 {
		return from, len(ln)
	}
	return from, excerpt.SafeCut(ln, from, from+width)
}

// appendSpan adds [from, to) to spans, joining it to the last span when
// they touch.
func appendSpan(spans [][2]int, from, to int) [][2]int {
	if n := len(spans); n > 0 && spans[n-1][1] == from {
		spans[n-1][1] = to
		return spans
	}
	return append(spans, [2]int{from, to})
}

// cite makes an excerpt of each span of raw, x's bytes, with a note
// saying what went after it (what went before the first, its first line
// says); it returns them and the bytes left out.
func cite(run string, x report.Excerpt, raw []byte, spans [][2]int, w Words) ([]report.Excerpt, int64) {
	if len(spans) == 1 && spans[0] == [2]int{0, len(raw)} {
		return []report.Excerpt{x}, 0
	}
	out := make([]report.Excerpt, 0, len(spans))
	var omitted int64
	for i, sp := range spans {
		part := raw[sp[0]:sp[1]]
		sum := sha256.Sum256(part)
		first := x.FirstLine + int64(bytes.Count(raw[:sp[0]], []byte{'\n'}))
		p := x
		p.Start, p.End = x.Start+int64(sp[0]), x.Start+int64(sp[1])
		p.FirstLine = first
		p.LastLine = first + int64(bytes.Count(part[:max(len(part)-1, 0)], []byte{'\n'}))
		p.SHA256, p.Text, p.Raw, p.Note = hex.EncodeToString(sum[:]), excerpt.Text(part), part, ""
		next := len(raw)
		if i+1 < len(spans) {
			next = spans[i+1][0]
		} else {
			p.Note = x.Note
		}
		if i == 0 { // the lines before it: its label's line numbers say so
			omitted += int64(sp[0])
		}
		if next > sp[1] {
			omitted += int64(next - sp[1])
			p.Note = joinNote(p.Note, gapNote(run, x, raw, sp[1], next, w))
		}
		out = append(out, p)
	}
	return out, omitted
}

// gapNote is w's note for bytes [from, to) of raw, x's bytes.
func gapNote(run string, x report.Excerpt, raw []byte, from, to int, w Words) string {
	first := x.FirstLine + int64(bytes.Count(raw[:from], []byte{'\n'}))
	last := x.FirstLine + int64(bytes.Count(raw[:to-1], []byte{'\n'}))
	return w.Gap(run, x.Stream, x.Start+int64(from), x.Start+int64(to), first, last)
}

func joinNote(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}
