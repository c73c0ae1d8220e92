package baseline

import (
	"bytes"
	"context"
	"fmt"

	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/history"
	"github.com/runledger/runledger/report/testindex"
)

// Rerun is a re-run attempt of this workflow run: its id and attempt, and
// the step's artifact name on a first attempt.
type Rerun struct {
	RunID    int64
	Attempt  int
	Artifact string
	Runs     []string
	// Window is the history's, for an earlier attempt that left only its
	// index to be merged into the base's past.
	Window int
}

// EarlierAttempt reads what the latest earlier attempt of this workflow
// run left for the history, into b: its history (the base's past carried
// forward and its own outcomes on this commit), or, from a runledger that
// wrote none, its test index merged into the base's past. This attempt's
// outcomes then join the same commit's column, so a test that failed in
// one attempt and passed in the other is a flip there. Two API calls: the
// run's artifacts and the download; the rest are ranged reads. An error
// leaves b as it was.
func EarlierAttempt(ctx context.Context, gh Actions, q Rerun, b *report.Baselines) error {
	if q.Attempt < 2 || b == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultBudget)
	defer cancel()
	arts, err := gh.Artifacts(ctx, q.RunID)
	if err != nil {
		return err
	}
	id, n := int64(0), 0
	for _, a := range arts {
		if k, ok := attemptOf(a.Name, q.Artifact); ok && k < q.Attempt && k > n && !a.Expired {
			id, n = a.ID, k
		}
	}
	if id == 0 {
		return fmt.Errorf("no earlier attempt of run %d left an artifact %s", q.RunID, q.Artifact)
	}
	r, err := gh.OpenArtifact(ctx, id)
	if err != nil {
		return err
	}
	sums, err := manifestSums(ctx, r)
	if err != nil {
		return fmt.Errorf("attempt %d's artifact: %w", n, err)
	}
	latest, err := latestRuns(ctx, r, q.Runs)
	if err != nil {
		return fmt.Errorf("attempt %d's artifact: %w", n, err)
	}
	if b.History == nil {
		b.History = map[string]report.Past{}
	}
	for name, dir := range latest {
		data, err := readVerified(ctx, r, sums, dir+"/"+testindex.FileName)
		if err != nil {
			continue // the base's past stands; this attempt's flips go unseen
		}
		x, err := testindex.Read(bytes.NewReader(data))
		if err != nil {
			continue
		}
		if p := readPast(ctx, r, sums, dir, name, x); p.History != nil {
			p.Commit, p.WorkflowRunID = lastColumn(p.History)
			b.History[name] = p
			continue
		}
		// A runledger that wrote no history: its index joins the base's past.
		base := b.History[name]
		col := history.Column{Commit: x.Commit, WorkflowRunID: x.CIRunID, Attempt: n, RunID: x.RunID}
		merged := history.Merge(base.History, x, col, q.Window, b.Branch)
		b.History[name] = report.Past{History: merged, Commit: x.Commit, WorkflowRunID: x.CIRunID}
	}
	return nil
}

func lastColumn(h *history.History) (string, string) {
	c := h.Columns[len(h.Columns)-1]
	return c.Commit, c.WorkflowRunID
}
