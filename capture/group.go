package capture

import (
	"errors"
	"syscall"
	"time"
)

// group is the process group of one command: the command leads it, and its
// descendants stay in it unless they create their own.
type group struct {
	pgid int
}

// signal sends sig to every member. A pgid of 0 or 1 would address
// runledger's own group or every process: never send those.
func (g group) signal(sig syscall.Signal) {
	if g.pgid > 1 {
		_ = syscall.Kill(-g.pgid, sig)
	}
}

// waitLeader blocks until the leader ends, reaping members that end before
// it. Waiting on -pgid never takes a child of another group, so concurrent
// captures in one process do not steal each other's children; and since
// this is the only waiter for the group, nothing races it.
func (g group) waitLeader() (syscall.WaitStatus, *syscall.Rusage, error) {
	for {
		var ws syscall.WaitStatus
		var ru syscall.Rusage
		pid, err := syscall.Wait4(-g.pgid, &ws, 0, &ru)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return 0, nil, err
		case pid == g.pgid:
			return ws, &ru, nil
		}
	}
}

// reap collects any members that have ended, without blocking.
func (g group) reap() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-g.pgid, &ws, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}

// gone reports whether no member of the group remains, zombies included.
func (g group) gone() bool {
	if g.pgid <= 1 {
		return false
	}
	g.reap()
	return errors.Is(syscall.Kill(-g.pgid, 0), syscall.ESRCH)
}

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
// Call it once the leader has been waited for.
func (g group) stop(grace time.Duration) bool {
	g.signal(syscall.SIGTERM)
	return g.finish(time.Now().Add(grace))
}

// finish waits until the group is gone or the grace deadline passes, then
// kills what is left and waits a bounded time to see it gone.
func (g group) finish(graceEnd time.Time) bool {
	if g.waitGone(time.Until(graceEnd)) {
		return true
	}
	g.signal(syscall.SIGKILL)
	return g.waitGone(killConfirmWait)
}

// killConfirmWait bounds the wait after SIGKILL: a process in
// uninterruptible sleep can outlive it, and the record must then say
// "unconfirmed" rather than the wrapper hanging.
const killConfirmWait = 5 * time.Second
