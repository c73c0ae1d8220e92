package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/runledger/runledger/report/excerpt"

	"github.com/runledger/runledger/internal/golden"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/history"
)

func intp(n int) *int       { return &n }
func i64p(n int64) *int64   { return &n }
func strp(s string) *string { return &s }

// fixtureExcerpt builds an excerpt of raw log bytes the way excerpt.Select
// would: hash of the raw bytes, their Text, the bytes at hand.
func fixtureExcerpt(stream string, start, firstLine int64, reason, raw string) report.Excerpt {
	sum := sha256.Sum256([]byte(raw))
	return report.Excerpt{Stream: stream, Start: start, End: start + int64(len(raw)), FirstLine: firstLine,
		LastLine: firstLine + int64(strings.Count(strings.TrimSuffix(raw, "\n"), "\n")), Reason: reason,
		SHA256: hex.EncodeToString(sum[:]), Text: excerpt.Text([]byte(raw)), Raw: []byte(raw)}
}

func fixtureHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func fixtureLogs(stdout, stderr int64) map[string]report.Log {
	return map[string]report.Log{
		"stdout": {Bytes: stdout, SHA256: fixtureHash("stdout"), Path: ".runledger/r1/stdout.log", Artifact: "https://github.example/acme/app/actions/runs/1/artifacts/9"},
		"stderr": {Bytes: stderr, SHA256: fixtureHash("stderr"), Path: ".runledger/r1/stderr.log"},
	}
}

func fixtureRun(name string, attempt int, status string, exit *int) report.Run {
	return report.Run{ID: "r-" + name, Name: name, Attempt: attempt, Status: status, ExitCode: exit,
		Termination: "exited", DurationMS: i64p(12345), Summary: report.Summary{Source: "none"},
		Excerpts: []report.Excerpt{}, Logs: fixtureLogs(2<<20, 1200)}
}

func junitSummary(tests, passed, failed, skipped int, verified bool) report.Summary {
	return report.Summary{Source: "junit", Verified: verified, Tests: intp(tests), Passed: intp(passed),
		Failed: intp(failed), Skipped: intp(skipped), Errors: intp(0)}
}

const goFailRaw = "=== RUN   TestParse\n--- FAIL: TestParse (0.00s)\n    parse_test.go:42: want \"a\", got \"b\"\n" +
	"    parse_test.go:43: input was \"x|y\"\n"

// markdownCases are the representative envelopes with golden renders.
func markdownCases() []struct {
	name string
	env  report.Envelope
	opts Options
} {
	passed := report.Envelope{Schema: report.Schema, Status: "passed", Runs: []report.Run{fixtureRun("unit", 1, "passed", intp(0))}, Superseded: []report.Superseded{}}
	passed.Runs[0].Summary = junitSummary(120, 118, 0, 2, true)

	failed := report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{fixtureRun("unit", 2, "failed", intp(1)), fixtureRun("lint", 1, "passed", intp(0))}}
	failed.Runs[0].Summary = junitSummary(120, 118, 2, 0, true)
	failed.Runs[0].Summary.Failures = []report.Failure{{Name: "TestParse", Classname: "example.com/app/parse", File: "parse_test.go", Line: 42, Message: `want "a", got "b"`},
		{Name: "TestLex", Classname: "example.com/app/parse", Message: "timeout"}}
	failed.Runs[0].Excerpts = []report.Excerpt{fixtureExcerpt("stdout", 10240, 311, "failure", goFailRaw),
		fixtureExcerpt("stdout", 20480, 600, "summary", "FAIL\texample.com/app/parse\t0.012s\n")}
	failed.Runs[0].Flaky = []report.TestRef{{Name: "TestNetwork", Classname: "example.com/app/net"}}
	failed.Superseded = []report.Superseded{{ID: "r-unit-1", Name: "unit", Attempt: 1, Status: "failed", ExitCode: intp(1),
		Marker: "<<cg:0123456789abcdef>>", Pointer: "https://github.example/acme/app/actions/runs/1/artifacts/8"}}

	timedOut := report.Envelope{Schema: report.Schema, Status: "timed_out", Runs: []report.Run{fixtureRun("e2e", 1, "timed_out", nil)}, Superseded: []report.Superseded{}}
	timedOut.Runs[0].TimedOut, timedOut.Runs[0].Termination, timedOut.Runs[0].Signal = true, "confirmed", strp("SIGKILL")
	timedOut.Runs[0].Excerpts = []report.Excerpt{fixtureExcerpt("output", 4000, 90, "tail", "waiting for server on :8080\nwaiting for server on :8080\n")}

	truncated := report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{fixtureRun("build", 1, "failed", intp(2))}, Superseded: []report.Superseded{}}
	truncated.Runs[0].Truncated = true
	truncated.Runs[0].Logs["stdout"] = report.Log{Bytes: 5 << 30, SHA256: fixtureHash("big"), Truncated: true,
		Stored: [][2]int64{{0, 1 << 20}, {5<<30 - 1<<20, 5 << 30}}, Path: ".runledger/r1/stdout.log"}
	truncated.Runs[0].Excerpts = []report.Excerpt{fixtureExcerpt("stdout", 5<<30-2000, 41000, "error", "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:9 +0x1d\n")}

	incomplete := report.Envelope{Schema: report.Schema, Status: "incomplete", Runs: []report.Run{fixtureRun("unit", 1, "incomplete", nil)}, Superseded: []report.Superseded{}}
	incomplete.Runs[0].DurationMS, incomplete.Runs[0].Termination = nil, ""
	incomplete.Runs[0].Warnings = []string{"the wrapper (pid 4242 on runner-7) is gone; the record was left running"}

	noSummary := report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{fixtureRun("make", 1, "failed", intp(2))}, Superseded: []report.Superseded{}}
	noSummary.Runs[0].Summary.Note = "no JUnit report and no known runner summary; counts are not guessed"
	noSummary.Runs[0].Excerpts = []report.Excerpt{fixtureExcerpt("stderr", 0, 1, "error", "make: *** [Makefile:12: test] Error 2\n")}

	malformed := report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{fixtureRun("unit", 1, "failed", intp(1))}, Superseded: []report.Superseded{}}
	malformed.Runs[0].Summary = report.Summary{Source: "go", Verified: true, Tests: intp(10), Passed: intp(9), Failed: intp(1), Skipped: intp(0)}
	malformed.Runs[0].Warnings = []string{"junit report.xml: XML syntax error on line 3: unexpected EOF; ignored"}
	malformed.Runs[0].Excerpts = []report.Excerpt{fixtureExcerpt("stdout", 300, 12, "failure", goFailRaw)}

	inconsistent := report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{fixtureRun("unit", 1, "failed", intp(1))}, Superseded: []report.Superseded{}}
	inconsistent.Runs[0].Summary = junitSummary(50, 50, 0, 0, false)
	inconsistent.Runs[0].Summary.Note = "JUnit reports no failures but the command exited 1; counts not verified"

	compared := report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{fixtureRun("unit", 1, "failed", intp(1)), fixtureRun("lint", 1, "passed", intp(0))}, Regressions: intp(2)}
	compared.Runs[0].Summary = junitSummary(120, 116, 4, 0, true)
	compared.Runs[0].Summary.Failures = []report.Failure{
		{Name: "TestTotal", Classname: "example.com/shop", File: "cart_test.go", Line: 34, Message: "Total(350 units) = 350000, want 297500", Origin: "new"},
		{Name: "TestCoupon", Classname: "example.com/shop", Message: "coupon expired", Origin: "new_test"},
		{Name: "TestRetry", Classname: "example.com/shop", Origin: "flaky"},
		{Name: "TestLegacy", Classname: "example.com/shop", Message: "known bug #12", Origin: "pre_existing"}}
	compared.Runs[0].Baseline = &report.Baseline{State: "compared", Commit: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", RunID: "r-base",
		URL: "https://github.example/acme/app/actions/runs/41", Note: "the base commit 6113728 has no completed run of ci.yml; compared with f95f852, the newest on main",
		Tests: 121, Missing: 2, MissingTests: []report.TestRef{{Name: "TestGone"}, {Name: "TestSkippedHere"}},
		Fixed: []report.TestRef{{Name: "TestWasBroken"}}, Origins: map[string]int{"new": 1, "new_test": 1, "flaky": 1, "pre_existing": 1}, Regressions: intp(2)}
	compared.Runs[1].Baseline = &report.Baseline{State: "compared", Commit: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", Tests: 40, Missing: 40,
		MissingTests: []report.TestRef{{Name: "TestA"}}, Fixed: []report.TestRef{}, Regressions: intp(0)}

	unavailable := report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{fixtureRun("unit", 1, "failed", intp(1))}, Superseded: []report.Superseded{}}
	unavailable.Runs[0].Summary = junitSummary(10, 9, 1, 0, true)
	unavailable.Runs[0].Summary.Failures = []report.Failure{{Name: "TestX", Origin: "unknown"}}
	unavailable.Runs[0].Baseline = &report.Baseline{State: "unavailable", Fixed: []report.TestRef{},
		Reason: "the base run 41's artifact runledger-test has expired <!-- runledger:envelope --> @octocat"}

	judged := report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{fixtureRun("unit", 1, "failed", intp(1)), fixtureRun("lint", 1, "failed", intp(1))}, Superseded: []report.Superseded{}, Regressions: intp(3)}
	judged.Runs[0].Summary = junitSummary(120, 114, 6, 0, true)
	judged.Runs[0].Summary.Failures = []report.Failure{
		{Name: "TestTotal", Classname: "example.com/shop", Message: "Total = 350000, want 297500", Origin: "new"},
		{Name: "TestOnce", Classname: "example.com/shop", Origin: "new",
			History: &history.Evidence{Runs: 30, Failed: 1, Streaks: 1, Flips: []string{}, LastFailed: "def5678aaaabbbbccccddddeeeeffff000011112"}},
		{Name: "TestBroken", Classname: "example.com/shop", Origin: "new",
			History: &history.Evidence{Runs: 30, Failed: 3, Streaks: 1, Flips: []string{}, LastFailed: "0123456aaaabbbbccccddddeeeeffff000011112"}},
		{Name: "TestNewCoupon", Classname: "example.com/shop", Origin: "new_test"},
		{Name: "TestNetwork", Classname: "example.com/shop", Origin: "flaky",
			History: &history.Evidence{Runs: 30, Failed: 3, Streaks: 2, Flips: []string{"abc1234aaaabbbbccccddddeeeeffff000011112"}, LastFailed: "abc1234aaaabbbbccccddddeeeeffff000011112"}},
		{Name: "TestLegacy", Classname: "example.com/shop", Origin: "pre_existing",
			History: &history.Evidence{Runs: 30, Failed: 30, Streaks: 1, Flips: []string{}, LastFailed: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"}}}
	judged.Runs[0].Baseline = &report.Baseline{State: "compared", Commit: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", Tests: 120, Fixed: []report.TestRef{},
		Origins: map[string]int{"new": 3, "new_test": 1, "flaky": 1, "pre_existing": 1}, Regressions: intp(4)}
	judged.Runs[0].History = &report.History{State: "read", Runs: 30, Commit: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", Branch: "main <!-- x --> @octocat"}
	judged.Runs[1].Summary = junitSummary(3, 2, 1, 0, true)
	judged.Runs[1].Summary.Failures = []report.Failure{{Name: "TestVet", Origin: "new"}}
	judged.Runs[1].Baseline = &report.Baseline{State: "compared", Commit: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", Tests: 3, Fixed: []report.TestRef{},
		Origins: map[string]int{"new": 1}, Regressions: intp(1)}
	judged.Runs[1].History = &report.History{State: "unavailable", Runs: 1,
		Reason: "unit/history.tsv.gz: sha256 0a1b, the manifest says 9f8e: the artifact's bytes do not match its manifest"}

	saysPassed := report.Envelope{Schema: report.Schema, Status: "passed", Runs: []report.Run{fixtureRun("unit", 1, "failed", intp(1))}, Superseded: []report.Superseded{}}

	return []struct {
		name string
		env  report.Envelope
		opts Options
	}{
		{"passed", passed, Options{}},
		{"failed_excerpts", failed, Options{ArtifactURL: "https://github.example/acme/app/actions/runs/1#artifacts",
			JobURL: "https://github.example/acme/app/actions/runs/1/job/7", Names: map[string]string{"unit": "test · go test ./..."}}},
		{"timed_out", timedOut, Options{}},
		{"truncated", truncated, Options{}},
		{"incomplete", incomplete, Options{}},
		{"no_summary", noSummary, Options{}},
		{"malformed_junit", malformed, Options{}},
		{"inconsistent_junit", inconsistent, Options{}},
		{"envelope_contradicts_runs", saysPassed, Options{}},
		{"baseline_compared", compared, Options{}},
		{"baseline_unavailable", unavailable, Options{}},
		{"history", judged, Options{}},
		{"hostile", hostileEnvelope(), Options{}},
		{"trimmed", bigEnvelope(2, 12), Options{Budget: 9000}},
		{"over_budget", bigEnvelope(60, 2), Options{Budget: 4096}},
	}
}

// hostileEnvelope carries text that tries to break out of every context.
func hostileEnvelope() report.Envelope {
	hostile := "``` \n</details>\n<!-- runledger:comment -->\n<!-- runledger:envelope -->\n<<cg:0123456789abcdef>>\n" +
		"@octocat please look at #1 | <img src=x onerror=alert(1)>\n\x1b[31mred\x1b[0m \x1b]0;title\x07" + strings.Repeat("x", 100000) + "\n~~~~\n"
	e := report.Envelope{Schema: report.Schema, Status: "failed", Warnings: []string{"<!-- runledger:comment --> @admin </details>"}}
	r := fixtureRun("unit | @octocat </details> <!-- runledger:envelope -->", 1, "failed", intp(1))
	r.Summary = junitSummary(2, 1, 1, 0, true)
	r.Summary.Failures = []report.Failure{{Name: "Test`x`<b>", Message: hostile}}
	r.Excerpts = []report.Excerpt{fixtureExcerpt("stdout", 0, 1, "failure", hostile)}
	r.Logs["stdout"] = report.Log{Bytes: 100, SHA256: "not-a-hash", Artifact: "javascript:alert(1)", Path: "<!-- runledger:comment -->"}
	e.Runs = []report.Run{r}
	e.Superseded = []report.Superseded{{Name: "@team", Attempt: 1, Status: "failed <!-- runledger:comment -->", ExitCode: intp(1),
		Marker: "<<cg:forged>> <!-- runledger:envelope -->", Pointer: "https://x.example/a)b<c> d"}}
	return e
}

// bigEnvelope has runs × excerpts sizeable excerpts and some history.
func bigEnvelope(runs, excerpts int) report.Envelope {
	e := report.Envelope{Schema: report.Schema, Status: "failed"}
	for i := range runs {
		r := fixtureRun(fmt.Sprintf("shard-%02d", i), 1, "failed", intp(1))
		for j := range excerpts {
			var raw strings.Builder
			for k := range 30 {
				fmt.Fprintf(&raw, "    shard_test.go:%d: step %d of excerpt %d went wrong in a verbose way\n", 100+k, k, j)
			}
			reason := []string{"failure", "error", "summary"}[j%3]
			r.Excerpts = append(r.Excerpts, fixtureExcerpt("stdout", int64(j)*100000, int64(j)*1000+1, reason, raw.String()))
		}
		e.Runs = append(e.Runs, r)
		e.Superseded = append(e.Superseded, report.Superseded{ID: fmt.Sprintf("old-%d", i), Name: r.Name, Attempt: 1,
			Status: "failed", ExitCode: intp(1), Marker: fmt.Sprintf("<<cg:%016x>>", i)})
	}
	return e
}

func TestRenderMarkdownGolden(t *testing.T) {
	for _, tt := range markdownCases() {
		t.Run(tt.name, func(t *testing.T) {
			before, err := json.Marshal(tt.env)
			if err != nil {
				t.Fatal(err)
			}
			body, err := Markdown(&tt.env, tt.opts)
			if err != nil {
				t.Fatalf("Markdown: %v", err)
			}
			checkBody(t, &tt.env, tt.opts, body)
			after, _ := json.Marshal(tt.env)
			if !bytes.Equal(before, after) {
				t.Error("Markdown modified its envelope")
			}
			golden.Check(t, filepath.Join("testdata", "markdown", tt.name+".md"), []byte(body))
		})
	}
}

// TestRenderMarkdownEmbedsEnvelopeExactly: when nothing is cut, the
// embedded JSON decodes to env itself.
func TestRenderMarkdownEmbedsEnvelopeExactly(t *testing.T) {
	for _, tt := range markdownCases() {
		body, err := Markdown(&tt.env, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ExtractEnvelope(body)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got.Omitted != nil {
			continue // cut to fit; checkBody covers these
		}
		want, _ := json.Marshal(tt.env)
		gotJSON, _ := json.Marshal(got)
		if !bytes.Equal(want, gotJSON) {
			t.Errorf("%s: embedded envelope differs:\n%s\nwant\n%s", tt.name, gotJSON, want)
		}
	}
}

func TestRenderMarkdownBudget(t *testing.T) {
	env := bigEnvelope(3, 10)
	tests := []struct {
		name       string
		maxBytes   int
		wantCut    bool
		wantOver   bool
		wantBudget int
	}{
		{"default fits after trimming", 0, true, false, 16384},
		{"capped at 60000", 1 << 20, true, false, 60000},
		{"tight drops excerpts", 5000, true, false, 5000},
		{"impossible", 500, true, true, 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{Budget: tt.maxBytes}
			if got := opts.budget(); got != tt.wantBudget {
				t.Fatalf("budget %d, want %d", got, tt.wantBudget)
			}
			body, err := Markdown(&env, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkBody(t, &env, opts, body)
			got, _ := ExtractEnvelope(body)
			if (got.Omitted != nil) != tt.wantCut {
				t.Errorf("omitted %+v, want cut %v", got.Omitted, tt.wantCut)
			}
			if strings.Contains(body, "**Over budget:**") != tt.wantOver {
				t.Errorf("over-budget note present = %v, want %v", !tt.wantOver, tt.wantOver)
			}
			if len(got.Runs) != len(env.Runs) {
				t.Errorf("%d runs embedded, want all %d", len(got.Runs), len(env.Runs))
			}
		})
	}
}

// checkBody asserts the invariants every rendered body keeps.
func checkBody(t *testing.T, env *report.Envelope, opts Options, body string) {
	t.Helper()
	lines := strings.SplitN(body, "\n", 3)
	if len(lines) < 3 || lines[0] != MarkerComment {
		t.Fatalf("body does not start with the comment marker: %q", body[:min(len(body), 200)])
	}
	wantStatus := Icon(env.Status) + " **runledger: " + statusWord(env.Status) + "**"
	if !strings.HasPrefix(lines[1], wantStatus) {
		t.Errorf("status line %q, want prefix %q", lines[1], wantStatus)
	}
	visible, _, _ := strings.Cut(body, MarkerEnvelopeBegin)
	if env.Status != "passed" && strings.Contains(visible, "runledger: passed") {
		t.Errorf("body claims passed for status %q", env.Status)
	}
	// The aggregate looks up artifact links by MayShowLogs: it must cover
	// every run that got a section.
	for _, r := range env.Runs {
		head := fmt.Sprintf("#### %s %s · ", Icon(r.Status), EscapeInline(short(opts.label(r.Name), 100)))
		if strings.Contains(visible, head) && !MayShowLogs(r) {
			t.Errorf("run %q got a section, but MayShowLogs says it cannot", r.Name)
		}
	}
	if strings.Count(body, "<!--") != 3 || strings.Count(body, "runledger:") < 3 || strings.Count(body, MarkerComment) != 1 ||
		strings.Count(body, MarkerEnvelopeBegin) != 1 || strings.Count(body, MarkerEnvelopeEnd) != 1 {
		t.Errorf("hidden markers forged or missing")
	}
	if strings.Count(body, "<details>") != 1 || strings.Count(body, "</details>") != 1 {
		t.Errorf("<details> opened or closed by untrusted text")
	}
	checkCompactionMarkers(t, env, body)
	got, err := ExtractEnvelope(body)
	if err != nil {
		t.Fatalf("ExtractEnvelope: %v", err)
	}
	// JSON carries invalid UTF-8 as U+FFFD; compare with env as JSON sees it.
	var norm report.Envelope
	data, err := json.Marshal(env)
	if err != nil || json.Unmarshal(data, &norm) != nil {
		t.Fatalf("envelope does not round-trip through JSON: %v", err)
	}
	if got.Status != norm.Status || len(got.Runs) != len(norm.Runs) {
		t.Fatalf("embedded status %q with %d runs, want %q with %d", got.Status, len(got.Runs), norm.Status, len(norm.Runs))
	}
	for i := range got.Runs {
		if got.Runs[i].Status != norm.Runs[i].Status || got.Runs[i].Name != norm.Runs[i].Name {
			t.Errorf("embedded run %d changed", i)
		}
	}
	checkExact(t, env, got)
	if over := strings.Contains(visible, "**Over budget:**"); len(body) > opts.budget() && !over {
		t.Errorf("body of %d bytes exceeds the %d budget without saying so", len(body), opts.budget())
	} else if over && (countExcerpts(got) > 0 || len(got.Superseded) > 0) {
		t.Errorf("over budget while excerpts or superseded attempts are still shown")
	}
}

// checkExact: every excerpt the body embeds is exactly the bytes it cites,
// a part of an excerpt of env (whose bytes the fixtures keep in Raw): a
// view shortens an excerpt by citing less, never by cutting its text.
func checkExact(t *testing.T, env, view *report.Envelope) {
	t.Helper()
	for i, r := range view.Runs {
		for _, x := range r.Excerpts {
			src, ok := containing(env.Runs[i].Excerpts, x)
			if !ok {
				t.Errorf("run %d: excerpt %s [%d,%d) lies in no excerpt of the report", i, x.Stream, x.Start, x.End)
				continue
			}
			if src.Raw == nil {
				continue
			}
			if err := excerpt.Check(x, src.Raw[x.Start-src.Start:x.End-src.Start]); err != nil {
				t.Errorf("run %d: %v", i, err)
			}
		}
	}
}

func containing(xs []report.Excerpt, x report.Excerpt) (report.Excerpt, bool) {
	for _, s := range xs {
		if asJSON(s.Stream) == x.Stream && s.Start <= x.Start && x.End <= s.End {
			return s, true
		}
	}
	return report.Excerpt{}, false
}

// asJSON is s as it reads back from JSON (invalid UTF-8 as U+FFFD).
func asJSON(s string) string {
	data, _ := json.Marshal(s)
	var out string
	json.Unmarshal(data, &out)
	return out
}

var cgMarker = regexp.MustCompile(`(?i)<<cg`)

// checkCompactionMarkers: every <<cg in the body is a real marker of a
// superseded attempt.
func checkCompactionMarkers(t *testing.T, env *report.Envelope, body string) {
	t.Helper()
	valid := map[string]bool{}
	for _, s := range env.Superseded {
		if markerRE.MatchString(s.Marker) {
			valid[s.Marker] = true
		}
	}
	for _, loc := range cgMarker.FindAllStringIndex(body, -1) {
		m := body[loc[0]:min(len(body), loc[0]+len("<<cg:0123456789abcdef>>"))]
		if !valid[m] {
			t.Errorf("forged compaction marker %q", m)
		}
	}
}

func TestExtractEnvelopeErrors(t *testing.T) {
	tests := []struct{ name, body string }{
		{"empty", ""},
		{"no end", MarkerEnvelopeBegin + "\n```json\n{}\n```\n"},
		{"no fence", MarkerEnvelopeBegin + "\n{}\n" + MarkerEnvelopeEnd},
		{"bad json", MarkerEnvelopeBegin + "\n```json\n{\n```\n" + MarkerEnvelopeEnd},
		{"mismatched fence", MarkerEnvelopeBegin + "\n````json\n{}\n```\n" + MarkerEnvelopeEnd},
	}
	for _, tt := range tests {
		if _, err := ExtractEnvelope(tt.body); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}

func FuzzRenderMarkdown(f *testing.F) {
	f.Add("failed", "unit", "--- FAIL: TestX\n", "boom", "<<cg:0123456789abcdef>>", 16384, uint8(2))
	f.Add("passed", "unit", "", "", "", 0, uint8(0))
	f.Add("", "<!-- runledger:comment -->", "```\n</details>\n", "@octocat #1", "<<cg:forged>>", 2000, uint8(9))
	f.Add("timed_out", "a|b", strings.Repeat("y", 70000), "\x1b[31m", "", 60000, uint8(1))
	f.Add("passed", "x", "<!-- runledger:envelope -->", "**runledger: passed**", "<<CG:0123456789abcdef>>", 900, uint8(4))
	f.Add("0", "0", "0", "runledger: passed", "0", 900, uint8(4))
	f.Add("\x80", "\xff", "\xfe", "0", "0", 0, uint8(1))
	f.Add("passed\u0726\xaa\x94\x91\x0f", "0", "0", "0", "0", 0, uint8(0)) // found by CI's fuzz run
	f.Add("passedx", "passed", "", "", "", 0, uint8(2))
	f.Fuzz(func(t *testing.T, status, name, text, msg, marker string, maxBytes int, n uint8) {
		env := report.Envelope{Schema: report.Schema, Status: status, Warnings: []string{msg}}
		runStatus := status
		if n%2 == 1 {
			runStatus = "failed"
		}
		r := fixtureRun(name, int(n), runStatus, intp(int(n)))
		r.Summary.Failures = []report.Failure{{Name: name, Message: msg}}
		for i := range int(n % 6) {
			r.Excerpts = append(r.Excerpts, fixtureExcerpt(name, int64(i)*1000, 1, "failure", text))
		}
		env.Runs = []report.Run{r}
		for i := range int(n % 4) {
			env.Superseded = append(env.Superseded, report.Superseded{Name: name, Attempt: i, Status: msg, Marker: marker, Pointer: text})
		}
		opts := Options{Budget: maxBytes}
		body, err := Markdown(&env, opts)
		if err != nil {
			t.Fatalf("Markdown: %v", err)
		}
		checkBody(t, &env, opts, body)
	})
}

func TestStatusWord(t *testing.T) {
	tests := []struct{ status, want string }{
		{"passed", "passed"},
		{"timed_out", "timed_out"},
		{"no_runs", "no_runs"},
		{"", "unknown"},
		{"passedx", "unrecognised status passedx"},
		{"passed\u200b", "unrecognised status passed\u200b"},
		{"Passed", "unrecognised status Passed"},
		{"*passed*", `unrecognised status \*passed\*`},
	}
	for _, tt := range tests {
		if got := statusWord(tt.status); got != tt.want {
			t.Errorf("statusWord(%q) = %q, want %q", tt.status, got, tt.want)
		}
	}
}

// TestMayShowLogs: every run the renderer gives a section (with its log
// pointers and artifact link) is one MayShowLogs names, a passing run that
// counts failures (`go test ./... || true`) included; a clean pass is not.
func TestMayShowLogs(t *testing.T) {
	swallowed := fixtureRun("swallowed", 1, "passed", intp(0))
	swallowed.Summary = junitSummary(3, 1, 2, 0, false)
	clean := fixtureRun("clean", 1, "passed", intp(0))
	clean.Summary = junitSummary(3, 3, 0, 0, true)
	withExcerpt := fixtureRun("excerpted", 1, "passed", intp(0))
	withExcerpt.Excerpts = []report.Excerpt{fixtureExcerpt("excerpted", 0, 1, "error", "panic: boom\n")}
	env := report.Envelope{Schema: report.Schema, Status: "unverified", Runs: []report.Run{swallowed, clean, withExcerpt}}
	body, err := Markdown(&env, Options{ArtifactURL: "https://example.test/a/1"})
	if err != nil {
		t.Fatal(err)
	}
	checkBody(t, &env, Options{}, body)
	if !strings.Contains(body, "#### ✅ swallowed · passed") || !strings.Contains(body, "(https://example.test/a/1)") {
		t.Errorf("the passing run that counts failures has no section with the artifact link:\n%s", body)
	}
	for _, tt := range []struct {
		r    report.Run
		want bool
	}{{swallowed, true}, {clean, false}, {withExcerpt, true}, {fixtureRun("f", 1, "failed", intp(1)), true}} {
		if got := MayShowLogs(tt.r); got != tt.want {
			t.Errorf("MayShowLogs(%s) = %v, want %v", tt.r.Name, got, tt.want)
		}
	}
}

// TestRenderMarkdownDropsRepeatsFirst: when a run's excerpts do not fit,
// a test's later excerpts go before every excerpt is cut to a few lines,
// so each test keeps the assertion lines its first excerpt holds.
func TestRenderMarkdownDropsRepeatsFirst(t *testing.T) {
	r := fixtureRun("unit", 1, "failed", intp(1))
	var off int64
	for i := range 6 {
		first := fmt.Sprintf("=== RUN   TestCase%d\n", i) + strings.Repeat("    case_test.go:10: step\n", 12) +
			fmt.Sprintf("    case_test.go:13: got %d, want %d\n--- FAIL: TestCase%d (0.00s)\n", i, i+1, i)
		x := fixtureExcerpt("stdout", off, 1, "failure", first)
		x.Test = fmt.Sprintf("TestCase%d", i)
		r.Excerpts = append(r.Excerpts, x)
		off += int64(len(first))
	}
	for i := range 6 {
		more := strings.Repeat(fmt.Sprintf("    case_test.go:99: TestCase%d logged a long line of context\n", i), 30)
		x := fixtureExcerpt("stdout", off, 1, "failure", more)
		x.Test = fmt.Sprintf("TestCase%d", i)
		r.Excerpts = append(r.Excerpts, x)
		off += int64(len(more))
	}
	env := report.Envelope{Schema: report.Schema, Status: "failed", Runs: []report.Run{r}, Superseded: []report.Superseded{}}
	body, err := Markdown(&env, Options{Budget: 12000})
	if err != nil {
		t.Fatal(err)
	}
	checkBody(t, &env, Options{Budget: 12000}, body)
	visible, _, _ := strings.Cut(body, MarkerEnvelopeBegin)
	for i := range 6 {
		if want := fmt.Sprintf("case_test.go:13: got %d, want %d", i, i+1); !strings.Contains(visible, want) {
			t.Errorf("%q was cut; the repeats should have gone first:\n%s", want, visible)
		}
	}
	if n := strings.Count(visible, "logged a long line of context"); n >= 6*30 {
		t.Errorf("all %d repeat lines shown: want repeats left out first", n)
	}
}
