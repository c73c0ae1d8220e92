//go:build unix

package main

import (
	"bytes"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

// These kill and signal the wrapper and its command's process group.

func TestWrapperKilled(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary, "run", "--dir", dir, "--", "sh", "-c", "echo started; exec sleep 100")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if _, err := stdout.Read(buf); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	st, _ := store.Open(dir)
	recs, problems, err := st.List()
	if err != nil || len(problems) > 0 || len(recs) != 1 {
		t.Fatalf("records %d, problems %v, err %v", len(recs), problems, err)
	}
	r := recs[0]
	if r.Status != record.StatusRunning || r.PID <= 1 {
		t.Fatalf("status %s pid %d, want running with the command's pid", r.Status, r.PID)
	}
	syscall.Kill(-r.PID, syscall.SIGKILL) // the orphaned sleep
	if got := store.Effective(r); got != record.StatusIncomplete {
		t.Fatalf("effective status %s, want incomplete", got)
	}
}

// TestWrapperTerminated: SIGTERM to the wrapper (a cancelled job) reaches
// the command, and the record is flushed as cancelled before it exits.
func TestWrapperTerminated(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary, "run", "--dir", dir, "--", "sh", "-c", "trap 'echo stopping; exit 9' TERM; echo started; while :; do sleep 0.05; done")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	stdout.Read(buf)
	cmd.Process.Signal(syscall.SIGTERM)
	rest := new(bytes.Buffer)
	rest.ReadFrom(stdout)
	cmd.Wait()
	if got := cmd.ProcessState.ExitCode(); got != 143 {
		t.Fatalf("wrapper exit %d, want 143", got)
	}
	st, _ := store.Open(dir)
	recs, _, _ := st.List()
	if len(recs) != 1 || recs[0].Status != record.StatusCancelled || recs[0].Termination != record.TerminationConfirmed {
		t.Fatalf("records %+v: want one cancelled, confirmed", recs)
	}
	if !strings.Contains(rest.String(), "stopping") {
		t.Fatalf("the command did not see SIGTERM; it printed %q", rest.String())
	}
}
