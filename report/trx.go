package report

import (
	"encoding/xml"
	"io"
	"strings"
)

// trxReader streams a VSTest TRX file. Results come before the
// definitions that name their classes, so each result is kept, without
// its output, until the end of the file: memory grows with the number of
// tests, as the tally's does, never with their output. A result with
// inner results (data-driven tests) is counted by its inner ones.
type trxReader struct {
	caseReader
	open    []*trxResult
	done    []trxResult
	classes map[string]string // test id → class name
	// unitTest is the id of the open <UnitTest> definition.
	unitTest string
}

type trxResult struct {
	testID string
	c      caseResult
	inner  bool
}

func parseTRX(r io.Reader, sink *fileSink) error {
	sink.format = FormatTRX
	t := &trxReader{caseReader: caseReader{sink: sink}, classes: map[string]string{}}
	if err := walkXML(r, t); err != nil {
		return err
	}
	for _, d := range t.done {
		d.c.ID.Classname = t.classes[d.testID]
		d.c.ID.Name = withoutClass(d.c.ID.Name, d.c.ID.Classname)
		sink.test(d.c)
	}
	return nil
}

func (t *trxReader) start(el xml.StartElement, stack []string) error {
	switch el.Name.Local {
	case "UnitTestResult":
		if len(t.open) > 0 {
			t.open[len(t.open)-1].inner = true
		}
		res := &trxResult{testID: attr(el, "testId"), c: caseResult{ID: TestID{Name: attr(el, "testName")}, Outcome: trxOutcome(el)}}
		t.open = append(t.open, res)
		t.cur = &res.c
	case "TestMethod":
		if len(stack) >= 2 && stack[len(stack)-2] == "UnitTest" {
			// MSTest may assembly-qualify the class: "N.C, Asm, Version=…".
			cls, _, _ := strings.Cut(attr(el, "className"), ",")
			t.classes[t.unitTest] = cls
		}
	case "UnitTest":
		t.unitTest = attr(el, "id")
	default:
		t.startText(el.Name.Local)
	}
	return nil
}

// trxOutcome follows VSTest: Passed passes; NotExecuted, Inconclusive and
// Aborted (the run stopped first) did not run; Failed fails; a missing
// outcome, Error and Timeout are errors.
func trxOutcome(el xml.StartElement) string {
	switch o := attr(el, "outcome"); o {
	case "Passed", "PassedButRunAborted", "Warning", "Completed":
		return OutcomePassed
	case "Failed":
		return OutcomeFailed
	case "NotExecuted", "Inconclusive", "NotRunnable", "Pending", "Disconnected", "InProgress", "Aborted":
		return OutcomeSkipped
	}
	return OutcomeError
}

func (t *trxReader) end(name string, _ []string) {
	if name != "UnitTestResult" {
		t.endText(name)
		return
	}
	if len(t.open) == 0 {
		return
	}
	res := t.open[len(t.open)-1]
	t.open = t.open[:len(t.open)-1]
	if !res.inner {
		res.c.Message = clip(res.c.Message, 1000)
		t.done = append(t.done, *res)
	}
	t.cur = nil
	if len(t.open) > 0 {
		t.cur = &t.open[len(t.open)-1].c
	}
}

// withoutClass drops the class from a test name that repeats it (xUnit
// writes "N.C.Method(x: 1)"): the identity keeps it once, in Classname.
func withoutClass(name, class string) string {
	if class != "" && strings.HasPrefix(name, class+".") && len(name) > len(class)+1 {
		return name[len(class)+1:]
	}
	return name
}
