package testreport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/runledger/runledger/report/testindex"
)

// parseJSONReport streams one JSON report document: its top-level keys
// say which format it is (mocha's passes/failures/pending, jest's
// testResults, RSpec's examples, CTRF's results), and each array element
// is decoded alone, so a report of any size needs memory for one test
// (for jest, one test file's results).
func parseJSONReport(r io.Reader, sink *fileSink) error {
	d := json.NewDecoder(r)
	if err := expectDelim(d, '{'); err != nil {
		return err
	}
	for d.More() {
		key, err := objectKey(d)
		if err != nil {
			return err
		}
		if err := jsonTopKey(d, key, sink); err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
	}
	if err := expectDelim(d, '}'); err != nil {
		return err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return errors.New("data after the JSON document")
	}
	if sink.format == "" {
		sink.format = "json"
		return errors.New("JSON that is none of the formats runledger reads (mocha, jest, RSpec, CTRF, go test -json, Dart)")
	}
	return nil
}

func jsonTopKey(d *json.Decoder, key string, sink *fileSink) error {
	switch key {
	case "passes", "failures", "pending":
		sink.format = FormatMocha
		outcome := map[string]testindex.Outcome{"passes": testindex.Passed, "failures": testindex.Failed, "pending": testindex.Skipped}[key]
		return eachElement(d, func() error { return mochaTest(d, outcome, sink) })
	case "testResults":
		sink.format = FormatJest
		return eachElement(d, func() error { return jestFile(d, sink) })
	case "examples":
		sink.format = FormatRSpec
		return eachElement(d, func() error { return rspecExample(d, sink) })
	case "results":
		sink.format = FormatCTRF
		return ctrfResults(d, sink)
	}
	return skipValue(d)
}

func mochaTest(d *json.Decoder, outcome testindex.Outcome, sink *fileSink) error {
	var t struct {
		Title, FullTitle, File string
		Err                    struct{ Message, Stack string }
	}
	if err := d.Decode(&t); err != nil {
		return err
	}
	c := caseResult{ID: TestID{Name: t.FullTitle, File: t.File}, Outcome: outcome, Message: t.Err.Message}
	if c.ID.Name == "" {
		c.ID.Name = t.Title
	}
	sink.test(c)
	return nil
}

// jestFile reads one element of testResults: jest writes the file's name
// after its assertions, so one file's results are kept until its end.
func jestFile(d *json.Decoder, sink *fileSink) error {
	if err := expectDelim(d, '{'); err != nil {
		return err
	}
	var cases []caseResult
	var file, status, message string
	for d.More() {
		key, err := objectKey(d)
		if err != nil {
			return err
		}
		switch key {
		case "assertionResults":
			err = eachElement(d, func() error {
				c, err := jestAssertion(d)
				cases = append(cases, c)
				return err
			})
		case "name", "testFilePath":
			err = d.Decode(&file)
		case "status":
			err = d.Decode(&status)
		case "message", "failureMessage":
			var m *string
			if err = d.Decode(&m); m != nil && message == "" {
				message = clip(*m, 1000)
			}
		default:
			err = skipValue(d)
		}
		if err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
	}
	if err := expectDelim(d, '}'); err != nil {
		return err
	}
	if status == "failed" && len(cases) == 0 {
		// The file failed to run (a syntax error, a failing import): jest
		// counts no test, but it is a failure of this file.
		cases = append(cases, caseResult{ID: TestID{Name: "(test file failed to run)"}, Outcome: testindex.Errored, Message: message})
	}
	for _, c := range cases {
		c.ID.File = file
		sink.test(c)
	}
	return nil
}

func jestAssertion(d *json.Decoder) (caseResult, error) {
	var a struct {
		FullName, Title, Status string
		FailureMessages         []string
		Location                *struct{ Line int }
	}
	if err := d.Decode(&a); err != nil {
		return caseResult{}, err
	}
	c := caseResult{ID: TestID{Name: a.FullName}}
	if c.ID.Name == "" {
		c.ID.Name = a.Title
	}
	c.Outcome = jsonOutcome(a.Status)
	if len(a.FailureMessages) > 0 {
		c.Message = clip(a.FailureMessages[0], 1000)
	}
	if a.Location != nil {
		c.Line = a.Location.Line
	}
	return c, nil
}

func rspecExample(d *json.Decoder, sink *fileSink) error {
	var e struct {
		Description     string
		FullDescription string `json:"full_description"`
		Status          string
		FilePath        string `json:"file_path"`
		LineNumber      int    `json:"line_number"`
		Exception       *struct{ Class, Message string }
	}
	if err := d.Decode(&e); err != nil {
		return err
	}
	c := caseResult{ID: TestID{Name: e.FullDescription, File: e.FilePath}, Line: e.LineNumber}
	if c.ID.Name == "" {
		c.ID.Name = e.Description
	}
	c.Outcome = jsonOutcome(e.Status)
	if e.Exception != nil {
		c.Message = strings.TrimSpace(e.Exception.Class + ": " + e.Exception.Message)
	}
	sink.test(c)
	return nil
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
		c.ID.Params = clip(string(t.Parameters), 200)
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

func expectDelim(d *json.Decoder, want json.Delim) error {
	tok, err := d.Token()
	if err != nil {
		return err
	}
	if got, ok := tok.(json.Delim); !ok || got != want {
		return fmt.Errorf("expected %q, found %v", want, tok)
	}
	return nil
}

func objectKey(d *json.Decoder) (string, error) {
	tok, err := d.Token()
	if err != nil {
		return "", err
	}
	key, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("expected an object key, found %v", tok)
	}
	return key, nil
}

// eachElement calls fn for each element of the array at d; null is an
// empty array.
func eachElement(d *json.Decoder, fn func() error) error {
	tok, err := d.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '[' {
		return fmt.Errorf("expected an array, found %v", tok)
	}
	for d.More() {
		if err := fn(); err != nil {
			return err
		}
	}
	_, err = d.Token()
	return err
}

// skipValue reads past one value token by token, keeping none of it.
func skipValue(d *json.Decoder) error {
	depth := 0
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		if delim, ok := tok.(json.Delim); ok {
			if delim == '{' || delim == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

// jsonOutcome reads the status word of the JSON reports (jest, RSpec,
// CTRF): "passed" and "failed" as they say, anything else (pending,
// skipped, todo, disabled, other) as not run, never as a pass.
func jsonOutcome(status string) testindex.Outcome {
	switch status {
	case "passed":
		return testindex.Passed
	case "failed":
		return testindex.Failed
	}
	return testindex.Skipped
}
