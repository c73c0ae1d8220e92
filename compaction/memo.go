package compaction

import (
	"crypto/sha256"
	"sync"
)

// Verdicts remembers what Classify said about texts, by their sha256: a
// caller that compacts a growing transcript on every turn (a proxy)
// classifies each output once, not once per turn. Safe for concurrent
// use; bounded by Max entries (0: 100,000), past which it starts afresh.
type Verdicts struct {
	Max int

	mu   sync.Mutex
	seen map[[sha256.Size]byte]Verdict
}

func (m *Verdicts) classify(text string) Verdict {
	if m == nil {
		return Classify(text)
	}
	key := sha256.Sum256([]byte(text))
	m.mu.Lock()
	v, ok := m.seen[key]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = Classify(text)
	m.mu.Lock()
	defer m.mu.Unlock()
	limit := m.Max
	if limit <= 0 {
		limit = 100_000
	}
	if m.seen == nil || len(m.seen) >= limit {
		m.seen = map[[sha256.Size]byte]Verdict{}
	}
	m.seen[key] = v
	return v
}
