package testreport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
)

// Format is one report file format: what in a file's content says it is
// of this format, and how it is read. Each format registers itself from
// its own file; the tables the readers and the excerpts use are built
// from the registry, so a format is told apart in one place.
type Format struct {
	// Name is the format as summary.source gives it.
	Name string

	// XMLRoots are the root elements of the format's XML files.
	XMLRoots []string
	// TestElement is the element of one test, TestNameAttr its attribute
	// naming the test, FailureElements the elements a failing test's
	// details sit in (for excerpts that quote them).
	TestElement, TestNameAttr string
	FailureElements           []string

	// FirstLine says whether a file whose first line is this JSON object
	// is an event stream of this format (one JSON object a line).
	FirstLine func(first map[string]json.RawMessage) bool

	// JSONKeys are the top-level keys of a JSON document that say it is of
	// this format; readKey reads one such key's value.
	JSONKeys []string
	readKey  func(d *json.Decoder, key string, sink *fileSink) error

	// parse reads a whole file (XML, event streams).
	parse parser
}

type parser func(io.Reader, *fileSink) error

var formats []*Format

// register adds a format. Two formats claiming one root element or key
// would make detection depend on registration order: that panics at
// start-up, and TestRegistry runs it.
func register(f Format) {
	for _, o := range formats {
		for _, r := range f.XMLRoots {
			if slices.Contains(o.XMLRoots, r) {
				panic(fmt.Sprintf("testreport: formats %s and %s both claim XML root <%s>", o.Name, f.Name, r))
			}
		}
		for _, k := range f.JSONKeys {
			if slices.Contains(o.JSONKeys, k) {
				panic(fmt.Sprintf("testreport: formats %s and %s both claim JSON key %q", o.Name, f.Name, k))
			}
		}
	}
	formats = append(formats, &f)
}

// ByXMLRoot is the format whose files have the root element root, or nil.
func ByXMLRoot(root string) *Format {
	for _, f := range formats {
		if slices.Contains(f.XMLRoots, root) {
			return f
		}
	}
	return nil
}

func byJSONKey(key string) *Format {
	for _, f := range formats {
		if slices.Contains(f.JSONKeys, key) {
			return f
		}
	}
	return nil
}

// XMLElements is what the XML formats name tests and failures with: the
// test elements, each with the attribute that names its test, and the
// elements a failure's details sit in.
type XMLElements struct {
	Tests    map[string]string
	Failures map[string]bool
}

// XMLTables are the test and failure elements of every XML format (the
// excerpts find failures with them in a file of any XML format).
var XMLTables = sync.OnceValue(func() XMLElements {
	x := XMLElements{Tests: map[string]string{}, Failures: map[string]bool{}}
	for _, f := range formats {
		if f.TestElement != "" {
			x.Tests[f.TestElement] = f.TestNameAttr
		}
		for _, e := range f.FailureElements {
			x.Failures[e] = true
		}
	}
	return x
})

// detect looks at the head of the file: the root element of XML, the
// shape of JSON. The file name is not consulted.
func detect(br *bufio.Reader) (string, parser, error) {
	head, err := br.Peek(64 << 10)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return "", nil, err
	}
	if bytes.HasPrefix(head, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
		head = head[3:]
	}
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case len(trimmed) == 0:
		return "", nil, errEmpty
	case trimmed[0] == '<':
		root, err := xmlRoot(head)
		if err != nil {
			return "", nil, fmt.Errorf("XML with no root element found: %w", err)
		}
		if f := ByXMLRoot(root); f != nil {
			return f.Name, f.parse, nil
		}
		return "", nil, fmt.Errorf("XML with root <%s> is not a test report format runledger reads", root)
	case trimmed[0] == '{':
		return detectJSON(trimmed)
	case trimmed[0] == '[':
		return "json", nil, errors.New("a JSON array is none of the formats runledger reads (mocha, jest, RSpec, CTRF, go test -json, Dart)")
	}
	return "", nil, errors.New("neither XML nor JSON: not a test report format runledger reads")
}

func xmlRoot(head []byte) (string, error) {
	d := newXMLDecoder(bytes.NewReader(head))
	for {
		tok, err := d.Token()
		if err != nil {
			return "", err
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name.Local, nil
		}
	}
}

// detectJSON: a first line that is a whole object an event-stream format
// recognises is that format (go test -json, Dart); anything else is one
// JSON document whose keys say what it is.
func detectJSON(head []byte) (string, parser, error) {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	var first map[string]json.RawMessage
	if json.Unmarshal(line, &first) == nil {
		for _, f := range formats {
			if f.FirstLine != nil && f.FirstLine(first) {
				return f.Name, f.parse, nil
			}
		}
	}
	return "json", parseJSONReport, nil
}

// Names are the registered formats' names (summary.source), in the order
// they registered; the docs' format table is generated from it.
func Names() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name
	}
	return names
}
