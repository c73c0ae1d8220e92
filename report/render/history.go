package render

import (
	"fmt"
	"strings"

	"github.com/runledger/runledger/report"
)

// pastWords is a failure's history in the words a maintainer reads at a
// glance: "failed 3 of the last 30 runs on main, passed and failed on
// `abc1234`" for a flaky one, "also failed once in the last 30 runs
// (`def5678`)" for a new one. commit shows a commit id (a code span in
// Markdown), esc a branch name; "" when the test never failed there.
func pastWords(r report.Run, f report.Failure, commit func(string) string, esc func(string) string) string {
	ev := f.History
	if ev == nil || ev.Failed == 0 && len(ev.Flips) == 0 {
		return ""
	}
	window := "the last run"
	if ev.Runs != 1 {
		window = fmt.Sprintf("the last %d runs", ev.Runs)
	}
	onBranch := ""
	if h := r.History; h != nil && h.Branch != "" {
		onBranch = " on " + esc(short(h.Branch, 60))
	}
	var parts []string
	switch {
	case ev.Failed == 0:
	case (f.Origin == "flaky" || f.Origin == "pre_existing") && ev.Runs == 1:
		parts = append(parts, "failed in "+window+onBranch)
	case f.Origin == "flaky" || f.Origin == "pre_existing":
		parts = append(parts, fmt.Sprintf("failed %d of %s%s", ev.Failed, window, onBranch))
	default: // what this change broke, which the branch saw fail too
		p := "also failed " + times(ev.Failed) + " in " + window
		if c := commit(ev.LastFailed); c != "" && ev.Failed == 1 {
			p += " (" + c + ")"
		} else if c != "" {
			p += ", last on " + c
		}
		parts = append(parts, p)
	}
	if len(ev.Flips) > 0 {
		parts = append(parts, flipWords(ev.Flips, commit))
	}
	if ev.Streaks > 1 {
		parts = append(parts, fmt.Sprintf("in %d separate streaks", ev.Streaks))
	}
	return strings.Join(parts, ", ")
}

// flipWords names the newest commits where a test both failed and passed.
func flipWords(flips []string, commit func(string) string) string {
	const show = 3
	var cs []string
	for _, c := range flips[max(0, len(flips)-show):] {
		if id := commit(c); id != "" {
			cs = append(cs, id)
		}
	}
	if len(cs) == 0 {
		return "passed and failed on " + plural(len(flips), "commit")
	}
	p := "passed and failed on " + strings.Join(cs, ", ")
	if len(flips) > len(cs) {
		p += fmt.Sprintf(" and %d more", len(flips)-len(cs))
	}
	return p
}

func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// historyLine says when a run's history did not carry a past forward,
// and why: the judgement then rests on this run alone. When no base was
// found at all, the baseline's line has said why already.
func historyLine(r report.Run, esc func(string) string) string {
	h, bl := r.History, r.Baseline
	switch {
	case h == nil || h.State == "read":
		return ""
	case h.State == "started" && bl != nil && bl.State != "compared" && bl.Reason == h.Reason:
		return ""
	case h.State == "unavailable":
		return "History unavailable, restarted at this run: " + esc(short(h.Reason, 300))
	}
	return "History starts at this run: " + esc(short(h.Reason, 300))
}
