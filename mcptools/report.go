package mcptools

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runledger/runledger/baseline"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/history"
)

// ReportInput selects run names.
type ReportInput struct {
	Names    []string `json:"names,omitempty" jsonschema:"report only these run names; default all"`
	Baseline string   `json:"baseline,omitempty" jsonschema:"compare each run's failures with the runs of the same names in this run store, report envelope or test index (a path); each failure then has an origin: new, pre_existing, new_test, flaky or unknown; the base's history.tsv.gz, when it has one, is carried forward (each failure's history evidence; flaky on a flip or two failure streaks)"`
	History  *int     `json:"history,omitempty" jsonschema:"with baseline: runs the history keeps (default 30; 0: off)"`
}

// ReportOutput is the runledger.report/v1 envelope, cut to the result
// bound: LeftOut names what went and how to fetch it.
type ReportOutput struct {
	report.Envelope
	LeftOut []string `json:"left_out,omitempty"`
}

func (t *tools) report(_ context.Context, _ *mcp.CallToolRequest, in ReportInput) (*mcp.CallToolResult, ReportOutput, error) {
	opts := report.Options{Names: in.Names, History: history.DefaultWindow}
	if in.History != nil {
		if *in.History < 0 {
			return nil, ReportOutput{}, fmt.Errorf("history %d: want 0 (off) or more runs", *in.History)
		}
		opts.History = *in.History
	}
	if in.Baseline != "" {
		opts.Baseline = baseline.Local(in.Baseline)
	}
	env, err := report.Build(t.store, opts)
	if err != nil {
		return nil, ReportOutput{}, err
	}
	report.SaveIndexes(t.store, env) // best effort: the report stands without the files
	if len(in.Names) > 0 && len(env.Runs) == 0 {
		return nil, ReportOutput{}, fmt.Errorf("names %q: no run with those names in %s", in.Names, t.store.Dir)
	}
	out, text := fitEnvelope(env, t.budget, false, func(e *report.Envelope, leftOut []string) (ReportOutput, string) {
		return ReportOutput{Envelope: *e, LeftOut: leftOut}, envText(e, leftOut)
	})
	return textResult(text), out, nil
}

// envText is the short rendering: status first, one line per run, the
// excerpts as cited, then superseded attempts and what was left out.
func envText(e *report.Envelope, leftOut []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "status: %s (%d runs, %d superseded)\n", e.Status, len(e.Runs), len(e.Superseded))
	if e.Regressions != nil {
		fmt.Fprintf(&b, "regressions: %d\n", *e.Regressions)
	} else {
		b.WriteString("regressions: unknown\n")
	}
	for _, w := range e.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	for _, r := range e.Runs {
		runText(&b, r)
	}
	for _, s := range e.Superseded {
		fmt.Fprintf(&b, "superseded: %s attempt %d %s%s %s\n", s.Name, s.Attempt, s.Status, exitText(s.ExitCode), s.Marker)
		effectsText(&b, s.Effects, s.RetryAllowed)
	}
	for _, l := range leftOut {
		b.WriteString(l + "\n")
	}
	return b.String()
}

func runText(b *strings.Builder, r report.Run) {
	fmt.Fprintf(b, "run %q attempt %d: %s%s, termination %s", r.Name, r.Attempt, r.Status, exitText(r.ExitCode), orNone(r.Termination))
	if r.TimedOut {
		b.WriteString(", timed out")
	}
	if r.Truncated {
		b.WriteString(", log truncated")
	}
	fmt.Fprintf(b, "; %s; id %s\n", summaryText(r.Summary), r.ID)
	effectsText(b, r.Effects, r.RetryRefused)
	for _, w := range r.Warnings {
		fmt.Fprintf(b, "  warning: %s\n", w)
	}
	if bl := r.Baseline; bl != nil {
		b.WriteString("  " + baselineText(bl) + "\n")
	}
	if h := r.History; h != nil {
		fmt.Fprintf(b, "  history: %s, %d runs", h.State, h.Runs)
		if h.Reason != "" {
			b.WriteString(": " + h.Reason)
		}
		b.WriteString("\n")
	}
	for _, f := range r.Summary.Failures {
		origin := ""
		if f.Origin != "" {
			origin = " [" + f.Origin + pastText(f) + "]"
		}
		fmt.Fprintf(b, "  failed: %s%s %s\n", f.Name, origin, f.Message)
	}
	for _, x := range r.Excerpts {
		why := x.Reason
		if x.Test != "" {
			why += " of " + strconv.Quote(x.Test)
		}
		fmt.Fprintf(b, "  excerpt %s bytes %d–%d lines %d–%d (%s) sha256 %s:\n", x.Stream, x.Start, x.End, x.FirstLine, x.LastLine, why, x.SHA256)
		b.WriteString(indent(x.Text))
		if x.Note != "" {
			b.WriteString(indent("…[" + x.Note + "]\n"))
		}
	}
}

// pastText is a failure's history evidence, as numbers.
func pastText(f report.Failure) string {
	ev := f.History
	if ev == nil {
		return ""
	}
	streaks := "streaks"
	if ev.Streaks == 1 {
		streaks = "streak"
	}
	s := fmt.Sprintf("; failed %d of the last %d runs in %d %s", ev.Failed, ev.Runs, ev.Streaks, streaks)
	if len(ev.Flips) > 0 {
		s += "; passed and failed on " + strings.Join(ev.Flips, ", ")
	}
	return s
}

func exitText(code *int) string {
	if code == nil {
		return ""
	}
	return fmt.Sprintf(" (exit %d)", *code)
}

func orNone(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// summaryText states the counts there are, with their provenance.
func summaryText(s report.Summary) string {
	var counts []string
	for _, c := range []struct {
		name string
		n    *int
	}{{"tests", s.Tests}, {"passed", s.Passed}, {"failed", s.Failed}, {"skipped", s.Skipped}, {"errors", s.Errors}} {
		if c.n != nil {
			counts = append(counts, fmt.Sprintf("%s %d", c.name, *c.n))
		}
	}
	if len(counts) == 0 {
		return fmt.Sprintf("tests: no count (source %s)", s.Source)
	}
	v := "unverified"
	if s.Verified {
		v = "verified"
	}
	return fmt.Sprintf("tests: %s (source %s, %s)", strings.Join(counts, ", "), s.Source, v)
}

func indent(text string) string {
	if text == "" {
		return ""
	}
	text = strings.TrimSuffix(text, "\n")
	return "    " + strings.ReplaceAll(text, "\n", "\n    ") + "\n"
}

// baselineText says what a run was compared with, or why it was not.
func baselineText(bl *report.Baseline) string {
	if bl.State != "compared" {
		return "baseline: unavailable: " + bl.Reason
	}
	var b strings.Builder
	fmt.Fprintf(&b, "baseline: compared with run %s", bl.RunID)
	if bl.Commit != "" {
		fmt.Fprintf(&b, " at %s", bl.Commit)
	}
	fmt.Fprintf(&b, " (%d tests); missing %d, fixed %d", bl.Tests, bl.Missing, len(bl.Fixed)+bl.FixedOmitted)
	if bl.Note != "" {
		b.WriteString("; " + bl.Note)
	}
	return b.String()
}

// effectsText is an attempt's workspace effects and what they did to its
// retry, each in one line.
func effectsText(b *strings.Builder, e *report.Effects, retry string) {
	if e != nil {
		fmt.Fprintf(b, "  effects: %s\n", e.Line)
	}
	if retry != "" {
		fmt.Fprintf(b, "  retry: %s\n", retry)
	}
}
