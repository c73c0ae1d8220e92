package lines

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// reference splits b as Reader must: lines after each '\n', the last one
// possibly without.
func reference(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return append(out, b)
		}
		out, b = append(out, b[:i+1]), b[i+1:]
	}
	return out
}

// checkLines reads b through a Reader keeping keep bytes and compares each
// line with the reference. Reads come one byte at a time when slow, so
// every line crosses refills.
func checkLines(t *testing.T, b []byte, keep int, slow bool) {
	t.Helper()
	var r io.Reader = bytes.NewReader(b)
	if slow {
		r = iotest.OneByteReader(r)
	}
	lr := NewReader(r, keep, 0)
	for i, want := range reference(b) {
		got, err := lr.Next()
		if err != nil {
			t.Fatalf("line %d of %q: %v", i+1, b, err)
		}
		prefix := want[:min(len(want), keep)]
		dirty := bytes.IndexByte(want, 0x1b) >= 0 || bytes.IndexByte(want, '\r') >= 0
		if got.Len != int64(len(want)) || !bytes.Equal(got.Prefix, prefix) || got.NL != (want[len(want)-1] == '\n') ||
			got.Cut != (len(want) > keep) || dirty && !got.Dirty {
			t.Fatalf("line %d of %q: got %+v, want %q (dirty %v)", i+1, b, got, want, dirty)
		}
	}
	if _, err := lr.Next(); err != io.EOF {
		t.Fatalf("after the last line of %q: %v, want io.EOF", b, err)
	}
}

func TestReader(t *testing.T) {
	long := strings.Repeat("x", 3*ReadBlock+5)
	for name, in := range map[string]string{
		"empty":              "",
		"one line":           "a\n",
		"no final newline":   "a\nb",
		"blank lines":        "\n\n\n",
		"escape and return":  "a\x1b[31mred\n\rx\nplain\n",
		"longer than keep":   strings.Repeat("y", 40) + "\nafter\n",
		"longer than buffer": "before\n" + long + "\nafter\x1b\n" + long,
	} {
		t.Run(name, func(t *testing.T) {
			checkLines(t, []byte(in), 16, false)
			if len(in) < 1000 {
				checkLines(t, []byte(in), 16, true)
			}
		})
	}
}

func TestSkip(t *testing.T) {
	lr := NewReader(iotest.OneByteReader(strings.NewReader("ab\ncd\nef\n")), 16, 0)
	if n, last, err := lr.Skip(0); n != 0 || last != '\n' || err != nil {
		t.Errorf("Skip(0) = %d, %q, %v", n, last, err)
	}
	if n, last, err := lr.Skip(4); n != 1 || last != 'c' || err != nil {
		t.Errorf("Skip(4) = %d, %q, %v; want 1, 'c'", n, last, err)
	}
	if l, err := lr.Next(); err != nil || string(l.Prefix) != "d\n" {
		t.Errorf("after the skip: %q, %v", l.Prefix, err)
	}
	if _, _, err := lr.Skip(10); err != io.ErrUnexpectedEOF {
		t.Errorf("Skip past the end: %v", err)
	}
}

// TestBufferBounded: a reader of a long stream holds at most ReadBlock
// bytes of it, whatever its line lengths.
func TestBufferBounded(t *testing.T) {
	in := strings.Repeat(strings.Repeat("z", 5*ReadBlock)+"\n", 3)
	lr := NewReader(strings.NewReader(in), 4096, ReadBlock)
	for {
		if _, err := lr.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if cap(lr.buf) > ReadBlock || cap(lr.long) > 4096 {
			t.Fatalf("buffer %d, kept line %d bytes", cap(lr.buf), cap(lr.long))
		}
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte("a\nb\x1b[1m\r\n\nlast"), uint8(4))
	f.Add([]byte(strings.Repeat("x", 100)+"\n"), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, keep uint8) {
		k := int(keep%64) + 1
		checkLines(t, b, k, false)
		checkLines(t, b, k, true)
	})
}
