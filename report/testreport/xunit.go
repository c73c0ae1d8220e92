package testreport

import (
	"encoding/xml"
	"io"
	"strings"

	"github.com/runledger/runledger/report/testindex"
)

func init() {
	register(Format{Name: FormatXUnit, XMLRoots: []string{"assemblies", "assembly"},
		TestElement: "test", TestNameAttr: "name", FailureElements: []string{"failure"}, parse: parseXUnit})
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
