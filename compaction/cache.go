package compaction

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// Cache makes Compact prompt-cache aware. A harness sends the whole
// transcript on every turn and the provider bills a changed prefix again,
// so a decision, once emitted, is frozen: recorded per item (transcript,
// id and text hash) and replayed byte for byte on later calls. Only the
// uncached tail is decided afresh, unless the cache is cold, when any
// item may be.
type Cache struct {
	Store DecisionStore
	// Prefix is how many leading items the provider has cached; -1 when
	// the caller does not know, which takes every item an earlier call
	// emitted as cached.
	Prefix int
	// TTL: the cache is cold when the store's last call for this
	// transcript is older; 0 never expires by time.
	TTL time.Duration
	// Cold forces a cold cache: every item is decided afresh.
	Cold bool
	// Sent: the caller sees every call of a transcript (a proxy), so the
	// provider's cache holds exactly what earlier calls emitted, whatever
	// breakpoint this call marks (a harness marks its last message on
	// every turn: that breakpoint is the cache this call writes, not one
	// it reads). Once a transcript has a recorded call, only the items an
	// earlier call emitted are cached and the rest are decided afresh; a
	// transcript seen for the first time keeps Prefix.
	Sent bool
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Frozen is one recorded decision: what was emitted for an item.
type Frozen struct {
	ID       string   `json:"id"`
	TextHash string   `json:"text_sha256"`
	Decision string   `json:"decision"`
	Reason   string   `json:"reason"`
	Marker   string   `json:"marker,omitempty"`
	Outcome  Outcome  `json:"outcome"`
	Family   string   `json:"family,omitempty"`
	Targets  []string `json:"targets,omitempty"`
	Evidence string   `json:"evidence,omitempty"`
	// Text is what was emitted for a collapsed item (its pointer line); a
	// kept item was emitted as it came.
	Text string `json:"text,omitempty"`
}

// DecisionStore keeps frozen decisions and when each transcript was last
// compacted.
type DecisionStore interface {
	GetDecision(key string) (Frozen, bool, error)
	PutDecision(key string, f Frozen) error
	LastCall(transcript string) (time.Time, bool, error)
	SetLastCall(transcript string, t time.Time) error
}

var _ DecisionStore = (*DirStore)(nil)

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// transcriptKey names a transcript by its first item, which stays the
// same as the transcript grows. A harness may send back what an earlier
// call emitted: a collapsed first item is named by the hash of the text
// its marker stands for, so the transcript keeps its name.
func transcriptKey(outputs []Output) string {
	if len(outputs) == 0 {
		return ""
	}
	first := outputs[0]
	textHash := Hash([]byte(first.Text))
	if m := pointerRe.FindStringSubmatch(first.Text); m != nil {
		textHash = m[1]
	}
	return Hash([]byte(first.ID + "\x00" + textHash))
}

var pointerRe = regexp.MustCompile(`^` + regexp.QuoteMeta(supersededLinePrefx) + `<<cg:([0-9a-f]{16})>>`)

func itemKey(transcript string, o Output) string {
	return Hash([]byte(transcript + "\x00" + o.ID + "\x00" + o.Text))
}

// cacheState is what one call knows about the cache.
type cacheState struct {
	c          *Cache
	transcript string
	cold       bool
	frozen     []*Frozen // per item: its recorded decision, or nil
}

func loadCache(c *Cache, outputs []Output) (*cacheState, error) {
	st := &cacheState{c: c, transcript: transcriptKey(outputs), frozen: make([]*Frozen, len(outputs)), cold: c.Cold}
	if c.Store == nil || st.transcript == "" {
		return st, nil
	}
	last, seen, err := c.Store.LastCall(st.transcript)
	if err != nil {
		return nil, fmt.Errorf("compact: cache: %w", err)
	}
	st.cold = st.cold || (seen && c.TTL > 0 && c.now().Sub(last) > c.TTL)
	if c.Sent && seen {
		sent := *c
		sent.Prefix = -1
		st.c = &sent
	}
	for i, o := range outputs {
		f, ok, err := c.Store.GetDecision(itemKey(st.transcript, o))
		if err != nil {
			return nil, fmt.Errorf("compact: cache %s: %w", o.ID, err)
		}
		if ok && f.ID == o.ID && f.TextHash == sha256Hex(o.Text) {
			st.frozen[i] = &f
		}
	}
	return st, nil
}

func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// cached reports whether item i sits in the provider's cached prefix.
func (st *cacheState) cached(i int) bool {
	if st.c.Prefix >= 0 {
		return i < st.c.Prefix
	}
	return st.frozen[i] != nil
}

// replay returns what an earlier call emitted for item i, when the item
// must not change: it is cached and the cache is warm. A cached item no
// call recorded (cached by an earlier harness run) is kept as it is. A
// frozen collapse is replayed only while a later run still supersedes
// the item, as it always does in a transcript that only grows: so a
// record can never collapse the latest run of another transcript that
// happens to share the first item and this one.
func (st *cacheState) replay(i int, o Output, superseded bool) (string, Decision, bool, error) {
	if st.cold || !st.cached(i) {
		return "", Decision{}, false, nil
	}
	f := st.frozen[i]
	if f != nil && f.Decision == Collapsed && !superseded {
		f = nil
	}
	d := Decision{ID: o.ID, Decision: Kept, Reason: ReasonCached, BytesBefore: len(o.Text), Frozen: f != nil}
	if f == nil {
		return o.Text, d, true, nil
	}
	text := o.Text
	if f.Decision == Collapsed {
		text = f.Text
		if f.Text == "" {
			return "", d, false, fmt.Errorf("compact: cache %s: collapsed decision without its text", o.ID)
		}
	}
	d.Decision, d.Reason, d.Marker = f.Decision, f.Reason, f.Marker
	d.Outcome, d.Family, d.Targets, d.Evidence = f.Outcome, f.Family, f.Targets, f.Evidence
	return text, d, true, nil
}

// record freezes what this call emitted for every item not replayed, and
// the time of the call.
func (st *cacheState) record(in, out []Output, ds []Decision) error {
	if st.c.Store == nil || st.transcript == "" {
		return nil
	}
	for i, d := range ds {
		if d.Frozen && !st.cold {
			continue
		}
		f := Frozen{ID: d.ID, TextHash: sha256Hex(in[i].Text), Decision: d.Decision, Reason: d.Reason,
			Marker: d.Marker, Outcome: d.Outcome, Family: d.Family, Targets: d.Targets, Evidence: d.Evidence}
		if d.Decision == Collapsed {
			f.Text = out[i].Text
		}
		if err := st.c.Store.PutDecision(itemKey(st.transcript, in[i]), f); err != nil {
			return fmt.Errorf("compact: cache %s: %w", d.ID, err)
		}
	}
	if err := st.c.Store.SetLastCall(st.transcript, st.c.now()); err != nil {
		return fmt.Errorf("compact: cache: %w", err)
	}
	return nil
}

// GetDecision reads the decision frozen under key (Dir/decisions/KEY.json).
func (s *DirStore) GetDecision(key string) (Frozen, bool, error) {
	var f Frozen
	data, err := os.ReadFile(s.decisionPath(key))
	if errors.Is(err, fs.ErrNotExist) {
		return f, false, nil
	}
	if err != nil {
		return f, false, fmt.Errorf("decision %s: %w", key, err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, false, fmt.Errorf("decision %s: %w", key, err)
	}
	return f, true, nil
}

// PutDecision freezes f under key, atomically.
func (s *DirStore) PutDecision(key string, f Frozen) error {
	if !hashRe.MatchString(key) {
		return fmt.Errorf("decision %.40q: %w", key, ErrBadRef)
	}
	data, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("decision %s: %w", key, err)
	}
	dir := filepath.Join(s.Dir, "decisions")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("decision %s: %w", key, err)
	}
	return writeAtomic(dir, s.decisionPath(key), data)
}

func (s *DirStore) decisionPath(key string) string {
	return filepath.Join(s.Dir, "decisions", key+".json")
}

// LastCall reads when the transcript was last compacted (Dir/calls/KEY).
func (s *DirStore) LastCall(transcript string) (time.Time, bool, error) {
	data, err := os.ReadFile(filepath.Join(s.Dir, "calls", transcript))
	if errors.Is(err, fs.ErrNotExist) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("last call %s: %w", transcript, err)
	}
	t, err := time.Parse(time.RFC3339Nano, string(data))
	if err != nil {
		return time.Time{}, false, fmt.Errorf("last call %s: %w", transcript, err)
	}
	return t, true, nil
}

// SetLastCall records t as the transcript's last call.
func (s *DirStore) SetLastCall(transcript string, t time.Time) error {
	if !hashRe.MatchString(transcript) {
		return fmt.Errorf("last call %.40q: %w", transcript, ErrBadRef)
	}
	dir := filepath.Join(s.Dir, "calls")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("last call %s: %w", transcript, err)
	}
	return writeAtomic(dir, filepath.Join(dir, transcript), []byte(t.UTC().Format(time.RFC3339Nano)))
}
