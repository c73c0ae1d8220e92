package store

import (
	"testing"
	"time"
)

// TestLockExcludes: a second holder waits until the first lets go.
func TestLockExcludes(t *testing.T) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := st.lock()
	if err != nil {
		t.Fatal(err)
	}
	taken := make(chan error, 1)
	go func() {
		unlock2, err := st.lock()
		if err == nil {
			unlock2()
		}
		taken <- err
	}()
	select {
	case err := <-taken:
		t.Fatalf("second lock returned (%v) while the first was held", err)
	case <-time.After(300 * time.Millisecond):
	}
	unlock()
	select {
	case err := <-taken:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("second lock not taken after the first was released")
	}
}
