package capture

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/runledger/runledger/record"
)

// Bounds of the effects watch. Both scans run outside the attempt's
// measured time, before the command starts and after its end is recorded;
// past a bound the record says method "none" and why, rather than slowing
// every run in a huge directory.
const (
	// snapshotMaxFiles and snapshotMaxTime bound one walk of a directory
	// that is not a git work tree.
	snapshotMaxFiles = 200_000
	snapshotMaxTime  = 2 * time.Second
	// gitMaxTime bounds one `git status`; gitMaxPaths the dirty paths it
	// may list.
	gitMaxTime  = 10 * time.Second
	gitMaxPaths = 200_000
	// dirtyHashBudget bounds the bytes of files already dirty at the start
	// that are hashed, so that one rewritten with the same bytes is not
	// taken for a change. Past it, a changed stat alone counts.
	dirtyHashBudget = 64 << 20
)

type changeKind int

const (
	created changeKind = iota
	modified
	deleted
)

// change is one path an attempt changed. tracked: a retry would see it
// changed (see record.Effects.Tracked).
type change struct {
	path    string
	kind    changeKind
	tracked bool
}

// watch is the workspace as it was when an attempt started; finish
// compares the workspace at its end with it.
type watch struct {
	dir     string // the command's directory, absolute and with symlinks resolved
	exclude string // the run store, absolute; "" when outside the workspace
	method  string
	reason  string // method none: why
	git     *gitBefore
	snap    map[string]fileID
}

// watchWorkspace records the workspace of a command run in dir, leaving
// out the run store. In a git work tree it asks git (which knows what is
// tracked and what is ignored); elsewhere it takes a metadata snapshot.
func watchWorkspace(dir, storeDir string) *watch {
	w := &watch{method: record.EffectsNone}
	var err error
	if w.dir, err = realDir(dir); err != nil {
		w.reason = "command directory: " + err.Error()
		return w
	}
	if s, err := realDir(storeDir); err == nil {
		w.exclude = s
	}
	if top, ok := gitTopLevel(w.dir); ok {
		w.git, err = gitSnapshot(top, w.exclude)
		if err == nil {
			w.method = record.EffectsGit
			return w
		}
		w.reason = err.Error()
		return w
	}
	w.snap, err = walkSnapshot(w.dir, w.exclude)
	if err != nil {
		w.reason = err.Error()
		return w
	}
	w.method = record.EffectsSnapshot
	return w
}

func realDir(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// finish compares the workspace now with the start, and returns the
// record's bounded account and every change.
func (w *watch) finish() (*record.Effects, []change) {
	var changes []change
	var err error
	switch w.method {
	case record.EffectsGit:
		changes, err = w.git.changes(w.dir)
	case record.EffectsSnapshot:
		changes, err = w.snapChanges()
	}
	if err != nil {
		w.method, w.reason = record.EffectsNone, err.Error()
	}
	return summarize(w.method, w.reason, changes), changes
}

func summarize(method, reason string, changes []change) *record.Effects {
	e := &record.Effects{Scope: record.EffectsScope, Method: method, Reason: reason,
		Created: []string{}, Modified: []string{}, Deleted: []string{}}
	if method == record.EffectsNone {
		return e
	}
	slices.SortFunc(changes, func(a, b change) int { return strings.Compare(a.path, b.path) })
	for _, c := range changes {
		list := &e.Created
		switch c.kind {
		case modified:
			list = &e.Modified
		case deleted:
			list = &e.Deleted
		}
		if len(*list) < record.EffectsListMax {
			*list = append(*list, c.path)
		} else {
			e.Truncated = true
		}
		if c.tracked {
			e.Tracked++
		}
	}
	e.Total = len(changes)
	return e
}

// retryBlock is the sentence saying why an attempt's retry would not run
// against the workspace it started from, or "" when it would.
func retryBlock(attempt int, e *record.Effects, changes []change) string {
	if e == nil {
		return ""
	}
	if e.Method == record.EffectsNone {
		return fmt.Sprintf("attempt %d: what it changed in the workspace is not known (%s)", attempt, e.Reason)
	}
	if e.Tracked == 0 {
		return ""
	}
	var names []string
	var mod, del int
	for _, c := range changes {
		if !c.tracked {
			continue
		}
		if c.kind == deleted {
			del++
		} else {
			mod++
		}
		if len(names) < 5 {
			names = append(names, c.path)
		}
	}
	if e.Tracked > len(names) {
		names = append(names, fmt.Sprintf("and %d more", e.Tracked-len(names)))
	}
	var what string
	switch {
	case del == 0:
		what = fmt.Sprintf("modified %d tracked %s", mod, plural(mod, "file"))
	case mod == 0:
		what = fmt.Sprintf("deleted %d tracked %s", del, plural(del, "file"))
	default:
		what = fmt.Sprintf("modified %d and deleted %d tracked files", mod, del)
	}
	return fmt.Sprintf("attempt %d %s: %s", attempt, what, strings.Join(names, ", "))
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// gitTopLevel reports the work tree holding dir. safe.directory is waived:
// in a container the workspace belongs to another uid, and a read-only
// status is no risk.
func gitTopLevel(dir string) (string, bool) {
	out, err := runGit(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", false
	}
	top := strings.TrimRight(string(out), "\r\n")
	if top == "" {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	return top, true
}

func runGit(dir string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitMaxTime)
	defer cancel()
	full := append([]string{"--no-optional-locks", "-c", "safe.directory=*", "-c", "core.quotePath=false", "-C", dir}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	// A git hook or pager must not run, nor the user's GIT_DIR point elsewhere.
	cmd.Env = append(os.Environ(), "GIT_PAGER=cat", "GIT_OPTIONAL_LOCKS=0")
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("git %s took longer than %s", args[0], gitMaxTime)
	}
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// gitBefore is git's view of the work tree at the start: every path git
// status listed, with the file's identity and, within a budget, its hash.
type gitBefore struct {
	top     string
	exclude string // the store, relative to top, or ""
	dirty   map[string]dirtyFile
}

type dirtyFile struct {
	code   string // git status's XY
	exists bool
	id     fileID
	sum    []byte // nil: not hashed
}

func gitSnapshot(top, storeAbs string) (*gitBefore, error) {
	g := &gitBefore{top: top}
	if storeAbs != "" {
		if rel, err := filepath.Rel(top, storeAbs); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			g.exclude = filepath.ToSlash(rel)
		}
	}
	st, err := g.status()
	if err != nil {
		return nil, err
	}
	g.dirty = make(map[string]dirtyFile, len(st))
	budget := int64(dirtyHashBudget)
	for p, code := range st {
		d := dirtyFile{code: code}
		d.id, d.exists = lstatID(filepath.Join(top, filepath.FromSlash(p)))
		if d.exists && d.id.size <= budget {
			if d.sum = hashPath(filepath.Join(top, filepath.FromSlash(p))); d.sum != nil {
				budget -= d.id.size
			}
		}
		g.dirty[p] = d
	}
	return g, nil
}

// status lists the paths git sees changed (tracked files differing from
// the index or HEAD, untracked files one by one, nothing ignored), slash
// paths relative to the top, with their XY codes. A rename's source is
// listed as deleted.
func (g *gitBefore) status() (map[string]string, error) {
	args := []string{"status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=all", "--", "."}
	if g.exclude != "" {
		args = append(args, ":(exclude,literal)"+g.exclude)
	}
	out, err := runGit(g.top, args...)
	if err != nil {
		return nil, err
	}
	paths := map[string]string{}
	fields := bytes.Split(out, []byte{0})
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue
		}
		code, p := string(f[:2]), string(f[3:])
		paths[p] = code
		if code[0] == 'R' || code[0] == 'C' {
			i++
			if i < len(fields) && code[0] == 'R' && len(fields[i]) > 0 {
				paths[string(fields[i])] = " D"
			}
		}
		if len(paths) > gitMaxPaths {
			return nil, fmt.Errorf("git status lists more than %d changed paths", gitMaxPaths)
		}
	}
	return paths, nil
}

// changes compares git's view now with the start. A path that was dirty
// at the start counts only if its file changed since (by identity, then
// by content when it was hashed).
func (g *gitBefore) changes(dir string) ([]change, error) {
	now, err := g.status()
	if err != nil {
		return nil, err
	}
	rel := func(p string) string {
		r, err := filepath.Rel(dir, filepath.Join(g.top, filepath.FromSlash(p)))
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	var out []change
	for p, code := range now {
		before, was := g.dirty[p]
		if !was {
			out = append(out, change{path: rel(p), kind: newKind(code), tracked: code != "??" && code[0] != 'A'})
			continue
		}
		if k, ok := g.changedAgain(p, before, code); ok {
			out = append(out, change{path: rel(p), kind: k, tracked: before.code != "??"})
		}
	}
	for p, before := range g.dirty {
		if _, still := now[p]; still {
			continue
		}
		// Dirty then, clean or gone now: its file changed (reverted,
		// committed, or an untracked file removed).
		k := modified
		if _, exists := lstatID(filepath.Join(g.top, filepath.FromSlash(p))); !exists {
			k = deleted
		}
		out = append(out, change{path: rel(p), kind: k, tracked: before.code != "??"})
	}
	return out, nil
}

func newKind(code string) changeKind {
	switch {
	case code == "??" || code[0] == 'A':
		return created
	case code[0] == 'D' || code[1] == 'D':
		return deleted
	}
	return modified
}

func (g *gitBefore) changedAgain(p string, before dirtyFile, code string) (changeKind, bool) {
	path := filepath.Join(g.top, filepath.FromSlash(p))
	id, exists := lstatID(path)
	switch {
	case before.exists && !exists:
		return deleted, true
	case !before.exists && exists:
		return modified, true
	case !exists || id == before.id:
		return 0, false
	}
	if before.sum != nil && bytes.Equal(hashPath(path), before.sum) {
		return 0, false
	}
	return modified, true
}

func lstatID(path string) (fileID, bool) {
	info, err := os.Lstat(path)
	if err != nil {
		return fileID{}, false
	}
	id, _ := infoID(info)
	return id, true
}

// hashPath is the sha256 of a regular file, nil for anything else.
func hashPath(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil
	}
	return h.Sum(nil)
}

// errSnapshotBound stops a walk past snapshotMaxFiles or snapshotMaxTime.
var errSnapshotBound = errors.New("snapshot bound")

// walkSnapshot records the identity of every file under dir (not
// directories: a file created or removed shows itself), leaving out the
// store and .git directories.
func walkSnapshot(dir, exclude string) (map[string]fileID, error) {
	snap := map[string]fileID{}
	deadline := time.Now().Add(snapshotMaxTime)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: what cannot be seen is not reported either way
		}
		if d.IsDir() {
			if p != dir && (p == exclude || d.Name() == ".git") {
				return filepath.SkipDir
			}
			return nil
		}
		if len(snap) >= snapshotMaxFiles || (len(snap)%1024 == 0 && time.Now().After(deadline)) {
			return errSnapshotBound
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		id, _ := infoID(info)
		rel, _ := filepath.Rel(dir, p)
		snap[filepath.ToSlash(rel)] = id
		return nil
	})
	if errors.Is(err, errSnapshotBound) {
		return nil, fmt.Errorf("not a git work tree, and a snapshot would cost more than %d files or %s", snapshotMaxFiles, snapshotMaxTime)
	}
	if err != nil {
		return nil, fmt.Errorf("snapshot of %s: %w", dir, err)
	}
	return snap, nil
}

func (w *watch) snapChanges() ([]change, error) {
	now, err := walkSnapshot(w.dir, w.exclude)
	if err != nil {
		return nil, err
	}
	var out []change
	for p, id := range now {
		before, was := w.snap[p]
		switch {
		case !was:
			out = append(out, change{path: p, kind: created})
		case id != before:
			out = append(out, change{path: p, kind: modified, tracked: true})
		}
	}
	for p := range w.snap {
		if _, still := now[p]; !still {
			out = append(out, change{path: p, kind: deleted, tracked: true})
		}
	}
	return out, nil
}
