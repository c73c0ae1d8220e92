package report

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/internal/golden"
	"github.com/runledger/runledger/record"
)

// TestEnvelopeGolden renders the JSON envelope of representative stores,
// captured from real commands, against golden files (-update rewrites
// them). What varies between runs (ids, times, durations, temp paths,
// resource usage) is normalised; everything the verdict rests on is not.
func TestEnvelopeGolden(t *testing.T) {
	junit := func(xml string) string { return "echo running; printf '%s' '" + xml + "' > junit.xml; " }
	cases := []struct {
		name, script string
		opts         capture.Options
		dead         bool // the wrapper dies: the record stays running
	}{
		{name: "passed", script: `printf 'ok  \tpkg\t0.01s\n'`},
		{name: "failed", script: `printf -- '--- FAIL: TestX (0.00s)\n    x_test.go:3: want 1\nFAIL\nFAIL\tpkg\t0.01s\n'; exit 1`},
		{name: "timed-out", script: `echo started; sleep 10`, opts: capture.Options{Timeout: 100 * time.Millisecond}},
		{name: "truncated", script: `i=0; while [ $i -lt 400 ]; do echo "line $i"; i=$((i+1)); done; echo "--- FAIL: TestEnd (0.00s)"; exit 1`,
			opts: capture.Options{MaxLogBytes: 1024}},
		{name: "incomplete", script: `echo partial`, dead: true},
		{name: "no-junit-unknown-framework", script: `echo "✓ all 12 specs green"`},
		{name: "malformed-junit", script: junit(`<testsuite><testcase name="a">`) + "exit 0", opts: capture.Options{Reports: []string{"junit.xml"}}},
		{name: "inconsistent-junit", script: junit(`<testsuite><testcase name="a"><failure message="no"/></testcase></testsuite>`) + "exit 0",
			opts: capture.Options{Reports: []string{"junit.xml"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, work := newStore(t), t.TempDir()
			opts := tc.opts
			opts.Name, opts.Argv, opts.Dir, opts.KillAfter = tc.name, []string{"sh", "-c", tc.script}, work, time.Second
			recs, err := capture.Run(st, opts)
			if err != nil {
				t.Fatal(err)
			}
			if tc.dead {
				r := recs[0]
				r.Status, r.ExitCode, r.EndedAt, r.DurationMS = record.StatusRunning, nil, nil, nil
				r.Wrapper.PID = 1 << 30
				record.Write(filepath.Join(st.Dir, r.ID), r)
			}
			env, err := Build(st, Options{})
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "envelope", tc.name+".json"), normalise(t, env, st.Dir))
		})
	}
}

var (
	runID    = regexp.MustCompile(`\d{8}T\d{9}Z-[0-9a-f]{8}`)
	duration = regexp.MustCompile(`"duration_ms": \d+`)
	modTime  = regexp.MustCompile(`(modified |started )\d{4}-\d\d-\d\dT[0-9:.]+Z`)
)

func normalise(t *testing.T, env *Envelope, dir string) []byte {
	t.Helper()
	b, err := json.MarshalIndent(env, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(regexp.MustCompile(regexp.QuoteMeta(dir)).ReplaceAllString(string(b), "STORE"))
	b = runID.ReplaceAll(b, []byte("RUN-ID"))
	b = duration.ReplaceAll(b, []byte(`"duration_ms": 0`))
	b = modTime.ReplaceAll(b, []byte("${1}TIME"))
	return append(b, '\n')
}
