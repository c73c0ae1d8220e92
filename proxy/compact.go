package proxy

import (
	"errors"
	"fmt"
	"regexp"
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
// hourTTL finds Anthropic's extended cache lifetime, cache_control
// {"type": "ephemeral", "ttl": "1h"}.
var hourTTL = regexp.MustCompile(`"ttl"\s*:\s*"1h"`)

// ttl is the cache lifetime to judge this body's conversation by: a body
// that asks for the one-hour cache keeps it warm that long. Text in a
// tool output that happens to read so only makes the proxy more careful.
func (s *Server) ttl(body []byte) time.Duration {
	if s.cfg.TTL > 0 && s.cfg.TTL < time.Hour && hourTTL.Match(body) {
		return time.Hour
	}
	return s.cfg.TTL
}

func (s *Server) compactBody(e *entry, body []byte) (out []byte) {
	defer func() {
		if p := recover(); p != nil {
			e.passKind, e.passWhy, out = "error", fmt.Sprintf("compaction failed: %v", p), body
		}
	}()
	t0 := time.Now()
	defer func() { e.decision = time.Since(t0) }()
	opts := s.cfg.Options
	opts.Cache = &compaction.Cache{Store: s.decisions, Prefix: -1, TTL: s.ttl(body), Sent: true}
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
