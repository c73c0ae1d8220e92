package report

import (
	"github.com/runledger/runledger/report/excerpt"
	"github.com/runledger/runledger/report/history"
	"github.com/runledger/runledger/report/testindex"
)

// Schema is the value of Envelope.Schema.
const Schema = "runledger.report/v1"

// Envelope is what agents read first: the status, then per run name the
// latest attempt, then earlier attempts. Field names are a public interface.
type Envelope struct {
	Schema     string       `json:"schema"`
	Status     string       `json:"status"`
	Runs       []Run        `json:"runs"`
	Superseded []Superseded `json:"superseded"`
	Warnings   []string     `json:"warnings,omitempty"`
	// Regressions counts the latest runs' failing tests whose origin is
	// new or new_test; null when a run that did not pass could not be
	// compared with a baseline, so nobody can say.
	Regressions *int `json:"regressions"`
	// Omitted counts what a size budget left out; never status rows.
	Omitted *Omitted `json:"omitted,omitempty"`
}

// Run is the latest attempt of one run name.
type Run struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Attempt     int       `json:"attempt"`
	Status      string    `json:"status"`
	ExitCode    *int      `json:"exit_code"`
	Signal      *string   `json:"signal"`
	TimedOut    bool      `json:"timed_out"`
	Termination string    `json:"termination"`
	DurationMS  *int64    `json:"duration_ms"`
	Truncated   bool      `json:"truncated"`
	Summary     Summary   `json:"summary"`
	Flaky       []TestRef `json:"flaky,omitempty"`
	// Effects is what this attempt changed in its workspace.
	Effects *Effects `json:"effects,omitempty"`
	// RetryRefused: --retries asked for another attempt, and this one's
	// effects stopped it (the record's retry_refused).
	RetryRefused string         `json:"retry_refused,omitempty"`
	Excerpts     []Excerpt      `json:"excerpts"`
	Logs         map[string]Log `json:"logs"`
	// Tests points at the run's test index (package report/testindex).
	Tests *TestsRef `json:"tests_index,omitempty"`
	// Baseline says what the run was compared with; absent when no
	// baseline was asked for.
	Baseline *Baseline `json:"baseline,omitempty"`
	// History says what past the run's failures were judged against and
	// where its own history is; absent when history is off.
	History  *History `json:"history,omitempty"`
	Warnings []string `json:"warnings,omitempty"`

	index     *testindex.Index // every test of the run; SaveIndexes writes it
	ciAttempt int              // the workflow run's attempt (GITHUB_RUN_ATTEMPT), 0 when unknown
	history   *history.History // the past carried forward by this run; SaveIndexes writes it
}

// TestsRef is where a run's test index is: File in the run's directory
// (and artifact), Path on this machine.
type TestsRef struct {
	File    string `json:"file"`
	Path    string `json:"path,omitempty"`
	Entries int    `json:"entries"`
	SHA256  string `json:"sha256"`
}

// Baseline is a run compared with its base: the run of the same name on
// the base commit.
type Baseline struct {
	State  string `json:"state"` // "compared" or "unavailable"
	Reason string `json:"reason,omitempty"`
	// Commit is the commit the base run ran on; when it is not the base
	// commit itself (no run there), Note says which was taken instead.
	Commit string `json:"commit,omitempty"`
	// RunID is the base run's id; WorkflowRunID its GitHub workflow run
	// and URL that run's page, when known.
	RunID         string `json:"run_id,omitempty"`
	WorkflowRunID string `json:"workflow_run_id,omitempty"`
	URL           string `json:"url,omitempty"`
	Note          string `json:"note,omitempty"`
	// Tests is the base run's test count; Missing counts tests that ran on
	// the base and not here (MissingTests names the first); Fixed names
	// tests that failed on the base and pass here (FixedOmitted counts the
	// rest).
	Tests        int       `json:"tests"`
	Missing      int       `json:"missing"`
	MissingTests []TestRef `json:"missing_tests,omitempty"`
	Fixed        []TestRef `json:"fixed"`
	FixedOmitted int       `json:"fixed_omitted,omitempty"`
	// Origins counts the run's failing tests by origin; Regressions the
	// new and new_test ones, null when they cannot be known.
	Origins     map[string]int `json:"origins,omitempty"`
	Regressions *int           `json:"regressions"`
}

// Summary is a test count with its provenance. Counts are present only when
// Source is not "none", and only when some report file could be read.
type Summary struct {
	// Source is a report format ("junit", "nunit", "xunit", "trx", "ctrf",
	// "mocha", "jest", "rspec", "gotest", "dart"; "junit+trx" for several;
	// "unknown" for files of no format read), a runner name ("go",
	// "pytest", …) or "none".
	Source   string    `json:"source"`
	Verified bool      `json:"verified"`
	Tests    *int      `json:"tests,omitempty"`
	Passed   *int      `json:"passed,omitempty"`
	Failed   *int      `json:"failed,omitempty"`
	Skipped  *int      `json:"skipped,omitempty"`
	Errors   *int      `json:"errors,omitempty"`
	Failures []Failure `json:"failures,omitempty"`
	// FailuresOmitted counts failures past the envelope's bound.
	FailuresOmitted int `json:"failures_omitted,omitempty"`
	// Spans are the raw log byte ranges the counts were read from; a
	// summary over many lines cites the first and last few.
	Spans        []Span `json:"spans,omitempty"`
	SpansOmitted int    `json:"spans_omitted,omitempty"`
	Note         string `json:"note,omitempty"`
}

// Failure is one failing test.
type Failure struct {
	Name      string `json:"name"`
	Classname string `json:"classname,omitempty"`
	// Suite and Params complete a report file's test identity (TestID)
	// where the format gives them.
	Suite   string `json:"suite,omitempty"`
	Params  string `json:"params,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message,omitempty"`
	Span    *Span  `json:"span,omitempty"`
	// Origin compares the failure with the baseline: new, pre_existing,
	// new_test, flaky or unknown; absent when no baseline was asked for.
	Origin string `json:"origin,omitempty"`
	// History is the branch's recent past of this test, when it failed
	// there at all: over how many runs, how often, in how many streaks,
	// where it both failed and passed.
	History *history.Evidence `json:"history,omitempty"`
}

// TestRef names a test, e.g. one that failed and then passed on retry.
type TestRef struct {
	Name      string `json:"name"`
	Classname string `json:"classname,omitempty"`
	Suite     string `json:"suite,omitempty"`
	File      string `json:"file,omitempty"`
}

// Span is a byte range [Start, End) of a stream, in original offsets.
type Span struct {
	Stream string `json:"stream"`
	Start  int64  `json:"start"`
	End    int64  `json:"end"`
}

// Excerpt is a cited piece of a log (see package excerpt).
type Excerpt = excerpt.Excerpt

// Log points at a full stream.
type Log struct {
	Bytes     int64      `json:"bytes"`
	SHA256    string     `json:"sha256"`
	Truncated bool       `json:"truncated"`
	Stored    [][2]int64 `json:"stored_ranges,omitempty"`
	Path      string     `json:"path,omitempty"`
	Artifact  string     `json:"artifact,omitempty"`
	// BlocksSHA256 pins the log inside the uploaded artifact: the sha256
	// of the artifact manifest's list of block hashes for it. A ranged read
	// given it (show/grep --blocks-sha256) checks the manifest against it
	// and every byte against the manifest. Set once the upload is done.
	BlocksSHA256 string `json:"blocks_sha256,omitempty"`
}

// Superseded is an earlier attempt of a run name.
type Superseded struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Attempt  int    `json:"attempt"`
	Status   string `json:"status"`
	ExitCode *int   `json:"exit_code"`
	Marker   string `json:"marker,omitempty"`
	Pointer  string `json:"pointer,omitempty"`
	// Effects is what this attempt changed in its workspace.
	Effects *Effects `json:"effects,omitempty"`
	// RetryAllowed: this attempt changed tracked files and was retried
	// anyway (--retry-effects allow).
	RetryAllowed string `json:"retry_allowed,omitempty"`
}

// Omitted says what a size budget left out.
type Omitted struct {
	Excerpts   int   `json:"excerpts"`
	Bytes      int64 `json:"bytes"`
	Superseded int   `json:"superseded"`
}

// deref reads a count of the envelope, 0 when it is absent.
func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
