package testindex

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
)

// Bounds on what Read accepts, so that a hostile or broken file costs
// bounded memory: 256 MiB of text, lines of 1 MiB.
const (
	maxText = 256 << 20
	maxLine = 1 << 20
)

// Write writes x, sorted, to w.
func Write(w io.Writer, x *Index) error {
	x.Schema = Schema
	x.Sort()
	zw := gzip.NewWriter(w)
	bw := bufio.NewWriterSize(zw, 64<<10)
	head, err := json.Marshal(x.Header)
	if err != nil {
		return fmt.Errorf("index header: %w", err)
	}
	bw.WriteByte('#')
	bw.Write(head)
	bw.WriteByte('\n')
	for _, e := range x.Entries {
		bw.WriteByte(byte(e.Kind))
		bw.WriteByte(byte(e.Outcome))
		if e.Flaky {
			bw.WriteByte(outcomeSep)
		}
		for _, f := range []string{e.Suite, e.Class, e.Name, e.File} {
			bw.WriteByte('\t')
			bw.WriteString(escape(f))
		}
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// WriteFile writes x to path atomically (a temp file, then a rename), so a
// reader never sees half an index, and returns the file's sha256.
func WriteFile(path string, x *Index) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tests-*")
	if err != nil {
		return "", fmt.Errorf("write test index: %w", err)
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	if err := Write(io.MultiWriter(tmp, h), x); err != nil {
		tmp.Close()
		return "", fmt.Errorf("write test index %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("write test index %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("write test index: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Read parses an index. Any line that is not an entry is an error naming
// its number: a damaged index is never read as fewer tests.
func Read(r io.Reader) (*Index, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a gzip'd test index: %w", err)
	}
	lim := &io.LimitedReader{R: zr, N: maxText + 1}
	sc := bufio.NewScanner(lim)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	x := &Index{}
	n := 0
	for sc.Scan() {
		n++
		if n == 1 {
			if err := readHeader(sc.Bytes(), &x.Header); err != nil {
				return nil, err
			}
			continue
		}
		e, err := parseEntry(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		x.Entries = append(x.Entries, e)
	}
	switch {
	case lim.N <= 0:
		return nil, fmt.Errorf("more than %d MiB of text", maxText>>20)
	case sc.Err() != nil:
		return nil, fmt.Errorf("line %d: %w", n+1, sc.Err())
	case n == 0:
		return nil, errors.New("empty: no header line")
	}
	return x, nil
}

// ReadFile reads the index at path.
func ReadFile(path string) (*Index, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("test index: %w", err)
	}
	defer f.Close()
	x, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("test index %s: %w", path, err)
	}
	return x, nil
}

func readHeader(line []byte, h *Header) error {
	if !bytes.HasPrefix(line, []byte("#")) {
		return errors.New("line 1: no header (want # and a JSON object)")
	}
	if err := json.Unmarshal(line[1:], h); err != nil {
		return fmt.Errorf("line 1: header: %w", err)
	}
	if h.Schema != Schema {
		return fmt.Errorf("line 1: schema %q, want %q", h.Schema, Schema)
	}
	return nil
}

func parseEntry(line string) (Entry, error) {
	f := strings.Split(line, "\t")
	if len(f) != 5 {
		return Entry{}, fmt.Errorf("%d fields, want 5", len(f))
	}
	code := f[0]
	e := Entry{}
	if strings.HasSuffix(code, string(outcomeSep)) {
		e.Flaky, code = true, code[:len(code)-1]
	}
	if len(code) != 2 || !strings.ContainsRune("tun", rune(code[0])) || !strings.ContainsRune("PFES", rune(code[1])) {
		return Entry{}, fmt.Errorf("kind and outcome %q: want t, u or n and P, F, E or S", f[0])
	}
	e.Kind, e.Outcome = Kind(code[0]), Outcome(code[1])
	var err error
	for i, p := range []*string{&e.Suite, &e.Class, &e.Name, &e.File} {
		if *p, err = unescape(f[i+1]); err != nil {
			return Entry{}, fmt.Errorf("field %d: %w", i+2, err)
		}
	}
	return e, nil
}

var escaper = strings.NewReplacer("\\", `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)

func escape(s string) string {
	if !strings.ContainsAny(s, "\\\t\n\r") {
		return s
	}
	return escaper.Replace(s)
}

func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 == len(s) {
			return "", errors.New("ends inside an escape")
		}
		i++
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		default:
			return "", fmt.Errorf("unknown escape \\%c", s[i])
		}
	}
	return b.String(), nil
}
