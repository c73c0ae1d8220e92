package testreport

import (
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
