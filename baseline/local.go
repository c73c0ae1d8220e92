// Package baseline finds what a report compares its runs with: the runs of
// the same names in another run store, a report envelope or a test index
// (Local), or in the artifact of the base commit's workflow run on GitHub
// (GitHub). Whatever goes wrong is a reason, never a guess: the report
// then says the baseline is unavailable and why.
package baseline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/history"
	"github.com/runledger/runledger/report/testindex"
	"github.com/runledger/runledger/store"
)

// Local reads the baseline at path: a run store (each run's saved index,
// or its logs read again), a report envelope (runledger report --format
// json), or a test index file. What cannot be read is an unavailable
// baseline with the reason, so the report still stands.
func Local(path string) *report.Baselines {
	b, err := local(path)
	if err != nil {
		return &report.Baselines{Reason: fmt.Sprintf("baseline %s: %v", path, err)}
	}
	if len(b.Runs) == 0 && b.Reason == "" {
		b.Reason = fmt.Sprintf("baseline %s: holds no runs", path)
	}
	return b
}

func local(path string) (*report.Baselines, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, unwrapPath(err)
	}
	if info.IsDir() {
		return fromStore(path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, unwrapPath(err)
	}
	switch {
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		x, err := testindex.Read(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		b := &report.Baselines{Runs: map[string]*testindex.Index{x.Run: x}}
		b.History = map[string]report.Past{x.Run: localPast(x, filepath.Join(filepath.Dir(path), history.FileName), path)}
		return b, nil
	case bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")):
		return fromEnvelope(path, data)
	}
	return nil, errors.New("neither a run store, a report envelope (JSON) nor a test index (gzip)")
}

// unwrapPath drops the path a PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// fromStore takes each run name's latest attempt: its saved index when
// the run has one, else its report built again from its logs.
func fromStore(dir string) (*report.Baselines, error) {
	st := &store.Store{Dir: dir}
	recs, _, err := st.List()
	if err != nil {
		return nil, err
	}
	b := &report.Baselines{Runs: map[string]*testindex.Index{}}
	latest := map[string]*record.Record{}
	for _, r := range recs {
		if l, ok := latest[r.Name]; !ok || r.Attempt > l.Attempt {
			latest[r.Name] = r
		}
	}
	var rebuild []string
	for name, r := range latest {
		x, err := testindex.ReadFile(filepath.Join(dir, r.ID, testindex.FileName))
		if err == nil && x.RunID == r.ID && x.Status != string(record.StatusRunning) {
			b.Runs[name] = x
			continue
		}
		rebuild = append(rebuild, name)
	}
	if len(rebuild) > 0 {
		env, err := report.Build(st, report.Options{Names: rebuild})
		if err != nil {
			return nil, err
		}
		// Kept for the next comparison, as report would have: best effort, a
		// store this user may not write is read again next time.
		report.SaveIndexes(st, env)
		for i := range env.Runs {
			if x := env.Runs[i].Index(); x != nil {
				b.Runs[env.Runs[i].Name] = x
			}
		}
	}
	pastsOf(b, func(name string) string { return filepath.Join(dir, latest[name].ID) })
	return b, nil
}

// fromEnvelope reads each run's index where the envelope says it was
// saved; a run without one is known only by its failures and status.
func fromEnvelope(path string, data []byte) (*report.Baselines, error) {
	var env report.Envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("report envelope: %w", err)
	}
	if env.Schema != report.Schema {
		return nil, fmt.Errorf("report envelope: schema %q, want %q", env.Schema, report.Schema)
	}
	b := &report.Baselines{Runs: map[string]*testindex.Index{}}
	histories := map[string]string{}
	for _, run := range env.Runs {
		if t := run.Tests; t != nil {
			for _, p := range []string{t.Path, filepath.Join(filepath.Dir(path), run.ID, t.File)} {
				if x, err := testindex.ReadFile(p); err == nil && p != "" {
					b.Runs[run.Name], histories[run.Name] = x, filepath.Dir(p)
					break
				}
			}
		}
		if b.Runs[run.Name] == nil {
			b.Runs[run.Name] = FromFailures(run)
		}
	}
	pastsOf(b, func(name string) string { return histories[name] })
	return b, nil
}

// FromFailures is what an envelope alone says of a run's tests: its named
// failures, and the run as a unit standing for everything else.
func FromFailures(run report.Run) *testindex.Index {
	s := run.Summary
	x := &testindex.Index{Header: testindex.Header{Run: run.Name, RunID: run.ID, Status: run.Status,
		Source: s.Source, Verified: s.Verified, Tests: s.Tests, Complete: s.FailuresOmitted == 0 && s.Source != "none"}}
	whole := testindex.Passed
	if run.Status != "passed" {
		whole = testindex.Failed
	}
	x.Entries = append(x.Entries, testindex.Entry{Kind: testindex.Unit, Outcome: whole})
	for _, f := range s.Failures {
		x.Entries = append(x.Entries, testindex.Entry{Kind: testindex.Test, Outcome: testindex.Failed, Key: f.Key()})
	}
	return x
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// pastsOf reads, for each run of b, the history beside its index (dir(name)
// holds both), so a local comparison carries the history forward as the
// Action does.
func pastsOf(b *report.Baselines, dir func(name string) string) {
	b.History = map[string]report.Past{}
	for name, x := range b.Runs {
		d := dir(name)
		if d == "" {
			b.History[name] = report.Past{Reason: fmt.Sprintf("the base run %s has no test index to read its history by", x.RunID)}
			continue
		}
		b.History[name] = localPast(x, filepath.Join(d, history.FileName), filepath.Join(d, testindex.FileName))
	}
}

// localPast is the history at path of the base run x, whose index was
// read from indexPath: none (an older
// runledger, history off) restarts the history; one that cannot be read
// is unusable, with the reason.
func localPast(x *testindex.Index, path, indexPath string) report.Past {
	p := report.Past{Commit: x.Commit, WorkflowRunID: x.CIRunID}
	h, err := history.ReadFile(path, x, indexPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.Reason = fmt.Sprintf("the base run %s has no %s (a runledger before histories, or history off)", x.RunID, history.FileName)
	case err != nil:
		p.Reason, p.Unusable = err.Error(), true
	case h.Run != x.Run:
		p.Reason, p.Unusable = fmt.Sprintf("%s is of run %q, not %q", path, h.Run, x.Run), true
	default:
		p.History = h
	}
	return p
}
