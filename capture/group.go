package capture

import (
	"syscall"
	"time"
)

// waitGone polls until the group is gone or d has passed.
func (g group) waitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if g.gone() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// stop ends every remaining member the way timeout(1) does: SIGTERM first,
// SIGKILL after the grace period, then a bounded wait to see the group gone.
// Call it once the leader has been waited for. The error is a stop
// request that could not be sent: the members then had no chance to stop
// by themselves before the kill.
func (g group) stop(grace time.Duration) (bool, error) {
	err := g.signal(syscall.SIGTERM)
	return g.finish(time.Now().Add(grace)), err
}

// finish waits until the group is gone or the grace deadline passes, then
// kills what is left and waits a bounded time to see it gone.
func (g group) finish(graceEnd time.Time) bool {
	if g.waitGone(time.Until(graceEnd)) {
		return true
	}
	_ = g.signal(syscall.SIGKILL) // whether it worked is what waitGone checks
	return g.waitGone(killConfirmWait)
}

// killConfirmWait bounds the wait after SIGKILL: a process in
// uninterruptible sleep can outlive it, and the record must then say
// "unconfirmed" rather than the wrapper hanging.
const killConfirmWait = 5 * time.Second
