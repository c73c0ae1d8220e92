package testreport

import (
	"encoding/json"
	"fmt"

	"github.com/runledger/runledger/report/internal/clip"
	"github.com/runledger/runledger/report/testindex"
)

// jest's --json output lists its test files under testResults.
func init() {
	register(Format{Name: FormatJest, JSONKeys: []string{"testResults"}, readKey: func(d *json.Decoder, _ string, sink *fileSink) error {
		return eachElement(d, func() error { return jestFile(d, sink) })
	}})
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
				message = clip.String(*m, 1000)
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
		c.Message = clip.String(a.FailureMessages[0], 1000)
	}
	if a.Location != nil {
		c.Line = a.Location.Line
	}
	return c, nil
}
