package action

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/render"
	"github.com/runledger/runledger/store"
)

func TestReadActionInputs(t *testing.T) {
	tests := []struct {
		env     map[string]string
		wantErr string
		check   func(*inputs) bool
	}{
		{map[string]string{"INPUT_COMMAND": "go test ./...", "INPUT_TIMEOUT": "20m", "INPUT_MAX-LOG-BYTES": "1024", "INPUT_RETRIES": "2"}, "",
			func(o *inputs) bool {
				return o.mode == "run" && o.timeout == 20*time.Minute && o.maxLogBytes == 1024 && o.retries == 2 &&
					o.comment == "true" && o.failOn == "failure" && o.dir == ".runledger" && o.summary &&
					o.retryEffects == "refuse"
			}},
		// reports names the report files; junit, its old name, is an alias: both are read.
		{map[string]string{"INPUT_COMMAND": "x", "INPUT_REPORTS": "a.trx\nb/**/*.json", "INPUT_JUNIT": "junit.xml"}, "",
			func(o *inputs) bool { return o.reports == "a.trx\nb/**/*.json\njunit.xml" }},
		{map[string]string{"INPUT_COMMAND": "x", "INPUT_JUNIT": "junit.xml"}, "",
			func(o *inputs) bool { return o.reports == "junit.xml" }},
		{map[string]string{"INPUT_COMMAND": "x", "INPUT_RETRY-EFFECTS": "allow"}, "",
			func(o *inputs) bool { return o.retryEffects == "allow" }},
		{map[string]string{"INPUT_COMMAND": "x", "INPUT_RETRY-EFFECTS": "yes"}, `input retry-effects "yes"`, nil},
		{map[string]string{"INPUT_MODE": "report", "INPUT_SUMMARY": "false", "INPUT_COMMENT": "update-only"}, "",
			func(o *inputs) bool { return o.mode == "report" && !o.summary && o.comment == "update-only" }},
		{map[string]string{}, "input command: required in mode run", nil},
		{map[string]string{"INPUT_COMMAND": "x", "INPUT_TIMEOUT": "soon"}, `input timeout "soon"`, nil},
		{map[string]string{"INPUT_COMMAND": "x", "INPUT_RETRIES": "-1"}, `input retries "-1"`, nil},
		{map[string]string{"INPUT_COMMAND": "x", "INPUT_MODE": "sometimes"}, `input mode "sometimes"`, nil},
		{map[string]string{"INPUT_COMMAND": "x", "INPUT_FAIL-ON": "always"}, `input fail-on "always"`, nil},
	}
	for _, tc := range tests {
		o, err := readInputs(func(k string) string { return tc.env[k] })
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: err %v, want %q", tc.env, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !tc.check(o) {
			t.Errorf("%v: %+v %v", tc.env, o, err)
		}
	}
}

// TestPRFromRecords: for workflow_run the pull request comes from the
// triggering run's records, found anywhere below the store.
func TestPRFromRecords(t *testing.T) {
	dir := t.TempDir()
	if prFromRecords(dir) != 0 {
		t.Fatal("an empty directory names no pull request")
	}
	st, _ := store.Open(filepath.Join(dir, "leg-1"))
	capture.Run(st, capture.Options{Argv: []string{"true"}, CI: &record.CI{RunID: "9", PR: 42}})
	if got := prFromRecords(dir); got != 42 {
		t.Fatalf("pr %d, want 42", got)
	}
}

func TestCommandEnv(t *testing.T) {
	env := commandEnv([]string{"PATH=/bin", "INPUT_TOKEN=ghs_secret", "INPUT_COMMAND=make", "ACTIONS_RUNTIME_TOKEN=jwt",
		"ACTIONS_RESULTS_URL=https://r", "GITHUB_SHA=abc", "ACTIONS_ID_TOKEN_REQUEST_URL=https://oidc"})
	if got := strings.Join(env, " "); got != "PATH=/bin GITHUB_SHA=abc ACTIONS_ID_TOKEN_REQUEST_URL=https://oidc" {
		t.Fatalf("command environment: %s", got)
	}
	if got := redact("token ghs_0123456789 in text", "ghs_0123456789"); got != "token *** in text" {
		t.Fatalf("redact: %q", got)
	}
}

func TestCollapsed(t *testing.T) {
	one, three, ten := 1, 3, 10
	env := &report.Envelope{Status: "failed", Runs: []report.Run{
		{ID: "r1", Name: "unit", Attempt: 2, Status: "failed", ExitCode: &one,
			Summary: report.Summary{Source: "go", Failed: &three, Tests: &ten},
			Logs:    map[string]report.Log{"output": {SHA256: strings.Repeat("ab", 32), Artifact: "runledger-test"}}},
		{ID: "r2", Name: "lint", Attempt: 1, Status: "passed", Logs: map[string]report.Log{"output": {SHA256: strings.Repeat("cd", 32)}}},
	}}
	got := collapsed(env, map[string]string{"unit": "unit tests"}, "")
	want := "unit tests `<<cg:abababababababab>>` run r1 in artifact runledger-test"
	if got != want {
		t.Fatalf("collapsed\n got %s\nwant %s", got, want)
	}
	if v := render.Verdict(env); strings.Contains(v, "<<cg:") || strings.Contains(v, "r1") {
		t.Errorf("the latest result's status line shows internals: %s", v)
	}
}

// TestStepLabel: a step shows as a reader names it: the name input, else
// the job and the command's words, cut at a word boundary and never
// inside a quote, and never the runner's step id.
func TestStepLabel(t *testing.T) {
	tests := []struct {
		name, command, job, want string
	}{
		{"unit tests", "go test ./...", "test", "unit tests"},
		{"", "go test ./...", "test", "test · go test ./..."},
		{"", "echo 'lint: 3 problems found in the sources' && exit 1", "test", "test · echo 'lint: 3 problems found in the sources' && …"},
		{"", "echo 'lint: 3' && exit 1", "", "echo 'lint: 3' && exit 1"},
		{"", "go test -race -count=1 -timeout=20m -run 'TestA|TestB' ./internal/...", "ci", "ci · go test -race -count=1 -timeout=20m -run …"},
		{"", "\n  npm ci\n  npm test\n", "build", "build · npm ci …"},
		{"", "./a-very-long-script-name-that-goes-on-and-on-and-on-forever.sh", "", "./a-very-long-script-name-that-goes-on-and-on-and-…"},
		{"", "", "lint", "lint"},
	}
	for _, tt := range tests {
		got := stepLabel(&inputs{name: tt.name, command: tt.command}, tt.job)
		if got != tt.want {
			t.Errorf("stepLabel(%q, %q, %q) = %q, want %q", tt.name, tt.command, tt.job, got, tt.want)
		}
		if strings.Contains(got, "__") {
			t.Errorf("label %q shows a step id", got)
		}
	}
}

// TestStepRunName: without a name input, a run is named for its command
// and its step, so steps of one job never share a name.
func TestStepRunName(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	ci := env(map[string]string{"GITHUB_JOB": "test", "GITHUB_ACTION": "__runledger_runledger_2"})
	tests := []struct {
		name, command string
		getenv        func(string) string
		want          string
	}{
		{"unit", "go test ./...", ci, "unit"},
		{"", "go test ./...", ci, "go test ./... (test/__runledger_runledger_2)"},
		{"", "\n  npm ci\n  npm test\n", ci, "npm ci (test/__runledger_runledger_2)"},
		{"", "go test -race -count=1 ./...", env(nil), "go test -race"},
		{"", "", ci, "test/__runledger_runledger_2"},
	}
	for _, tt := range tests {
		if got := stepRunName(&inputs{name: tt.name, command: tt.command}, tt.getenv); got != tt.want {
			t.Errorf("stepRunName(%q, %q) = %q, want %q", tt.name, tt.command, got, tt.want)
		}
	}
}
