package proxy

import (
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
// shape is checked before anything is decided, so that no decision is
// frozen for a body that goes upstream as it came.
func (s *Server) compactBody(e *entry, body []byte) (out []byte) {
	defer func() {
		if p := recover(); p != nil {
			e.passKind, e.passWhy, out = "error", fmt.Sprintf("compaction failed: %v", p), body
		}
	}()
	t0 := time.Now()
	defer func() { e.decision = time.Since(t0) }()
	format, err := compaction.RequestFormat(body)
	if err != nil {
		e.passKind, e.passWhy = "unparseable", err.Error()
		return body
	}
	if !fits(e.api, format) {
		e.passKind, e.passWhy = "shape", fmt.Sprintf("a %s request body on the %s path", format, e.api)
		return body
	}
	opts := s.cfg.Options
	opts.Cache = &compaction.Cache{Store: s.cfg.Store, Prefix: -1, TTL: s.cfg.TTL, Sent: true}
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	res, err := compaction.CompactRequest(body, opts, s.cfg.Store)
	if err != nil {
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

func fits(api API, f compaction.Format) bool {
	for _, want := range formats[api] {
		if f == want {
			return true
		}
	}
	return false
}
