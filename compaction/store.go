package compaction

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
)

// Store keeps collapsed texts by hash. Put must be durable before it
// returns, since the caller is about to publish a marker pointing at it.
type Store interface {
	Put(hash string, text []byte) error
	Get(hash string) ([]byte, error)
}

var (
	// ErrNotFound: the store holds nothing under that hash.
	ErrNotFound = errors.New("no stored entry")
	// ErrCorrupt: the stored bytes do not hash to their name.
	ErrCorrupt = errors.New("stored entry does not match its hash")
	// ErrBadRef: the reference is neither a marker nor a 16-hex hash.
	ErrBadRef = errors.New("not a <<cg:HASH>> marker or 16-hex hash")
)

// HashLen is the number of hex digits of a marker's hash.
const HashLen = 16

// Hash is the first 16 hex digits of the sha256 of text.
func Hash(text []byte) string {
	sum := sha256.Sum256(text)
	return hex.EncodeToString(sum[:])[:HashLen]
}

// Marker is the marker text for hash.
func Marker(hash string) string { return "<<cg:" + hash + ">>" }

var (
	hashRe    = regexp.MustCompile(`^[0-9a-f]{16}$`)
	refMarkRe = regexp.MustCompile(`(?:<<|\\u003c\\u003c)cg:([0-9a-f]{16})(?:>>|\\u003e\\u003e)`)
)

// ParseRef extracts the hash from a bare hash, a marker, or a line holding
// exactly one marker (such as a pointer line).
func ParseRef(ref string) (string, error) {
	if hashRe.MatchString(ref) {
		return ref, nil
	}
	m := refMarkRe.FindAllStringSubmatch(ref, 2)
	if len(m) != 1 {
		return "", fmt.Errorf("parse ref %.40q: %w", ref, ErrBadRef)
	}
	return m[0][1], nil
}

// Expand returns the original text behind a marker or hash. The bytes are
// checked against the hash: a wrong or damaged entry is an error, never a
// best guess.
func Expand(store Store, ref string) ([]byte, error) {
	hash, err := ParseRef(ref)
	if err != nil {
		return nil, fmt.Errorf("expand: %w", err)
	}
	text, err := store.Get(hash)
	if err != nil {
		return nil, fmt.Errorf("expand %s: %w", hash, err)
	}
	if Hash(text) != hash {
		return nil, fmt.Errorf("expand %s: %w", hash, ErrCorrupt)
	}
	return text, nil
}

// DirStore keeps each entry as the file <Dir>/<hash>.
type DirStore struct {
	Dir string
}

var _ Store = (*DirStore)(nil)

// Put writes text under hash atomically (temp file, fsync, rename). An
// existing entry with the same bytes is left as it is; one with other bytes
// is an error, since two texts sharing a 64-bit prefix must not overwrite
// each other.
func (s *DirStore) Put(hash string, text []byte) error {
	if !hashRe.MatchString(hash) {
		return fmt.Errorf("store put %.40q: %w", hash, ErrBadRef)
	}
	if Hash(text) != hash {
		return fmt.Errorf("store put %s: text hashes to %s", hash, Hash(text))
	}
	path := filepath.Join(s.Dir, hash)
	if old, err := os.ReadFile(path); err == nil {
		if !bytes.Equal(old, text) {
			return fmt.Errorf("store put %s: a different text is stored under this hash", hash)
		}
		return nil
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return fmt.Errorf("store put %s: %w", hash, err)
	}
	return writeAtomic(s.Dir, path, text)
}

func writeAtomic(dir, path string, data []byte) error {
	tmp, err := os.CreateTemp(dir, ".cg-*.tmp")
	if err != nil {
		return fmt.Errorf("store write %s: %w", path, err)
	}
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("store write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("store write %s: %w", path, err)
	}
	return nil
}

// Get reads the entry under hash. It does not verify it; Expand does.
func (s *DirStore) Get(hash string) ([]byte, error) {
	if !hashRe.MatchString(hash) {
		return nil, fmt.Errorf("store get %.40q: %w", hash, ErrBadRef)
	}
	data, err := os.ReadFile(filepath.Join(s.Dir, hash))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("store get %s in %s: %w", hash, s.Dir, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("store get %s: %w", hash, err)
	}
	return data, nil
}
