package testreport

import (
	"encoding/json"
	"strings"
)

// RSpec's JSON formatter lists its examples under examples.
func init() {
	register(Format{Name: FormatRSpec, JSONKeys: []string{"examples"}, readKey: func(d *json.Decoder, _ string, sink *fileSink) error {
		return eachElement(d, func() error { return rspecExample(d, sink) })
	}})
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
