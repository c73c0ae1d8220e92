package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/runledger/runledger/report"
)

// Hidden markers in a rendered body. Untrusted text can never carry them:
// EscapeInline turns `<` into an entity, FenceBlock breaks `<!--`, and the
// embedded JSON escapes `<` as \u003c.
const (
	// MarkerComment starts every body; the publisher finds its own comment by it.
	MarkerComment = "<!-- runledger:comment -->"
	// MarkerEnvelopeBegin and MarkerEnvelopeEnd enclose the embedded envelope:
	// a ```json fence (possibly longer) holding one line of JSON.
	MarkerEnvelopeBegin = "<!-- runledger:envelope -->"
	MarkerEnvelopeEnd   = "<!-- /runledger:envelope -->"
)

// embedEnvelope embeds e as one line of JSON. encoding/json escapes <, > and &,
// so no marker or HTML can appear in it, and decoding gives e back.
func embedEnvelope(b *strings.Builder, e *report.Envelope) error {
	data, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode envelope: %w", err)
	}
	fence := strings.Repeat("`", max(3, longestRun(string(data), '`')+1))
	b.WriteString("<details><summary>envelope</summary>\n\n")
	b.WriteString(MarkerEnvelopeBegin + "\n")
	b.WriteString(fence + "json\n")
	b.Write(data)
	b.WriteString("\n" + fence + "\n")
	b.WriteString(MarkerEnvelopeEnd + "\n\n</details>\n")
	return nil
}

// ExtractEnvelope returns the envelope embedded in a body Markdown
// produced: the JSON between MarkerEnvelopeBegin and MarkerEnvelopeEnd.
func ExtractEnvelope(body string) (*report.Envelope, error) {
	i := strings.Index(body, MarkerEnvelopeBegin+"\n")
	if i < 0 {
		return nil, errors.New("extract envelope: begin marker not found")
	}
	rest := body[i+len(MarkerEnvelopeBegin)+1:]
	j := strings.Index(rest, "\n"+MarkerEnvelopeEnd)
	if j < 0 {
		return nil, errors.New("extract envelope: end marker not found")
	}
	lines := strings.Split(rest[:j], "\n")
	fence := strings.TrimSuffix(lines[0], "json")
	if len(lines) != 3 || len(fence) < 3 || strings.Trim(fence, "`") != "" || lines[2] != fence {
		return nil, errors.New("extract envelope: expected a json fence holding one line")
	}
	var e report.Envelope
	if err := json.Unmarshal([]byte(lines[1]), &e); err != nil {
		return nil, fmt.Errorf("extract envelope: %w", err)
	}
	return &e, nil
}
