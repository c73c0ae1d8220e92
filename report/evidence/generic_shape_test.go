package evidence

import (
	"strings"
	"testing"
)

// TestFailureShapes: in a log no grammar knows, a line that says a test
// failed opens a block of the lines that carry its reason, quoted before
// progress, tables and the log's ends; lines other programs print that
// look alike open none; an expected failure is quoted after the real one.
func TestFailureShapes(t *testing.T) {
	progress := repeatf
	tests := []struct {
		name, log string
		want      []string // quoted, in this order among the pieces
		not       []string // not quoted
	}{
		{
			name: "tcltest: the block to its closing line, blank lines within",
			log: progress(300, "++++ ok-%d PASSED\n") + "==== parse-3 parses a list FAILED\n==== Contents of test case:\n\n    parse {a b}\n\n---- Result was:\na\n---- Result should have been (exact matching):\na b\n==== parse-3 FAILED\n\n" +
				progress(300, "++++ later-%d PASSED\n"),
			want: []string{"==== parse-3 parses a list FAILED", "---- Result was:", "---- Result should have been (exact matching):", "==== parse-3 FAILED"},
			not:  []string{"++++ ok-299 PASSED", "++++ later-0 PASSED"},
		},
		{
			name: "CUnit: the assertion under ...FAILED, no ...passed around it",
			log:  progress(300, "  Test: t%d ...passed\n") + "  Test: wraps ...FAILED\n    1. ring.c:9  - CU_ASSERT_EQUAL(next(7),0)\n" + progress(300, "  Test: u%d ...passed\n"),
			want: []string{"Test: wraps ...FAILED\n    1. ring.c:9  - CU_ASSERT_EQUAL(next(7),0)\n"},
			not:  []string{"Test: t299 ...passed", "Test: u0 ...passed"},
		},
		{
			name: "a bracketed FAIL tag with its diagnostics, up to the next PASS",
			log: progress(300, "[  PASS  ]  job  1  + case %d\n") + "[  FAIL  ]  job  1  + drains\n(  DIAG  )  job  1      Failed test 'drains'\n(  DIAG  )  job  1             got: '2'\n(  DIAG  )  job  1        expected: '3'\n" +
				progress(300, "[  PASS  ]  job  1  + peek %d\n"),
			want: []string{"[  FAIL  ]  job  1  + drains\n(  DIAG  )  job  1      Failed test 'drains'\n(  DIAG  )  job  1             got: '2'\n(  DIAG  )  job  1        expected: '3'\n"},
			not:  []string{"+ peek 0", "+ case 299"},
		},
		{
			name: "a ✗ mark before a real error line's context",
			log:  progress(300, "  ✓ case %d\n") + "Error: the cache is cold\n" + progress(10, "info %d\n") + "✗ checkout keeps the basket\n  expected 3 items, got 2\n  at basket.lua:14\n" + progress(300, "  ✓ later %d\n"),
			want: []string{"✗ checkout keeps the basket\n  expected 3 items, got 2\n  at basket.lua:14\n", "Error: the cache is cold"},
		},
		{
			name: "an expected failure's traceback is quoted after the real failure",
			log: "Traceback (most recent call last):\n  File \"steps.py\", line 13, in coupon\n    raise NotImplementedError(code)\nNotImplementedError: C00\n\n    XFAIL: coupon C00 (expected to fail)\n" +
				progress(300, "    Given step %d passed\n") + "    Then the total is 14.40 # steps.py:29\n      Assertion Failed: total 36.00, expected 14.40\n" + progress(300, "    When step %d passed\n"),
			want: []string{"Assertion Failed: total 36.00, expected 14.40", "NotImplementedError: C00"},
		},
		{
			name: "a failure line that says it was expected is quoted after the real one",
			log: repeatf(300, "  ✓ case %d\n") + "FAIL: parses dates (expected to fail)\n  got 1970-01-01\n\n" + repeatf(10, "info %d\n") +
				"FAIL: parses times\n  expected 12:00, got 00:00\n\n" + repeatf(300, "  ✓ later %d\n"),
			want: []string{"FAIL: parses times\n  expected 12:00, got 00:00\n", "FAIL: parses dates (expected to fail)"},
		},
		{
			name: "busted's plainTerminal: the Failure block after the run, not the Pending one",
			log: repeatf(300, "lru: lru.new(%d) is deprecated\n") + strings.Repeat("+", 900) + "-+*\n900 successes / 1 failure / 0 errors / 1 pending : 0.1 seconds\n\n" +
				"Pending -> spec/ttl_spec.lua @ 3\nttl expires entries\n\n" +
				"Failure -> spec/get_spec.lua @ 22\nlru:get makes a hit the newest key\nspec/get_spec.lua:25: Expected objects to be the same.\nPassed in:\n(table: 0x55) {\n *[1] = 'b'\n  [2] = 'c' }\nExpected:\n(table: 0x56) {\n *[1] = 'c'\n  [2] = 'a' }\n",
			want: []string{"Failure -> spec/get_spec.lua @ 22\nlru:get makes a hit the newest key\nspec/get_spec.lua:25: Expected objects to be the same.\nPassed in:\n(table: 0x55) {\n *[1] = 'b'\n  [2] = 'c' }\nExpected:\n(table: 0x56) {\n *[1] = 'c'\n  [2] = 'a' }\n"},
			not:  []string{"lru.new(150)"},
		},
		{
			name: "busted's utfTerminal: Failure → and Error → blocks",
			log: strings.Repeat("●", 900) + "◼✱\n900 successes / 1 failure / 1 error / 0 pending : 0.1 seconds\n\n" +
				"Failure → spec/stack_spec.lua @ 5\nstack pops the last\nspec/stack_spec.lua:6: Expected objects to be the same.\nPassed in:\n(number) 3\nExpected:\n(number) 4\n\n" +
				"Error → spec/stack_spec.lua @ 9\nstack peeks\nspec/stack_spec.lua:10: attempt to index a nil value (local 's')\n",
			want: []string{"Failure → spec/stack_spec.lua @ 5\nstack pops the last\nspec/stack_spec.lua:6: Expected objects to be the same.\nPassed in:\n(number) 3\nExpected:\n(number) 4\n",
				"Error → spec/stack_spec.lua @ 9\nstack peeks\nspec/stack_spec.lua:10: attempt to index a nil value (local 's')\n"},
			not: []string{"●●●"},
		},
		{
			name: "test-unit: the Failure between rules, its expected and actual past a blank line",
			log: strings.Repeat(strings.Repeat(".", 79)+"\n", 100) + "....F\n" + strings.Repeat("=", 79) + "\nFailure: test_fraction(TestParse)\n/src/test/test_parse.rb:13:in `test_fraction'\n     12:   def test_fraction\n  => 13:     assert_equal(1536, Bytesize.parse(\"1.5 KiB\"))\n     14:   end\n" +
				"<1536> expected but was\n<1024>\n\ndiff:\n- 1536\n+ 1024\n" + strings.Repeat("=", 79) + "\n" + strings.Repeat(strings.Repeat(".", 79)+"\n", 100),
			want: []string{"Failure: test_fraction(TestParse)\n", "  => 13:     assert_equal(1536, Bytesize.parse(\"1.5 KiB\"))\n", "<1536> expected but was\n<1024>\n\ndiff:\n- 1536\n+ 1024\n"},
			not:  []string{"....F"},
		},
		{
			name: "test-unit: an Error between rules is a failure block too",
			log: strings.Repeat(strings.Repeat(".", 79)+"\n", 100) + "E\n" + strings.Repeat("=", 79) + "\nError: test_load(TestConfig): Errno::ENOENT: No such file or directory @ rb_sysopen - missing.yml\n/src/lib/config.rb:7:in `read'\n/src/test/test_config.rb:5:in `test_load'\n\n     4:   def test_load\n  => 5:     Config.load(\"missing.yml\")\n" +
				strings.Repeat("=", 79) + "\n" + strings.Repeat(strings.Repeat(".", 79)+"\n", 100),
			want: []string{"Error: test_load(TestConfig): Errno::ENOENT", "/src/test/test_config.rb:5:in `test_load'\n\n     4:   def test_load\n  => 5:     Config.load(\"missing.yml\")\n"},
		},
		{
			name: "testthat's progress reporter: the Failure between rules, not the Skip blocks",
			log: progress(60, "✔ |     1  13 | align-%02d\n"+strings.Repeat("─", 80)+"\nSkip ('test-align.R:21'): pad_right is fast\nReason: On CRAN\n"+strings.Repeat("─", 80)+"\n\n") +
				"✖ | 1       2 | fill [0.3s]\n" + strings.Repeat("─", 80) + "\nFailure ('test-fill.R:6'): fill_lines fills lines up to the width\nfill_lines(\"a b c\", 3) (`actual`) not equal to c(\"a b\", \"c\") (`expected`).\n\n`actual`:   \"a\" \"b\" \"c\"\n`expected`: \"a b\" \"c\"\n" + strings.Repeat("─", 80) + "\n\n" +
				progress(60, "✔ |         8 | words-%02d\n"),
			want: []string{"Failure ('test-fill.R:6'): fill_lines fills lines up to the width\nfill_lines(\"a b c\", 3) (`actual`) not equal to c(\"a b\", \"c\") (`expected`).\n\n`actual`:   \"a\" \"b\" \"c\"\n`expected`: \"a b\" \"c\"\n"},
			not:  []string{"Skip ('test-align.R:21')", "words-00"},
		},
		{
			name: "testthat's later heading: ── Failure (file:line:col): name ──",
			log:  progress(300, "✔ |         8 | words-%02d\n") + "── Failure ('test-fill.R:6:3'): fill_lines fills lines ──────────\n`actual`:   \"a\" \"b\"\n`expected`: \"a b\"\n\n" + progress(300, "✔ |         8 | zwords-%02d\n"),
			want: []string{"── Failure ('test-fill.R:6:3'): fill_lines fills lines ──────────\n`actual`:   \"a\" \"b\"\n`expected`: \"a b\"\n"},
		},
		{
			name: "testthat's summary reporter: a numbered heading's block to the next heading, its backtrace past a blank line",
			log: progress(300, "✔ |         8 | words-%02d\n") + "══ Failed ══════════\n── 1. Failure ('test-fill.R:13:3'): fills ──────────\nExpected `x` to be TRUE.\nDifferences:\n`actual`:   FALSE\n`expected`: TRUE \n\nBacktrace:\n 1. testthat::expect_true(x)\n\n\n" +
				"── 2. Error ('test-load.R:24:3'): loads ──────────\nError in `read()`: missing.csv\n\n══ DONE ══════════\n" + progress(300, "✔ |         8 | zwords-%02d\n"),
			want: []string{"── 1. Failure ('test-fill.R:13:3'): fills ──────────\nExpected `x` to be TRUE.\nDifferences:\n`actual`:   FALSE\n`expected`: TRUE \n\nBacktrace:\n 1. testthat::expect_true(x)\n", "── 2. Error ('test-load.R:24:3'): loads ──────────\nError in `read()`: missing.csv\n"},
			not:  []string{"| words-299"},
		},
		{
			name: "bats' pretty formatter: the ✗ block past the blank line inside its diagnostics, in colour",
			log: progress(200, "\x1b[0m\x1b[1G   one\x1b[K\x1b[77G1/3\x1b[2G\x1b[1G ✓ one %d\x1b[K\n") +
				"\x1b[0m\x1b[1G   bump minor\x1b[K\x1b[77G2/3\x1b[2G\x1b[31;1m\x1b[1G ✗ bump minor resets the patch\x1b[K\n" +
				"\x1b[0m\x1b[31;22m   (in test file test/bump.bats, line 9)\n\x1b[0m\x1b[31;22m     `assert_output \"1.5.0\"' failed\n\x1b[0m\x1b[31;22m   \n" +
				"\x1b[0m\x1b[31;22m   -- output differs --\n\x1b[0m\x1b[31;22m   expected : 1.5.0\n\x1b[0m\x1b[31;22m   actual   : 1.5.7\n\x1b[0m\x1b[31;22m   --\n\x1b[0m\x1b[31;22m   \n" +
				progress(200, "\x1b[0m\x1b[1G   two\x1b[K\x1b[77G3/3\x1b[2G\x1b[1G ✓ two %d\x1b[K\n"),
			want: []string{"✗ bump minor resets the patch", "(in test file test/bump.bats, line 9)", "`assert_output \"1.5.0\"' failed", "-- output differs --", "expected : 1.5.0", "actual   : 1.5.7"},
			not:  []string{"✓ two 0", "✓ one 199"},
		},
		{
			name: "a blank line ends a failure block when the next line is no deeper than the failure",
			log:  progress(300, "  Test: t%d ...passed\n") + "  Test: wraps ...FAILED\n    1. ring.c:9  - CU_ASSERT_EQUAL(next(7),0)\n\n  Test: u0 ...passed\n" + progress(300, "  Test: v%d ...passed\n"),
			want: []string{"Test: wraps ...FAILED\n    1. ring.c:9  - CU_ASSERT_EQUAL(next(7),0)\n"},
			not:  []string{"Test: u0 ...passed"},
		},
		{
			name: "Criterion: the dash-tagged reason above a [FAIL] tag, not the next test's",
			log: "[----] Criterion v2.4.1\n" + progress(200, "[RUN ] keep::t%[1]d\n[PASS] keep::t%[1]d: (0.00s)\n") +
				"[RUN ] math::big\n[----] t.c:7: Assertion Failed\n[----]   \n[----]   add(101, 1) should be 102\n[----]   \n[FAIL] math::big: (0.00s)\n" +
				"[RUN ] math::str\n[----] t.c:9: Assertion Failed\n[----]   \n[----]   actual=`abc` expected=`abd`.\n[----]   \n[FAIL] math::str: (0.00s)\n" +
				"[====] Running 1 test from misc:\n" + progress(200, "[RUN ] z::t%[1]d\n[PASS] z::t%[1]d: (0.00s)\n") +
				"[====] Synthesis: Tested: 402 | Passing: 400 | Failing: 2 | Crashing: 0 \n",
			want: []string{"[----] t.c:7: Assertion Failed\n[----]   \n[----]   add(101, 1) should be 102\n[----]   \n[FAIL] math::big: (0.00s)\n",
				"[----] t.c:9: Assertion Failed\n[----]   \n[----]   actual=`abc` expected=`abd`.\n[----]   \n[FAIL] math::str: (0.00s)\n"},
			not: []string{"[PASS] keep::t150", "[PASS] z::t50"},
		},
		{
			name: "rebar3 ct: common_test's FAILED case with its reason, not the progress after it",
			log: progress(300, "%%%%%% dep_%d_SUITE: ......\n") + "%%% calc_SUITE ==> add_big: FAILED\n%%% calc_SUITE ==> \nFailure/Error: ?assertEqual(102, calc : add ( 101 , 1 ))\n  expected: 102\n       got: 103\n      line: 7\n.\n" +
				progress(300, "%%%%%% zdep_%d_SUITE: ......\n") + "Failed 1 tests. Passed 1801 tests. \n",
			want: []string{"%%% calc_SUITE ==> add_big: FAILED\n%%% calc_SUITE ==> \nFailure/Error: ?assertEqual(102, calc : add ( 101 , 1 ))\n  expected: 102\n       got: 103\n      line: 7\n"},
			not:  []string{"%%% zdep_0_SUITE", "%%% dep_299_SUITE"},
		},
		{
			name: "ct_run: common_test's failed case between rules of '- '",
			log: progress(300, "Testing ct.s%d_SUITE: TEST COMPLETE, 30 ok, 0 failed of 30 test cases\n") + "\n" + strings.Repeat("- ", 40) + "\ncalc_SUITE:add_big failed on line 7\nReason: {assertEqual,[{module,...},{...}|...]}\n" + strings.Repeat("- ", 40) + "\n\n" +
				"Testing ct.calc_SUITE: *** FAILED test case 2 of 3 ***\n" + progress(300, "Testing ct.z%d_SUITE: TEST COMPLETE, 30 ok, 0 failed of 30 test cases\n"),
			want: []string{"calc_SUITE:add_big failed on line 7\nReason: {assertEqual,[{module,...},{...}|...]}\n"},
			not:  []string{"Testing ct.z0_SUITE", "Testing ct.s299_SUITE"},
		},
		{
			name: "Unity (C): a test's FAIL line among the PASS lines, and the summary's FAIL",
			log: progress(300, "test/test_calc.c:%d:test_keeps:PASS\n") + "test/test_calc.c:42:test_add_big:FAIL: Expected 102 Was 103\n" +
				progress(300, "test/test_calc.c:%d:test_later:PASS\n") + "\n-----------------------\n601 Tests 1 Failures 0 Ignored \nFAIL\n",
			want: []string{"test/test_calc.c:42:test_add_big:FAIL: Expected 102 Was 103\n"},
			not:  []string{"test/test_calc.c:299:test_keeps:PASS", "test/test_calc.c:0:test_later:PASS"},
		},
		{
			name: "libcheck: an F or E line among the P lines, not the P lines",
			log: progress(300, "tests/check_ring.c:22:P:core:test_len:%d: Passed\n") + "tests/check_ring.c:42:F:core:test_pop_wraps_around:0: Assertion 'v == 7' failed: v == 0, 7 == 7\n" +
				progress(100, "tests/check_ring.c:51:P:core:test_pop:%d: Passed\n") + "tests/check_ring.c:60:E:core:test_peek:0: (after this point) Received signal 11 (Segmentation fault)\n" + progress(100, "tests/check_ring.c:70:P:core:test_last:%d: Passed\n"),
			want: []string{"tests/check_ring.c:42:F:core:test_pop_wraps_around:0: Assertion 'v == 7' failed: v == 0, 7 == 7\n", "tests/check_ring.c:60:E:core:test_peek:0: (after this point) Received signal 11 (Segmentation fault)\n"},
			not:  []string{"test_len:299: Passed", "test_pop:0: Passed", "test_last:0: Passed"},
		},
		{
			name: "look-alikes open nothing: a Failure word in prose, a time before P, a rule before a plain line",
			log:  progress(300, "test t%d ... ok\n") + "Failure rate is 0%\n10:15:P: standup\n" + strings.Repeat("=", 40) + "\nsummary of the run\n" + progress(300, "test u%d ... ok\n"),
			not:  []string{"Failure rate is 0%", "10:15:P: standup", "summary of the run"},
		},
		{
			name: "look-alikes open nothing: cargo's `... FAILED`, prose, a PASS tag",
			log: progress(300, "test t%d ... ok\n") + "the report said FAILED\nsummary: 3 ... FAILED\n[  PASS  ]  job  1  + FAILED is a word\n  ==== not a tcltest heading\n" +
				progress(300, "test u%d ... ok\n"),
			not: []string{"the report said FAILED", "[  PASS  ]  job  1  + FAILED is a word"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, _ := plan(t, tt.log, Budget{Bytes: 2 << 10, Ended: true})
			q := quoted(tt.log, ps)
			at := 0
			for _, w := range tt.want {
				i := strings.Index(q[at:], w)
				if i < 0 {
					t.Fatalf("%q is not quoted after byte %d of:\n%s", w, at, q)
				}
				at += i + len(w)
			}
			for _, n := range tt.not {
				if strings.Contains(q, n) {
					t.Errorf("%q is quoted:\n%s", n, q)
				}
			}
		})
	}
}
