package capture

import (
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/runledger/runledger/record"
)

// supervise waits for the command to end by itself, or stops it at its
// deadline or when the wrapper is told to stop.
func (a *attempt) supervise() {
	var deadline <-chan time.Time
	if a.opts.Timeout > 0 {
		t := time.NewTimer(a.opts.Timeout)
		defer t.Stop()
		deadline = t.C
	}
	select {
	case ex := <-a.exited:
		a.leader = &ex
		a.rec.Termination = record.TerminationExited
		return
	case <-deadline:
		a.timedOut, a.stopSig = true, syscall.SIGTERM
	case sig := <-a.opts.Cancel:
		a.cancelled, a.stopSig = true, toSyscall(sig)
	}
	a.rec.Termination = a.terminate()
}

// terminate stops the whole group: the stop signal, then SIGKILL after the
// grace period or at a second signal to the wrapper, then a bounded wait to
// see every member gone.
func (a *attempt) terminate() record.Termination {
	graceEnd := time.Now().Add(a.opts.KillAfter)
	// Unsent, the command had no request to stop by itself: it is killed
	// when the grace period ends, and the record says why.
	a.note("stop request", a.group.signal(a.stopSig))
	grace := time.NewTimer(a.opts.KillAfter)
	defer grace.Stop()
	select {
	case ex := <-a.exited:
		a.leader = &ex
		return confirmedIf(a.group.finish(graceEnd))
	case <-grace.C:
	case <-a.opts.Cancel:
	}
	a.note("kill", a.group.signal(syscall.SIGKILL))
	select {
	case ex := <-a.exited:
		a.leader = &ex
		return confirmedIf(a.group.waitGone(killConfirmWait))
	case <-time.After(killConfirmWait):
		// Even SIGKILL did not end it (uninterruptible sleep): say so.
		return record.TerminationUnconfirmed
	}
}

// drain waits a bounded time for the pipes to close. Descendants that keep
// them open, or that simply outlive the command, are stopped and reported:
// they must not hang the wrapper, nor run on under a retry.
func (a *attempt) drain() {
	if !a.logs.wait(a.opts.PipeWait) {
		lo := a.leftovers()
		lo.HeldPipes = true
		groupGone := false
		if a.leader != nil {
			var err error
			groupGone, err = a.group.stop(a.opts.KillAfter)
			lo.StopError = errText(err)
		}
		closed := a.logs.wait(time.Second)
		if !closed {
			a.logs.forceClose()
		}
		lo.Stopped = groupGone && closed
		lo.Termination = confirmedIf(lo.Stopped)
	}
	if a.stopped() || a.leader == nil || a.group.gone() {
		return
	}
	lo := a.leftovers()
	lo.Processes = true
	if lo.HeldPipes {
		return // stopped just above, as far as it would go: a second round only waits again
	}
	var err error
	lo.Stopped, err = a.group.stop(a.opts.KillAfter)
	lo.StopError = errText(err)
	lo.Termination = confirmedIf(lo.Stopped)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// note puts a failure of what runledger tried into the record's errors.
func (a *attempt) note(what string, err error) {
	if err != nil {
		a.rec.Errors = append(a.rec.Errors, what+": "+err.Error())
	}
}

func (a *attempt) stopped() bool { return a.timedOut || a.cancelled }

func (a *attempt) leftovers() *record.Leftovers {
	if a.rec.Leftovers == nil {
		a.rec.Leftovers = &record.Leftovers{}
	}
	return a.rec.Leftovers
}

// finishRecord turns what was observed into the record's verdict.
func (a *attempt) finishRecord() {
	a.end = time.Now()
	if a.leader != nil {
		a.end = a.leader.at
		a.rec.WaitStatus = waitStatus(a.leader)
		a.rec.Usage = usage(a.leader.ru)
	}
	a.setTimes()
	a.rec.Streams = a.logs.close()
	for _, name := range record.StreamNames {
		if e := a.rec.Streams[name].WriteError; e != "" {
			a.rec.Errors = append(a.rec.Errors, name+": "+e)
		}
	}
	a.rec.Status, a.rec.ExitCode, a.rec.Signal = a.verdict()
	a.rec.TimedOut = a.timedOut
}

// verdict: a run runledger stopped has no exit code of its own, whatever
// the process returned while being stopped.
func (a *attempt) verdict() (record.Status, *int, *string) {
	switch {
	case a.timedOut:
		return record.StatusTimedOut, nil, nil
	case a.cancelled:
		return record.StatusCancelled, nil, signalName(a.stopSig)
	case a.leader == nil || a.leader.err != nil:
		if a.leader != nil {
			a.rec.Errors = append(a.rec.Errors, "wait: "+a.leader.err.Error())
		}
		return record.StatusIncomplete, nil, nil
	case a.leader.ws.Signaled():
		return record.StatusSignaled, nil, signalName(a.leader.ws.Signal())
	}
	code := a.leader.ws.ExitStatus()
	if code == 0 {
		return record.StatusPassed, &code, nil
	}
	return record.StatusFailed, &code, nil
}

func waitStatus(ex *leaderExit) string {
	switch {
	case ex.err != nil:
		return "wait failed: " + ex.err.Error()
	case ex.ws.Exited():
		return "exit status " + strconv.Itoa(ex.ws.ExitStatus())
	case ex.ws.Signaled():
		s := "signal " + *signalName(ex.ws.Signal())
		if ex.ws.CoreDump() {
			s += " (core dumped)"
		}
		return s
	}
	return "unknown"
}

func confirmedIf(ok bool) record.Termination {
	if ok {
		return record.TerminationConfirmed
	}
	return record.TerminationUnconfirmed
}

func toSyscall(sig os.Signal) syscall.Signal {
	if s, ok := sig.(syscall.Signal); ok {
		return s
	}
	return syscall.SIGTERM
}
