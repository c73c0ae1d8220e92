package report

import (
	"os"
	"path/filepath"
	"testing"

	junit "github.com/joshdk/go-junit"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

// FuzzRecordVerdict feeds arbitrary record.json bytes to the report: a
// record that decodes, however odd, never yields "passed" unless it is a
// pass by the record's own definition.
func FuzzRecordVerdict(f *testing.F) {
	f.Add([]byte(`{"schema":"runledger.run/v1","id":"x","name":"n","attempt":1,"status":"passed","exit_code":0,"termination":"exited","streams":{}}`))
	f.Add([]byte(`{"schema":"runledger.run/v1","id":"x","name":"n","attempt":1,"status":"passed","exit_code":1,"termination":"exited"}`))
	f.Add([]byte(`{"schema":"runledger.run/v1","status":"timed_out","exit_code":0,"timed_out":true}`))
	f.Add([]byte(`{"schema":"runledger.run/v1","status":"running","wrapper":{"pid":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		run := filepath.Join(dir, "20260101T000000000Z-00000000")
		os.Mkdir(run, 0o755)
		os.WriteFile(filepath.Join(run, record.FileName), data, 0o644)
		for _, name := range record.StreamNames {
			os.WriteFile(filepath.Join(run, name+".log"), nil, 0o644)
		}
		env, err := Build(&store.Store{Dir: dir}, Options{})
		if err != nil {
			return
		}
		if env.Status != "passed" {
			return
		}
		r, err := record.Read(run)
		if err != nil || !r.Passed() {
			t.Fatalf("status passed for a record that did not pass: %s", data)
		}
	})
}

// FuzzJUnit: any bytes as a JUnit file never crash the intake, and the
// counts always add up.
func FuzzJUnit(f *testing.F) {
	f.Add([]byte(`<testsuite><testcase name="a"/><testcase name="b"><failure/></testcase></testsuite>`))
	f.Add([]byte(`<testsuites><testsuite><testsuite><testcase name="a"><error/></testcase></testsuite></testsuite></testsuites>`))
	f.Add([]byte(`<testsuite><testcase name="a"><skipped/></testcase><testcase name="a"/>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "j.xml")
		os.WriteFile(path, data, 0o644)
		s, _, _, _ := readJUnit([]string{path})
		if *s.Tests != *s.Passed+*s.Failed+*s.Skipped+*s.Errors {
			t.Fatalf("counts do not add up: %d != %d+%d+%d+%d", *s.Tests, *s.Passed, *s.Failed, *s.Skipped, *s.Errors)
		}
		if len(s.Failures)+s.FailuresOmitted != *s.Failed+*s.Errors {
			t.Fatalf("%d failures listed for %d failed and errors", len(s.Failures)+s.FailuresOmitted, *s.Failed+*s.Errors)
		}
	})
}

// FuzzJUnitStream: the streaming reader, used past go-junit's size bound,
// counts exactly what go-junit counts wherever go-junit can parse.
func FuzzJUnitStream(f *testing.F) {
	f.Add([]byte(`<testsuites><testsuite><testcase name="a"/><testcase name="b"><failure message="x"/></testcase></testsuite></testsuites>`))
	f.Add([]byte(`<x><testsuite><testcase name="a"><skipped/><error/></testcase><y><testsuite><testcase name="hidden"/></testsuite></y></testsuite></x>`))
	f.Add([]byte(`<testsuite><testsuite><testcase name="nested"/></testsuite></testsuite><testcase name="outside"/>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "j.xml")
		os.WriteFile(path, data, 0o644)
		suites, err := junit.IngestFile(path)
		if err != nil {
			return
		}
		want := &junitTally{status: map[junitKey]junit.Status{}, failedOnce: map[junitKey]bool{}, failing: map[junitKey]junit.Test{}}
		for _, tc := range allTests(suites) {
			want.add(tc)
		}
		got := &junitTally{status: map[junitKey]junit.Status{}, failedOnce: map[junitKey]bool{}, failing: map[junitKey]junit.Test{}}
		if err := streamJUnit(path, got.add); err != nil {
			t.Fatalf("go-junit parses it, the stream does not: %v", err)
		}
		w, g := want.summary(), got.summary()
		if *w.Tests != *g.Tests || *w.Failed != *g.Failed || *w.Errors != *g.Errors || *w.Skipped != *g.Skipped {
			t.Fatalf("counts differ: go-junit %d/%d/%d/%d, stream %d/%d/%d/%d",
				*w.Tests, *w.Failed, *w.Errors, *w.Skipped, *g.Tests, *g.Failed, *g.Errors, *g.Skipped)
		}
	})
}
