package runners

// ParserNames are the runners whose summary a parser of their own reads
// (not a declaration), in the order newState feeds them: the summary.source
// each gives. The docs' runner table is generated from it and Declared.
func ParserNames() []string {
	var out []string
	for _, p := range newState().parsers {
		out = append(out, p.name())
	}
	return out
}
