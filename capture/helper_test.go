package capture

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

// The test binary doubles as the commands under test: a real process with
// exactly reproducible output, so tests can compare every stored byte.
func TestMain(m *testing.M) {
	if mode := os.Getenv("CAPTURE_HELPER"); mode != "" {
		os.Exit(helper(mode, os.Args[len(os.Args)-2:]))
	}
	os.Exit(m.Run())
}

func helper(mode string, args []string) int {
	n, _ := strconv.ParseInt(args[0], 10, 64)
	seed, _ := strconv.ParseUint(args[1], 10, 64)
	if code, ok := processHelper(mode, n, seed); ok {
		return code
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer w.Flush()
	switch mode {
	case "random": // n pseudo-random bytes, NULs and invalid UTF-8 included
		genRandom(w, n, seed)
	case "lines": // a log of n bytes with failures at its start, middle and end
		w.Write(genLines(n))
	case "both": // a line per 1000 of n to each of stdout and stderr, interleaved
		for i := int64(0); i < n; i += 1000 {
			fmt.Fprintf(w, "out %d\n", i)
			w.Flush()
			fmt.Fprintf(os.Stderr, "err %d\n", i)
		}
	}
	return int(seed % 2) // odd seeds fail
}

// processHelper runs the modes that test process handling or files rather
// than output; n is a duration in milliseconds or an exit code.
func processHelper(mode string, n int64, seed uint64) (int, bool) {
	wait := time.Duration(n) * time.Millisecond
	switch mode {
	case "exit": // exits with code n
		return int(n), true
	case "sleep": // says so, then sleeps n ms, stopped by whatever stops a process by default
		fmt.Println("started")
		time.Sleep(wait)
		return 0, true
	case "ignore": // as sleep, but catches SIGINT, SIGTERM and, on Windows, CTRL_BREAK_EVENT
		signal.Notify(make(chan os.Signal, 1), os.Interrupt, syscall.SIGTERM)
		fmt.Println("started")
		time.Sleep(wait)
		return 0, true
	case "spawn": // starts a child that sleeps n ms, then exits 0; seed 1: the child holds stdout
		return spawn(wait, seed == 1), true
	case "rewrite": // rewrites rewritten.xml in the working directory
		if err := os.WriteFile("rewritten.xml", []byte(`<testsuites name="new"/>`), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2, true
		}
		return 0, true
	}
	return 0, false
}

// spawn starts this binary again in "sleep" mode and leaves it running,
// printing its pid.
func spawn(wait time.Duration, holdStdout bool) int {
	child := exec.Command(os.Args[0], "-test.run=^$", strconv.FormatInt(wait.Milliseconds(), 10), "0")
	child.Env = append(os.Environ(), "CAPTURE_HELPER=sleep")
	if holdStdout {
		child.Stdout = os.Stdout
	}
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Printf("child %d\n", child.Process.Pid)
	return 0
}

func genRandom(w interface{ Write([]byte) (int, error) }, n int64, seed uint64) {
	r := rand.New(rand.NewPCG(seed, seed))
	buf := make([]byte, 1<<16)
	for n > 0 {
		k := min(n, int64(len(buf)))
		for i := range buf[:k] {
			buf[i] = byte(r.Uint32())
		}
		w.Write(buf[:k])
		n -= k
	}
}

func expectRandom(n int64, seed uint64) []byte {
	var b sliceWriter
	genRandom(&b, n, seed)
	return b
}

type sliceWriter []byte

func (s *sliceWriter) Write(p []byte) (int, error) { *s = append(*s, p...); return len(p), nil }

// genLines is a test log of about n bytes: ordinary lines with a failing
// test at the beginning, the middle and the end.
func genLines(n int64) []byte {
	var b []byte
	fail := func(name string) {
		b = append(b, fmt.Sprintf("--- FAIL: %s (0.00s)\n    x_test.go:1: boom\n", name)...)
	}
	fail("TestFirst")
	for i := 0; int64(len(b)) < n/2; i++ {
		b = append(b, fmt.Sprintf("=== RUN   TestMany/%08d\n--- PASS: TestMany/%08d (0.00s)\n", i, i)...)
	}
	fail("TestMiddle")
	for i := 0; int64(len(b)) < n-100; i++ {
		b = append(b, fmt.Sprintf("noise line %08d\n", i)...)
	}
	fail("TestLast")
	return b
}

// helperArgv runs this test binary as a helper in the given mode.
func helperArgv(t *testing.T, mode string, n int64, seed uint64) ([]string, []string) {
	t.Helper()
	env := append(os.Environ(), "CAPTURE_HELPER="+mode)
	return []string{os.Args[0], "-test.run=^$", strconv.FormatInt(n, 10), strconv.FormatUint(seed, 10)}, env
}

func newStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// runOne captures one attempt and fails the test on runledger's own errors.
func runOne(t *testing.T, st *store.Store, opts Options) *record.Record {
	t.Helper()
	if opts.KillAfter == 0 {
		opts.KillAfter = 2 * time.Second
	}
	recs, err := Run(st, opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(recs) == 0 {
		t.Fatal("Run returned no record")
	}
	last := recs[len(recs)-1]
	onDisk, err := record.Read(filepath.Join(st.Dir, last.ID))
	if err != nil {
		t.Fatalf("read back record: %v", err)
	}
	if onDisk.Status != last.Status || onDisk.ID != last.ID {
		t.Fatalf("record on disk %s/%s, returned %s/%s", onDisk.ID, onDisk.Status, last.ID, last.Status)
	}
	return last
}

// checkStream asserts that a stream's file, size, ranges and hash describe
// exactly what the command wrote.
func checkStream(t *testing.T, st *store.Store, r *record.Record, name string, want []byte) {
	t.Helper()
	s := r.Streams[name]
	if s == nil {
		t.Fatalf("%s: no stream record", name)
	}
	got, err := os.ReadFile(filepath.Join(st.Dir, r.ID, s.File))
	if err != nil {
		t.Fatal(err)
	}
	if s.Bytes != int64(len(want)) {
		t.Errorf("%s: bytes = %d, command wrote %d", name, s.Bytes, len(want))
	}
	var kept []byte
	for _, rg := range s.StoredRanges {
		kept = append(kept, want[rg[0]:rg[1]]...)
	}
	if string(got) != string(kept) {
		t.Errorf("%s: stored file (%d bytes) differs from the written bytes at %v", name, len(got), s.StoredRanges)
	}
	if s.StoredBytes != int64(len(got)) {
		t.Errorf("%s: stored_bytes = %d, file has %d", name, s.StoredBytes, len(got))
	}
	sum := sha256.Sum256(got)
	if s.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("%s: sha256 in record does not match the stored file", name)
	}
	if !s.Complete {
		t.Errorf("%s: complete = false", name)
	}
}
