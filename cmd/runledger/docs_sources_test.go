package main

import (
	"reflect"
	"sort"
	"testing"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/runners"
	"github.com/runledger/runledger/report/testreport"
)

// loadDocSources is everything the generated docs read from the code, in
// one place: the runners' registry, the report formats' registry, the
// record and envelope types, the commands' flag sets and action.yml.
func loadDocSources(t *testing.T) docSources {
	t.Helper()
	src := docSources{
		commands: commandDocs(t),
		actions:  []actionDoc{loadAction(t, "action.yml"), loadAction(t, "setup/action.yml"), loadAction(t, "report/action.yml")},
		formats:  testreport.Names(),
		declared: map[string]int{},
		record:   fieldDocs(t, reflect.TypeOf(record.Record{}), "../../record"),
		envelope: fieldDocs(t, reflect.TypeOf(report.Envelope{}), "../../report", "../../record"),
	}
	byName := map[string]*runnerDoc{}
	get := func(name string) *runnerDoc {
		if byName[name] == nil {
			byName[name] = &runnerDoc{name: name}
		}
		return byName[name]
	}
	for _, e := range runners.Catalog() {
		r := get(e.Name)
		r.parser, r.totals, r.lines, r.evidence = e.Parser, e.Totals, e.Lines, e.Evidence
		if e.Totals {
			src.declared[e.Name]++
		}
	}
	for _, r := range byName {
		src.runners = append(src.runners, *r)
	}
	sort.Slice(src.runners, func(i, j int) bool { return src.runners[i].name < src.runners[j].name })
	return src
}
