package fakegithub

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Clock is a virtual clock for a client under test: it records the sleeps
// asked of it and advances instead of waiting (optionally with a small
// real pause, scaled, so concurrent writers still spread out).
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
	// Scale is real time per virtual second; 0 means no real pause.
	Scale time.Duration
}

// NewClock starts a virtual clock at a fixed instant.
func NewClock() *Clock {
	return &Clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// Now is the virtual time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep advances the virtual time by d; it returns ctx.Err() when ctx has
// ended, as a real sleeper must.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	scale := c.Scale
	c.mu.Unlock()
	if scale <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(time.Duration(float64(d) / float64(time.Second) * float64(scale)))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Recorded lists the sleeps asked for so far.
func (c *Clock) Recorded() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.sleeps)
}
