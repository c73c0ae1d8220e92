package testreport

import (
	"encoding/xml"
	"io"
	"strings"

	"github.com/runledger/runledger/report/testindex"
)

func init() {
	register(Format{Name: FormatNUnit, XMLRoots: []string{"test-run", "test-results", "test-suite"},
		TestElement: "test-case", TestNameAttr: "name", FailureElements: []string{"failure"}, parse: parseNUnit})
}

// nunitReader streams NUnit 2 (<test-results>) and NUnit 3 (<test-run>)
// files: every <test-case> is a test, its fixture the nearest enclosing
// <test-suite> of type TestFixture (NUnit 3 also names it in classname).
type nunitReader struct {
	caseReader
	fixtures []string
}

func parseNUnit(r io.Reader, sink *fileSink) error {
	sink.format = FormatNUnit
	return walkXML(r, &nunitReader{caseReader: caseReader{sink: sink}})
}

func (n *nunitReader) start(el xml.StartElement, _ []string) error {
	switch el.Name.Local {
	case "test-suite":
		n.fixtures = append(n.fixtures, attr(el, "fullname"))
		if n.fixtures[len(n.fixtures)-1] == "" {
			n.fixtures[len(n.fixtures)-1] = attr(el, "name")
		}
	case "test-case":
		id := TestID{Name: attr(el, "name"), Classname: attr(el, "classname")}
		if len(n.fixtures) > 0 {
			id.Suite = n.fixtures[len(n.fixtures)-1]
		}
		n.cur = &caseResult{ID: id, Outcome: nunitOutcome(el)}
	case "failure":
		if n.cur != nil && n.cur.Outcome == testindex.Passed {
			n.cur.Outcome = testindex.Failed
		}
	default:
		n.startText(el.Name.Local)
	}
	return nil
}

// nunitOutcome reads NUnit 3's result and label, NUnit 2's result and
// executed: what did not run (ignored, explicit, inconclusive, not
// runnable) is skipped; an error or cancellation is an error.
func nunitOutcome(el xml.StartElement) testindex.Outcome {
	result, label := strings.ToLower(attr(el, "result")), strings.ToLower(attr(el, "label"))
	switch {
	case result == "error" || result == "cancelled" || result == "failed" && (label == "error" || label == "cancelled" || label == "invalid"):
		return testindex.Errored
	case result == "failed" || result == "failure":
		return testindex.Failed
	case strings.EqualFold(attr(el, "executed"), "false"):
		return testindex.Skipped
	case result == "passed" || result == "success" || result == "warning":
		return testindex.Passed
	case result == "" && strings.EqualFold(attr(el, "success"), "false"):
		return testindex.Failed
	case result == "":
		// NUnit 2.2 writes executed and success, or only executed: a
		// <failure> child fails it (see start).
		return testindex.Passed
	}
	return testindex.Skipped
}

func (n *nunitReader) end(name string, _ []string) {
	switch name {
	case "test-suite":
		if len(n.fixtures) > 0 {
			n.fixtures = n.fixtures[:len(n.fixtures)-1]
		}
	case "test-case":
		if n.cur != nil {
			n.sink.test(*n.cur)
			n.cur = nil
		}
	default:
		n.endText(name)
	}
}
