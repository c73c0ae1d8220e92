package testreport

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// xmlHandler gets a report's elements one at a time: stack holds the open
// elements' local names, the element itself last.
type xmlHandler interface {
	start(el xml.StartElement, stack []string) error
	end(name string, stack []string)
	text(b []byte)
}

// walkXML streams r to h. Only the open elements' names are kept, so a
// file of any size is read in constant memory beyond what h keeps. A file
// that ends with elements still open is truncated.
func walkXML(r io.Reader, h xmlHandler) error {
	d := newXMLDecoder(r)
	var stack []string
	roots := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			switch {
			case len(stack) > 0:
				return fmt.Errorf("unexpected EOF: <%s> is not closed", stack[len(stack)-1])
			case roots == 0:
				return errors.New("no root element")
			}
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) == 0 {
				roots++
			}
			stack = append(stack, t.Name.Local)
			if err := h.start(t, stack); err != nil {
				return err
			}
		case xml.EndElement:
			if len(stack) == 0 {
				return fmt.Errorf("</%s> closes no element", t.Name.Local)
			}
			h.end(stack[len(stack)-1], stack)
			stack = stack[:len(stack)-1]
		case xml.CharData:
			h.text(t)
		}
	}
}

func attr(el xml.StartElement, name string) string {
	v := ""
	for _, a := range el.Attr {
		if a.Name.Local == name {
			v = a.Value
		}
	}
	return v
}

func attrInt(el xml.StartElement, name string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(attr(el, name)))
	return n, err == nil
}

// textBuf keeps the first bytes of an element's text: enough for a
// message, never a whole stack trace or output.
type textBuf struct {
	on bool
	b  []byte
}

const maxMessageBytes = 4 << 10

func (t *textBuf) add(b []byte) {
	if t.on && len(t.b) < maxMessageBytes {
		t.b = append(t.b, b[:min(len(b), maxMessageBytes-len(t.b))]...)
	}
}

func (t *textBuf) take() string {
	s := strings.TrimSpace(string(t.b))
	t.on, t.b = false, t.b[:0]
	return s
}

// newXMLDecoder reads XML as the report tools write it: HTML entities
// and latin-1 declarations are accepted.
func newXMLDecoder(r io.Reader) *xml.Decoder {
	d := xml.NewDecoder(r)
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = charsetReader
	return d
}

func charsetReader(label string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return r, nil
	case "iso-8859-1", "latin1", "latin-1", "windows-1252", "cp1252":
		return &latin1Reader{r: bufio.NewReader(r)}, nil
	}
	return nil, fmt.Errorf("encoding %q is not read", label)
}

// latin1Reader turns ISO-8859-1 bytes into UTF-8.
type latin1Reader struct {
	r   *bufio.Reader
	buf []byte
}

func (l *latin1Reader) Read(p []byte) (int, error) {
	for len(l.buf) < len(p) {
		b, err := l.r.ReadByte()
		if err != nil {
			if len(l.buf) > 0 {
				break
			}
			return 0, err
		}
		if b < 0x80 {
			l.buf = append(l.buf, b)
		} else {
			l.buf = append(l.buf, 0xc0|b>>6, 0x80|b&0x3f)
		}
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}
