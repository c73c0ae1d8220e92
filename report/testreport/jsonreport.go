package testreport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

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

// jsonTopKey reads one top-level key's value: a key a format registered
// says the document is of that format, and that format reads the value;
// any other key is skipped.
func jsonTopKey(d *json.Decoder, key string, sink *fileSink) error {
	f := byJSONKey(key)
	if f == nil {
		return skipValue(d)
	}
	sink.format = f.Name
	return f.readKey(d, key, sink)
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
