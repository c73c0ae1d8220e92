package mcptools

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runledger/runledger/record"
)

// ShowInput selects a stretch of one stream of one run.
type ShowInput struct {
	Run        string `json:"run" jsonschema:"run id, unique id prefix, or run name (its latest attempt)"`
	Stream     string `json:"stream,omitempty" jsonschema:"stdout, stderr or output (both in arrival order), or a junit/NNN-name.xml file an excerpt cites; default output"`
	Range      string `json:"range,omitempty" jsonschema:"byte range A:B in original stream offsets, B exclusive, as excerpts cite it"`
	Lines      string `json:"lines,omitempty" jsonschema:"line range A:B, 1-based and inclusive, of the stored log"`
	SHA256     string `json:"sha256,omitempty" jsonschema:"expected sha256 (hex) of exactly the requested range, e.g. an excerpt's: the call fails if the bytes differ"`
	Repo       string `json:"repo,omitempty" jsonschema:"owner/name: read from this repository's GitHub Actions artifact instead of the local store"`
	ArtifactID int64  `json:"artifact_id,omitempty" jsonschema:"the artifact's id (with repo)"`
	// BlocksSHA256 pins the artifact's manifest to the run.
	BlocksSHA256 string `json:"blocks_sha256,omitempty" jsonschema:"with an artifact: the log's blocks_sha256 from the run's report envelope; the read fails unless the artifact's manifest matches it"`
}

// ShowOutput is the bytes [Start, End) of a stream, which may be less than
// was asked for: LeftOut then names the call that reads the rest.
type ShowOutput struct {
	Run         string   `json:"run"`
	Stream      string   `json:"stream"`
	Source      string   `json:"source" jsonschema:"store or artifact"`
	Start       int64    `json:"start"`
	End         int64    `json:"end"`
	StreamBytes int64    `json:"stream_bytes"`
	FirstLine   int64    `json:"first_line,omitempty"`
	SHA256      string   `json:"sha256" jsonschema:"sha256 of exactly the raw bytes start:end"`
	Checks      []string `json:"checks" jsonschema:"what was verified before the bytes were returned"`
	Text        string   `json:"text" jsonschema:"the bytes as UTF-8; invalid sequences replaced (then base64 holds them exactly)"`
	Base64      string   `json:"base64,omitempty"`
	LeftOut     []string `json:"left_out,omitempty"`
}

// source is a verified stream a read can come from: the local store or an
// artifact. Offsets are original stream offsets.
type source interface {
	read(ctx context.Context, start, end int64) ([]byte, error)
	// hash is the sha256 (hex) of [start, end): however long from the store,
	// at most artifact.MaxRange from an artifact.
	hash(ctx context.Context, start, end int64) (string, error)
	lines(first, last int64) (int64, int64, error)
	info() (run, stream, kind string, total int64, checks []string)
	// call names the call that reads [start, end) of this source.
	call(start, end int64) string
	Close() error
}

func (t *tools) show(ctx context.Context, _ *mcp.CallToolRequest, in ShowInput) (*mcp.CallToolResult, ShowOutput, error) {
	src, err := t.openSource(ctx, in)
	if err != nil {
		return nil, ShowOutput{}, err
	}
	defer src.Close()
	start, end, first, err := resolveSpan(src, in)
	if err != nil {
		return nil, ShowOutput{}, err
	}
	base, err := checkCited(ctx, src, in.SHA256, start, end)
	if err != nil {
		return nil, ShowOutput{}, err
	}
	base.FirstLine = first
	out, text, err := t.fitRead(ctx, src, base, start, end)
	return textResult(text), out, err
}

func (t *tools) openSource(ctx context.Context, in ShowInput) (greppable, error) {
	stream := in.Stream
	if stream == "" {
		stream = record.Output
	}
	if in.Repo != "" || in.ArtifactID != 0 {
		return t.openArtifact(ctx, in.Repo, in.ArtifactID, in.Run, stream, in.BlocksSHA256)
	}
	if in.Run == "" {
		return nil, fmt.Errorf("run: give a run id, id prefix or run name")
	}
	return t.openLocal(in.Run, stream)
}

// resolveSpan turns the input's range or lines into original offsets.
func resolveSpan(src source, in ShowInput) (start, end, first int64, err error) {
	_, stream, _, total, _ := src.info()
	switch {
	case in.Range != "" && in.Lines != "":
		return 0, 0, 0, fmt.Errorf("range and lines exclude each other: give one")
	case in.Lines != "":
		a, b, err := parseSpan("lines", in.Lines)
		if err != nil {
			return 0, 0, 0, err
		}
		start, end, err = src.lines(a, b)
		return start, end, a, err
	case in.Range != "":
		if start, end, err = parseSpan("range", in.Range); err != nil {
			return 0, 0, 0, err
		}
		if end > total {
			return 0, 0, 0, fmt.Errorf("range %q ends past the end of %s, which has %d bytes", in.Range, stream, total)
		}
		return start, end, 0, nil
	}
	return 0, total, 1, nil
}

// parseSpan reads "A:B" with 0 <= A <= B.
func parseSpan(what, s string) (int64, int64, error) {
	a, b, ok := strings.Cut(s, ":")
	start, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	end, err2 := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	if !ok || err1 != nil || err2 != nil || start < 0 || end < start {
		return 0, 0, fmt.Errorf("%s %q: want A:B with 0 <= A <= B", what, s)
	}
	return start, end, nil
}

// checkCited verifies a cited hash over the whole requested range, even
// when the result will carry only its beginning.
func checkCited(ctx context.Context, src source, cited string, start, end int64) (ShowOutput, error) {
	run, stream, kind, total, checks := src.info()
	out := ShowOutput{Run: run, Stream: stream, Source: kind, StreamBytes: total, Checks: checks}
	if cited == "" {
		return out, nil
	}
	got, err := src.hash(ctx, start, end)
	if err != nil {
		return out, err
	}
	if !strings.EqualFold(got, cited) {
		return out, fmt.Errorf("%s bytes %d:%d of run %s have sha256 %s, not the cited %s", stream, start, end, run, got, cited)
	}
	out.Checks = append(out.Checks, fmt.Sprintf("sha256 of bytes %d:%d matches the cited hash", start, end))
	return out, nil
}

// fitRead returns as much of [start, end) as the budget holds, shrinking
// the read until the rendered result fits.
func (t *tools) fitRead(ctx context.Context, src source, base ShowOutput, start, end int64) (ShowOutput, string, error) {
	n := min(end-start, int64(t.budget/2))
	for {
		out, text, err := renderRead(ctx, src, base, start, start+n, end)
		if err != nil {
			return ShowOutput{}, "", err
		}
		sz := size(text, out)
		if sz <= t.budget || n == 0 {
			return out, text, nil
		}
		n = min(n-1, n*int64(t.budget)/int64(sz)*9/10)
		n = max(n, 0)
	}
}

// renderRead reads [start, stop) of the wanted [start, end), cut at a
// line or rune boundary when it is not the whole of it.
func renderRead(ctx context.Context, src source, base ShowOutput, start, stop, end int64) (ShowOutput, string, error) {
	data, err := src.read(ctx, start, stop)
	if err != nil {
		return ShowOutput{}, "", err
	}
	if stop < end {
		data = data[:cutPoint(data)]
	}
	out := base
	out.Start, out.End = start, start+int64(len(data))
	out.SHA256 = sha256Hex(data)
	out.Text = string(data)
	if !utf8.Valid(data) {
		out.Text = strings.ToValidUTF8(out.Text, "\uFFFD")
		out.Base64 = base64.StdEncoding.EncodeToString(data)
	}
	if out.End < end {
		next := min(end, out.End+max(out.End-start, 1))
		out.LeftOut = append(out.LeftOut, bytesLeftOut(out.Stream, out.End, end, src.call(out.End, next)))
	}
	return out, readText(out), nil
}

func readText(o ShowOutput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "run %s %s bytes %d–%d of %d (%s), sha256 %s; %s\n",
		o.Run, o.Stream, o.Start, o.End, o.StreamBytes, o.Source, o.SHA256, strings.Join(o.Checks, "; "))
	b.WriteString(o.Text)
	if o.Text != "" && !strings.HasSuffix(o.Text, "\n") {
		b.WriteString("\n")
	}
	for _, l := range o.LeftOut {
		b.WriteString(l + "\n")
	}
	return b.String()
}
