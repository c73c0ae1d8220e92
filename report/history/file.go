package history

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/runledger/runledger/report/testindex"
)

// Bounds on what Read accepts, as the index's: a hostile or broken file
// costs bounded memory.
const (
	maxText    = 256 << 20
	maxLine    = 1 << 20
	maxColumns = 1000
)

// gzipWriters keeps compressors between writes: each holds a megabyte of
// state, more than a history of 100,000 tests takes to write.
var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return zw
}}

// Write writes h, whose first entries follow x (written with sha256
// indexSHA), to w. The file is gzip'd at its fastest: its text is mostly
// runs of one byte, which the fastest level keeps small too.
func Write(w io.Writer, h *History, x *testindex.Index, indexSHA string) error {
	if err := aligned(h, x); err != nil {
		return err
	}
	h.Schema, h.Index, h.Tests = Schema, indexSHA, len(x.Entries)
	extra := h.Extra
	if !slices.IsSortedFunc(extra, compareEntries) {
		slices.SortFunc(extra, compareEntries)
	}
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(w)
	bw := bufio.NewWriterSize(zw, 64<<10)
	head, err := json.Marshal(h.Header)
	if err != nil {
		return fmt.Errorf("history header: %w", err)
	}
	bw.WriteByte('#')
	bw.Write(head)
	bw.WriteByte('\n')
	var last, lastCode string // rows repeat (one string for all passes): encoded once
	for _, o := range h.Rows {
		if o != last {
			var b strings.Builder
			writeOutcomes(&b, o)
			last, lastCode = o, b.String()
		}
		bw.WriteString(lastCode)
		bw.WriteByte('\n')
	}
	for _, e := range extra {
		bw.WriteByte(byte(e.Kind))
		bw.WriteByte('\t')
		writeOutcomes(bw, e.Outcomes)
		for _, f := range []string{e.Suite, e.Class, e.Name, e.File} {
			bw.WriteByte('\t')
			bw.WriteString(testindex.EscapeField(f))
		}
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// aligned checks that h's rows follow x's entries.
func aligned(h *History, x *testindex.Index) error {
	switch {
	case len(h.Rows) != len(x.Entries):
		return fmt.Errorf("history of %d rows for an index of %d entries", len(h.Rows), len(x.Entries))
	case h.index == x:
		return nil
	case h.index == nil || len(h.index.Entries) != len(x.Entries):
		return errors.New("history of another index")
	}
	for i, e := range x.Entries {
		if o := h.index.Entries[i]; o.Kind != e.Kind || o.Key != e.Key {
			return fmt.Errorf("history row %d is not of the index's entry", i+1)
		}
	}
	return nil
}

// WriteFile writes h to path atomically (a temp file, then a rename) and
// returns the file's sha256.
func WriteFile(path string, h *History, x *testindex.Index, indexSHA string) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".history-*")
	if err != nil {
		return "", fmt.Errorf("write history: %w", err)
	}
	defer os.Remove(tmp.Name())
	sum := sha256.New()
	if err := Write(io.MultiWriter(tmp, sum), h, x, indexSHA); err != nil {
		tmp.Close()
		return "", fmt.Errorf("write history %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("write history %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("write history: %w", err)
	}
	return hex.EncodeToString(sum.Sum(nil)), nil
}

// Read parses a history of the index x, whose file's sha256 is indexSHA.
// A history of another index, a line that is not an entry, or outcomes
// that do not cover the header's runs are an error naming what: a damaged
// history is never read as a shorter one.
func Read(r io.Reader, x *testindex.Index, indexSHA string) (*History, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a gzip'd history: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(zr, maxText+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("decompress: %w", err)
	case len(data) > maxText:
		return nil, fmt.Errorf("more than %d MiB of text", maxText>>20)
	case len(data) == 0:
		return nil, errors.New("empty: no header line")
	}
	text := string(data)
	head, rest, _ := strings.Cut(text, "\n")
	h := &History{}
	if err := readHeader([]byte(head), &h.Header); err != nil {
		return nil, err
	}
	switch {
	case h.Index != indexSHA:
		return nil, fmt.Errorf("line 1: the history of the index %s, not of this one (%s)", short(h.Index), short(indexSHA))
	case h.Tests != len(x.Entries):
		return nil, fmt.Errorf("line 1: %d tests, its index has %d", h.Tests, len(x.Entries))
	}
	h.Rows, h.index = make([]string, 0, len(x.Entries)), x
	rows := rowReader{columns: len(h.Columns), seen: map[string]string{}}
	for n := 2; rest != ""; n++ {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if len(line) > maxLine {
			return nil, fmt.Errorf("line %d: longer than %d bytes", n, maxLine)
		}
		if i := n - 2; i < h.Tests {
			o, err := rows.outcomes(line)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			h.Rows = append(h.Rows, o)
			continue
		}
		e, err := parseEntry(line, &rows)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		h.Extra = append(h.Extra, e)
	}
	if len(h.Rows) < h.Tests {
		return nil, fmt.Errorf("%d lines of outcomes, want one for each of the index's %d entries", len(h.Rows), h.Tests)
	}
	return h, nil
}

// ReadFile reads the history at path of the index x, read from the file
// at indexPath.
func ReadFile(path string, x *testindex.Index, indexPath string) (*History, error) {
	idx, err := os.ReadFile(indexPath)
	if err != nil {
		return nil, fmt.Errorf("history: its index: %w", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer f.Close()
	sum := sha256.Sum256(idx)
	h, err := Read(f, x, hex.EncodeToString(sum[:]))
	if err != nil {
		return nil, fmt.Errorf("history %s: %w", path, err)
	}
	return h, nil
}

func short(sha string) string { return sha[:min(len(sha), 12)] }

func readHeader(line []byte, h *Header) error {
	if !bytes.HasPrefix(line, []byte("#")) {
		return errors.New("line 1: no header (want # and a JSON object)")
	}
	if err := json.Unmarshal(line[1:], h); err != nil {
		return fmt.Errorf("line 1: header: %w", err)
	}
	switch {
	case h.Schema != Schema:
		return fmt.Errorf("line 1: schema %q, want %q", h.Schema, Schema)
	case len(h.Columns) == 0 || len(h.Columns) > maxColumns:
		return fmt.Errorf("line 1: %d runs, want 1 to %d", len(h.Columns), maxColumns)
	case h.Window < len(h.Columns):
		return fmt.Errorf("line 1: window %d holds fewer than its %d runs", h.Window, len(h.Columns))
	}
	return nil
}

// outcomeByte: the bytes an outcomes field may hold.
var outcomeByte = func() (t [256]bool) {
	for _, c := range "PFESpfe." {
		t[c] = true
	}
	return t
}()

func checkOutcomes(s string, columns int) error {
	if len(s) != columns {
		return fmt.Errorf("%d outcomes, want one for each of the %d runs", len(s), columns)
	}
	for i := 0; i < len(s); i++ {
		if !outcomeByte[s[i]] {
			return fmt.Errorf("outcome %q of run %d: want one of PFESpfe and the dot (not run)", s[i], i+1)
		}
	}
	return nil
}

func parseEntry(line string, rows *rowReader) (Entry, error) {
	var f [6]string
	n := 0
	for rest := line; ; n++ {
		if n == len(f) {
			return Entry{}, fmt.Errorf("more than %d fields", len(f))
		}
		var ok bool
		f[n], rest, ok = strings.Cut(rest, "\t")
		if !ok {
			n++
			break
		}
	}
	if n != len(f) {
		return Entry{}, fmt.Errorf("%d fields, want %d", n, len(f))
	}
	if len(f[0]) != 1 || strings.IndexByte("tun", f[0][0]) < 0 {
		return Entry{}, fmt.Errorf("kind %q: want t, u or n", f[0])
	}
	o, err := rows.outcomes(f[1])
	if err != nil {
		return Entry{}, err
	}
	e := Entry{Kind: testindex.Kind(f[0][0]), Outcomes: o}
	for i, dst := range [4]*string{&e.Suite, &e.Class, &e.Name, &e.File} {
		if *dst, err = testindex.UnescapeField(f[i+2]); err != nil {
			return Entry{}, fmt.Errorf("field %d: %w", i+3, err)
		}
	}
	return e, nil
}

// writeOutcomes writes a row with each run of three or more of one
// outcome as its count and the outcome ("28P" for 28 passes): most rows
// are one run, and the text to compress and to read back shrinks tenfold.
func writeOutcomes(bw interface {
	io.StringWriter
	io.ByteWriter
}, o string) {
	for i := 0; i < len(o); {
		j := i + 1
		for j < len(o) && o[j] == o[i] {
			j++
		}
		if j-i >= 3 {
			bw.WriteString(strconv.Itoa(j - i))
			bw.WriteByte(o[i])
		} else {
			bw.WriteString(o[i:j])
		}
		i = j
	}
}

// rowReader reads outcomes fields, each distinct field expanded and
// checked once: 100,000 rows of passes are one string.
type rowReader struct {
	columns int
	seen    map[string]string
}

func (r *rowReader) outcomes(field string) (string, error) {
	if o, ok := r.seen[field]; ok {
		return o, nil
	}
	o, err := expand(field)
	if err == nil {
		err = checkOutcomes(o, r.columns)
	}
	if err != nil {
		return "", err
	}
	if len(r.seen) < 1<<16 {
		r.seen[field] = o
	}
	return o, nil
}

// expand undoes writeOutcomes' counts.
func expand(field string) (string, error) {
	if !strings.ContainsAny(field, "0123456789") {
		return field, nil
	}
	var b strings.Builder
	for i := 0; i < len(field); {
		j := i
		for j < len(field) && field[j] >= '0' && field[j] <= '9' {
			j++
		}
		if j == len(field) {
			return "", fmt.Errorf("outcomes %q end in a count", field)
		}
		n := 1
		if j > i {
			var err error
			if n, err = strconv.Atoi(field[i:j]); err != nil || n > maxColumns {
				return "", fmt.Errorf("outcomes %q: count %q is not one of at most %d runs", field, field[i:j], maxColumns)
			}
		}
		if b.Len()+n > maxColumns {
			return "", fmt.Errorf("outcomes %q: more than %d runs", field, maxColumns)
		}
		for range n {
			b.WriteByte(field[j])
		}
		i = j + 1
	}
	return b.String(), nil
}
