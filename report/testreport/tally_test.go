package testreport

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestTallyRules: what a repeated identity means, through a real file.
func TestTallyRules(t *testing.T) {
	cases := []struct {
		name, cases string
		want        string // tests/passed/failed/skipped/errors, flaky names
	}{
		{"a repeat after a pass is another invocation", `<testcase name="a"/><testcase name="a"/>`, "2/2/0/0/0 []"},
		{"a pass after a failure is a rerun, flaky", `<testcase name="a"><failure/></testcase><testcase name="a"/>`, "1/1/0/0/0 [a]"},
		{"failing twice is one failed test", `<testcase name="a"><failure/></testcase><testcase name="a"><failure/></testcase>`, "1/0/1/0/0 []"},
		{"a skip does not hide a failure", `<testcase name="a"><error/></testcase><testcase name="a"><skipped/></testcase>`, "1/0/0/0/1 []"},
		{"skipped then failed: two invocations, as the peers count", `<testcase name="a"><skipped/></testcase><testcase name="a"><failure/></testcase>`, "2/0/1/1/0 []"},
		{"nameless test cases are distinct", `<testcase/><testcase><failure/></testcase><testcase/>`, "3/2/1/0/0 []"},
		{"the worst child decides", `<testcase name="a"><skipped/><failure/><error/></testcase>`, "1/0/0/0/1 []"},
		{"disabled is skipped", `<testcase name="a" status="disabled"/>`, "1/0/0/1/0 []"},
		{"Surefire flakyFailure", `<testcase name="a"><flakyFailure/></testcase>`, "1/1/0/0/0 [a]"},
		{"a failure in a test case nested in another fails it", `<testcase name="a"><testcase name="b"><failure/></testcase></testcase>`, "1/0/1/0/0 []"},
		{"same name, other suite", `<testcase name="a"/></testsuite><testsuite name="s2"><testcase name="a"><failure/></testcase>`, "2/1/1/0/0 []"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rr := readString(t, `<testsuites><testsuite name="s">`+tc.cases+`</testsuite></testsuites>`)
			s := rr.Counts
			var flaky []string
			for _, f := range rr.Flaky {
				flaky = append(flaky, f.Name)
			}
			got := fmt.Sprintf("%d/%d/%d/%d/%d %v", s.Tests, s.Passed, s.Failed, s.Skipped, s.Errors, flaky)
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestTallyManyRepeats: numbering invocations costs one step each, not
// one per earlier invocation.
func TestTallyManyRepeats(t *testing.T) {
	const repeats = 50000
	var b strings.Builder
	for range repeats {
		b.WriteString(`<testcase name="same"/>`)
	}
	start := time.Now()
	rr := readString(t, `<testsuite>`+b.String()+`</testsuite>`)
	if rr.Counts.Tests != repeats {
		t.Fatalf("%d tests", rr.Counts.Tests)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("50,000 repeats took %v", d)
	}
}

// TestSuiteFallback: a suite without test cases counts by its own
// attributes, and the summary says they are not verified.
func TestSuiteFallback(t *testing.T) {
	rr := readString(t, `<testsuites><testsuite name="s" tests="6" failures="1" skipped="2"></testsuite></testsuites>`)
	s := rr.Counts
	if s.Tests != 6 || s.Passed != 3 || s.Failed != 1 || s.Skipped != 2 || rr.FailuresOmitted != 1 {
		t.Fatalf("%+v", rr)
	}
	if len(rr.Warnings) != 1 || !strings.Contains(rr.Warnings[0], "attributes are counted, unverified") {
		t.Fatalf("warnings %v", rr.Warnings)
	}
	bad := readString(t, `<testsuite tests="1" failures="3"/>`)
	if bad.Read != 0 || bad.Counts != nil {
		t.Fatalf("attributes that do not add up were counted: %+v", bad)
	}
}

func readString(t *testing.T, doc string) Result {
	t.Helper()
	path := t.TempDir() + "/report.out"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return Read([]string{path})
}
