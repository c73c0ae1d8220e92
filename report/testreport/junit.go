package testreport

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/runledger/runledger/report/testindex"
)

func init() {
	register(Format{Name: FormatJUnit, XMLRoots: []string{"testsuites", "testsuite"},
		TestElement: "testcase", TestNameAttr: "name", FailureElements: []string{"failure", "error"}, parse: parseJUnit})
}

// junitReader streams JUnit XML (Surefire, pytest, jest-junit, go-junit-
// report, PHPUnit, …): a test case is any <testcase> inside the document,
// its suite the innermost enclosing <testsuite>. Its verdict is the worst
// of its result children (error > failure > skipped), or a status
// attribute that says it did not run.
type junitReader struct {
	sink   *fileSink
	suites []junitSuite
	cur    *caseResult
	rank   int
	msg    textBuf
	// msgAttr: the failure's message attribute, preferred to its text.
	msgAttr string
	err     error
}

type junitSuite struct {
	name                           string
	cases                          bool
	tests, failed, errors, skipped int
	hasCounts                      bool
}

func parseJUnit(r io.Reader, sink *fileSink) error {
	sink.format = FormatJUnit
	j := &junitReader{sink: sink}
	if err := walkXML(r, j); err != nil {
		return err
	}
	return j.err
}

var junitRank = map[string]int{"skipped": 1, "failure": 2, "error": 3}

var junitOutcome = map[int]testindex.Outcome{0: testindex.Passed, 1: testindex.Skipped, 2: testindex.Failed, 3: testindex.Errored}

func (j *junitReader) start(el xml.StartElement, stack []string) error {
	switch name := el.Name.Local; {
	case name == "testsuite" && j.cur == nil:
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
		if len(j.suites) > 0 {
			j.suites[len(j.suites)-1].cases = true // a parent's counts include this suite's
		}
		j.suites = append(j.suites, s)
	case name == "testcase" && j.cur == nil:
		j.startCase(el)
	case j.cur != nil && len(stack) >= 2 && stack[len(stack)-2] == "testcase":
		j.child(el)
	}
	return nil
}

func (j *junitReader) startCase(el xml.StartElement) {
	id := TestID{Name: attr(el, "name"), Classname: attr(el, "classname"), File: attr(el, "file")}
	if len(j.suites) > 0 {
		id.Suite = j.suites[len(j.suites)-1].name
		j.suites[len(j.suites)-1].cases = true
	}
	j.cur, j.rank = &caseResult{ID: id}, 0
	if n, err := strconv.Atoi(attr(el, "line")); err == nil {
		j.cur.Line = n
	}
	switch strings.ToLower(attr(el, "status")) {
	case "disabled", "skipped", "skip", "notrun", "not run", "ignored", "pending":
		j.rank = 1
	}
}

func (j *junitReader) child(el xml.StartElement) {
	name := el.Name.Local
	switch name {
	case "flakyFailure", "flakyError":
		j.cur.Flaky = true
	}
	r, ok := junitRank[name]
	if !ok || r < j.rank {
		return
	}
	j.rank = r
	j.msgAttr = attr(el, "message")
	j.msg.take()
	j.msg.on = r > 1
}

func (j *junitReader) text(b []byte) { j.msg.add(b) }

func (j *junitReader) end(name string, stack []string) {
	switch {
	case j.cur != nil && (name == "failure" || name == "error") && j.msg.on:
		body := j.msg.take()
		j.cur.Message = j.msgAttr
		if j.cur.Message == "" {
			j.cur.Message = body
		}
	case name == "testcase" && j.cur != nil && len(stack) >= 1:
		if !isOpenCase(stack) {
			j.cur.Outcome = junitOutcome[j.rank]
			j.sink.test(*j.cur)
			j.cur = nil
		}
	case name == "testsuite" && j.cur == nil && len(j.suites) > 0:
		s := j.suites[len(j.suites)-1]
		j.suites = j.suites[:len(j.suites)-1]
		if !s.cases && s.hasCounts && s.tests > 0 {
			if err := j.sink.t.addSuiteCounts(s.tests, s.failed, s.errors, s.skipped); err != nil && j.err == nil {
				j.err = fmt.Errorf("testsuite %q lists no test case and %w", s.name, err)
			}
		}
	}
}

// isOpenCase: the closing testcase is nested in another still open one.
func isOpenCase(stack []string) bool {
	for _, n := range stack[:len(stack)-1] {
		if n == "testcase" {
			return true
		}
	}
	return false
}
