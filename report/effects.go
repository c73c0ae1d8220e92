package report

import (
	"fmt"
	"strings"

	"github.com/runledger/runledger/record"
)

// Effects is what an attempt changed in its workspace (record.Effects),
// with its lists cut to effectsListMax paths and Line saying it in one
// sentence. The record holds the longer lists.
type Effects struct {
	record.Effects
	Line string `json:"line"`
}

// effectsListMax bounds each list in the envelope, which agents read
// first; the record keeps up to record.EffectsListMax.
const effectsListMax = 10

// effectsLineMax is how many paths the one-line account names.
const effectsLineMax = 5

func effectsOf(r *record.Record) *Effects {
	if r.Effects == nil {
		return nil
	}
	e := &Effects{Effects: *r.Effects}
	for _, l := range []*[]string{&e.Created, &e.Modified, &e.Deleted} {
		if len(*l) > effectsListMax {
			*l, e.Truncated = (*l)[:effectsListMax], true
		}
	}
	e.Line = EffectsLine(r.Effects)
	return e
}

// EffectsLine says in one line what an attempt changed: "changed 3 files
// (git): modified testdata/golden.txt; deleted fixture.txt; created
// new.txt", or why that is not known.
func EffectsLine(e *record.Effects) string {
	switch {
	case e == nil:
		return ""
	case e.Method == record.EffectsNone:
		return "changes in the workspace not known: " + e.Reason
	case e.Total == 0:
		return fmt.Sprintf("changed no files in the workspace (%s)", e.Method)
	}
	var parts []string
	named, listed := 0, 0
	for _, l := range []struct {
		verb  string
		paths []string
	}{{"modified", e.Modified}, {"deleted", e.Deleted}, {"created", e.Created}} {
		listed += len(l.paths)
		k := min(len(l.paths), effectsLineMax-named)
		if k > 0 {
			parts = append(parts, l.verb+" "+strings.Join(l.paths[:k], ", "))
			named += k
		}
	}
	line := fmt.Sprintf("changed %d %s (%s): %s", e.Total, pluralWord(e.Total, "file"), e.Method, strings.Join(parts, "; "))
	if e.Total > named {
		line += fmt.Sprintf("; and %d more", e.Total-named)
	}
	return line
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
