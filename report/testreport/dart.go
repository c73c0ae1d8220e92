package testreport

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/runledger/runledger/report/internal/clip"
	"github.com/runledger/runledger/report/testindex"
)

// A Dart event stream starts with the runner's "start" event (its
// protocolVersion), or any event with a type and a time, and never with a
// go test -json event's Action.
func init() {
	register(Format{Name: FormatDart, FirstLine: func(first map[string]json.RawMessage) bool {
		return first["Action"] == nil && (first["protocolVersion"] != nil || first["type"] != nil && first["time"] != nil)
	}, parse: parseDart})
}

// parseDart reads the Dart/Flutter test runner's JSON events (`dart test
// --reporter json`, `flutter test --machine`). A test is counted at its
// testDone; hidden tests (the runner's own "loading" entries) only when
// they did not succeed, since then a file failed to load. Only tests
// still running are kept.
func parseDart(r io.Reader, sink *fileSink) error {
	sink.format = FormatDart
	type dartTest struct {
		name, url string
		line      int
		suite     int
		message   string
	}
	running := map[int]*dartTest{}
	suites := map[int]string{}
	done := false
	err := eachLine(r, func(_ int, line []byte) error {
		var ev struct {
			Type  string
			Suite *struct {
				ID   int
				Path string
			}
			Test *struct {
				ID, SuiteID, Line int
				Name, URL         string
			}
			TestID          int
			Result, Error   string
			Skipped, Hidden bool
		}
		if err := json.Unmarshal(line, &ev); err != nil {
			return err
		}
		switch ev.Type {
		case "done":
			done = true
		case "suite":
			if ev.Suite != nil {
				suites[ev.Suite.ID] = ev.Suite.Path
			}
		case "testStart":
			if ev.Test != nil {
				running[ev.Test.ID] = &dartTest{name: ev.Test.Name, url: ev.Test.URL, line: ev.Test.Line, suite: ev.Test.SuiteID}
			}
		case "error":
			if t := running[ev.TestID]; t != nil && t.message == "" {
				t.message = clip.String(ev.Error, 1000)
			}
		case "testDone":
			t := running[ev.TestID]
			delete(running, ev.TestID)
			if t == nil || ev.Hidden && ev.Result == "success" {
				return nil
			}
			c := caseResult{ID: TestID{Suite: suites[t.suite], Name: t.name}, Message: t.message, Line: t.line, SrcFile: suites[t.suite]}
			switch {
			case ev.Skipped:
				c.Outcome = testindex.Skipped
			case ev.Result == "success":
				c.Outcome = testindex.Passed
			case ev.Result == "failure":
				c.Outcome = testindex.Failed
			default:
				c.Outcome = testindex.Errored
			}
			sink.test(c)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(running) > 0 {
		return fmt.Errorf("unexpected EOF: %d tests started and never ended", len(running))
	}
	if !done {
		sink.notes = append(sink.notes, `no "done" event: the run may have stopped early`)
	}
	return nil
}
