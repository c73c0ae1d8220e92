package main

import (
	"reflect"
	"sort"
	"testing"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/runners"
)

// loadDocSources is everything the generated docs read from the code, in
// one place: re-point it here when the runners and the report formats
// move into registries.
func loadDocSources(t *testing.T) docSources {
	t.Helper()
	src := docSources{
		commands: commandDocs(t),
		actions:  []actionDoc{loadAction(t, "action.yml"), loadAction(t, "setup/action.yml"), loadAction(t, "report/action.yml")},
		formats:  report.Formats,
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
	for _, n := range runners.ParserNames() {
		get(n).parser = true
	}
	for _, d := range runners.Declared() {
		r := get(d.Runner)
		r.totals, r.lines, r.evidence = d.Totals != nil, len(d.Lines) > 0, d.Evidence != nil
		if d.Totals != nil {
			src.declared[d.Runner]++
		}
	}
	for _, r := range byName {
		src.runners = append(src.runners, *r)
	}
	sort.Slice(src.runners, func(i, j int) bool { return src.runners[i].name < src.runners[j].name })
	return src
}
