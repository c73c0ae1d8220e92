package action

import (
	"context"
	"strconv"

	"github.com/runledger/runledger/baseline"
	"github.com/runledger/runledger/report"
)

// baselines finds, for the runs named, the same job and step's runs on the
// base commit (input baseline: auto). Nothing it meets fails the step: no
// base, no run there, an expired artifact or a token that may not read
// Actions is a reason the report states.
func (s *step) baselines(ctx context.Context, names []string) *report.Baselines {
	if s.in.baseline == "off" {
		return nil
	}
	getenv := s.env.Getenv
	p, err := s.publisher()
	if err != nil {
		return &report.Baselines{Reason: "GitHub: " + err.Error()}
	}
	name, err := s.artifactNameFor("1")
	if err != nil {
		return &report.Baselines{Reason: "artifact name: " + err.Error()}
	}
	runID, _ := strconv.ParseInt(getenv("GITHUB_RUN_ID"), 10, 64)
	b := baseline.GitHub(ctx, p, baseline.Query{
		Base:        baseline.BaseOf(getenv("GITHUB_EVENT_NAME"), getenv("GITHUB_EVENT_PATH")),
		WorkflowRef: getenv("GITHUB_WORKFLOW_REF"), RunID: runID, Artifact: name, Runs: names, History: s.in.history > 0,
	})
	// A re-run attempt carries forward its earlier attempt's history, so
	// that a test that failed there and passes here (or the reverse) is a
	// flip on this commit.
	attempt, _ := strconv.Atoi(getenv("GITHUB_RUN_ATTEMPT"))
	if s.in.history > 0 && attempt > 1 {
		err := baseline.EarlierAttempt(ctx, p, baseline.Rerun{RunID: runID, Attempt: attempt, Artifact: name, Runs: names, Window: s.in.history}, b)
		if err != nil {
			s.out.warnings = append(s.out.warnings, "history: the earlier attempts of this run: "+err.Error())
		}
	}
	return b
}

// regressionsOutput is the regressions output: the count, or empty when it
// cannot be known.
func regressionsOutput(env *report.Envelope) string {
	if env.Regressions == nil {
		return ""
	}
	return strconv.Itoa(*env.Regressions)
}

// runNames is names, or in mode report every run name in the store.
func (s *step) runNames(names []string) []string {
	if len(names) > 0 {
		return names
	}
	recs, _, _ := s.st.List()
	seen := map[string]bool{}
	for _, r := range recs {
		if !seen[r.Name] {
			seen[r.Name] = true
			names = append(names, r.Name)
		}
	}
	return names
}
