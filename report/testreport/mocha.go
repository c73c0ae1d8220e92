package testreport

import (
	"encoding/json"

	"github.com/runledger/runledger/report/testindex"
)

// mocha's JSON reporter lists its tests under passes, failures and
// pending, which say their outcome.
func init() {
	register(Format{Name: FormatMocha, JSONKeys: []string{"passes", "failures", "pending"}, readKey: mochaKey})
}

var mochaOutcomes = map[string]testindex.Outcome{"passes": testindex.Passed, "failures": testindex.Failed, "pending": testindex.Skipped}

func mochaKey(d *json.Decoder, key string, sink *fileSink) error {
	return eachElement(d, func() error { return mochaTest(d, mochaOutcomes[key], sink) })
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
