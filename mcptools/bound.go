package mcptools

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// size is what a result costs a client: its text rendering plus the JSON of
// its structured content, marshalled as the SDK marshals it.
func size(text string, out any) int {
	b, err := json.Marshal(out)
	if err != nil {
		return math.MaxInt
	}
	return len(text) + len(b)
}

// textResult carries the short text rendering; the SDK adds out as the
// structured content.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// showCall names the show call that reads [start, end) of a stream.
func showCall(run, stream string, start, end int64) string {
	return fmt.Sprintf("call show with run %q, stream %q, range \"%d:%d\"", run, stream, start, end)
}

// bytesLeftOut is the marker for a byte range a result did not carry.
func bytesLeftOut(stream string, start, end int64, call string) string {
	return fmt.Sprintf("…[bytes %d–%d of %s left out: %s]", start, end, stream, call)
}

// cutText keeps at most n bytes of s on a rune boundary and says how many
// bytes went.
func cutText(s string, n int) (string, int) {
	if len(s) <= n {
		return s, 0
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], len(s) - n
}

// cutPoint picks where to end a partial read of p: after the last newline
// in its second half, so that a line is not split, else on a rune boundary.
func cutPoint(p []byte) int {
	if i := strings.LastIndexByte(string(p[len(p)/2:]), '\n'); i >= 0 {
		return len(p)/2 + i + 1
	}
	i := len(p) - 1
	for i > 0 && len(p)-i < utf8.UTFMax && !utf8.RuneStart(p[i]) {
		i--
	}
	if i >= 0 && !utf8.FullRune(p[i:]) {
		return i
	}
	return len(p)
}
