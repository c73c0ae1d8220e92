//go:build unix

package capture

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// group is the process group of one command: the command leads it, and its
// descendants stay in it unless they create their own.
type group struct {
	pgid int
}

// signal sends sig to every member. A pgid of 0 or 1 would address
// runledger's own group or every process: never send those.
func (g group) signal(sig syscall.Signal) error {
	if g.pgid <= 1 {
		return nil
	}
	if err := syscall.Kill(-g.pgid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("kill(-%d, %s): %w", g.pgid, sig, err) // ESRCH: nothing left to stop
	}
	return nil
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

// procAttr puts the command in a process group of its own, led by it.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// newGroup is the group of a command started with procAttr: its pgid is
// the leader's pid.
func newGroup(p *os.Process) (group, error) { return group{pgid: p.Pid}, nil }

// release frees nothing: a process group holds no resource of runledger's.
func (g group) release() {}
