package proxy

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// stats are the totals GET /stats shows.
type stats struct {
	mu      sync.Mutex
	started time.Time
	totals  Totals
}

// Totals are the proxy's counts since it started.
type Totals struct {
	Since          time.Time        `json:"since"`
	Requests       int64            `json:"requests"`
	ByAPI          map[API]int64    `json:"by_api"`
	Compacted      int64            `json:"compacted_requests"`
	Passthrough    map[string]int64 `json:"passed_as_sent"`
	ToolOutputs    int64            `json:"tool_outputs"`
	Collapsed      int64            `json:"collapsed"`
	Replayed       int64            `json:"replayed"`
	ColdRequests   int64            `json:"cold_requests"`
	BytesBefore    int64            `json:"bytes_before"`
	BytesAfter     int64            `json:"bytes_after"`
	BytesSaved     int64            `json:"bytes_saved"`
	DecisionMillis float64          `json:"decision_ms"`
	UpstreamErrors int64            `json:"upstream_errors"`
	ClientCancels  int64            `json:"client_cancels"`
	ByStatus       map[int]int64    `json:"by_status"`
}

func (s *stats) add(e *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := &s.totals
	if t.ByAPI == nil {
		t.ByAPI, t.Passthrough, t.ByStatus = map[API]int64{}, map[string]int64{}, map[int]int64{}
	}
	t.Requests++
	t.ByAPI[e.api]++
	if e.status != 0 {
		t.ByStatus[e.status]++
	}
	switch {
	case e.passKind != "":
		t.Passthrough[e.passKind]++
	case e.api != Other:
		t.Compacted++
	}
	t.ToolOutputs += int64(e.outputs)
	t.Collapsed += int64(e.collapsed)
	t.Replayed += int64(e.frozen)
	if e.cold {
		t.ColdRequests++
	}
	t.BytesBefore += e.bytesBefore
	t.BytesAfter += e.bytesAfter
	t.BytesSaved += e.bytesBefore - e.bytesAfter
	t.DecisionMillis += millis(e.decision)
	switch {
	case e.cancelled:
		t.ClientCancels++
	case e.upstreamErr != "":
		t.UpstreamErrors++
	}
}

// Totals returns a copy of the counts so far.
func (s *Server) Totals() Totals {
	s.stats.mu.Lock()
	defer s.stats.mu.Unlock()
	t := s.stats.totals
	t.Since = s.stats.started
	t.ByAPI, t.Passthrough, t.ByStatus = clone(t.ByAPI), clone(t.Passthrough), clone(t.ByStatus)
	return t
}

func clone[K comparable](m map[K]int64) map[K]int64 {
	c := make(map[K]int64, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func (s *Server) serveStats(w http.ResponseWriter) {
	data, err := json.MarshalIndent(s.Totals(), "", "  ")
	if err != nil {
		http.Error(w, "runledger proxy: stats: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(data, '\n'))
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// logRequest writes the request's one line: what was compacted and what
// the upstream answered. Never a header, a query or a body: keys and
// tokens travel in those.
func (s *Server) logRequest(r *http.Request, e *entry, took time.Duration) {
	attrs := []slog.Attr{
		slog.String("api", string(e.api)), slog.String("method", r.Method), slog.String("path", r.URL.Path),
	}
	if e.api != Other {
		attrs = append(attrs, slog.String("conversation", e.conversation),
			slog.Int("tool_outputs", e.outputs), slog.Int("collapsed", e.collapsed), slog.Int("replayed", e.frozen),
			slog.Bool("cold", e.cold), slog.Int64("bytes_before", e.bytesBefore), slog.Int64("bytes_after", e.bytesAfter),
			slog.Float64("decision_ms", millis(e.decision)))
	}
	attrs = append(attrs, slog.Int("status", e.status), slog.Int64("response_bytes", e.responseBytes),
		slog.Float64("duration_ms", millis(took)))
	level := slog.LevelInfo
	if e.passKind != "" {
		level = slog.LevelWarn
		attrs = append(attrs, slog.String("passed_as_sent", e.passKind), slog.String("why", e.passWhy))
	}
	if e.upstreamErr != "" {
		level = slog.LevelWarn
		attrs = append(attrs, slog.String("error", e.upstreamErr))
	}
	s.cfg.Log.LogAttrs(context.Background(), level, "request", attrs...)
}
