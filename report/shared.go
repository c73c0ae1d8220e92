package report

import (
	"os"
	"path/filepath"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report/evidence"
	"github.com/runledger/runledger/report/runners"
)

// shared is what one pass over a run's stdout.log found when that file is
// also its output.log: the stdout's evidence scan and the runner summary,
// checked as runners.Check checks it.
type shared struct {
	stdout  *evidence.Result
	checked runners.Checked
	size    int64 // of output.log, as runnerSummary would have read it
}

// scanShared reads stdout.log once for both the excerpt scan and the
// runner summary when capture stored one file under both names (it links
// output.log to stdout.log when nothing went to stderr): on a dense log,
// reading and splitting the lines was a third of each pass. It returns nil
// when the files differ, when stdout is stored in pieces, or on any error,
// and the two passes then run apart as before, saying what went wrong.
// The verifier still re-reads the counted lines by itself.
func scanShared(dir string, r *record.Record) *shared {
	out, okOut := r.Streams[record.Output]
	so, okSo := r.Streams[record.Stdout]
	if !okOut || !okSo || evidence.LineKeep != runners.MaxLineKeep {
		return nil
	}
	f, err := os.Open(filepath.Join(dir, out.File))
	if err != nil {
		return nil
	}
	defer f.Close()
	size, ok := sameFile(f, filepath.Join(dir, so.File))
	segs, err := so.Segments()
	if !ok || err != nil || len(segs) != 1 || segs[0] != [2]int64{0, size} {
		return nil
	}
	feed := runners.StartFeed(f, size)
	res, err := evidence.ScanAlso(f, size, segs, feed.Line)
	checked, cerr := feed.Finish(err != nil)
	if err != nil || cerr != nil {
		return nil
	}
	return &shared{stdout: res, checked: checked, size: size}
}

// sameFile reports whether the open f is the file at path, and its size.
func sameFile(f *os.File, path string) (int64, bool) {
	fi, err := f.Stat()
	if err != nil {
		return 0, false
	}
	pi, err := os.Stat(path)
	if err != nil || !os.SameFile(fi, pi) {
		return 0, false
	}
	return fi.Size(), true
}
