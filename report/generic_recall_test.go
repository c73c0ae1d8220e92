package report

import (
	"testing"

	"github.com/runledger/runledger/report/excerpt"
)

// TestGenericRecall: on real runs of frameworks runledger has no runner
// for (testdata/generic, made by gen.sh: Test::More without a harness,
// yath, tcltest, CUnit, behave with expected failures), each with one
// injected regression in the middle of a log over 16 KiB, the failure's
// root-cause lines are found by their shape: every one is in the excerpts
// and in the comment at 16 KiB, and the excerpts quote fewer bytes than
// the log's first and last 8 KiB (which miss them but in perl-testmore).
func TestGenericRecall(t *testing.T) {
	for _, c := range loadCases(t, "testdata/generic") {
		t.Run(c.name, func(t *testing.T) {
			def, env := excerptRecall(t, c, excerpt.Options{})
			if !def.all() {
				t.Errorf("the excerpts miss %q", def.missing)
				for _, r := range env.Runs {
					for _, x := range r.Excerpts {
						t.Logf("%s %s %s lines %d-%d %q", x.Stream, x.Reason, x.Test, x.FirstLine, x.LastLine, x.Text)
					}
				}
			}
			// An expected failure is quoted after every other excerpt and
			// says so in its role.
			for _, r := range env.Runs {
				seen := false
				for _, x := range r.Excerpts {
					if x.Role == "expected" {
						seen = true
					} else if seen {
						t.Errorf("%s excerpt %q (%s) comes after an expected failure", x.Role, x.Test, x.Reason)
					}
				}
			}
			md, body := markdownRecall(t, c, env)
			if !md.all() {
				t.Errorf("the comment at %d bytes misses %q:\n%s", commentBudget, md.missing, body)
			}
			ht := headTail(t, c, 8<<10, false)
			if ht.all() {
				// Test::More's diagnostics go to stderr, which reaches the
				// combined log when perl flushes it: the end, here.
				t.Logf("the log's first and last 8 KiB hold every root-cause line too")
			}
			t.Logf("excerpts: %d of %d lines in %d bytes; comment: %d of %d in %d bytes; first and last 8 KiB: %d of %d in %d bytes",
				def.found, def.of, def.bytes, md.found, md.of, md.bytes, ht.found, ht.of, ht.bytes)
			if def.bytes >= ht.bytes {
				t.Errorf("the excerpts quote %d bytes, the first and last 8 KiB %d", def.bytes, ht.bytes)
			}
		})
	}
}
