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

// Write writes h, sorted, to w.
func Write(w io.Writer, h *History) error {
	h.Schema = Schema
	sortIfNeeded(h)
	zw := gzip.NewWriter(w)
	bw := bufio.NewWriterSize(zw, 64<<10)
	head, err := json.Marshal(h.Header)
	if err != nil {
		return fmt.Errorf("history header: %w", err)
	}
	bw.WriteByte('#')
	bw.Write(head)
	bw.WriteByte('\n')
	for _, e := range h.Entries {
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

// WriteFile writes h to path atomically (a temp file, then a rename) and
// returns the file's sha256.
func WriteFile(path string, h *History) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".history-*")
	if err != nil {
		return "", fmt.Errorf("write history: %w", err)
	}
	defer os.Remove(tmp.Name())
	sum := sha256.New()
	if err := Write(io.MultiWriter(tmp, sum), h); err != nil {
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

// Read parses a history. A line that is not an entry, or whose outcomes
// do not cover the header's runs, is an error naming its number: a
// damaged history is never read as a shorter one.
func Read(r io.Reader) (*History, error) {
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
	h.Entries = make([]Entry, 0, strings.Count(rest, "\n"))
	for n := 2; rest != ""; n++ {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if len(line) > maxLine {
			return nil, fmt.Errorf("line %d: longer than %d bytes", n, maxLine)
		}
		e, err := parseEntry(line, len(h.Columns))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		h.Entries = append(h.Entries, e)
	}
	return h, nil
}

// ReadFile reads the history at path.
func ReadFile(path string) (*History, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer f.Close()
	h, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("history %s: %w", path, err)
	}
	return h, nil
}

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
	if len(f[1]) != columns {
		return Entry{}, fmt.Errorf("%d outcomes, want one for each of the %d runs", len(f[1]), columns)
	}
	for i := 0; i < len(f[1]); i++ {
		if strings.IndexByte("PFESpfe.", f[1][i]) < 0 {
			return Entry{}, fmt.Errorf("outcome %q of run %d: want P, F, E, S, p, f, e or .", f[1][i], i+1)
		}
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
