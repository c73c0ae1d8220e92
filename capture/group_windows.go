package capture

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// group is the command and its descendants on Windows: a Job Object holds
// them all (a child cannot leave it: the job does not allow breakaway),
// and the command leads a console process group of its own, which is what
// CTRL_BREAK_EVENT is addressed to.
type group struct {
	job    windows.Handle
	leader windows.Handle // runledger's own handle: os.Process's is released
	// waiter is waitLeader's own copy of the leader's handle, closed by
	// waitLeader: when a kill is unconfirmed the wait may outlive
	// release, and a handle closed under a waiter is undefined behaviour
	// (its value may name the next attempt's process).
	waiter windows.Handle
	pid    uint32
}

// procAttr starts the command suspended, so that newGroup can put it in
// the job before it runs a single instruction: a process started running
// could create children before the assignment, and they would escape the
// job. CREATE_NEW_PROCESS_GROUP makes it the target of CTRL_BREAK_EVENT
// without runledger receiving the event too.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_SUSPENDED,
	}
}

// newGroup puts the suspended command in a new job and lets it run. On
// failure the command is terminated before it ran, and waited for.
func newGroup(p *os.Process) (group, error) {
	g, err := contain(uint32(p.Pid))
	if err == nil {
		return g, nil
	}
	// Stop whatever ran: the job's members if it got that far (the
	// thread may have been resumed), else the suspended leader; wait only
	// for a leader that was told to go, never for one left suspended.
	killed := g.job != 0 && windows.TerminateJobObject(g.job, killedExitCode) == nil
	if kerr := p.Kill(); kerr == nil || killed {
		_, _ = p.Wait()
	}
	g.release()
	if g.waiter != 0 {
		windows.CloseHandle(g.waiter)
	}
	return group{}, err
}

func contain(pid uint32) (group, error) {
	g := group{pid: pid}
	var err error
	// While os.Process holds its handle the pid cannot name another process.
	const access = windows.SYNCHRONIZE | windows.PROCESS_QUERY_LIMITED_INFORMATION |
		windows.PROCESS_TERMINATE | windows.PROCESS_SET_QUOTA
	if g.leader, err = windows.OpenProcess(access, false, pid); err != nil {
		return g, fmt.Errorf("open process %d: %w", pid, err)
	}
	self := windows.CurrentProcess()
	if err = windows.DuplicateHandle(self, g.leader, self, &g.waiter, 0, false, windows.DUPLICATE_SAME_ACCESS); err != nil {
		return g, fmt.Errorf("duplicate handle of process %d: %w", pid, err)
	}
	if g.job, err = windows.CreateJobObject(nil, nil); err != nil {
		return g, fmt.Errorf("create job for %d: %w", pid, err)
	}
	if err = windows.AssignProcessToJobObject(g.job, g.leader); err != nil {
		return g, fmt.Errorf("assign process %d to job: %w", pid, err)
	}
	if err = resume(pid); err != nil {
		return g, fmt.Errorf("resume process %d: %w", pid, err)
	}
	return g, nil
}

// resume starts the threads of a process created suspended: os/exec closes
// the primary thread's handle, so the thread is found by its owner's pid.
// A suspended new process has exactly that one thread.
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("open thread %d: %w", te.ThreadID, err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resume thread %d: %w", te.ThreadID, err)
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("list threads: %w", err)
	}
	if resumed == 0 {
		return errors.New("no thread found")
	}
	return nil
}

// release closes runledger's handles. The job itself lives on while a
// member does; closing it kills nothing (no KILL_ON_JOB_CLOSE): by now
// every member was stopped, or the record says it could not be.
func (g group) release() {
	if g.job != 0 {
		windows.CloseHandle(g.job)
	}
	if g.leader != 0 {
		windows.CloseHandle(g.leader)
	}
}

// signal has no signals to send: SIGKILL terminates every process in the
// job; anything else is CTRL_BREAK_EVENT to the command's console process
// group, the one request to stop that console programs can handle (Go
// reports it as os.Interrupt). It reaches only processes attached to
// runledger's console; when runledger has none it fails, and the grace
// period ends in TerminateJobObject; the error says so.
func (g group) signal(sig syscall.Signal) error {
	if g.job == 0 {
		return nil
	}
	if sig == syscall.SIGKILL {
		if err := windows.TerminateJobObject(g.job, killedExitCode); err != nil {
			return fmt.Errorf("TerminateJobObject: %w", err)
		}
		return nil
	}
	if err := windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, g.pid); err != nil {
		return fmt.Errorf("CTRL_BREAK_EVENT to process group %d: %w", g.pid, err)
	}
	return nil
}

// killedExitCode is the exit code TerminateJobObject gives each process.
const killedExitCode = 1

// waitLeader blocks until the leader ends. Windows keeps no rusage for a
// process's tree, so ru is nil and the record has no usage.
func (g group) waitLeader() (syscall.WaitStatus, *syscall.Rusage, error) {
	defer windows.CloseHandle(g.waiter)
	if _, err := windows.WaitForSingleObject(g.waiter, windows.INFINITE); err != nil {
		return syscall.WaitStatus{}, nil, fmt.Errorf("wait for process %d: %w", g.pid, err)
	}
	var code uint32
	if err := windows.GetExitCodeProcess(g.waiter, &code); err != nil {
		return syscall.WaitStatus{}, nil, fmt.Errorf("exit code of process %d: %w", g.pid, err)
	}
	return syscall.WaitStatus{ExitCode: code}, nil, nil
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which
// golang.org/x/sys/windows does not define.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                     int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount, TotalProcesses                uint32
	ActiveProcesses, TotalTerminatedProcesses          uint32
}

// gone reports whether the job has no process left. Windows removes a
// process from the job's count when it ends, whoever holds its handle, so
// this is the "no member is left" that Linux reads from kill(-pgid, 0).
func (g group) gone() bool {
	if g.job == 0 {
		return false
	}
	var info jobAccounting
	err := windows.QueryInformationJobObject(g.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
	return err == nil && info.ActiveProcesses == 0
}
