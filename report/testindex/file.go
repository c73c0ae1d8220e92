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
	sortIfNeeded(x)
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
// its number: a damaged index is never read as fewer tests. The text is
// read whole and the entries' strings are pieces of it, so 100,000 tests
// cost one allocation, not one a field.
func Read(r io.Reader) (*Index, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a gzip'd test index: %w", err)
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
	x := &Index{}
	if err := readHeader([]byte(head), &x.Header); err != nil {
		return nil, err
	}
	x.Entries = make([]Entry, 0, strings.Count(rest, "\n"))
	for n := 2; rest != ""; n++ {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if len(line) > maxLine {
			return nil, fmt.Errorf("line %d: longer than %d bytes", n, maxLine)
		}
		e, err := parseEntry(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		x.Entries = append(x.Entries, e)
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

// parseEntry parses one entry line; its fields are pieces of line.
func parseEntry(line string) (Entry, error) {
	var f [5]string
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
	e, err := parseCode(f[0])
	if err != nil {
		return Entry{}, err
	}
	for i, dst := range [4]*string{&e.Suite, &e.Class, &e.Name, &e.File} {
		if *dst, err = unescape(f[i+1]); err != nil {
			return Entry{}, fmt.Errorf("field %d: %w", i+2, err)
		}
	}
	return e, nil
}

func parseCode(code string) (Entry, error) {
	e := Entry{}
	orig := code
	if strings.HasSuffix(code, string(outcomeSep)) {
		e.Flaky, code = true, code[:len(code)-1]
	}
	if len(code) != 2 || strings.IndexByte("tun", code[0]) < 0 || strings.IndexByte("PFES", code[1]) < 0 {
		return Entry{}, fmt.Errorf("kind and outcome %q: want t, u or n and P, F, E or S", orig)
	}
	e.Kind, e.Outcome = Kind(code[0]), Outcome(code[1])
	return e, nil
}

var escaper = strings.NewReplacer("\\", `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)

// escape writes s's backslashes, tabs and line ends as escapes. Most
// names have none; the check runs on every field of every entry, and a
// table costs less than strings.ContainsAny's set built on each call.
func escape(s string) string {
	for i := 0; i < len(s); i++ {
		if escaped[s[i]] {
			return escaper.Replace(s)
		}
	}
	return s
}

// escaped: the bytes escaper replaces.
var escaped = [256]bool{'\\': true, '\t': true, '\n': true, '\r': true}

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
