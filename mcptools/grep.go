package mcptools

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runledger/runledger/logread"
	"github.com/runledger/runledger/record"
)

// Bounds of a grep call, whatever the client asks.
const (
	defaultGrepMax = 20
	maxGrepMax     = 200
	maxGrepContext = 5
	// grepLineBytes cuts a long line in a result; the marker gives its range.
	grepLineBytes = 400
)

// GrepInput is a search over one stream of one run.
type GrepInput struct {
	Run        string `json:"run" jsonschema:"run id, unique id prefix, or run name (its latest attempt)"`
	Pattern    string `json:"pattern" jsonschema:"regular expression (Go RE2 syntax) matched against each line"`
	Stream     string `json:"stream,omitempty" jsonschema:"stdout, stderr or output; default output"`
	Max        int    `json:"max,omitempty" jsonschema:"stop after this many matching lines (default 20, at most 200)"`
	Context    int    `json:"context,omitempty" jsonschema:"lines of context before and after each match (0 to 5)"`
	Repo       string `json:"repo,omitempty" jsonschema:"owner/name: search this repository's GitHub Actions artifact instead of the local store"`
	ArtifactID int64  `json:"artifact_id,omitempty" jsonschema:"the artifact's id (with repo)"`
	// BlocksSHA256 pins the artifact's manifest to the run.
	BlocksSHA256 string `json:"blocks_sha256,omitempty" jsonschema:"with an artifact: the log's blocks_sha256 from the run's report envelope; the search fails unless the artifact's manifest matches it"`
}

// greppable is a source whose stored file can be read line by line.
type greppable interface {
	source
	stored() *logread.Log
}

var (
	_ greppable = (*localSource)(nil)
	_ greppable = (*artifactSource)(nil)
)

// GrepLine is one line of the stored log with its original byte range.
type GrepLine struct {
	Line  int64  `json:"line"`
	Start int64  `json:"start"`
	End   int64  `json:"end"`
	Match bool   `json:"match"`
	Text  string `json:"text"`
}

// GrepOutput lists matches in line order, each with its context lines.
type GrepOutput struct {
	Run     string       `json:"run"`
	Stream  string       `json:"stream"`
	Source  string       `json:"source" jsonschema:"store or artifact"`
	Checks  []string     `json:"checks" jsonschema:"what was verified before the log was searched"`
	Matches [][]GrepLine `json:"matches" jsonschema:"one group per match: its context lines and the matching line, in line order"`
	// More: the search stopped at max; matches after the last one exist.
	More    bool     `json:"more"`
	LeftOut []string `json:"left_out,omitempty"`
}

func (t *tools) grep(ctx context.Context, _ *mcp.CallToolRequest, in GrepInput) (*mcp.CallToolResult, GrepOutput, error) {
	if err := in.validate(); err != nil {
		return nil, GrepOutput{}, err
	}
	re, err := regexp.Compile(in.Pattern)
	if err != nil {
		return nil, GrepOutput{}, fmt.Errorf("pattern %q: %w", in.Pattern, err)
	}
	src, err := t.openSource(ctx, ShowInput{Run: in.Run, Stream: in.Stream, Repo: in.Repo, ArtifactID: in.ArtifactID, BlocksSHA256: in.BlocksSHA256})
	if err != nil {
		return nil, GrepOutput{}, err
	}
	defer src.Close()
	matches, more, err := src.stored().Grep(re, in.Max, in.Context)
	if err != nil {
		return nil, GrepOutput{}, err
	}
	out, text := t.fitGrep(src, matches, more, in)
	return textResult(text), out, nil
}

func (in *GrepInput) validate() error {
	if in.Stream == "" {
		in.Stream = record.Output
	}
	if in.Max == 0 {
		in.Max = defaultGrepMax
	}
	if in.Max < 1 || in.Max > maxGrepMax || in.Context < 0 || in.Context > maxGrepContext {
		return fmt.Errorf("max %d, context %d: want max 1 to %d and context 0 to %d", in.Max, in.Context, maxGrepMax, maxGrepContext)
	}
	return nil
}

// fitGrep keeps the first matches that fit the budget; the others are
// named by line and byte range with the show call that reads them.
func (t *tools) fitGrep(src greppable, matches []logread.Match, more bool, in GrepInput) (GrepOutput, string) {
	keep := len(matches)
	for {
		out := grepOutput(src, matches, keep, more, in)
		text := grepText(out)
		if size(text, out) <= t.budget || keep == 0 {
			return out, text
		}
		keep--
	}
}

func grepOutput(src greppable, matches []logread.Match, keep int, more bool, in GrepInput) GrepOutput {
	run, stream, kind, total, checks := src.info()
	out := GrepOutput{Run: run, Stream: stream, Source: kind, Checks: checks, More: more, Matches: [][]GrepLine{}}
	for _, m := range matches[:keep] {
		out.Matches = append(out.Matches, grepGroup(src, m))
	}
	if n := len(matches) - keep; n > 0 {
		out.LeftOut = append(out.LeftOut, droppedMatches(src, matches[keep:]))
	}
	if more {
		last := matches[len(matches)-1].Line
		out.LeftOut = append(out.LeftOut, fmt.Sprintf(
			"…[matches after line %d (byte %d) left out: the search stopped at max %d; call grep with a narrower pattern, or %s]",
			last.Number, last.End, in.Max, src.call(last.End, min(total, last.End+4096))))
	}
	return out
}

func grepGroup(src greppable, m logread.Match) []GrepLine {
	lines := m.Lines()
	group := make([]GrepLine, 0, len(lines))
	for _, ln := range lines {
		group = append(group, GrepLine{Line: ln.Number, Start: ln.Start, End: ln.End,
			Match: ln.Number == m.Line.Number, Text: lineText(src, ln)})
	}
	return group
}

// lineText is a line made safe for JSON and cut to grepLineBytes, with a
// marker for the rest of it.
func lineText(src greppable, ln logread.Line) string {
	text := strings.ToValidUTF8(string(ln.Text), "\uFFFD")
	kept, gone := cutText(text, grepLineBytes)
	if gone == 0 && !ln.Cut {
		return text
	}
	from := ln.Start + int64(len(kept))
	return kept + bytesLeftOut(src.stored().Name, from, ln.End, src.call(ln.Start, ln.End))
}

func droppedMatches(src greppable, rest []logread.Match) string {
	var where []string
	for i, m := range rest {
		if i == 8 {
			where = append(where, fmt.Sprintf("and %d more", len(rest)-i))
			break
		}
		where = append(where, fmt.Sprintf("line %d (range \"%d:%d\")", m.Line.Number, m.Line.Start, m.Line.End))
	}
	return fmt.Sprintf("…[%d matches left out for size: %s; read each with its range, e.g. %s]",
		len(rest), strings.Join(where, ", "), src.call(rest[0].Line.Start, rest[0].Line.End))
}

func grepText(o GrepOutput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "run %s %s: %d matches%s (line:start-end: text)\n", o.Run, o.Stream, len(o.Matches), moreWord(o.More))
	for _, g := range o.Matches {
		for _, ln := range g {
			sep := "-"
			if ln.Match {
				sep = ":"
			}
			fmt.Fprintf(&b, "%d%s%d-%d%s %s\n", ln.Line, sep, ln.Start, ln.End, sep, ln.Text)
		}
		b.WriteString("--\n")
	}
	for _, l := range o.LeftOut {
		b.WriteString(l + "\n")
	}
	return b.String()
}

func moreWord(more bool) string {
	if more {
		return " and more"
	}
	return ""
}
