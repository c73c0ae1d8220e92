package mcptools

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runledger/runledger/compaction"
	"github.com/runledger/runledger/logread"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

// CompactedDir holds, inside the store, what `runledger compact` collapsed.
const CompactedDir = ".cg"

// ExpandInput names a marker.
type ExpandInput struct {
	Marker string `json:"marker" jsonschema:"a <<cg:HASH>> marker or its 16 hex digits"`
	Range  string `json:"range,omitempty" jsonschema:"byte range A:B of the original text, B exclusive; default all of it (bounded)"`
}

// ExpandOutput is (a bounded part of) the text behind a marker.
type ExpandOutput struct {
	Hash string `json:"hash"`
	// Kind: "run_output" (a superseded run's combined log) or "compacted".
	Kind string `json:"kind"`
	ShowOutput
}

func (t *tools) expand(ctx context.Context, _ *mcp.CallToolRequest, in ExpandInput) (*mcp.CallToolResult, ExpandOutput, error) {
	hash, err := compaction.ParseRef(in.Marker)
	if err != nil {
		return nil, ExpandOutput{}, fmt.Errorf("marker %q: %w", in.Marker, err)
	}
	src, kind, err := t.markerSource(hash)
	if err != nil {
		return nil, ExpandOutput{}, err
	}
	defer src.Close()
	start, end, _, err := resolveSpan(src, ShowInput{Range: in.Range})
	if err != nil {
		return nil, ExpandOutput{}, err
	}
	base, _ := checkCited(ctx, src, "", start, end)
	out, text, err := t.fitRead(ctx, src, base, start, end)
	if err != nil {
		return nil, ExpandOutput{}, err
	}
	return textResult(fmt.Sprintf("%s (%s)\n%s", compaction.Marker(hash), kind, text)),
		ExpandOutput{Hash: hash, Kind: kind, ShowOutput: out}, nil
}

// markerSource finds the text behind hash: a run's combined log first,
// then the compaction store.
func (t *tools) markerSource(hash string) (source, string, error) {
	l, rec, err := FindRunOutput(t.store, hash)
	if err != nil {
		return nil, "", err
	}
	if l != nil {
		return &localSource{log: l, run: rec.ID}, "run_output", nil
	}
	cg := t.opts.CompactStore
	if cg == "" {
		cg = filepath.Join(t.store.Dir, CompactedDir)
	}
	text, err := compaction.Expand(&compaction.DirStore{Dir: cg}, hash)
	if errors.Is(err, compaction.ErrNotFound) {
		return nil, "", fmt.Errorf("marker %s: no run's output in %s and no compacted text in %s has that hash (a store compact was given with --store: start runledger mcp with the same --store)", hash, t.store.Dir, cg)
	}
	if err != nil {
		return nil, "", err
	}
	return &textSource{sum: hash, text: text}, "compacted", nil
}

// FindRunOutput returns the verified combined log of the run whose output
// sha256 starts with hash (the HASH of the <<cg:HASH>> marker a superseded
// run gets), and that run; nil when no run has it.
func FindRunOutput(st *store.Store, hash string) (*logread.Log, *record.Record, error) {
	recs, _, err := st.List()
	if err != nil {
		return nil, nil, err
	}
	for _, r := range recs {
		s, ok := r.Streams[record.Output]
		if !ok || !strings.HasPrefix(s.SHA256, hash) {
			continue
		}
		dir, err := st.RunDir(r.ID)
		if err != nil {
			return nil, nil, err
		}
		if !plainName(s.File) {
			return nil, nil, fmt.Errorf("run %s: output names file %q outside its run directory", r.ID, s.File)
		}
		l, err := logread.Open(dir, r, record.Output)
		return l, r, err
	}
	return nil, nil, nil
}

// textSource is compacted text, already checked against its hash by
// compaction.Expand; the compaction store keeps entries small.
type textSource struct {
	sum  string
	text []byte
}

func (s *textSource) read(_ context.Context, start, end int64) ([]byte, error) {
	if start < 0 || end < start || end > int64(len(s.text)) {
		return nil, fmt.Errorf("range %d:%d: the text has %d bytes", start, end, len(s.text))
	}
	return s.text[start:end], nil
}

func (s *textSource) hash(ctx context.Context, start, end int64) (string, error) {
	p, err := s.read(ctx, start, end)
	return sha256Hex(p), err
}

func (s *textSource) lines(int64, int64) (int64, int64, error) {
	return 0, 0, fmt.Errorf("lines: compacted text is read by byte range only")
}

func (s *textSource) info() (string, string, string, int64, []string) {
	return "", "compacted", "compaction store", int64(len(s.text)),
		[]string{"sha256 of the whole text starts with the marker's hash"}
}

func (s *textSource) call(start, end int64) string {
	return fmt.Sprintf("call expand with marker %q, range \"%d:%d\"", s.sum, start, end)
}

func (s *textSource) Close() error { return nil }
