package runners

import "regexp"

// Evidence is what of a runner's output explains a failure, for report's
// excerpts (report/evidence reads it): a block from a failure's heading to
// the line that ends it, and lines that are a bare verdict of the run.
// Every regexp is matched against the line's text without its line ending
// and terminal escapes, leading blanks kept, so column 0 is ^.
type Evidence struct {
	// Starts lists the first bytes (after blanks) of the lines that open
	// something: After's, Open's when After is nil, Verdict's. The
	// evidence scanner shows a grammar only such lines while it has
	// nothing open.
	Starts string
	// After, when set, is the line a heading must directly follow
	// (unittest's rule of 70 '='): Open is tried only on the next line.
	After *regexp.Regexp
	// Open is a failure's heading; its first submatch names the failure.
	Open *regexp.Regexp
	// Underline, when set, is a rule whose first match under the heading
	// belongs to the heading (unittest's dashes) and whose second ends
	// the block.
	Underline *regexp.Regexp
	// Close is a line that ends the block and is not part of it (the next
	// rule, the run's total).
	Close *regexp.Regexp
	// Verdict is a line that is a bare verdict of the whole run (sympy's
	// "DO *NOT* COMMIT!"): quoted only when nothing explains a failure
	// better.
	Verdict *regexp.Regexp
}

// Evidences returns the declared runners that declare their evidence,
// sorted by name, with what they declare.
func Evidences() []RunnerEvidence {
	var out []RunnerEvidence
	for _, d := range declarations {
		if d.Evidence != nil {
			out = append(out, RunnerEvidence{Runner: d.Runner, Evidence: d.Evidence})
		}
	}
	return out
}

// RunnerEvidence is one runner's declared evidence.
type RunnerEvidence struct {
	Runner string
	*Evidence
}
