package publish

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/runledger/runledger/githubapi"
)

// Result says where the sections went.
type Result struct {
	CommentURL string
	CommentID  int64
	// Warnings are problems that must not fail the step (a read-only
	// token, a 403/404, a section not confirmed); show them in the summary.
	Warnings []string
}

// Upsert writes one job's section into the pull request's sticky comment,
// creating the comment once and editing it in place afterwards. Concurrent
// jobs may race on the comment: each round reads, merges and writes, then
// re-reads after a jittered pause and repairs its section if another
// writer's older copy replaced it, for at most Config.MaxTries rounds.
func (p *Publisher) Upsert(ctx context.Context, pr int, s Section) (Result, error) {
	return p.write(ctx, pr, []Section{s})
}

// Aggregate writes many legs' sections in one edit (plus a read before and a
// read after), for a job that runs after the matrix: 256 legs cost a handful
// of requests, not 256 edits against the 80-a-minute content limit. Sections
// of other keys already in the comment are kept.
func (p *Publisher) Aggregate(ctx context.Context, pr int, secs []Section) (Result, error) {
	return p.write(ctx, pr, secs)
}

func (p *Publisher) write(ctx context.Context, pr int, secs []Section) (Result, error) {
	var res Result
	if pr <= 0 {
		return res, fmt.Errorf("pull request number %d: want a positive number", pr)
	}
	want := make(map[string]string, len(secs))
	for _, s := range secs {
		if s.Key == "" {
			return res, errors.New("section without a key")
		}
		want[s.Key] = s.hash()
	}
	author, err := p.Author(ctx)
	if err != nil {
		return res, err
	}
	var created int64
	paused := false
	for try := 0; try < p.cfg.MaxTries; try++ {
		canon, err := p.canonical(ctx, pr, author)
		if err != nil {
			return p.permissionWarning(res, fmt.Errorf("read comments of pull request #%d: %w", pr, err))
		}
		if canon != nil {
			res.CommentURL, res.CommentID = canon.URL, canon.ID
			if current(canon.Body, want) {
				return p.dropDuplicate(ctx, res, created), nil
			}
		}
		if canon == nil && p.cfg.UpdateOnly {
			res.Warnings = append(res.Warnings, fmt.Sprintf("comment: update-only, and pull request #%d has no runledger comment yet; none created", pr))
			return res, nil
		}
		if canon == nil && !paused {
			// Legs of a matrix often finish together: a random pause and
			// a second look keep them from each creating a comment.
			paused = true
			if err := p.cfg.Sleep(ctx, time.Duration(rand.Int64N(int64(p.cfg.Settle)+1))); err != nil {
				return res, err
			}
			continue
		}
		c, err := p.put(ctx, pr, canon, secs)
		if err != nil {
			return p.permissionWarning(res, err)
		}
		if c != nil {
			created = c.ID
			res.CommentURL, res.CommentID = c.URL, c.ID
		}
		if err := p.settle(ctx, try); err != nil {
			return res, err
		}
	}
	res.Warnings = append(res.Warnings, fmt.Sprintf("comment on pull request #%d: section not confirmed after %d tries; concurrent writers may have replaced it", pr, p.cfg.MaxTries))
	return res, nil
}

// put merges secs into canon's body and writes it, creating the comment
// when there is none; it returns the comment it created, if any.
func (p *Publisher) put(ctx context.Context, pr int, canon *githubapi.Comment, secs []Section) (*githubapi.Comment, error) {
	previous := ""
	if canon != nil {
		previous = canon.Body
	}
	body, err := Body(previous, secs)
	if err != nil {
		return nil, fmt.Errorf("compose comment: %w", err)
	}
	if canon == nil {
		c, err := p.CreateComment(ctx, pr, body)
		if err != nil {
			return nil, err
		}
		return &c, nil
	}
	err = p.EditComment(ctx, canon.ID, body)
	if err != nil && !githubapi.IsNotFound(err) { // deleted meanwhile: the next round finds the survivor
		return nil, err
	}
	return nil, nil
}

// canonical is the oldest comment that carries the marker and is authored by
// us; a copy of the marker by anyone else is never touched.
func (p *Publisher) canonical(ctx context.Context, pr int, author string) (*githubapi.Comment, error) {
	var best *githubapi.Comment
	err := p.Comments(ctx, pr, func(c githubapi.Comment) {
		if strings.HasPrefix(c.Body, CommentMarker) && strings.EqualFold(c.Author, author) && (best == nil || c.ID < best.ID) {
			best = &c
		}
	})
	return best, err
}

// dropDuplicate deletes the comment this call created when a concurrent job
// created an older one first; our section is already confirmed in that one.
func (p *Publisher) dropDuplicate(ctx context.Context, res Result, created int64) Result {
	if created == 0 || created == res.CommentID {
		return res
	}
	if err := p.DeleteComment(ctx, created); err != nil && !githubapi.IsNotFound(err) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("delete duplicate comment %d: %v", created, err))
	}
	return res
}

// settle pauses before re-reading, jittered so concurrent legs spread out,
// growing with the round.
func (p *Publisher) settle(ctx context.Context, try int) error {
	d := p.cfg.Settle << min(try, 3)
	d += time.Duration(rand.Int64N(int64(d) + 1))
	return p.cfg.Sleep(ctx, d)
}

// permissionWarning turns 403/404 into a warning and keeps other errors.
func (p *Publisher) permissionWarning(res Result, err error) (Result, error) {
	if githubapi.IsPermission(err) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%v (the token is read-only, as on fork pull requests, or cannot see the pull request; the job summary holds the report)", err))
		return res, nil
	}
	return res, err
}
