package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
)

// Format names, as summary.source gives them.
const (
	FormatJUnit  = "junit"
	FormatNUnit  = "nunit"
	FormatXUnit  = "xunit"
	FormatTRX    = "trx"
	FormatCTRF   = "ctrf"
	FormatMocha  = "mocha"
	FormatJest   = "jest"
	FormatGoJSON = "gotest"
	FormatDart   = "dart"
	FormatRSpec  = "rspec"
)

// Formats are the formats above, in the order the docs list them (their
// table is generated from it); TestFormatsListsEveryFormat keeps it whole.
var Formats = []string{FormatJUnit, FormatNUnit, FormatXUnit, FormatTRX, FormatCTRF,
	FormatMocha, FormatJest, FormatRSpec, FormatGoJSON, FormatDart}

// fileSink receives one file's test cases. The tally is the file's own,
// merged into the run's only when the whole file was read: a truncated
// file contributes no partial counts.
type fileSink struct {
	t        *tally
	path     string
	format   string
	nameless int
	// file is the open report, for readers that look ahead in it (TRX).
	file *os.File
	// notes say why a file read whole may still not hold the whole run
	// (a stream of events that never says it is done).
	notes []string
}

func (s *fileSink) test(c caseResult) {
	if c.ID.Name == "" {
		// Nameless test cases are distinct tests, told apart by position.
		s.nameless++
		c.ID.Params = fmt.Sprintf("#%d", s.nameless)
	}
	s.t.add(c)
}

// reportRead is what the report files of a run say.
type reportRead struct {
	summary  Summary
	flaky    []TestRef
	warnings []string
	tally    *tally
	// read counts files read whole; broken ones are named in warnings.
	read, broken int
}

// readReports reads each file by the format its content shows. A file
// that is empty, truncated, malformed or of a format not read is a
// warning naming it, and contributes nothing; with no file read at all
// there are no counts.
func readReports(paths []string) reportRead {
	defer lowerMemoryLimit(reportHeapLimit)()
	out := reportRead{tally: newTally()}
	var formats, brokenFormats []string
	for _, p := range paths {
		sink := &fileSink{t: newTally(), path: p}
		err := readReport(p, sink)
		if err != nil {
			out.broken++
			out.warnings = append(out.warnings, fmt.Sprintf("report %s: %v", p, err))
			brokenFormats = addName(brokenFormats, sink.format)
			continue
		}
		out.read++
		formats = addName(formats, sink.format)
		if sink.t.count == 0 && sink.t.fallbackSuites == 0 {
			out.warnings = append(out.warnings, fmt.Sprintf("report %s (%s): holds no test case", p, sink.format))
		}
		for _, n := range sink.notes {
			out.warnings = append(out.warnings, fmt.Sprintf("report %s (%s): %s", p, sink.format, n))
		}
		if sink.t.fallbackSuites > 0 {
			out.warnings = append(out.warnings, fmt.Sprintf("report %s (%s): %d suites list no test case; their own attributes are counted, unverified", p, sink.format, sink.t.fallbackSuites))
		}
		out.tally.absorb(sink.t)
	}
	if out.read == 0 {
		src := strings.Join(brokenFormats, "+")
		if src == "" {
			src = "unknown"
		}
		out.summary = Summary{Source: src}
		return out
	}
	out.summary = out.tally.summary(strings.Join(formats, "+"))
	out.flaky = out.tally.flaky()
	return out
}

func addName(names []string, n string) []string {
	if n == "" || slices.Contains(names, n) {
		return names
	}
	return append(names, n)
}

var errEmpty = errors.New("the file is empty")

// reportHeapLimit is the soft heap limit while report files are read. The
// live heap is the tally (about 200 bytes a test); the rest is the XML
// decoder's garbage, which the default pacing lets grow to twice the live
// heap: a 1 GiB TRX of 131,072 results peaked at 121 MiB RSS without it.
// Past the limit the runtime collects more often, never fails.
const reportHeapLimit = 40 << 20

// lowerMemoryLimit lowers the process's soft memory limit to limit (never
// raises it: GOMEMLIMIT or a caller's lower limit stands) and returns what
// restores it.
func lowerMemoryLimit(limit int64) func() {
	prev := debug.SetMemoryLimit(-1)
	if prev <= limit {
		return func() {}
	}
	debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(prev) }
}

// readReport detects the format from the content and streams the file.
func readReport(path string, sink *fileSink) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sink.file = f
	br := bufio.NewReaderSize(f, 64<<10)
	format, parse, err := detect(br)
	sink.format = format
	if err != nil {
		return err
	}
	if err := parse(br, sink); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected EOF") {
			return fmt.Errorf("%s: truncated: %w", format, err)
		}
		return fmt.Errorf("%s: malformed: %w", format, err)
	}
	return nil
}

type parser func(io.Reader, *fileSink) error

// xmlRoots maps a report's root element to its format.
var xmlRoots = map[string]struct {
	format string
	parse  parser
}{
	"testsuites": {FormatJUnit, parseJUnit}, "testsuite": {FormatJUnit, parseJUnit},
	"test-run": {FormatNUnit, parseNUnit}, "test-results": {FormatNUnit, parseNUnit}, "test-suite": {FormatNUnit, parseNUnit},
	"assemblies": {FormatXUnit, parseXUnit}, "assembly": {FormatXUnit, parseXUnit},
	"TestRun": {FormatTRX, parseTRX},
}

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
		if f, ok := xmlRoots[root]; ok {
			return f.format, f.parse, nil
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

// detectJSON: a first line that is a whole object with "Action" is go
// test -json, with "protocolVersion" Dart's; anything else is one JSON
// document whose keys say what it is.
func detectJSON(head []byte) (string, parser, error) {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	var first map[string]json.RawMessage
	if json.Unmarshal(line, &first) == nil {
		switch {
		case first["Action"] != nil:
			return FormatGoJSON, parseGoJSON, nil
		case first["protocolVersion"] != nil || first["type"] != nil && first["time"] != nil:
			return FormatDart, parseDart, nil
		}
	}
	return "json", parseJSONReport, nil
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
