package runners

import (
	"bytes"
	"path/filepath"
	"strings"
)

// maxRaceLines bounds the lines of one race report read.
const maxRaceLines = 400

// raceDetected is what testing prints, at its own testing.go line, in a
// test the race detector caught: neither says where the race is.
const raceDetected = "race detected during execution of test"

// raceReport reads the race detector's `WARNING: DATA RACE` report for
// what a reader of the failure needs: the two accesses, each at its
// first frame (`Read at counter.go:6 in (*Counter).Inc`), and the first
// frame in a test file, the place given to the test it failed.
type raceReport struct {
	left     int // lines still read; 0 when no report is open
	accesses []string
	want     bool // the next frame is an access's first
	fn       string
	test     frame
	of       string // the test its frames name (`TestConcurrentInc.func1`)
	// done holds the reports read in full, by the test they name: several
	// tests' reports may come before their `race detected` lines, and a
	// test's first report is the one given to it.
	done map[string]*raceNote
}

// maxRaceNotes bounds the reports kept for tests yet to report them.
const maxRaceNotes = 64

// raceNote is a finished report: the message and place it gives.
type raceNote struct {
	msg  string
	file string
	line int
}

func (r *raceReport) start() {
	*r = raceReport{left: maxRaceLines, done: r.done}
}

// frameTest is the top-level test a trace's function belongs to:
// `TestConcurrentInc.func1` is TestConcurrentInc's.
func frameTest(fn string) string {
	fn = shortFunc(fn)
	if !strings.HasPrefix(fn, "Test") {
		return ""
	}
	if i := strings.IndexByte(fn, '.'); i > 0 {
		fn = fn[:i]
	}
	return fn
}

func (r *raceReport) reading() bool { return r.left > 0 }

// line reads the next line of the report, up to its closing rule.
func (r *raceReport) line(t []byte) {
	r.left--
	s := string(bytes.TrimSpace(t))
	switch {
	case strings.HasPrefix(s, "=================="):
		r.finish()
	case strings.HasPrefix(s, "Goroutine "):
		r.want = false
	case strings.Contains(s, " at 0x") && strings.HasSuffix(s, ":"):
		// `Read at 0x00c000018288 by goroutine 9:`, `Previous write at …`
		r.accesses, r.want = append(r.accesses, s[:strings.Index(s, " at 0x")]), len(r.accesses) < 2
	case strings.HasPrefix(s, "/") || strings.Contains(s, ".go:"):
		r.frame(s)
	default:
		r.fn = s
	}
}

// frame reads `/src/x/counter.go:6 +0x9c` under its function's line.
func (r *raceReport) frame(s string) {
	if i := strings.IndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	c := strings.LastIndexByte(s, ':')
	if c < 0 {
		return
	}
	file, ln := s[:c], s[c+1:]
	// An access's first frame outside the runtime: a map's race is
	// reported inside runtime.mapassign_faststr, called from the line
	// that matters.
	if r.want && len(r.accesses) > 0 && !strings.HasPrefix(r.fn, "runtime.") && !strings.HasPrefix(r.fn, "internal/") {
		k := len(r.accesses) - 1
		r.accesses[k] += " " + filepath.Base(file) + ":" + ln + " in " + shortFunc(r.fn)
		r.want = false
	}
	r.test.offer(file, ln, strings.HasSuffix(file, "_test.go"))
	if r.of == "" {
		r.of = frameTest(r.fn)
	}
}

// shortFunc drops a function's package path and arguments:
// `example.com/counter.(*Counter).Inc()` is `(*Counter).Inc`.
func shortFunc(fn string) string {
	if strings.HasSuffix(fn, ")") {
		fn = fn[:strings.LastIndexByte(fn, '(')]
	}
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		fn = fn[i+1:]
	}
	if i := strings.IndexByte(fn, '.'); i >= 0 {
		fn = fn[i+1:]
	}
	return fn
}

func (r *raceReport) finish() {
	r.left = 0
	if len(r.accesses) == 0 || r.of == "" || r.done[r.of] != nil || len(r.done) >= maxRaceNotes {
		return
	}
	n := &raceNote{msg: "data race: " + strings.Join(r.accesses, "; ")}
	if r.test.test {
		n.file, n.line = r.test.place()
	}
	if r.done == nil {
		r.done = map[string]*raceNote{}
	}
	r.done[r.of] = n
}

// take returns the report of test name (a subtest's is its top-level
// test's), once, for its `race detected` line.
func (r *raceReport) take(name string) *raceNote {
	if i := strings.IndexByte(name, '/'); i > 0 {
		name = name[:i]
	}
	n := r.done[name]
	delete(r.done, name)
	return n
}
