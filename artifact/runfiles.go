package artifact

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/runledger/runledger/record"
)

// RunFiles lists the files of one run directory for the artifact, named
// "<prefix>/<file>": record.json and junit/* deflated, the three logs, the
// test index (report/testindex) and the history (report/history) stored so
// that cited byte ranges, and a later run's lookup, can be read back. A log
// the run never created (a command that failed to start) is left out; the
// record says why.
func RunFiles(runDir, prefix string) ([]File, error) {
	if _, err := os.Stat(filepath.Join(runDir, record.FileName)); err != nil {
		return nil, fmt.Errorf("run directory %s: %w", runDir, err)
	}
	files := []File{{Name: path.Join(prefix, record.FileName), Path: filepath.Join(runDir, record.FileName)}}
	// The test index and the history are gzip'd already: stored, they are
	// read back as they are.
	for _, log := range []string{"stdout.log", "stderr.log", "output.log", "tests.tsv.gz", "history.tsv.gz"} {
		p := filepath.Join(runDir, log)
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("run directory %s: %w", runDir, err)
		}
		files = append(files, File{Name: path.Join(prefix, log), Path: p, Store: true})
	}
	junit, err := filepath.Glob(filepath.Join(runDir, "junit", "*"))
	if err != nil {
		return nil, fmt.Errorf("run directory %s: %w", runDir, err)
	}
	sort.Strings(junit)
	for _, p := range junit {
		files = append(files, File{Name: path.Join(prefix, "junit", filepath.Base(p)), Path: p})
	}
	return files, nil
}
