package excerpt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/runledger/runledger/logread"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report/internal/xmlattr"
	"github.com/runledger/runledger/report/testreport"
)

// Bounds on what is quoted from report files: the log's evidence comes
// first, these only fill in for failures it does not show.
const (
	reportQuoteBytes   = 4 << 10 // all report-file quotes of a run
	reportElementBytes = 1 << 10 // one <failure> or <error> element
	reportMaxFileBytes = 32 << 20
)

// reportElement is the byte range of one failure element of a report
// file, and the test it belongs to.
type reportElement struct {
	name, classname, message string
	start, end               int64
}

// failureElements finds the failure elements inside tests of an XML report
// file, at most max of them, with their exact byte ranges, and the
// format its root element names.
func failureElements(r io.Reader, max int) ([]reportElement, string, error) {
	d := xml.NewDecoder(r)
	d.Strict = false
	var out []reportElement
	var name, class, runner string
	tables := testreport.XMLTables()
	depth, testDepth := 0, 0
	for len(out) < max {
		start := d.InputOffset()
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out, runner, nil
		}
		if err != nil {
			return out, runner, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			if depth == testDepth {
				name, class, testDepth = "", "", 0
			}
			depth--
			continue
		case xml.StartElement:
			depth++
			if depth == 1 {
				if f := testreport.ByXMLRoot(t.Name.Local); f != nil {
					runner = f.Name
				}
			}
			if attrName, ok := tables.Tests[t.Name.Local]; ok && testDepth == 0 {
				name, class, testDepth = xmlattr.Get(t, attrName), xmlattr.Get(t, "classname"), depth
				continue
			}
			if !tables.Failures[t.Name.Local] || testDepth == 0 {
				continue
			}
			msg := xmlattr.Get(t, "message")
			if err := d.Skip(); err != nil {
				return out, runner, err
			}
			depth--
			out = append(out, reportElement{name: name, classname: class, message: msg, start: start, end: d.InputOffset()})
		}
	}
	return out, runner, nil
}

// ReportFiles quotes, from the report files the run wrote (the copies in
// its directory), the <failure> and <error> elements of failing tests
// that the log's excerpts do not already explain: Gradle and many runners
// print a test's name and keep its message and stack in the XML. Each
// excerpt cites its file as stream "junit/NNN-name.xml", with that file's
// own byte range and hash, readable with show --stream.
func ReportFiles(dir string, r *record.Record, have []Excerpt) ([]Excerpt, []string) {
	var out []Excerpt
	var warnings []string
	left := int64(reportQuoteBytes)
	for _, j := range r.JUnit {
		if left <= 0 {
			break
		}
		name := filepath.ToSlash(j.Stored)
		s, ok := logread.JUnitStream(r, name)
		if !ok || j.Bytes > reportMaxFileBytes {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, "junit", s.File))
		if err != nil || int64(len(data)) != j.Bytes || sha(data) != j.SHA256 {
			warnings = append(warnings, fmt.Sprintf("%s: not quoted: it does not match its record", name))
			continue
		}
		elems, runner, err := failureElements(bytes.NewReader(data), 200)
		if err != nil && len(elems) == 0 {
			continue
		}
		for _, e := range elems {
			if left <= 0 {
				break
			}
			if explained(e, have) || explained(e, out) {
				continue
			}
			end := min(e.end, e.start+min(reportElementBytes, left))
			ex := reportExcerpt(name, data, e, end)
			if runner != "" {
				ex.Runner = runner
			}
			out = append(out, ex)
			left -= end - e.start
		}
	}
	return out, warnings
}

// explained reports whether an excerpt already speaks for the failing
// test: it names it, or quotes its message.
func explained(e reportElement, xs []Excerpt) bool {
	msg := strings.TrimSpace(e.message)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	for _, x := range xs {
		t := x.Test
		if t != "" && (t == e.name || strings.HasSuffix(t, "/"+e.name) || strings.HasSuffix(t, "::"+e.name) ||
			strings.HasSuffix(t, "."+e.name) || strings.HasSuffix(t, " › "+e.name) || strings.Contains(t, e.name+"(")) {
			return true
		}
		if len(msg) >= 8 && strings.Contains(x.Text, msg) {
			return true
		}
	}
	return false
}

func reportExcerpt(stream string, data []byte, e reportElement, end int64) Excerpt {
	if end < e.end { // a cut, never inside a character or an escape
		end = e.start + int64(SafeCut(data[e.start:e.end], 0, int(end-e.start)))
	}
	raw := data[e.start:end]
	sum := sha256.Sum256(raw)
	first := int64(bytes.Count(data[:e.start], []byte{'\n'})) + 1
	x := Excerpt{Stream: stream, Start: e.start, End: end, FirstLine: first,
		LastLine: first + int64(bytes.Count(raw[:max(len(raw)-1, 0)], []byte{'\n'})),
		Reason:   "failure", Test: e.name, Role: "junit", Runner: "junit",
		SHA256: hex.EncodeToString(sum[:]), Text: Text(raw), Raw: raw}
	if end < e.end {
		x.Note = fmt.Sprintf("the element continues for %d more bytes", e.end-end)
	}
	return x
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
