package testreport

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	junit "github.com/joshdk/go-junit"
	"github.com/runledger/runledger/report/testindex"
)

func init() {
	register(Format{Name: FormatJUnit, XMLRoots: []string{"testsuites", "testsuite"},
		TestElement: "testcase", TestNameAttr: "name", FailureElements: []string{"failure", "error"}, parse: parseJUnit})
}

// JUnit XML (Surefire, pytest, jest-junit, go-junit-report, PHPUnit, node
// --test, …) is read by github.com/joshdk/go-junit, which takes whole
// documents. So that a file of any size is read in bounded memory, the
// file is tokenised here and its test cases are handed to go-junit a run
// at a time: the test cases of one suite, re-encoded as a suite of their
// own, cut at a suite's start and end and every segmentBytes. What
// go-junit does not carry is noted on the way (see README.md):
//   - the suites' nesting and their count attributes, for suites that list
//     no test case; a test case's suite is the innermost enclosing one, and
//     a test case outside any suite (node --test) has none;
//   - the worst of a test case's result elements (error > failure >
//     skipped; go-junit keeps the last), and a status attribute that says
//     it did not run;
//   - Surefire's flakyFailure and flakyError: failed attempts before a pass.
//
// Captured output (system-out, system-err) is not handed on: no count or
// message needs it.

// segmentBytes and segmentCases bound one run of test cases handed to
// go-junit, which holds about four copies of what it is given and a map
// for each element's attributes: small runs keep the heap, and the
// collector's work under reportHeapLimit, small.
const (
	segmentBytes = 1 << 20
	segmentCases = 512
)

// junitRank orders a test case's result elements: the worst decides.
var junitRank = map[string]int{"skipped": 1, "failure": 2, "error": 3}

var junitOutcome = map[int]testindex.Outcome{0: testindex.Passed, 1: testindex.Skipped, 2: testindex.Failed, 3: testindex.Errored}

// junitSuite is an open <testsuite>: its name and its own counts.
type junitSuite struct {
	name                           string
	cases                          bool
	tests, failed, errors, skipped int
	hasCounts                      bool
}

// caseNotes is what the tokeniser notes of one test case.
type caseNotes struct {
	rank  int
	flaky bool
}

// junitCutter cuts a JUnit document into runs of test cases.
type junitCutter struct {
	sink   *fileSink
	d      *xml.Decoder
	suites []junitSuite
	stack  []string
	// caseDepth is the depth of the open <testcase>, 0 outside one.
	caseDepth int
	seg       bytes.Buffer
	notes     []caseNotes
	err       error
}

func parseJUnit(r io.Reader, sink *fileSink) error {
	c := &junitCutter{sink: sink, d: newXMLDecoder(r)}
	if err := c.run(); err != nil {
		return err
	}
	return c.err
}

func (c *junitCutter) run() error {
	roots := 0
	for {
		tok, err := c.d.Token()
		if errors.Is(err, io.EOF) {
			switch {
			case len(c.stack) > 0:
				return fmt.Errorf("unexpected EOF: <%s> is not closed", c.stack[len(c.stack)-1])
			case roots == 0:
				return errors.New("no root element")
			}
			return c.flush()
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(c.stack) == 0 {
				roots++
			}
			if err := c.start(t); err != nil {
				return err
			}
		case xml.EndElement:
			if len(c.stack) == 0 {
				return fmt.Errorf("</%s> closes no element", t.Name.Local)
			}
			if err := c.end(); err != nil {
				return err
			}
		case xml.CharData:
			if c.caseDepth > 0 {
				xml.EscapeText(&c.seg, t)
			}
		}
	}
}

func (c *junitCutter) start(el xml.StartElement) error {
	name := el.Name.Local
	depth := len(c.stack) + 1
	switch {
	case c.caseDepth > 0 && depth == c.caseDepth+1 && (name == "system-out" || name == "system-err"):
		return c.d.Skip() // output: neither counted nor quoted from here
	case c.caseDepth > 0:
		if c.stack[len(c.stack)-1] == "testcase" {
			// A result of the case, or of a test case nested in it
			// (malformed, but its failure must not read as a pass).
			c.child(name)
		}
		writeStart(&c.seg, el)
	case name == "testsuite":
		if err := c.flush(); err != nil {
			return err
		}
		c.openSuite(el)
	case name == "testcase":
		c.startCase(el, depth)
	}
	c.stack = append(c.stack, name)
	return nil
}

func (c *junitCutter) end() error {
	depth := len(c.stack)
	name := c.stack[depth-1]
	c.stack = c.stack[:depth-1]
	switch {
	case c.caseDepth > 0:
		fmt.Fprintf(&c.seg, "</%s>", name)
		if depth == c.caseDepth {
			c.caseDepth = 0
			if c.seg.Len() >= segmentBytes || len(c.notes) >= segmentCases {
				return c.flush()
			}
		}
	case name == "testsuite":
		if err := c.flush(); err != nil {
			return err
		}
		c.closeSuite()
	}
	return nil
}

func (c *junitCutter) openSuite(el xml.StartElement) {
	s := junitSuite{name: attr(el, "name")}
	var ok [4]bool
	s.tests, ok[0] = attrInt(el, "tests")
	s.failed, ok[1] = attrInt(el, "failures")
	s.errors, ok[2] = attrInt(el, "errors")
	s.skipped, ok[3] = attrInt(el, "skipped")
	if d, ok := attrInt(el, "disabled"); ok {
		s.skipped += d
	}
	s.hasCounts = ok[0]
	if len(c.suites) > 0 {
		c.suites[len(c.suites)-1].cases = true // a parent's counts include this suite's
	}
	c.suites = append(c.suites, s)
}

// closeSuite counts a suite that listed no test case by its attributes.
func (c *junitCutter) closeSuite() {
	if len(c.suites) == 0 {
		return
	}
	s := c.suites[len(c.suites)-1]
	c.suites = c.suites[:len(c.suites)-1]
	if !s.cases && s.hasCounts && s.tests > 0 {
		if err := c.sink.t.addSuiteCounts(s.tests, s.failed, s.errors, s.skipped); err != nil && c.err == nil {
			c.err = fmt.Errorf("testsuite %q lists no test case and %w", s.name, err)
		}
	}
}

func (c *junitCutter) startCase(el xml.StartElement, depth int) {
	if len(c.suites) > 0 {
		c.suites[len(c.suites)-1].cases = true
	}
	if c.seg.Len() == 0 {
		c.seg.WriteString("<testsuite>")
	}
	c.caseDepth = depth
	n := caseNotes{}
	switch strings.ToLower(attr(el, "status")) {
	case "disabled", "skipped", "skip", "notrun", "not run", "ignored", "pending":
		n.rank = 1
	}
	c.notes = append(c.notes, n)
	writeStart(&c.seg, el)
}

// child notes a result element of the open test case.
func (c *junitCutter) child(name string) {
	n := &c.notes[len(c.notes)-1]
	switch name {
	case "flakyFailure", "flakyError":
		n.flaky = true
	}
	if r, ok := junitRank[name]; ok && r > n.rank {
		n.rank = r
	}
}

// flush hands the test cases cut so far to go-junit, and each to the sink.
func (c *junitCutter) flush() error {
	if len(c.notes) == 0 {
		return nil
	}
	c.seg.WriteString("</testsuite>")
	suites, err := junit.Ingest(c.seg.Bytes())
	if err != nil {
		return fmt.Errorf("go-junit: %w", err)
	}
	if len(suites) != 1 || len(suites[0].Tests) != len(c.notes) {
		return fmt.Errorf("go-junit read %d suites where one of %d test cases was given", len(suites), len(c.notes))
	}
	suite := ""
	if len(c.suites) > 0 {
		suite = c.suites[len(c.suites)-1].name
	}
	for i, t := range suites[0].Tests {
		c.sink.test(junitCase(t, c.notes[i], suite))
	}
	c.seg.Reset()
	c.notes = c.notes[:0]
	return nil
}

// junitCase is one test case: go-junit's names, attributes and failure,
// with the notes' verdict.
func junitCase(t junit.Test, n caseNotes, suite string) caseResult {
	id := TestID{Name: t.Name, Classname: t.Classname, File: t.Properties["file"], Suite: suite}
	cr := caseResult{ID: id, Outcome: junitOutcome[n.rank], Flaky: n.flaky}
	if line, err := strconv.Atoi(t.Properties["line"]); err == nil {
		cr.Line = line
	}
	if e, ok := t.Error.(junit.Error); ok && n.rank > 1 {
		cr.Message = e.Message
		if cr.Message == "" {
			cr.Message = strings.TrimSpace(e.Body[:min(len(e.Body), maxMessageBytes)])
		}
	}
	return cr
}

// writeStart writes a start tag with its attributes by their local names
// (namespace declarations left out), escaped, for go-junit's strict
// decoder: what the lenient one accepted (HTML entities, latin-1) is
// UTF-8 and well-formed by now.
func writeStart(b *bytes.Buffer, el xml.StartElement) {
	b.WriteByte('<')
	b.WriteString(el.Name.Local)
	for _, a := range el.Attr {
		if a.Name.Space == "xmlns" || a.Name.Local == "xmlns" {
			continue
		}
		fmt.Fprintf(b, ` %s="`, a.Name.Local)
		xml.EscapeText(b, []byte(a.Value))
		b.WriteByte('"')
	}
	b.WriteByte('>')
}
