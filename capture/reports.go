package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

// reportsBefore is what the report patterns matched before the command
// started: path → identity of the file then.
type reportsBefore map[string]fileID

// fileID tells one version of a file from another. Linux stamps mtimes
// from a clock that lags by up to a tick, so "modified after the start" is
// not a safe test for a file written in the run's first milliseconds; a
// changed inode, size, mtime or ctime is.
type fileID struct {
	ino, size    int64
	mtime, ctime int64
}

// snapshotReports records the files the patterns match before the run.
func snapshotReports(base string, patterns []string) reportsBefore {
	before := reportsBefore{}
	for _, pat := range patterns {
		matches, _ := Glob(base, pat)
		for _, m := range matches {
			if id, _, ok := statID(filepath.Join(base, m)); ok {
				before[m] = id
			}
		}
	}
	return before
}

// attributeReports takes the files matching the patterns that the run wrote:
// new since the snapshot, or changed. It copies them into the run
// directory, so a later run overwriting the same path cannot change what
// this run reported. A matching file the run left untouched is a leftover
// from an earlier run and is named in the record as ignored.
func attributeReports(base string, patterns []string, before reportsBefore, started time.Time, runDir string) ([]record.JUnitFile, []record.JUnitSkipped) {
	taken := []record.JUnitFile{}
	var skipped []record.JUnitSkipped
	seen := map[string]bool{}
	for _, pat := range patterns {
		matches, err := Glob(base, pat)
		if err != nil {
			skipped = append(skipped, record.JUnitSkipped{Path: pat, Reason: "bad pattern: " + err.Error()})
			continue
		}
		if len(matches) == 0 {
			skipped = append(skipped, record.JUnitSkipped{Path: pat, Reason: "no file matched"})
		}
		for _, m := range matches {
			if seen[m] {
				continue
			}
			seen[m] = true
			f, reason := takeJUnit(base, m, before, started, runDir, len(taken))
			if reason != "" {
				skipped = append(skipped, record.JUnitSkipped{Path: m, Reason: reason})
				continue
			}
			taken = append(taken, f)
		}
	}
	return taken, skipped
}

// copiedOld is how far before the start an mtime may lie for a file that
// appeared during the run: further back, it was copied with its old time
// (a restored cache), and holds an old result.
const copiedOld = time.Second

func takeJUnit(base, rel string, before reportsBefore, started time.Time, runDir string, n int) (record.JUnitFile, string) {
	src := filepath.Join(base, rel)
	id, info, ok := statID(src)
	if info == nil {
		return record.JUnitFile{}, "cannot stat"
	}
	if !info.Mode().IsRegular() {
		return record.JUnitFile{}, "not a regular file"
	}
	if old, existed := before[rel]; ok && existed && old == id {
		return record.JUnitFile{}, fmt.Sprintf("stale: unchanged since before the run (modified %s)",
			info.ModTime().UTC().Format(time.RFC3339Nano))
	}
	if info.ModTime().Before(started.Add(-copiedOld)) {
		return record.JUnitFile{}, fmt.Sprintf("stale: appeared during the run but modified %s, before it started",
			info.ModTime().UTC().Format(time.RFC3339Nano))
	}
	// The folder keeps its old name: "junit/NNN-name" is the stream an
	// excerpt of the file cites and show --stream reads, in stores and
	// artifacts already written.
	stored := filepath.Join("junit", fmt.Sprintf("%03d-%s", n+1, filepath.Base(rel)))
	size, sum, err := copyFile(src, filepath.Join(runDir, stored))
	if err != nil {
		return record.JUnitFile{}, "copy failed: " + err.Error()
	}
	return record.JUnitFile{Path: rel, Stored: stored, Bytes: size, SHA256: sum, ModTime: info.ModTime().UTC()}, ""
}

func copyFile(src, dst string) (int64, string, error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, "", err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return 0, "", err
	}
	out, err := os.Create(dst)
	if err != nil {
		return 0, "", err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, hex.EncodeToString(h.Sum(nil)), err
}

// Glob matches pattern against the tree under base and returns paths
// relative to base. Besides the usual glob syntax, a "**" path element
// matches any number of directories, as in the test-report actions users know.
func Glob(base, pattern string) ([]string, error) {
	pattern = filepath.ToSlash(pattern)
	if _, err := path.Match(strings.ReplaceAll(pattern, "**", "*"), ""); err != nil {
		return nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	if base == "" {
		base = "."
	}
	if filepath.IsAbs(pattern) {
		// Rel cannot relate a relative base to an absolute pattern: base
		// is made absolute first (the same directory).
		abs, err := filepath.Abs(base)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", pattern, err)
		}
		rel, err := filepath.Rel(abs, filepath.FromSlash(pattern))
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", pattern, err)
		}
		pattern = filepath.ToSlash(rel)
	}
	// Walk only below the pattern's literal prefix: a repository's
	// node_modules need not be searched for "build/test-results/*.xml".
	segs := strings.Split(pattern, "/")
	root := base
	for len(segs) > 1 && !strings.ContainsAny(segs[0], `*?[\`) {
		root = filepath.Join(root, segs[0])
		segs = segs[1:]
	}
	var out []string
	patSegs := strings.Split(pattern, "/")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable corners are not an error for a search
		}
		rel, _ := filepath.Rel(base, p)
		if d.IsDir() && d.Name() == store.DefaultDir {
			return fs.SkipDir
		}
		if !d.IsDir() && matchPath(patSegs, strings.Split(filepath.ToSlash(rel), "/")) {
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

func matchPath(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchPath(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
