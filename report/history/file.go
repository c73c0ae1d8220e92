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
	"strings"

	"github.com/runledger/runledger/report/testindex"
)

// Bounds on what Read accepts, as the index's: a hostile or broken file
// costs bounded memory.
const (
	maxText    = 256 << 20
	maxLine    = 1 << 20
	maxColumns = 1000
)

// Write writes h, whose first entries follow x (written with sha256
// indexSHA), to w. The file is gzip'd at its fastest: its text is mostly
// runs of one byte, which the fastest level keeps small too.
func Write(w io.Writer, h *History, x *testindex.Index, indexSHA string) error {
	if err := aligned(h, x); err != nil {
		return err
	}
	h.Schema, h.Index, h.Tests = Schema, indexSHA, len(x.Entries)
	extra := h.Entries[h.Tests:]
	if !slices.IsSortedFunc(extra, compareEntries) {
		slices.SortFunc(extra, compareEntries)
	}
	zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
	bw := bufio.NewWriterSize(zw, 64<<10)
	head, err := json.Marshal(h.Header)
	if err != nil {
		return fmt.Errorf("history header: %w", err)
	}
	bw.WriteByte('#')
	bw.Write(head)
	bw.WriteByte('\n')
	for _, e := range h.Entries[:h.Tests] {
		bw.WriteString(e.Outcomes)
		bw.WriteByte('\n')
	}
	for _, e := range extra {
		bw.WriteByte(byte(e.Kind))
		bw.WriteByte('\t')
		bw.WriteString(e.Outcomes)
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

// aligned checks that h's first entries are x's, in x's order.
func aligned(h *History, x *testindex.Index) error {
	if len(h.Entries) < len(x.Entries) {
		return fmt.Errorf("history of %d entries for an index of %d", len(h.Entries), len(x.Entries))
	}
	for i, e := range x.Entries {
		if h.Entries[i].Kind != e.Kind || h.Entries[i].Key != e.Key {
			return fmt.Errorf("history entry %d is not the index's", i+1)
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
	h.Entries = make([]Entry, 0, len(x.Entries)+16)
	for n := 2; rest != ""; n++ {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if len(line) > maxLine {
			return nil, fmt.Errorf("line %d: longer than %d bytes", n, maxLine)
		}
		if i := n - 2; i < h.Tests {
			if err := checkOutcomes(line, len(h.Columns)); err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			h.Entries = append(h.Entries, Entry{Kind: x.Entries[i].Kind, Outcomes: line, Key: x.Entries[i].Key})
			continue
		}
		e, err := parseEntry(line, len(h.Columns))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		h.Entries = append(h.Entries, e)
	}
	if len(h.Entries) < h.Tests {
		return nil, fmt.Errorf("%d lines of outcomes, want one for each of the index's %d entries", len(h.Entries), h.Tests)
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
			return fmt.Errorf("outcome %q of run %d: want P, F, E, S, p, f, e or .", s[i], i+1)
		}
	}
	return nil
}

func parseEntry(line string, columns int) (Entry, error) {
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
	if err := checkOutcomes(f[1], columns); err != nil {
		return Entry{}, err
	}
	e := Entry{Kind: testindex.Kind(f[0][0]), Outcomes: f[1]}
	var err error
	for i, dst := range [4]*string{&e.Suite, &e.Class, &e.Name, &e.File} {
		if *dst, err = testindex.UnescapeField(f[i+2]); err != nil {
			return Entry{}, fmt.Errorf("field %d: %w", i+3, err)
		}
	}
	return e, nil
}
