package testreport

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runledger/runledger/report/testindex"
)

// TestJUnitAround: what is added around go-junit, through real files:
// runs of test cases cut across segments and nested suites keep their
// order and their innermost suite; latin-1 and HTML entities, which
// go-junit's strict decoder refuses, are read; file and line attributes
// are kept.
func TestJUnitAround(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<testsuites><testsuite name="outer"><testcase name="first"/><testsuite name="inner">`)
	for i := range 3*segmentCases + 7 {
		if i == segmentCases+1 {
			fmt.Fprintf(&b, `<testcase name="t%d" file="a_test.py" line="12"><system-out>x</system-out><failure message="no &amp; never">trace</failure></testcase>`, i)
			continue
		}
		fmt.Fprintf(&b, `<testcase name="t%d"/>`, i)
	}
	b.WriteString(`</testsuite><testcase name="last"><error>  boom  </error></testcase></testsuite></testsuites>`)
	rr := readString(t, b.String())
	n := 3*segmentCases + 7 + 2
	if rr.Counts == nil || rr.Counts.Tests != n || rr.Counts.Failed != 1 || rr.Counts.Errors != 1 || len(rr.Warnings) > 0 {
		t.Fatalf("counts %+v, warnings %v", rr.Counts, rr.Warnings)
	}
	f := rr.Failures[0]
	if f.Name != fmt.Sprintf("t%d", segmentCases+1) || f.Suite != "inner" || f.File != "a_test.py" || f.Line != 12 || f.Message != "no & never" {
		t.Errorf("failure %+v", f)
	}
	if g := rr.Failures[1]; g.Name != "last" || g.Suite != "outer" || g.Message != "boom" {
		t.Errorf("error %+v", g)
	}
	var order []string
	rr.Each(func(id TestID, _ testindex.Outcome, _ bool) { order = append(order, id.Suite+"/"+id.Name) })
	if order[0] != "outer/first" || order[1] != "inner/t0" || order[n-2] != fmt.Sprintf("inner/t%d", n-3) || order[n-1] != "outer/last" {
		t.Errorf("order %v … %v", order[:2], order[n-2:])
	}

	latin := readString(t, "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><testsuite name=\"caf\xe9\"><testcase name=\"na\xefve&nbsp;test\"><failure message=\"\xe9chec\"/></testcase></testsuite>")
	if latin.Counts == nil || len(latin.Failures) != 1 || latin.Failures[0].Name != "naïve\u00a0test" || latin.Failures[0].Suite != "café" || latin.Failures[0].Message != "échec" {
		t.Fatalf("latin-1: %+v, warnings %v", latin.Failures, latin.Warnings)
	}
}
