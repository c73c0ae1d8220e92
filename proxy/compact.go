package proxy

import (
	"errors"
	"fmt"
	"time"

	"github.com/runledger/runledger/compaction"
)

// formats are the body shapes each API's path takes. A Chat Completions
// body without a tool message reads as the Messages shape: both are a
// messages array.
var formats = map[API][]compaction.Format{
	Anthropic:       {compaction.FormatAnthropic},
	ChatCompletions: {compaction.FormatOpenAI, compaction.FormatAnthropic},
	Responses:       {compaction.FormatResponses},
}

// compactBody returns body with its tool outputs compacted, frozen per
// conversation, or body itself when it cannot be, saying why in e. The
// shape is checked before anything is decided (compaction.ErrFormat), so
// that no decision is frozen for a body that goes upstream as it came.
func (s *Server) compactBody(e *entry, body []byte) (out []byte) {
	defer func() {
		if p := recover(); p != nil {
			e.passKind, e.passWhy, out = "error", fmt.Sprintf("compaction failed: %v", p), body
		}
	}()
	t0 := time.Now()
	defer func() { e.decision = time.Since(t0) }()
	opts := s.cfg.Options
	opts.Cache = &compaction.Cache{Store: s.decisions, Prefix: -1, TTL: s.cfg.TTL, Sent: true}
	opts.Verdicts, opts.Formats = s.verdicts, formats[e.api]
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	res, err := compaction.CompactRequest(body, opts, s.cfg.Store)
	switch {
	case errors.Is(err, compaction.ErrFormat):
		e.passKind, e.passWhy = "shape", fmt.Sprintf("%v on the %s path", err, e.api)
		return body
	case errors.Is(err, compaction.ErrUnreadable):
		e.passKind, e.passWhy = "unparseable", err.Error()
		return body
	case err != nil:
		e.passKind, e.passWhy = "error", err.Error()
		return body
	}
	e.conversation = res.Transcript
	e.outputs = len(res.Decisions)
	for _, d := range res.Decisions {
		if d.Decision == compaction.Collapsed {
			e.collapsed++
		}
		if d.Frozen {
			e.frozen++
		}
		e.cold = e.cold || d.Cold
	}
	return res.Body
}
