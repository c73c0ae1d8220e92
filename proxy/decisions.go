package proxy

import (
	"sync"
	"time"

	"github.com/runledger/runledger/compaction"
)

// maxRemembered bounds the decisions held in memory; past it the memory
// starts afresh and the store on disk answers until it fills again.
const maxRemembered = 200_000

// lastCallEvery is how often a conversation's last call is written to
// disk; memory has it exactly. A restart may judge the cache's age up to
// this much short, against a TTL of minutes.
const lastCallEvery = 10 * time.Second

// decisions puts memory in front of the store's frozen decisions: every
// turn replays the whole conversation's decisions, and reading a file per
// tool output per request would be most of what the proxy adds to a
// request. A new decision is written through, durably, before the
// request it belongs to goes upstream.
type decisions struct {
	disk *compaction.DirStore

	mu        sync.Mutex
	frozen    map[string]compaction.Frozen
	calls     map[string]time.Time
	persisted map[string]time.Time
}

var _ compaction.DecisionStore = (*decisions)(nil)

func newDecisions(disk *compaction.DirStore) *decisions {
	return &decisions{disk: disk, frozen: map[string]compaction.Frozen{},
		calls: map[string]time.Time{}, persisted: map[string]time.Time{}}
}

func (d *decisions) GetDecision(key string) (compaction.Frozen, bool, error) {
	d.mu.Lock()
	f, ok := d.frozen[key]
	d.mu.Unlock()
	if ok {
		return f, true, nil
	}
	f, ok, err := d.disk.GetDecision(key)
	if ok && err == nil {
		d.remember(key, f)
	}
	return f, ok, err
}

func (d *decisions) PutDecision(key string, f compaction.Frozen) error {
	if err := d.disk.PutDecision(key, f); err != nil {
		return err
	}
	d.remember(key, f)
	return nil
}

func (d *decisions) remember(key string, f compaction.Frozen) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.frozen) >= maxRemembered {
		d.frozen = map[string]compaction.Frozen{}
	}
	d.frozen[key] = f
}

func (d *decisions) LastCall(transcript string) (time.Time, bool, error) {
	d.mu.Lock()
	t, ok := d.calls[transcript]
	d.mu.Unlock()
	if ok {
		return t, true, nil
	}
	return d.disk.LastCall(transcript)
}

func (d *decisions) SetLastCall(transcript string, t time.Time) error {
	d.mu.Lock()
	if len(d.calls) >= maxRemembered {
		d.calls, d.persisted = map[string]time.Time{}, map[string]time.Time{}
	}
	d.calls[transcript] = t
	stale := t.Sub(d.persisted[transcript]) >= lastCallEvery
	if stale {
		d.persisted[transcript] = t
	}
	d.mu.Unlock()
	if !stale {
		return nil
	}
	return d.disk.SetLastCall(transcript, t)
}
