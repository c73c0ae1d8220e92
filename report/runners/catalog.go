package runners

// Entry is what the registry holds of one runner, for the docs' runner
// table: its name (the summary.source it gives) and which parts it
// registered.
type Entry struct {
	Name string
	// Parser: a hand-written parser reads its summary; Totals: its
	// declaration does. Lines: compaction reads its lines. Evidence: its
	// excerpts are declared.
	Parser, Totals, Lines, Evidence bool
}

// Catalog lists every registered runner, sorted by name. The docs' runner
// table is generated from it.
func Catalog() []Entry {
	out := make([]Entry, len(declarations))
	for i, d := range declarations {
		out[i] = Entry{Name: d.Runner, Parser: d.Parser != nil, Totals: d.Totals != nil, Lines: len(d.Lines) > 0, Evidence: d.Evidence != nil}
	}
	return out
}
