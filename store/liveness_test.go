package store

import (
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/runledger/runledger/record"
)

// TestHelperProcess is not a test: TestEffectiveEndedWrapper runs it as a
// wrapper stand-in that lives until its stdin closes.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("STORE_HELPER") == "" {
		t.Skip("a helper process, run by TestEffectiveEndedWrapper")
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// TestEffectiveEndedWrapper: a live process is a running wrapper; once it
// has ended and been waited for, its pid is not.
func TestEffectiveEndedWrapper(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "STORE_HELPER=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	w := record.Wrapper{PID: pid, BootID: BootID(), ProcStart: ProcStart(pid)}
	w.Host, _ = os.Hostname()
	running := &record.Record{Status: record.StatusRunning, Wrapper: w}
	got := Effective(running)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if got != record.StatusRunning {
		t.Fatalf("while the process ran: %s, want running", got)
	}
	if got := Effective(running); got != record.StatusIncomplete {
		t.Fatalf("after it ended: %s, want incomplete", got)
	}
}
