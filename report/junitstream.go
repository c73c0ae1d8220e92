package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"

	junit "github.com/joshdk/go-junit"
	"github.com/runledger/runledger/report/internal/xmlattr"
)

// streamJUnit reads the test cases of a JUnit file one at a time with
// encoding/xml's tokenizer, for files too big for go-junit's in-memory
// tree. It counts what go-junit counts: test cases that are direct children
// of a testsuite reached through testsuites only, their verdict from their
// last skipped/failure/error child. Message bodies are not kept.
func streamJUnit(path string, visit func(junit.Test)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	// As go-junit does: a fake root makes several top-level elements and an
	// empty file valid XML.
	dec := xml.NewDecoder(io.MultiReader(bytes.NewReader([]byte("<fake-root>")), f, bytes.NewReader([]byte("</fake-root>"))))
	var stack []xmlFrame
	var cur *junit.Test
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			frame := xmlFrame{name: t.Name.Local}
			parent := xmlFrame{active: true} // the fake root's parent chain
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			frame.active, frame.inSuite = suiteReach(parent, frame.name)
			if frame.name == "testcase" && parent.name == "testsuite" && parent.inSuite {
				cur = &junit.Test{Name: xmlattr.Get(t, "name"), Classname: xmlattr.Get(t, "classname"),
					Status: junit.StatusPassed, Properties: attrs(t)}
				frame.test = true
			}
			if cur != nil && parent.test {
				verdict(cur, t)
			}
			stack = append(stack, frame)
		case xml.EndElement:
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.test && cur != nil {
				visit(*cur)
				cur = nil
			}
		}
	}
}

// xmlFrame is one open element: active while no testsuite has been passed
// through (findSuites' descent), inSuite for a testsuite go-junit ingests.
type xmlFrame struct {
	name            string
	active, inSuite bool
	test            bool
}

// suiteReach mirrors go-junit: top-level suites are found through any
// elements but testsuites; inside a suite only direct testsuite children
// are suites.
func suiteReach(parent xmlFrame, name string) (active, inSuite bool) {
	switch {
	case name == "testsuite" && parent.active:
		return false, true
	case name == "testsuite" && parent.name == "testsuite" && parent.inSuite:
		return false, true
	case parent.active:
		return true, false
	}
	return false, false
}

func verdict(t *junit.Test, el xml.StartElement) {
	switch el.Name.Local {
	case "skipped":
		t.Status, t.Message = junit.StatusSkipped, xmlattr.Get(el, "message")
	case "failure":
		t.Status, t.Message = junit.StatusFailed, xmlattr.Get(el, "message")
		t.Error = junit.Error{Message: xmlattr.Get(el, "message"), Type: xmlattr.Get(el, "type")}
	case "error":
		t.Status, t.Message = junit.StatusError, xmlattr.Get(el, "message")
		t.Error = junit.Error{Message: xmlattr.Get(el, "message"), Type: xmlattr.Get(el, "type")}
	}
}

func attrs(el xml.StartElement) map[string]string {
	if len(el.Attr) == 0 {
		return nil
	}
	m := make(map[string]string, len(el.Attr))
	for _, a := range el.Attr {
		m[a.Name.Local] = a.Value
	}
	return m
}
