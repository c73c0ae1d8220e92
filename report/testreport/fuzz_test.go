package testreport

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/runledger/runledger/report/testindex"
)

// fuzzReport checks what any bytes as a report file must give: no
// crash; counts only when the file was read, and then counts that add up
// and list every failure; a file not read is named in a warning.
func fuzzReport(t *testing.T, data []byte) {
	path := filepath.Join(t.TempDir(), "report.out")
	os.WriteFile(path, data, 0o644)
	rr := Read([]string{path})
	s := rr.Counts
	if rr.Read == 0 {
		if s != nil || len(rr.Warnings) != 1 {
			t.Fatalf("unread file: counts %v, warnings %v", s, rr.Warnings)
		}
		return
	}
	if s.Tests != s.Passed+s.Failed+s.Skipped+s.Errors || s.Passed < 0 {
		t.Fatalf("counts do not add up: %d != %d+%d+%d+%d", s.Tests, s.Passed, s.Failed, s.Skipped, s.Errors)
	}
	if len(rr.Failures)+rr.FailuresOmitted != s.Failed+s.Errors {
		t.Fatalf("%d failures listed for %d failed and errors", len(rr.Failures)+rr.FailuresOmitted, s.Failed+s.Errors)
	}
	n := 0
	rr.Each(func(TestID, testindex.Outcome, bool) { n++ })
	if n+rr.tally.fallback.tests != s.Tests {
		t.Fatalf("each hands %d tests (+%d from suite attributes), the summary counts %d", n, rr.tally.fallback.tests, s.Tests)
	}
}

func FuzzJUnit(f *testing.F) {
	f.Add([]byte(`<testsuite><testcase name="a"/><testcase name="b"><failure/></testcase></testsuite>`))
	f.Add([]byte(`<testsuites><testsuite><testsuite><testcase name="a"><error/></testcase></testsuite></testsuite></testsuites>`))
	f.Add([]byte(`<testsuite><testcase name="a"><skipped/></testcase><testcase name="a"/>`))
	f.Add([]byte(`<testsuites><testsuite tests="6" failures="1" skipped="2"/></testsuites>`))
	f.Add([]byte(`<testsuite><testcase name="a"><flakyFailure/></testcase><testcase/><testcase/></testsuite>`))
	f.Fuzz(fuzzReport)
}

func FuzzNUnit(f *testing.F) {
	f.Add([]byte(`<test-run><test-suite type="TestFixture" fullname="A"><test-case name="t" result="Failed" label="Error"><failure><message>m</message><stack-trace>at X in /a.cs:line 3</stack-trace></failure></test-case></test-suite></test-run>`))
	f.Add([]byte(`<test-results><test-suite name="x"><results><test-case name="a" executed="False"/><test-case name="b" executed="True" success="False"/></results></test-suite></test-results>`))
	f.Fuzz(fuzzReport)
}

func FuzzXUnit(f *testing.F) {
	f.Add([]byte(`<assemblies><assembly name="a"><collection><test name="C.T(x: 1)" type="C" method="T" result="Fail"><failure><message>no</message></failure></test><test name="C.S" result="Skip"/></collection></assembly></assemblies>`))
	f.Fuzz(fuzzReport)
}

func FuzzTRX(f *testing.F) {
	f.Add([]byte(`<TestRun><Results><UnitTestResult testId="1" testName="N.C.T" outcome="Failed"><Output><ErrorInfo><Message>m</Message></ErrorInfo></Output></UnitTestResult><UnitTestResult testId="2" testName="D" outcome="Passed"><InnerResults><UnitTestResult testId="2" testName="D (1)" outcome="NotExecuted"/></InnerResults></UnitTestResult></Results><TestDefinitions><UnitTest id="1"><TestMethod className="N.C" name="T"/></UnitTest></TestDefinitions></TestRun>`))
	f.Fuzz(fuzzReport)
}

func FuzzJSONReport(f *testing.F) {
	f.Add([]byte(`{"stats":{},"tests":[],"pending":[{"title":"p","fullTitle":"s p"}],"failures":[{"title":"f","fullTitle":"s f","err":{"message":"m"}}],"passes":[{"title":"a","fullTitle":"s a"}]}`))
	f.Add([]byte(`{"numTotalTests":2,"testResults":[{"assertionResults":[{"fullName":"a b","status":"failed","failureMessages":["x"],"location":{"line":3}},{"fullName":"c","status":"todo"}],"name":"/a.test.js","status":"failed"},{"assertionResults":[],"name":"/b.test.js","status":"failed","message":"boom"}]}`))
	f.Add([]byte(`{"version":"3.12","examples":[{"full_description":"x y","status":"failed","file_path":"./a_spec.rb","line_number":4,"exception":{"class":"E","message":"m"}}],"summary":{}}`))
	f.Add([]byte(`{"reportFormat":"CTRF","results":{"tool":{"name":"t"},"summary":{},"tests":[{"name":"n","status":"failed","suite":["a","b"],"message":"m","line":2},{"name":"n","status":"passed","flaky":true}]}}`))
	f.Fuzz(fuzzReport)
}

func FuzzGoJSON(f *testing.F) {
	f.Add([]byte("{\"Action\":\"run\",\"Package\":\"p\",\"Test\":\"TestA\"}\n{\"Action\":\"output\",\"Package\":\"p\",\"Test\":\"TestA\",\"Output\":\"    a_test.go:3: no\\n\"}\n{\"Action\":\"fail\",\"Package\":\"p\",\"Test\":\"TestA\"}\n{\"Action\":\"fail\",\"Package\":\"p\"}\n"))
	f.Fuzz(fuzzReport)
}

func FuzzDart(f *testing.F) {
	f.Add([]byte("{\"protocolVersion\":\"0.1.1\",\"type\":\"start\",\"time\":0}\n{\"suite\":{\"id\":0,\"path\":\"t.dart\"},\"type\":\"suite\",\"time\":1}\n{\"test\":{\"id\":1,\"name\":\"a\",\"suiteID\":0,\"line\":3},\"type\":\"testStart\",\"time\":2}\n{\"testID\":1,\"error\":\"no\",\"isFailure\":true,\"type\":\"error\",\"time\":3}\n{\"testID\":1,\"result\":\"failure\",\"skipped\":false,\"hidden\":false,\"type\":\"testDone\",\"time\":4}\n"))
	f.Fuzz(fuzzReport)
}
