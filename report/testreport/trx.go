package testreport

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"hash/maphash"
	"io"
	"os"
	"strings"

	"github.com/runledger/runledger/report/internal/clip"
	"github.com/runledger/runledger/report/testindex"
)

func init() {
	register(Format{Name: FormatTRX, XMLRoots: []string{"TestRun"},
		TestElement: "UnitTestResult", TestNameAttr: "testName", FailureElements: []string{"ErrorInfo"}, parse: parseTRX})
}

// trxReader streams a VSTest TRX file. Results come before the
// definitions that name their classes: the definitions are read first,
// found by a byte scan of the file, so that each result goes to the
// tally as it ends. Where they cannot be found so, each result is kept,
// without its output, until the end of the file. A result with inner
// results (data-driven tests) is counted by its inner ones.
type trxReader struct {
	caseReader
	open []*trxResult
	done []trxResult
	// classes maps a hash of each test id to its class name: the ids
	// themselves (GUIDs) are not kept.
	classes  map[uint64]string
	seed     maphash.Seed
	interned map[string]string // class names, stored once
	// unitTest is the id of the open <UnitTest> definition.
	unitTest string
	// known: the definitions were read before the results.
	known bool
}

type trxResult struct {
	testID string
	c      caseResult
	inner  bool
}

func parseTRX(r io.Reader, sink *fileSink) error {
	sink.format = FormatTRX
	t := &trxReader{caseReader: caseReader{sink: sink}, classes: map[uint64]string{}, seed: maphash.MakeSeed(), interned: map[string]string{}}
	if sink.file != nil {
		t.known = t.readDefinitions(sink.file) == nil
	}
	if err := walkXML(r, t); err != nil {
		return err
	}
	for i := range t.done {
		d := t.done[i]
		t.done[i] = trxResult{} // what the tally does not keep is let go now
		t.emit(d)
	}
	return nil
}

func (t *trxReader) emit(d trxResult) {
	d.c.ID.Classname = t.classes[maphash.String(t.seed, d.testID)]
	d.c.ID.Name = withoutClass(d.c.ID.Name, d.c.ID.Classname)
	t.sink.test(d.c)
}

// define records a <TestMethod>'s class for the open <UnitTest>. MSTest
// may assembly-qualify it ("N.C, Asm, Version=…"): the class alone is kept,
// once however many tests share it.
func (t *trxReader) define(el xml.StartElement) {
	cls, _, _ := strings.Cut(attr(el, "className"), ",")
	if c, ok := t.interned[cls]; ok {
		cls = c
	} else {
		t.interned[cls] = cls
	}
	t.classes[maphash.String(t.seed, t.unitTest)] = cls
}

// readDefinitions reads the <TestDefinitions> section, found as the last
// "<TestDefinitions" in the file (markup: in text it would be escaped).
// Any trouble leaves the definitions to the main pass.
func (t *trxReader) readDefinitions(f *os.File) error {
	off, err := lastIndex(f, []byte("<TestDefinitions"))
	if err != nil || off < 0 {
		return errors.New("no <TestDefinitions>")
	}
	d := newXMLDecoder(bufio.NewReaderSize(io.NewSectionReader(f, off, 1<<62), 64<<10))
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch el := tok.(type) {
		case xml.StartElement:
			switch el.Name.Local {
			case "UnitTest":
				t.unitTest = attr(el, "id")
			case "TestMethod":
				t.define(el)
			}
		case xml.EndElement:
			if el.Name.Local == "TestDefinitions" {
				return nil
			}
		}
	}
}

// lastIndex finds the offset of the last sep in f, reading it in chunks.
func lastIndex(f *os.File, sep []byte) (int64, error) {
	buf := make([]byte, 1<<20)
	last, base := int64(-1), int64(0)
	var carry []byte
	for {
		n, err := f.ReadAt(buf, base)
		chunk := append(carry, buf[:n]...)
		if i := bytes.LastIndex(chunk, sep); i >= 0 {
			last = base - int64(len(carry)) + int64(i)
		}
		base += int64(n)
		if len(chunk) >= len(sep) {
			carry = append(carry[:0:0], chunk[len(chunk)-len(sep)+1:]...)
		}
		if errors.Is(err, io.EOF) {
			return last, nil
		}
		if err != nil {
			return -1, err
		}
	}
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
		if len(stack) >= 2 && stack[len(stack)-2] == "UnitTest" && !t.known {
			t.define(el)
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
func trxOutcome(el xml.StartElement) testindex.Outcome {
	switch o := attr(el, "outcome"); o {
	case "Passed", "PassedButRunAborted", "Warning", "Completed":
		return testindex.Passed
	case "Failed":
		return testindex.Failed
	case "NotExecuted", "Inconclusive", "NotRunnable", "Pending", "Disconnected", "InProgress", "Aborted":
		return testindex.Skipped
	}
	return testindex.Errored
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
	switch {
	case res.inner:
	case t.known:
		t.emit(*res)
	default:
		res.c.Message = clip.String(res.c.Message, 1000)
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
