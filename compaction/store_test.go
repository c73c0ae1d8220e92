package compaction

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestDirStoreExpand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cg")
	store := &DirStore{Dir: dir}
	text := []byte(goFailed)
	hash := Hash(text)
	if err := store.Put(hash, text); err != nil {
		t.Fatal(err)
	}
	if err := store.Put(hash, text); err != nil {
		t.Fatalf("second Put of the same text: %v", err)
	}
	for _, ref := range []string{hash, Marker(hash), "[superseded by a later run] " + Marker(hash) + " failed",
		`\u003c\u003ccg:` + hash + `\u003e\u003e`} {
		got, err := Expand(store, ref)
		if err != nil || string(got) != goFailed {
			t.Errorf("Expand(%q) = %q, %v", ref, got, err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 || entries[0].Name() != hash {
		t.Fatalf("store dir holds %v (%v), want just %s", entries, err, hash)
	}
}

func TestExpandErrors(t *testing.T) {
	dir := t.TempDir()
	store := &DirStore{Dir: dir}
	good := []byte(goPassed)
	hash := Hash(good)
	if err := os.WriteFile(filepath.Join(dir, hash), []byte(goFailed), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ref  string
		want error
	}{
		{hash, ErrCorrupt},
		{Marker("00000000000000ff"), ErrNotFound},
		{"../../etc/passwd", ErrBadRef},
		{"0123456789ABCDEF", ErrBadRef},
		{Marker(hash) + Marker("00000000000000ff"), ErrBadRef},
		{"", ErrBadRef},
	}
	for _, tt := range tests {
		if _, err := Expand(store, tt.ref); !errors.Is(err, tt.want) {
			t.Errorf("Expand(%q) error %v, want %v", tt.ref, err, tt.want)
		}
	}
}

func TestDirStorePutRefuses(t *testing.T) {
	store := &DirStore{Dir: t.TempDir()}
	if err := store.Put(Hash([]byte("a")), []byte("b")); err == nil {
		t.Error("Put accepted text under another text's hash")
	}
	if err := store.Put("../x", []byte("b")); !errors.Is(err, ErrBadRef) {
		t.Errorf("Put with a path as hash: %v", err)
	}
	// A different text already under the name (a prefix collision or a
	// damaged entry) is never overwritten.
	hash := Hash([]byte("a"))
	if err := os.WriteFile(filepath.Join(store.Dir, hash), []byte("other"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := store.Put(hash, []byte("a")); err == nil {
		t.Error("Put overwrote a different stored text")
	}
}

func TestHash(t *testing.T) {
	// sha256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
	if got := Hash([]byte("abc")); got != "ba7816bf8f01cfea" {
		t.Fatalf("Hash(abc) = %s", got)
	}
}
