package report

import (
	"path/filepath"
	"testing"

	"github.com/runledger/runledger/report/excerpt"
	"github.com/runledger/runledger/store"
)

// TestGenericRecall: on real runs of frameworks runledger has no runner
// for (testdata/generic, made by gen.sh: Test::More without a harness,
// yath, tcltest, CUnit, behave with expected failures, bats, shunit2,
// busted, testthat, libcheck, test-unit), each with one
// injected regression in the middle of a log over 16 KiB, the failure's
// root-cause lines are found by their shape: every one is in the excerpts
// and in the comment at 16 KiB, and the excerpts quote fewer bytes than
// the log's first and last 8 KiB (which miss them but in perl-testmore
// and busted, whose frameworks print their failures at the end).
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

// TestGenericPassing: the passing controls (testdata/generic-passing, made
// by gen.sh: the bats and busted suites of testdata/generic without their
// regression) are read as passed, with no failure or error excerpt and no
// counts the log does not hold: source none without counts, or a runner
// whose verified counts say nothing failed and sum to its tests.
func TestGenericPassing(t *testing.T) {
	dirs, err := filepath.Glob("testdata/generic-passing/*/store")
	if err != nil || len(dirs) < 2 {
		t.Fatalf("want at least two passing controls, got %v (%v)", dirs, err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(filepath.Dir(dir)), func(t *testing.T) {
			st, err := store.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			env, err := Build(st, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if env.Status != "passed" || len(env.Runs) != 1 {
				t.Fatalf("status %q with %d runs, want passed with one", env.Status, len(env.Runs))
			}
			r := env.Runs[0]
			for _, x := range r.Excerpts {
				if x.Reason == "failure" || x.Reason == "error" {
					t.Errorf("a %s excerpt (%s) of a passing run: %q", x.Reason, x.Test, x.Text)
				}
			}
			s := r.Summary
			t.Logf("source %q, verified %v, %d excerpts", s.Source, s.Verified, len(r.Excerpts))
			if len(s.Failures) > 0 {
				t.Errorf("failures named in a passing run: %+v", s.Failures)
			}
			counts := []*int{s.Tests, s.Passed, s.Failed, s.Skipped, s.Errors}
			if s.Source == "none" {
				for _, c := range counts {
					if c != nil {
						t.Errorf("source none with counts: %+v", s)
					}
				}
				return
			}
			if !s.Verified || s.Tests == nil || s.Passed == nil || s.Failed == nil || *s.Failed != 0 ||
				s.Errors != nil && *s.Errors != 0 {
				t.Fatalf("source %q: want verified counts with nothing failed, got %+v", s.Source, s)
			}
			sum := *s.Passed
			if s.Skipped != nil {
				sum += *s.Skipped
			}
			if sum != *s.Tests {
				t.Errorf("source %q: %d passed and skipped of %d tests", s.Source, sum, *s.Tests)
			}
		})
	}
}
