// Package report turns the run store into the report envelope: status
// first, then for each run name its latest attempt with a summary whose
// provenance is stated, and excerpts cited by byte range and hash. It reads
// only local files; publishing is someone else's job.
package report

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report/evidence"
	"github.com/runledger/runledger/report/excerpt"
	"github.com/runledger/runledger/report/runners"
	"github.com/runledger/runledger/store"
)

// Options select and shape a report.
type Options struct {
	// Names limits the report to these run names; empty means all.
	Names []string
	// Reports are test report files (paths) to read in addition to those
	// each run recorded.
	// They were not attributed by capture, so they can never verify a count.
	Reports []string
	// Excerpt bounds each stream's excerpts.
	Excerpt excerpt.Options
	// Artifact names the uploaded artifact the logs live in, if any.
	Artifact string
	// Baseline, when set, is what each run's failures are compared with.
	Baseline *Baselines
	// History is how many runs each run's history keeps (report/history),
	// carried forward from the baseline's; 0 keeps none. It needs a
	// Baseline: the past comes with it.
	History int
}

// Build reads the store and assembles the envelope. It fails only when the
// store cannot be listed; an unreadable run is a warning and makes the
// overall status incomplete.
func Build(st *store.Store, opts Options) (*Envelope, error) {
	recs, problems, err := st.List()
	if err != nil {
		return nil, err
	}
	env := &Envelope{Schema: Schema, Runs: []Run{}, Superseded: []Superseded{}}
	for _, p := range problems {
		env.Warnings = append(env.Warnings, p.Error())
	}
	for _, attempts := range byName(recs, opts.Names) {
		latest := attempts[len(attempts)-1]
		run := buildRun(st, latest, opts)
		retried(st, &run, attempts[:len(attempts)-1])
		env.Runs = append(env.Runs, run)
		for _, r := range attempts[:len(attempts)-1] {
			env.Superseded = append(env.Superseded, supersede(st, r, opts.Artifact))
		}
	}
	env.Status = overall(env.Runs, len(problems) > 0)
	compareAll(env, opts.Baseline, opts.History)
	return env, nil
}

// byName groups records by run name, attempts in order, names in the order
// of their first attempt.
func byName(recs []*record.Record, only []string) [][]*record.Record {
	want := map[string]bool{}
	for _, n := range only {
		want[n] = true
	}
	groups := map[string][]*record.Record{}
	var names []string
	for _, r := range recs {
		if len(want) > 0 && !want[r.Name] {
			continue
		}
		if _, ok := groups[r.Name]; !ok {
			names = append(names, r.Name)
		}
		groups[r.Name] = append(groups[r.Name], r)
	}
	out := make([][]*record.Record, 0, len(names))
	for _, n := range names {
		g := groups[n]
		sort.SliceStable(g, func(i, j int) bool { return g[i].Attempt < g[j].Attempt })
		out = append(out, g)
	}
	return out
}

func buildRun(st *store.Store, r *record.Record, opts Options) Run {
	dir := filepath.Join(st.Dir, r.ID)
	run := Run{
		ID: r.ID, Name: r.Name, Attempt: r.Attempt, Status: string(store.Effective(r)),
		ExitCode: r.ExitCode, Signal: r.Signal, TimedOut: r.TimedOut,
		Termination: string(r.Termination), DurationMS: r.DurationMS,
		Logs: map[string]Log{}, Excerpts: []Excerpt{},
		Effects: effectsOf(r), RetryRefused: r.RetryRefused,
	}
	run.Warnings = append(run.Warnings, recordWarnings(r)...)
	for _, name := range record.StreamNames {
		s, ok := r.Streams[name]
		if !ok {
			continue
		}
		run.Truncated = run.Truncated || s.Truncated
		run.Logs[name] = Log{Bytes: s.Bytes, SHA256: s.SHA256, Truncated: s.Truncated,
			Stored: s.StoredRanges, Path: filepath.Join(dir, s.File), Artifact: opts.Artifact}
	}
	// Excerpts read stdout.log and stderr.log, the summary output.log: for
	// a run already known not to pass, the two passes run side by side.
	// Excerpts cite a stream, never only the interleaved output.log.
	// When stdout.log is output.log, one pass reads it for both instead.
	var exWarnings []string
	exDone := make(chan []Excerpt, 1)
	early := !r.Passed()
	var pre *shared
	if early && len(r.JUnit)+len(opts.Reports) == 0 {
		pre = scanShared(dir, r)
	}
	if early {
		go func() { exDone <- excerpts(dir, r, opts.Excerpt, pre, &exWarnings) }()
	}
	run.Summary, run.Flaky, run.index = summarize(dir, r, opts.Reports, pre, &run.Warnings)
	switch {
	case early:
		run.Excerpts = <-exDone
	case !runPassed(r, run):
		run.Excerpts = excerpts(dir, r, opts.Excerpt, nil, &exWarnings)
	}
	if len(r.JUnit) > 0 && !runPassed(r, run) {
		// What the log does not show of a failing test, its report file may.
		jx, jw := excerpt.ReportFiles(dir, r, run.Excerpts)
		run.Excerpts, exWarnings = append(run.Excerpts, jx...), append(exWarnings, jw...)
	}
	run.Warnings = append(run.Warnings, exWarnings...)
	if run.Status == string(record.StatusPassed) && !runPassed(r, run) {
		run.Status = "unverified"
	}
	if run.index == nil {
		run.index = wholeRun(run.Status)
	}
	describe(run.index, r, &run)
	return run
}

// recordWarnings names what in the record undermines its own status.
func recordWarnings(r *record.Record) []string {
	var w []string
	w = append(w, r.Errors...)
	for _, name := range record.StreamNames {
		if s, ok := r.Streams[name]; ok && !s.Complete && r.Status != record.StatusRunning {
			w = append(w, fmt.Sprintf("%s: not read to its end (a process outside the group held it open)", name))
		}
	}
	if lo := r.Leftovers; lo != nil {
		w = append(w, fmt.Sprintf("descendants outlived the command (held pipes: %v, processes: %v); stopped: %v, %s",
			lo.HeldPipes, lo.Processes, lo.Stopped, lo.Termination))
	}
	for _, j := range r.JUnitSkip {
		w = append(w, fmt.Sprintf("JUnit %s ignored: %s", j.Path, j.Reason))
	}
	return w
}

// runPassed is the report's one definition of success for a run: the record
// passed by itself, and no summary contradicts it.
func runPassed(r *record.Record, run Run) bool {
	if store.Effective(r) != record.StatusPassed || !r.Passed() {
		return false
	}
	if lo := r.Leftovers; lo != nil && lo.Termination != record.TerminationConfirmed {
		return false
	}
	s := run.Summary
	if s.Failed != nil && *s.Failed > 0 || s.Errors != nil && *s.Errors > 0 {
		return false
	}
	return s.Source == runners.SourceNone || s.Verified
}

// overall: passed only when every latest run passed; otherwise the worst
// status present. No runs at all is not a pass either.
func overall(runs []Run, unreadable bool) string {
	if len(runs) == 0 && !unreadable {
		return "no_runs"
	}
	var statuses []string
	if unreadable {
		statuses = append(statuses, "incomplete")
	}
	for _, r := range runs {
		statuses = append(statuses, r.Status)
	}
	return Worst(statuses...)
}

// statusRank orders statuses from best to worst.
var statusRank = map[string]int{"passed": 0, "no_runs": 1, "unverified": 2, "incomplete": 3, "running": 3,
	"cancelled": 4, "timed_out": 5, "failed": 6}

// Worst is the worst of statuses, the first of equals: "passed" only when
// every one passed (or there is none). Signaled and start_failed count as
// failed, a status it does not know as incomplete.
func Worst(statuses ...string) string {
	worst := "passed"
	for _, st := range statuses {
		if st == "signaled" || st == "start_failed" {
			st = "failed"
		}
		rk, ok := statusRank[st]
		if !ok {
			st, rk = "incomplete", statusRank["incomplete"]
		}
		if rk > statusRank[worst] {
			worst = st
		}
	}
	return worst
}

// excerpts selects r's excerpts; pre, when set, already scanned stdout.
func excerpts(dir string, r *record.Record, opts excerpt.Options, pre *shared, warnings *[]string) []Excerpt {
	var scanned map[string]*evidence.Result
	if pre != nil {
		scanned = map[string]*evidence.Result{record.Stdout: pre.stdout}
	}
	ex, err := excerpt.ForRun(dir, r, opts, scanned)
	if err != nil {
		*warnings = append(*warnings, fmt.Sprintf("excerpts: %v", err))
		return []Excerpt{}
	}
	return ex
}

// supersede describes an earlier attempt. A failed one collapses to a
// pointer and a <<cg:HASH>> marker: HASH is the head of the sha256 of its
// combined log, which `runledger expand` resolves and verifies. A passed
// one is a distinct result and stays a plain status line.
func supersede(st *store.Store, r *record.Record, artifact string) Superseded {
	s := Superseded{ID: r.ID, Name: r.Name, Attempt: r.Attempt,
		Status: string(store.Effective(r)), ExitCode: r.ExitCode,
		Effects: effectsOf(r), RetryAllowed: r.RetryAllowed}
	if s.Status == string(record.StatusPassed) {
		return s
	}
	out, ok := r.Streams[record.Output]
	if !ok || len(out.SHA256) < 16 {
		return s
	}
	s.Marker = "<<cg:" + out.SHA256[:16] + ">>"
	where := filepath.Join(st.Dir, r.ID, out.File)
	if artifact != "" {
		where = artifact + ":" + r.ID + "/" + out.File
	}
	s.Pointer = fmt.Sprintf("run %s attempt %d %s; output %d bytes in %s; runledger expand %s",
		r.ID, r.Attempt, s.Status, out.Bytes, where, out.SHA256[:16])
	return s
}
