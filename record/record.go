// Package record defines the run record, runledger's account of what the
// runtime observed about one attempt of a command. Its JSON field names are a
// public interface: agents parse them, so fields are only ever added.
package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Schema is the value of Record.Schema for this version of the format.
const Schema = "runledger.run/v1"

// FileName is the record's name inside a run directory.
const FileName = "record.json"

// Status is what became of a run. Only StatusPassed is a success.
type Status string

const (
	StatusPassed      Status = "passed"       // exited by itself with code 0
	StatusFailed      Status = "failed"       // exited by itself with a non-zero code
	StatusTimedOut    Status = "timed_out"    // runledger stopped it at its deadline
	StatusSignaled    Status = "signaled"     // killed by a signal runledger did not send
	StatusCancelled   Status = "cancelled"    // the wrapper was told to stop
	StatusStartFailed Status = "start_failed" // the command never ran
	StatusRunning     Status = "running"      // written at start; rewritten at the end
	StatusIncomplete  Status = "incomplete"   // its end was never observed (the wrapper is gone, or wait failed)
)

// Termination says how the end of the process was established.
type Termination string

const (
	// TerminationExited: the command ended by itself.
	TerminationExited Termination = "exited"
	// TerminationConfirmed: runledger stopped it and saw its whole process group gone.
	TerminationConfirmed Termination = "confirmed"
	// TerminationUnconfirmed: runledger stopped it but could not see the group gone.
	TerminationUnconfirmed Termination = "unconfirmed"
)

// Stream names, also the keys of Record.Streams.
const (
	Stdout = "stdout"
	Stderr = "stderr"
	Output = "output" // stdout and stderr interleaved in arrival order
)

// StreamNames lists the streams every record carries, in display order.
var StreamNames = []string{Stdout, Stderr, Output}

// Record is one attempt of one command.
type Record struct {
	Schema      string             `json:"schema"`
	ID          string             `json:"id"`
	Name        string             `json:"name"`
	Attempt     int                `json:"attempt"`
	Command     Command            `json:"command"`
	StartedAt   time.Time          `json:"started_at"`
	EndedAt     *time.Time         `json:"ended_at"`
	DurationMS  *int64             `json:"duration_ms"`
	Status      Status             `json:"status"`
	ExitCode    *int               `json:"exit_code"`
	Signal      *string            `json:"signal"`
	TimedOut    bool               `json:"timed_out"`
	Termination Termination        `json:"termination,omitempty"`
	PID         int                `json:"pid,omitempty"`
	Usage       *Usage             `json:"usage,omitempty"`
	WaitStatus  string             `json:"wait_status,omitempty"`
	StartError  string             `json:"start_error,omitempty"`
	Limits      Limits             `json:"limits"`
	Streams     map[string]*Stream `json:"streams"`
	Leftovers   *Leftovers         `json:"leftovers,omitempty"`
	JUnit       []JUnitFile        `json:"junit"`
	JUnitSkip   []JUnitSkipped     `json:"junit_ignored,omitempty"`
	// Effects is what this attempt changed in its workspace; nil in records
	// written before effects were watched.
	Effects *Effects `json:"effects,omitempty"`
	// RetryRefused says why a retry that --retries asked for did not run:
	// the attempt changed files a retry would see. The run stops there.
	RetryRefused string `json:"retry_refused,omitempty"`
	// RetryAllowed says that this attempt changed such files and was
	// retried anyway (--retry-effects allow).
	RetryAllowed string   `json:"retry_allowed,omitempty"`
	CI           *CI      `json:"ci,omitempty"`
	Wrapper      Wrapper  `json:"wrapper"`
	Errors       []string `json:"errors,omitempty"`
}

// Command is what was run and where.
type Command struct {
	Argv []string `json:"argv"`
	Dir  string   `json:"dir"`
}

// Limits are the bounds the run was started with.
type Limits struct {
	TimeoutMS    int64  `json:"timeout_ms,omitempty"`
	KillAfterMS  int64  `json:"kill_after_ms"`
	MaxLogBytes  int64  `json:"max_log_bytes"`
	PipeWaitMS   int64  `json:"pipe_wait_ms"`
	RetriesLeft  int    `json:"retries_left"`
	RetryOfRunID string `json:"retry_of,omitempty"`
	// RetryEffects is "refuse" (the default: an attempt that modified or
	// deleted a tracked file is not retried) or "allow".
	RetryEffects string `json:"retry_effects,omitempty"`
}

// Effects methods.
const (
	EffectsGit      = "git"      // git status before and after
	EffectsSnapshot = "snapshot" // size, mtime, ctime and inode of every file, before and after
	EffectsNone     = "none"     // not known: Reason says why
)

// EffectsScope is the only scope watched: the files under the command's
// directory (in git, its work tree). Network calls, other directories and
// other machines are not watched.
const EffectsScope = "workspace"

// Effects is what one attempt changed in its workspace, between its start
// and its end. Paths are relative to the command's directory, with
// forward slashes, sorted; each list holds at most EffectsListMax paths.
type Effects struct {
	Scope    string   `json:"scope"`
	Method   string   `json:"method"`
	Created  []string `json:"created"`
	Modified []string `json:"modified"`
	Deleted  []string `json:"deleted"`
	// Total counts every changed path, listed or not.
	Total int `json:"total"`
	// Tracked counts the modified and deleted paths a retry would see
	// changed: in git, files in the index or in HEAD; in a snapshot, every
	// file that existed at the start. Created files never count.
	Tracked   int    `json:"tracked"`
	Truncated bool   `json:"truncated"`
	Reason    string `json:"reason,omitempty"`
}

// EffectsListMax bounds each of Effects' lists.
const EffectsListMax = 100

// Stream describes one captured stream. Offsets are offsets into the
// original stream, whatever the stored file kept.
type Stream struct {
	File         string     `json:"file"`
	Bytes        int64      `json:"bytes"`
	StoredBytes  int64      `json:"stored_bytes"`
	Truncated    bool       `json:"truncated"`
	StoredRanges [][2]int64 `json:"stored_ranges"`
	SHA256       string     `json:"sha256"`
	// Complete is false when runledger stopped reading before the writer
	// closed the stream (a descendant held the pipe past the bounded wait).
	Complete   bool   `json:"complete"`
	WriteError string `json:"write_error,omitempty"`
}

// Usage is the kernel's resource accounting for the command and the
// descendants it waited for.
type Usage struct {
	UserMS    int64 `json:"user_ms"`
	SystemMS  int64 `json:"system_ms"`
	MaxRSSKiB int64 `json:"max_rss_kib"`
}

// Leftovers reports descendants still alive, or still holding the output
// pipes, after the command itself ended.
type Leftovers struct {
	HeldPipes   bool        `json:"held_pipes"`
	Processes   bool        `json:"processes"`
	Stopped     bool        `json:"stopped"`
	Termination Termination `json:"termination"`
	// StopError says why they got no request to stop by themselves
	// before the kill (a CTRL_BREAK_EVENT without a shared console). Not
	// an error of the run's: the command's own result stands.
	StopError string `json:"stop_error,omitempty"`
}

// JUnitFile is a JUnit report attributed to this run, copied into the run
// directory so that later rewrites of the original cannot change it.
type JUnitFile struct {
	Path    string    `json:"path"`
	Stored  string    `json:"stored"`
	Bytes   int64     `json:"bytes"`
	SHA256  string    `json:"sha256"`
	ModTime time.Time `json:"mod_time"`
}

// JUnitSkipped is a file that matched a --junit pattern but was not taken.
type JUnitSkipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// CI is the GitHub Actions context the run happened in.
type CI struct {
	Repository string `json:"repository,omitempty"`
	RunID      string `json:"run_id,omitempty"`
	RunAttempt string `json:"run_attempt,omitempty"`
	Job        string `json:"job,omitempty"`
	Workflow   string `json:"workflow,omitempty"`
	SHA        string `json:"sha,omitempty"`
	Ref        string `json:"ref,omitempty"`
	PR         int    `json:"pr,omitempty"`
	ServerURL  string `json:"server_url,omitempty"`
}

// Wrapper identifies the runledger process that wrote the record, so a
// reader can tell a live run from one whose wrapper died.
type Wrapper struct {
	PID       int    `json:"pid"`
	Host      string `json:"host"`
	BootID    string `json:"boot_id,omitempty"`
	ProcStart string `json:"proc_start,omitempty"`
	Version   string `json:"version,omitempty"`
}

// Passed reports whether the record, taken alone, is a success: the command
// exited by itself with code 0 and every stream was read to its end.
func (r *Record) Passed() bool {
	if r.Status != StatusPassed || r.ExitCode == nil || *r.ExitCode != 0 ||
		r.TimedOut || r.Termination != TerminationExited || len(r.Errors) > 0 {
		return false
	}
	for _, name := range StreamNames {
		s, ok := r.Streams[name]
		if !ok || !s.Complete || s.WriteError != "" {
			return false
		}
	}
	return true
}

// Read loads the record in dir.
func Read(dir string) (*Record, error) {
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse decodes a record read from name (for errors), checking its schema.
func Parse(data []byte, name string) (*Record, error) {
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("decode %s: %w", name, err)
	}
	if r.Schema != Schema {
		return nil, fmt.Errorf("decode %s: schema %q, want %q", name, r.Schema, Schema)
	}
	return &r, nil
}

// Write stores r in dir atomically: readers see the old record or the new
// one, never a torn file, even if the wrapper dies mid-write.
func Write(dir string, r *Record) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode record %s: %w", r.ID, err)
	}
	data = append(data, '\n')
	tmp, err := os.CreateTemp(dir, ".record-*.json")
	if err != nil {
		return fmt.Errorf("write record %s: %w", r.ID, err)
	}
	_, werr := tmp.Write(data)
	// Readable like the logs (CreateTemp makes 0600): a later step running
	// as another user (after a Docker action ran as root) reads records.
	merr := tmp.Chmod(0o644)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, merr, serr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write record %s: %w", r.ID, err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, FileName)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write record %s: %w", r.ID, err)
	}
	return nil
}

// OriginalRange maps a byte range [start, end) of the stored file back to
// offsets in the original stream. The start belongs to the piece holding
// that byte; the end to the piece holding the byte before it, so a range
// ending at a piece boundary does not jump across the omitted middle.
func (s *Stream) OriginalRange(start, end int64) (int64, int64) {
	o := s.originalOffset(start)
	if end <= start {
		return o, o
	}
	return o, s.originalOffset(end-1) + 1
}

func (s *Stream) originalOffset(stored int64) int64 {
	var base int64
	for _, rg := range s.StoredRanges {
		if stored < base+rg[1]-rg[0] {
			return rg[0] + stored - base
		}
		base += rg[1] - rg[0]
	}
	return stored
}

// ErrNotStored: a range lies (partly) in the middle of a truncated stream,
// which the store did not keep.
var ErrNotStored = errors.New("not stored")

// StoredOffset maps the original range [start, end) of the stream to an
// offset in the stored file, when one stored piece holds the whole range.
func (s *Stream) StoredOffset(start, end int64) (int64, bool) {
	var base int64
	for _, rg := range s.StoredRanges {
		if start >= rg[0] && end <= rg[1] {
			return base + start - rg[0], true
		}
		base += rg[1] - rg[0]
	}
	return 0, false
}

// Segments returns the pieces of the stored file, as [start, end) offsets
// in it, one per stored range, checking that the ranges are ordered and
// add up to the stored size. OriginalRange maps offsets in them back.
func (s *Stream) Segments() ([][2]int64, error) {
	if len(s.StoredRanges) == 0 {
		return [][2]int64{{0, s.StoredBytes}}, nil
	}
	segs := make([][2]int64, 0, len(s.StoredRanges))
	var off int64
	for i, r := range s.StoredRanges {
		if r[1] < r[0] || (i > 0 && r[0] < s.StoredRanges[i-1][1]) {
			return nil, fmt.Errorf("stored range %d [%d,%d) is out of order", i, r[0], r[1])
		}
		segs = append(segs, [2]int64{off, off + r[1] - r[0]})
		off += r[1] - r[0]
	}
	if off != s.StoredBytes {
		return nil, fmt.Errorf("stored ranges hold %d bytes, file has %d", off, s.StoredBytes)
	}
	return segs, nil
}
