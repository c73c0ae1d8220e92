package compaction

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// A request body is compacted in place: the tool outputs' text is
// replaced where it sits in the original bytes, so every other byte —
// keys, their order, values, spacing — is written back as it came. The
// shapes are those of the providers' SDK types: Anthropic's Messages API
// (MessageCreateParams: messages[].content[] blocks, ToolResultBlockParam
// {type "tool_result", tool_use_id, content: string | TextBlockParam[]},
// cache_control on any block) and OpenAI's Chat Completions
// (ChatCompletionToolMessageParam {role "tool", tool_call_id, content:
// string | ChatCompletionContentPartText[]}, prompt_cache_breakpoint on a
// content part) and Responses (ResponseCreateParams: input: string |
// ResponseInputItem[], FunctionCallOutput {type "function_call_output",
// call_id, output: string | ResponseInputText[]}; no breakpoints, the
// provider caches prefixes by itself).

// Format names an input shape.
type Format string

const (
	FormatOutputs   Format = "outputs"   // [{"id","text"}]
	FormatAnthropic Format = "anthropic" // Messages request body
	FormatOpenAI    Format = "openai"    // Chat Completions request body
	FormatResponses Format = "responses" // OpenAI Responses request body
)

// toolOutput is one tool output found in a request body: where its text
// sits (a JSON path), and where the body's last cache breakpoint falls.
type toolOutput struct {
	Output
	path  string
	order int // message index × 1e6 + block index, for prefix counting
}

type request struct {
	format     Format
	outputs    []toolOutput
	breakpoint int // order of the last cache breakpoint; -1 when none
}

// jsonPath joins path elements; a NUL cannot occur in a decoded key.
func jsonPath(elems ...any) string {
	parts := make([]string, len(elems))
	for i, e := range elems {
		parts[i] = fmt.Sprint(e)
	}
	return strings.Join(parts, "\x00")
}

type block struct {
	Type         string          `json:"type"`
	Text         *string         `json:"text"`
	ToolUseID    string          `json:"tool_use_id"`
	Content      json.RawMessage `json:"content"`
	CacheControl json.RawMessage `json:"cache_control"`
	Breakpoint   json.RawMessage `json:"prompt_cache_breakpoint"`
}

func (b block) breaks() bool {
	return hasValue(b.CacheControl) || hasValue(b.Breakpoint)
}

func hasValue(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}

type message struct {
	Role       string          `json:"role"`
	ToolCallID string          `json:"tool_call_id"`
	Content    json.RawMessage `json:"content"`
}

// item is one element of a Responses request's input array.
type item struct {
	Type   string          `json:"type"`
	CallID string          `json:"call_id"`
	Output json.RawMessage `json:"output"`
}

// parseRequest reads the tool outputs of a request body.
func parseRequest(data []byte) (*request, error) {
	var body struct {
		Messages []message       `json:"messages"`
		Input    json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(data, &body); err != nil {
		return nil, fmt.Errorf("compact: decode request body: %w", err)
	}
	if body.Messages == nil && hasValue(body.Input) {
		return parseResponses(body.Input)
	}
	if body.Messages == nil {
		return nil, fmt.Errorf("compact: decode input: want an array of outputs or a request body with messages or input")
	}
	rq := &request{format: FormatAnthropic, breakpoint: -1}
	for i, m := range body.Messages {
		if m.Role == "tool" {
			rq.format = FormatOpenAI
		}
		if err := rq.message(i, m); err != nil {
			return nil, err
		}
	}
	return rq, nil
}

// parseResponses reads the tool outputs of a Responses request's input: a
// string (no tool output) or an array of items, of which the
// function_call_output and custom_tool_call_output ones carry outputs.
func parseResponses(input json.RawMessage) (*request, error) {
	rq := &request{format: FormatResponses, breakpoint: -1}
	if t := bytes.TrimSpace(input); t[0] != '[' {
		if t[0] != '"' {
			return nil, fmt.Errorf("compact: input: want a string or an array of items")
		}
		return rq, nil
	}
	var items []item
	if err := json.Unmarshal(input, &items); err != nil {
		return nil, fmt.Errorf("compact: input: %w", err)
	}
	for i, it := range items {
		if it.Type != "function_call_output" && it.Type != "custom_tool_call_output" {
			continue
		}
		content, text, err := contentOf(it.Output)
		if err != nil {
			return nil, fmt.Errorf("compact: input[%d].output: %w", i, err)
		}
		if o, ok := rq.textOf(content, text, jsonPath("input", i, "output")); ok {
			rq.add(it.CallID, o, i*1e6)
		}
	}
	return rq, nil
}

func (rq *request) message(i int, m message) error {
	content, text, err := contentOf(m.Content)
	if err != nil {
		return fmt.Errorf("compact: messages[%d].content: %w", i, err)
	}
	if m.Role == "tool" {
		if o, ok := rq.textOf(content, text, jsonPath("messages", i, "content")); ok {
			rq.add(m.ToolCallID, o, i*1e6)
		}
	}
	for j, b := range content {
		order := i*1e6 + j
		if b.breaks() {
			rq.breakpoint = order
		}
		if b.Type != "tool_result" {
			continue
		}
		inner, text, err := contentOf(b.Content)
		if err != nil {
			return fmt.Errorf("compact: messages[%d].content[%d].content: %w", i, j, err)
		}
		for _, ib := range inner {
			if ib.breaks() {
				rq.breakpoint = order
			}
		}
		if o, ok := rq.textOf(inner, text, jsonPath("messages", i, "content", j, "content")); ok {
			rq.add(b.ToolUseID, o, order)
		}
	}
	return nil
}

// textOf locates the text of a tool output: a string content, or a
// content array holding exactly one text part. Other shapes (images, text
// split over parts) are left alone: the API rejects empty text parts, so
// they could not be rewritten without restructuring.
func (rq *request) textOf(content []block, text *string, path string) (toolOutput, bool) {
	switch {
	case text != nil:
		return toolOutput{Output: Output{Text: *text}, path: path}, true
	case len(content) == 1 && (content[0].Type == "text" || content[0].Type == "input_text") && content[0].Text != nil:
		return toolOutput{Output: Output{Text: *content[0].Text}, path: jsonPath(path, 0, "text")}, true
	}
	return toolOutput{}, false
}

func (rq *request) add(id string, o toolOutput, order int) {
	o.ID, o.order = id, order
	rq.outputs = append(rq.outputs, o)
}

// contentOf decodes a content value: a string, or an array of blocks.
func contentOf(raw json.RawMessage) ([]block, *string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil, nil, nil
	case raw[0] == '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return nil, &s, err
	case raw[0] == '[':
		var bs []block
		err := json.Unmarshal(raw, &bs)
		return bs, nil, err
	}
	return nil, nil, nil
}

// cachedPrefix is how many of the outputs sit at or before the last cache
// breakpoint, or -1 when the body marks none.
func (rq *request) cachedPrefix() int {
	if rq.breakpoint < 0 {
		return -1
	}
	n := 0
	for _, o := range rq.outputs {
		if o.order <= rq.breakpoint {
			n++
		}
	}
	return n
}

// span is the byte range of one JSON string value, quotes included.
type span struct{ start, end int64 }

// stringSpans maps the JSON path of every string value in data to its
// byte range.
func stringSpans(data []byte) (map[string]span, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	spans := map[string]span{}
	var walk func(path string) error
	walk = func(path string) error {
		prev := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case string:
			end := dec.InputOffset()
			// Between two tokens lie only blanks, commas and colons.
			start := prev + int64(bytes.IndexByte(data[prev:end], '"'))
			spans[path] = span{start, end}
		case json.Delim:
			for i := 0; dec.More(); i++ {
				child := jsonPath(path, i)
				if t == '{' {
					key, err := dec.Token()
					if err != nil {
						return err
					}
					child = jsonPath(path, key)
				}
				if err := walk(strings.TrimPrefix(child, "\x00")); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(""); err != nil {
		return nil, fmt.Errorf("compact: scan request body: %w", err)
	}
	return spans, nil
}

// splice writes data with the string at each path replaced by its new
// text, JSON-encoded without HTML escaping.
func splice(w io.Writer, data []byte, spans map[string]span, texts map[string]string) error {
	type edit struct {
		span
		text string
	}
	var edits []edit
	for path, text := range texts {
		sp, ok := spans[path]
		if !ok {
			return fmt.Errorf("compact: no string at %q", strings.ReplaceAll(path, "\x00", "."))
		}
		edits = append(edits, edit{sp, text})
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var out bytes.Buffer
	at := int64(0)
	for _, e := range edits {
		out.Write(data[at:e.start])
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(e.text); err != nil {
			return fmt.Errorf("compact: encode text: %w", err)
		}
		out.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
		at = e.end
	}
	out.Write(data[at:])
	if _, err := w.Write(out.Bytes()); err != nil {
		return fmt.Errorf("compact: write output: %w", err)
	}
	return nil
}

// ErrFormat: the request body has a shape the caller did not ask for.
var ErrFormat = errors.New("not a format asked for")

// ErrUnreadable: the body is not JSON, or not shaped as a request body
// of the formats compact reads.
var ErrUnreadable = errors.New("not a request body compact reads")

// unreadable keeps the parse error's message and is ErrUnreadable too.
type unreadable struct{ error }

func (e unreadable) Unwrap() []error { return []error{e.error, ErrUnreadable} }

// RequestResult is what CompactRequest did with one request body.
type RequestResult struct {
	Format Format
	// Transcript names the conversation (by its first tool output), ""
	// when the body holds no tool output.
	Transcript string
	Decisions  []Decision
	// Body is the compacted body: the input's bytes with only the
	// collapsed outputs' strings replaced.
	Body []byte
}

// filterRequest compacts the tool outputs of a request body.
func filterRequest(data []byte, w io.Writer, opts Options, store Store) ([]Decision, error) {
	res, err := CompactRequest(data, opts, store)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(res.Body); err != nil {
		return nil, fmt.Errorf("compact: write output: %w", err)
	}
	return res.Decisions, nil
}

// CompactRequest compacts the tool outputs of a provider's request body
// (Anthropic Messages, OpenAI Chat Completions or Responses). A Cache
// with a negative Prefix takes the body's last cache breakpoint as the
// end of the cached prefix.
func CompactRequest(data []byte, opts Options, store Store) (*RequestResult, error) {
	rq, err := parseRequest(data)
	if err != nil {
		return nil, unreadable{err}
	}
	if len(opts.Formats) > 0 && !slices.Contains(opts.Formats, rq.format) {
		return nil, fmt.Errorf("compact: a %s request body: %w", rq.format, ErrFormat)
	}
	in := make([]Output, len(rq.outputs))
	for i, o := range rq.outputs {
		in[i] = o.Output
	}
	if opts.Cache != nil && opts.Cache.Prefix < 0 {
		c := *opts.Cache
		c.Prefix = rq.cachedPrefix()
		opts.Cache = &c
	}
	out, decisions, err := Compact(in, opts, store)
	if err != nil {
		return nil, err
	}
	texts := map[string]string{}
	for i, o := range out {
		if o.Text != in[i].Text {
			texts[rq.outputs[i].path] = o.Text
		}
	}
	res := &RequestResult{Format: rq.format, Transcript: transcriptKey(in), Decisions: decisions, Body: data}
	if len(texts) == 0 {
		return res, nil
	}
	spans, err := stringSpans(data)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := splice(&b, data, spans, texts); err != nil {
		return nil, err
	}
	res.Body = b.Bytes()
	return res, nil
}

// RequestFormat says which shape data has.
func RequestFormat(data []byte) (Format, error) {
	t := bytes.TrimSpace(data)
	if len(t) > 0 && t[0] == '[' {
		return FormatOutputs, nil
	}
	rq, err := parseRequest(data)
	if err != nil {
		return "", err
	}
	return rq.format, nil
}
