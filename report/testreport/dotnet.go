package testreport

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"

	"github.com/runledger/runledger/report/testindex"
)

// caseReader is the common shape of the .NET readers: one test element
// at a time, its failure message from a nested <message> or <Message>.
type caseReader struct {
	sink *fileSink
	cur  *caseResult
	msg  textBuf
	// trace collects the stack trace, only to find a file and line.
	trace textBuf
}

func (c *caseReader) text(b []byte) {
	c.msg.add(b)
	c.trace.add(b)
}

// endText closes a <message> or <stack-trace> element of the current test.
func (c *caseReader) endText(name string) {
	if c.cur == nil {
		return
	}
	switch strings.ToLower(name) {
	case "message":
		if m := c.msg.take(); c.cur.Message == "" {
			c.cur.Message = m
		}
	case "stack-trace", "stacktrace":
		file, line := traceLocation(c.trace.take())
		if c.cur.SrcFile == "" && c.cur.Line == 0 {
			c.cur.SrcFile, c.cur.Line = file, line
		}
	}
}

// startText opens a <message> or <stack-trace> element of the current test.
func (c *caseReader) startText(name string) {
	if c.cur == nil {
		return
	}
	switch strings.ToLower(name) {
	case "message":
		c.msg.take()
		c.msg.on = true
	case "stack-trace", "stacktrace":
		c.trace.take()
		c.trace.on = true
	}
}

// traceLocation finds the first " in FILE:line N" of a .NET stack trace.
func traceLocation(trace string) (string, int) {
	i := strings.Index(trace, " in ")
	if i < 0 {
		return "", 0
	}
	rest := trace[i+4:]
	j := strings.Index(rest, ":line ")
	if j < 0 {
		return "", 0
	}
	num := rest[j+6:]
	k := 0
	for k < len(num) && num[k] >= '0' && num[k] <= '9' {
		k++
	}
	n, _ := strconv.Atoi(num[:k])
	return rest[:j], n
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

// xunitReader streams xUnit.net v1 (<assembly><class><test>) and v2
// (<assemblies><assembly><collection><test>) files.
type xunitReader struct {
	caseReader
	assembly string
}

func parseXUnit(r io.Reader, sink *fileSink) error {
	sink.format = FormatXUnit
	return walkXML(r, &xunitReader{caseReader: caseReader{sink: sink}})
}

func (x *xunitReader) start(el xml.StartElement, stack []string) error {
	switch el.Name.Local {
	case "assembly":
		// The assembly's file name, not the build machine's path to it.
		name := attr(el, "name")
		x.assembly = name[strings.LastIndexAny(name, "/\\")+1:]
	case "test":
		if x.cur != nil {
			return nil
		}
		id := TestID{Suite: x.assembly, Classname: attr(el, "type")}
		id.Name = withoutClass(attr(el, "name"), id.Classname)
		x.cur = &caseResult{ID: id, Outcome: xunitOutcome(attr(el, "result"))}
	default:
		x.startText(el.Name.Local)
	}
	return nil
}

func xunitOutcome(result string) testindex.Outcome {
	switch strings.ToLower(result) {
	case "pass":
		return testindex.Passed
	case "fail":
		return testindex.Failed
	case "skip", "notrun":
		return testindex.Skipped
	}
	return testindex.Errored
}

func (x *xunitReader) end(name string, _ []string) {
	switch name {
	case "test":
		if x.cur != nil {
			x.sink.test(*x.cur)
			x.cur = nil
		}
	default:
		x.endText(name)
	}
}
