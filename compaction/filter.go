package compaction

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// FilterResult is what Filter writes.
type FilterResult struct {
	Outputs   []Output   `json:"outputs"`
	Decisions []Decision `json:"decisions"`
}

// Filter is `runledger compact`: it reads a JSON array of {"id","text"}
// from r, compacts it, and writes a FilterResult to w. HTML escaping is off
// so that markers read as <<cg:HASH>> rather than \u003c\u003ccg:HASH>>.
func Filter(r io.Reader, w io.Writer, opts Options, store Store) error {
	dec := json.NewDecoder(r)
	var in []Output
	if err := dec.Decode(&in); err != nil {
		return fmt.Errorf("compact: decode input: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("compact: decode input: data after the array")
	}
	if in == nil {
		return fmt.Errorf("compact: decode input: want a JSON array, got null")
	}
	out, decisions, err := Compact(in, opts, store)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(FilterResult{Outputs: out, Decisions: decisions}); err != nil {
		return fmt.Errorf("compact: encode output: %w", err)
	}
	return nil
}
