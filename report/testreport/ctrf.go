package testreport

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/runledger/runledger/report/internal/clip"
)

// A CTRF report holds its tests under results.
func init() {
	register(Format{Name: FormatCTRF, JSONKeys: []string{"results"}, readKey: func(d *json.Decoder, _ string, sink *fileSink) error {
		return ctrfResults(d, sink)
	}})
}

// ctrfResults reads CTRF's results object; only its tests are counted
// (its summary is the tool's own, not re-checked).
func ctrfResults(d *json.Decoder, sink *fileSink) error {
	if err := expectDelim(d, '{'); err != nil {
		return err
	}
	for d.More() {
		key, err := objectKey(d)
		if err != nil {
			return err
		}
		if key == "tests" {
			err = eachElement(d, func() error { return ctrfTest(d, sink) })
		} else {
			err = skipValue(d)
		}
		if err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
	}
	return expectDelim(d, '}')
}

func ctrfTest(d *json.Decoder, sink *fileSink) error {
	var t struct {
		Name, Status, Message, FilePath string
		Line, Retries                   int
		Flaky                           bool
		Suite                           json.RawMessage
		Parameters                      json.RawMessage
	}
	if err := d.Decode(&t); err != nil {
		return err
	}
	c := caseResult{ID: TestID{Name: t.Name, File: t.FilePath, Suite: ctrfSuite(t.Suite)}, Message: t.Message, Line: t.Line, Flaky: t.Flaky || t.Retries > 0}
	if len(t.Parameters) > 0 && string(t.Parameters) != "null" {
		c.ID.Params = clip.String(string(t.Parameters), 200)
	}
	c.Outcome = jsonOutcome(t.Status)
	sink.test(c)
	return nil
}

// ctrfSuite: CTRF gives the suite as a string or, in v1, a path array.
func ctrfSuite(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var path []string
	if json.Unmarshal(raw, &path) == nil {
		return strings.Join(path, " > ")
	}
	return ""
}
