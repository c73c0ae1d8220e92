package runners

import "testing"

// lineCase is one line a declaration's Lines should read, and how.
type lineCase struct {
	line    string
	runner  string
	verdict Verdict
	total   bool
}

// checkLines checks what MatchLine makes of each line, and that none of
// the lines in not (prose quoting a runner's words) match any runner.
func checkLines(t *testing.T, cases []lineCase, not ...string) {
	t.Helper()
	for _, tt := range cases {
		m, ok := MatchLine(tt.line)
		if !ok || m.Runner != tt.runner || m.Verdict != tt.verdict || m.Total != tt.total {
			t.Errorf("MatchLine(%q) = %+v %v, want %s verdict %d total %v", tt.line, m, ok, tt.runner, tt.verdict, tt.total)
		}
	}
	for _, line := range not {
		if m, ok := MatchLine(line); ok {
			t.Errorf("MatchLine(%q) = %+v, want no match", line, m)
		}
	}
}
