package compaction

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Filter is `runledger compact`: it reads from r a JSON array of
// {"id","text"}, or a provider's request body (Anthropic Messages, OpenAI
// Chat Completions), compacts its tool outputs, and writes the same
// document, compacted, to w, so that it composes in a pipeline; what was
// decided for each output is returned, for the caller to report apart.
// HTML escaping is off so that markers read as <<cg:HASH>> rather than
// \u003c\u003ccg:HASH>>.
func Filter(r io.Reader, w io.Writer, opts Options, store Store) ([]Decision, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("compact: read input: %w", err)
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		return filterRequest(data, w, opts, store)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var in []Output
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("compact: decode input: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("compact: decode input: data after the array")
	}
	if in == nil {
		return nil, fmt.Errorf("compact: decode input: want a JSON array, got null")
	}
	out, decisions, err := Compact(in, opts, store)
	if err != nil {
		return nil, err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("compact: encode output: %w", err)
	}
	return decisions, nil
}
