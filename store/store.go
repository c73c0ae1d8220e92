// Package store keeps run directories: it hands out run ids and attempt
// numbers that stay distinct when several runledger processes share one
// store, and reads the records back.
package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/runledger/runledger/record"
)

// DefaultDir is the store's directory when neither --dir nor RUNLEDGER_DIR is set.
const DefaultDir = ".runledger"

const lockName = ".lock"

// Store is a directory of run directories, one per attempt.
type Store struct {
	Dir string
}

// Open makes sure dir exists and returns the store in it.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	return &Store{Dir: dir}, nil
}

// Begin allocates the next attempt of name and writes its first record,
// built by init, before releasing the store's lock: a concurrent Begin for
// the same name sees that record and takes the next number.
func (s *Store) Begin(name string, init func(id string, attempt int) *record.Record) (string, *record.Record, error) {
	unlock, err := s.lock()
	if err != nil {
		return "", nil, err
	}
	defer unlock()
	attempt, err := s.nextAttempt(name)
	if err != nil {
		return "", nil, err
	}
	id, dir, err := s.mkRunDir()
	if err != nil {
		return "", nil, err
	}
	rec := init(id, attempt)
	if err := record.Write(dir, rec); err != nil {
		return "", nil, err
	}
	return dir, rec, nil
}

// lock takes an exclusive lock on the store's lock file (lockFile). The
// kernel releases it when the holder dies, so a killed wrapper cannot
// wedge the store.
func (s *Store) lock() (func(), error) {
	path := filepath.Join(s.Dir, lockName)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock store %s: %w", s.Dir, err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock store %s: %w", s.Dir, err)
	}
	return func() { f.Close() }, nil
}

func (s *Store) nextAttempt(name string) (int, error) {
	recs, _, err := s.List()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range recs {
		if r.Name == name && r.Attempt > n {
			n = r.Attempt
		}
	}
	return n + 1, nil
}

// mkRunDir creates a new run directory. Ids sort by start time, and the
// random suffix with O_EXCL-like Mkdir keeps them unique across processes.
func (s *Store) mkRunDir() (string, string, error) {
	for range 10 {
		var b [4]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", "", fmt.Errorf("new run id: %w", err)
		}
		id := time.Now().UTC().Format("20060102T150405.000Z") + "-" + hex.EncodeToString(b[:])
		id = strings.Replace(id, ".", "", 1)
		dir := filepath.Join(s.Dir, id)
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return id, dir, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", "", fmt.Errorf("new run dir in %s: %w", s.Dir, err)
		}
	}
	return "", "", fmt.Errorf("new run dir in %s: no free id after 10 tries", s.Dir)
}

// RunDir is the directory of the run with the given id. The id must be a
// plain name, so that no caller can reach outside the store through it.
func (s *Store) RunDir(id string) (string, error) {
	if id == "" || id != filepath.Base(id) || strings.HasPrefix(id, ".") {
		return "", fmt.Errorf("run id %q: not a run id", id)
	}
	return filepath.Join(s.Dir, id), nil
}

// List reads every record in the store, oldest first. Directories whose
// record cannot be read are returned as problems, not skipped silently.
func (s *Store) List() ([]*record.Record, []error, error) {
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return nil, nil, fmt.Errorf("list store %s: %w", s.Dir, err)
	}
	var recs []*record.Record
	var problems []error
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		r, err := record.Read(filepath.Join(s.Dir, e.Name()))
		if errors.Is(err, fs.ErrNotExist) {
			// Begin holds the lock between Mkdir and the first write.
			continue
		}
		if err != nil {
			problems = append(problems, fmt.Errorf("run %s: %w", e.Name(), err))
			continue
		}
		if r.ID != e.Name() {
			// Paths are built from ids: a record naming another directory
			// (say "../x") would lead reads out of the store.
			problems = append(problems, fmt.Errorf("run %s: its record says id %q", e.Name(), r.ID))
			continue
		}
		recs = append(recs, r)
	}
	sort.SliceStable(recs, func(i, j int) bool {
		if !recs[i].StartedAt.Equal(recs[j].StartedAt) {
			return recs[i].StartedAt.Before(recs[j].StartedAt)
		}
		return recs[i].ID < recs[j].ID
	})
	return recs, problems, nil
}

// Find resolves a run reference: an exact id, a unique id prefix, or a run
// name, which means that name's latest attempt.
func (s *Store) Find(ref string) (*record.Record, string, error) {
	recs, _, err := s.List()
	if err != nil {
		return nil, "", err
	}
	var byPrefix, byName []*record.Record
	for _, r := range recs {
		if r.ID == ref {
			return r, filepath.Join(s.Dir, r.ID), nil
		}
		if strings.HasPrefix(r.ID, ref) {
			byPrefix = append(byPrefix, r)
		}
		if r.Name == ref {
			byName = append(byName, r)
		}
	}
	switch {
	case len(byPrefix) == 1:
		return byPrefix[0], filepath.Join(s.Dir, byPrefix[0].ID), nil
	case len(byPrefix) > 1:
		return nil, "", fmt.Errorf("run %q: ambiguous, %d run ids start with it", ref, len(byPrefix))
	case len(byName) > 0:
		latest := byName[0]
		for _, r := range byName[1:] {
			if r.Attempt > latest.Attempt {
				latest = r
			}
		}
		return latest, filepath.Join(s.Dir, latest.ID), nil
	}
	return nil, "", fmt.Errorf("run %q: no run with that id or name in %s", ref, s.Dir)
}
