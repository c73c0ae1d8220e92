package publish

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/render"
)

// CommentMarker opens every sticky comment runledger writes. The report
// package's Markdown escaping guarantees untrusted text never contains "<!--",
// so a run's output cannot forge it; the publisher also requires the
// comment's author to be its own user.
const CommentMarker = render.MarkerComment

// MaxCommentChars is GitHub's limit on a comment body; above it the API
// answers 422 "Body is too long".
const MaxCommentChars = 65536

// commentBudget leaves a margin under MaxCommentChars because GitHub's count
// is not documented to the character (line-ending normalisation, entities).
const commentBudget = MaxCommentChars - 1024

// maxHistory bounds the earlier results kept per section.
const maxHistory = 20

// Section is one job's (one matrix leg's) part of the sticky comment.
type Section struct {
	// Key identifies the leg across runs: workflow, job and matrix values.
	Key   string
	Title string
	// Status is the one-line verdict (render.Verdict, which the comment's
	// opening line reads back); it is never dropped to fit.
	Status string
	// Collapsed is what the status keeps once a later result replaces it
	// and it becomes history: the <<cg:HASH>> marker and where the log is.
	// The latest result does not show it; the body carries it hidden.
	Collapsed string
	// Full and Compact are two renderings of the rest (excerpts); Compact
	// is used when Full does not fit.
	Full, Compact string
}

// hash identifies what the caller asked to write, independent of which
// rendering fitted, so a section shrunk by another job is not "stale".
func (s Section) hash() string {
	h := sha256.New()
	for _, f := range []string{s.Key, s.Title, s.Status, s.Full, s.Compact} {
		fmt.Fprintf(h, "%d:%s", len(f), f)
	}
	if s.Collapsed != "" { // an older runledger's sections keep their hash
		fmt.Fprintf(h, "%d:%s", len(s.Collapsed), s.Collapsed)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// keyID names a section in the comment; the key itself (matrix values) stays
// out of the body, and a fixed-size id keeps 256 legs' markers small.
func keyID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:6])
}

// part is a section as it sits in (or will go into) the comment body.
type part struct {
	id, hash, title, status string
	collapsed               string   // what the status adds as history
	history                 []string // newest first
	droppedHistory          int
	// options are the renderings, richest first; the last is the
	// omission note. choice indexes the one in use.
	options []rendering
	choice  int
}

type rendering struct {
	kind, text string
	n          int // chars(text), counted once
}

func newRendering(kind, text string) rendering { return rendering{kind, text, chars(text)} }

// The layout, one section:
//
//	<!-- rl k=<id> h=<hash> r=<f|c|n> -->
//	### <title>
//	<status>
//	<!-- rl:was <collapsed> -->  (when the status has a collapsed form)
//	<!-- rl:history -->        (when there is history)
//	<details>…- <entry>…</details>
//	<!-- rl:body -->           (unless the excerpt was omitted)
//	<excerpt>
//
// A section ends where the next marker starts: caller text cannot hold
// "<!--" (see defuse), so no end marker is needed, which matters at 256 legs.
var startRe = regexp.MustCompile(`(?m)^<!-- rl k=([0-9a-f]{12}) h=([0-9a-f]{12}) r=([fcn]) -->\n`)

const (
	histMark   = "<!-- rl:history -->\n"
	wasOpen    = "<!-- rl:was "
	wasClose   = " -->\n"
	bodyMark   = "<!-- rl:body -->\n"
	footerMark = "<!-- rl:footer -->\n"
	noteText   = "_(excerpt omitted to fit the size limit)_"
)

func partFor(s Section) *part {
	return &part{
		id: keyID(s.Key), hash: s.hash(), title: oneLine(s.Title), status: oneLine(s.Status),
		collapsed: hidden(s.Collapsed),
		options: []rendering{
			newRendering("f", defuse(strings.TrimRight(s.Full, "\n"))),
			newRendering("c", defuse(strings.TrimRight(s.Compact, "\n"))),
			newRendering("n", ""),
		},
	}
}

// parseBody reads the sections of a comment written by renderBody. Text it
// cannot parse is dropped: the comment is ours, rewritten whole each time.
func parseBody(body string) []*part {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	if i := strings.Index(body, footerMark); i >= 0 {
		body = body[:i]
	}
	ms := startRe.FindAllStringSubmatchIndex(body, -1)
	parts := make([]*part, 0, len(ms))
	for i, m := range ms {
		end := len(body)
		if i+1 < len(ms) {
			end = ms[i+1][0]
		}
		p := parseInner(strings.TrimRight(body[m[1]:end], "\n"))
		p.id, p.hash = body[m[2]:m[3]], body[m[4]:m[5]]
		// Another job's excerpt is opaque: it can only stay or go.
		p.options = []rendering{newRendering(body[m[6]:m[7]], p.options[0].text), newRendering("n", "")}
		if p.options[0].kind == "n" {
			p.options = p.options[1:]
		}
		parts = append(parts, p)
	}
	return parts
}

// parseInner reads title, status, history and excerpt; options[0] holds
// the excerpt as found.
func parseInner(s string) *part {
	p := &part{}
	title, s, _ := strings.Cut(s, "\n")
	if t, ok := strings.CutPrefix(title, "### "); ok {
		p.title = t
	} else { // an older runledger's bold title
		p.title = strings.TrimSuffix(strings.TrimPrefix(title, "**"), "**")
	}
	p.status, s, _ = strings.Cut(s, "\n")
	if w, ok := strings.CutPrefix(s, wasOpen); ok {
		if c, rest, found := strings.Cut(w, wasClose); found && !strings.Contains(c, "\n") {
			p.collapsed, s = c, rest
		}
	}
	if h, ok := strings.CutPrefix(s, histMark); ok {
		hist, rest, found := strings.Cut(h, bodyMark)
		for _, l := range strings.Split(hist, "\n") {
			if e, ok := strings.CutPrefix(l, "- "); ok {
				p.history = append(p.history, e)
			}
			var n int
			if _, err := fmt.Sscanf(l, "_%d older results omitted", &n); err == nil {
				p.droppedHistory = n
			}
		}
		s = ""
		if found {
			s = bodyMark + rest
		}
	}
	body, _ := strings.CutPrefix(s, bodyMark)
	p.options = []rendering{{kind: "", text: body}}
	return p
}

func (p *part) render(b *strings.Builder) {
	r := p.options[p.choice]
	fmt.Fprintf(b, "<!-- rl k=%s h=%s r=%s -->\n### %s\n%s\n", p.id, p.hash, r.kind, p.title, p.status)
	if p.collapsed != "" {
		b.WriteString(wasOpen + p.collapsed + wasClose)
	}
	if len(p.history) > 0 || p.droppedHistory > 0 {
		b.WriteString(histMark)
		fmt.Fprintf(b, "<details><summary>Earlier results (%d)</summary>\n\n", len(p.history)+p.droppedHistory)
		for _, h := range p.history {
			b.WriteString("- " + h + "\n")
		}
		if p.droppedHistory > 0 {
			fmt.Fprintf(b, "\n_%d older results omitted to fit the size limit._\n", p.droppedHistory)
		}
		b.WriteString("\n</details>\n")
	}
	switch {
	case r.kind == "n":
		b.WriteString(noteText + "\n")
	case r.text != "":
		b.WriteString(bodyMark + r.text + "\n")
	}
}

// Body is the comment body that writing secs into the comment body
// previous ("" for none) gives, as Aggregate writes it: other
// keys' sections kept, replaced verdicts moved into history, everything
// fitted under GitHub's limit.
func Body(previous string, secs []Section) (string, error) {
	return compose(merge(parseBody(previous), secs), commentBudget)
}

// renderBody writes the whole comment under its verdict line; parts are
// ordered by title so that concurrent writers produce the same layout.
func renderBody(header string, parts []*part, note string) string {
	var b strings.Builder
	b.WriteString(CommentMarker + "\n" + header + "\n\n")
	for _, p := range parts {
		p.render(&b)
		b.WriteString("\n")
	}
	if note != "" {
		b.WriteString(footerMark + note + "\n")
	}
	return b.String()
}

// merge puts each new section in place of the one with its key, moving the
// replaced status into the section's history when the verdict changed.
func merge(existing []*part, secs []Section) []*part {
	byKey := make(map[string]*part, len(existing)+len(secs))
	for _, p := range existing {
		byKey[p.id] = p
	}
	for _, s := range secs {
		n := partFor(s)
		if old, ok := byKey[n.id]; ok {
			n.history, n.droppedHistory = old.history, old.droppedHistory
			if old.hash != n.hash && old.status != n.status {
				n.history = append([]string{historyEntry(old)}, n.history...)
			}
			if len(n.history) > maxHistory {
				n.droppedHistory += len(n.history) - maxHistory
				n.history = n.history[:maxHistory]
			}
		}
		byKey[n.id] = n
	}
	parts := make([]*part, 0, len(byKey))
	for _, p := range byKey {
		parts = append(parts, p)
	}
	slices.SortFunc(parts, func(a, b *part) int {
		return cmp.Or(strings.Compare(a.title, b.title), strings.Compare(a.id, b.id))
	})
	return parts
}

// compose fits parts under the budget: excerpts shrink first (largest
// first, full → compact → note), then the oldest history goes, then long
// status lines are shortened; status lines are never dropped. It fails only
// when the status lines alone cannot fit.
func compose(parts []*part, budget int) (string, error) {
	sizes := make([]int, len(parts))
	header := verdict(parts) // before any status line is shortened
	total := chars(renderBody(header, nil, sizeNote))
	for i, p := range parts {
		sizes[i] = p.size()
		total += sizes[i]
	}
	// Each step re-measures only the section it changed.
	step := func(i int) {
		total -= sizes[i]
		sizes[i] = parts[i].size()
		total += sizes[i]
	}
	shrunk := false
	for total > budget {
		i := shrinkOne(parts)
		if i < 0 {
			break
		}
		shrunk = true
		step(i)
	}
	for total > budget {
		i := dropHistory(parts)
		if i < 0 {
			break
		}
		shrunk = true
		step(i)
	}
	note := ""
	if shrunk {
		note = sizeNote
	}
	for i, p := range parts {
		if total <= budget {
			break
		}
		p.status, p.title = cut(p.status, 300), cut(p.title, 200)
		note = sizeNoteCut
		step(i)
	}
	body := renderBody(header, parts, note)
	if n := chars(body); n > budget {
		return "", fmt.Errorf("%d sections' status lines need %d characters, over the %d a comment can hold", len(parts), n, budget)
	}
	return body, nil
}

func (p *part) size() int {
	var b strings.Builder
	p.render(&b)
	return chars(b.String()) + 1 // the blank line renderBody adds
}

// The footer notes are the same length, so the budget computed with one
// holds for the other.
const (
	sizeNote    = "_Some excerpts or older results were shortened or omitted to keep this comment under GitHub's 65,536-character limit. Status lines are complete._"
	sizeNoteCut = "_Excerpts and older results were omitted and long status lines shortened (marked …) to keep this comment under GitHub's 65,536-character limit_"
)

// shrinkOne moves the section with the largest excerpt one rendering down
// and returns its index, or -1.
func shrinkOne(parts []*part) int {
	bi, bn := -1, -1
	for i, p := range parts {
		if n := p.options[p.choice].n; p.choice+1 < len(p.options) && n > bn {
			bi, bn = i, n
		}
	}
	if bi < 0 {
		return -1
	}
	best := parts[bi]
	best.choice++
	// Skip a compact rendering that is no smaller than what it replaces.
	for best.choice+1 < len(best.options) && best.options[best.choice].n >= best.options[best.choice-1].n {
		best.choice++
	}
	return bi
}

// dropHistory removes the oldest entry of the longest history and returns
// the section's index, or -1.
func dropHistory(parts []*part) int {
	bi := -1
	for i, p := range parts {
		if len(p.history) > 0 && (bi < 0 || len(p.history) > len(parts[bi].history)) {
			bi = i
		}
	}
	if bi < 0 {
		return -1
	}
	best := parts[bi]
	best.history = best.history[:len(best.history)-1]
	best.droppedHistory++
	return bi
}

// chars counts UTF-16 code units, which is never less than the rune count
// GitHub applies, so staying under it is conservative either way.
func chars(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// oneLine keeps a title or status on one line, which the layout relies on.
func oneLine(s string) string {
	return defuse(strings.Join(strings.Fields(s), " "))
}

// defuse breaks any HTML comment opener, so caller text can never read as
// one of our markers; the report package already escapes "<!--" in
// untrusted text, this keeps the layout safe regardless. The report's own
// envelope markers pass on whole lines, so an agent reading the comment
// finds each section's embedded envelope (render.ExtractEnvelope).
func defuse(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != render.MarkerEnvelopeBegin && l != render.MarkerEnvelopeEnd {
			lines[i] = strings.ReplaceAll(l, "<!--", "&lt;!--")
		}
	}
	return strings.Join(lines, "\n")
}

// current reports whether body holds every wanted section at its hash.
func current(body string, want map[string]string) bool {
	have := make(map[string]string)
	for _, p := range parseBody(body) {
		have[p.id] = p.hash
	}
	for k, h := range want {
		if have[keyID(k)] != h {
			return false
		}
	}
	return true
}

// historyEntry is a replaced section's status as its history keeps it:
// collapsed, with its marker and where its log is.
func historyEntry(p *part) string {
	if p.collapsed == "" {
		return p.status
	}
	return p.status + " · " + p.collapsed
}

// hidden makes s safe inside the one-line HTML comment that carries it.
func hidden(s string) string {
	s = oneLine(s)
	return strings.ReplaceAll(s, "-->", "--&gt;")
}

// verdict is the comment's opening line, read from every section's status
// line: the worst status, how many sections did not pass and how, the
// tests counted. A section whose status line is not a verdict (an older
// runledger's) counts as incomplete, never as passed.
func verdict(parts []*part) string {
	if len(parts) == 0 {
		return "## runledger"
	}
	statuses := make([]string, 0, len(parts))
	var tests, failed int
	for _, p := range parts {
		t, ok := render.ParseVerdict(p.status)
		if !ok {
			t.Status = "incomplete"
		}
		statuses = append(statuses, t.Status)
		tests += t.Tests
		failed += t.Failed
	}
	worst := report.Worst(statuses...)
	line := fmt.Sprintf("## %s runledger: %s", render.Icon(worst), stepCount(statuses))
	if tests > 0 {
		line += fmt.Sprintf(" · %s tests", thousands(tests))
		if failed > 0 {
			line += fmt.Sprintf(", %s failed", thousands(failed))
		}
	}
	return line
}

// stepCount: "2 steps passed", "1 of 2 steps failed", "2 of 3 steps did
// not pass (1 failed, 1 timed out)".
func stepCount(statuses []string) string {
	n := len(statuses)
	word := "steps"
	if n == 1 {
		word = "step"
	}
	var order []string
	counts := map[string]int{}
	bad := 0
	for _, s := range statuses {
		if s == "passed" {
			continue
		}
		bad++
		if counts[s] == 0 {
			order = append(order, s)
		}
		counts[s]++
	}
	switch {
	case bad == 0:
		return fmt.Sprintf("%d %s passed", n, word)
	case len(order) == 1:
		return fmt.Sprintf("%d of %d %s %s", bad, n, word, strings.ReplaceAll(order[0], "_", " "))
	}
	how := make([]string, len(order))
	for i, s := range order {
		how[i] = fmt.Sprintf("%d %s", counts[s], strings.ReplaceAll(s, "_", " "))
	}
	return fmt.Sprintf("%d of %d %s did not pass (%s)", bad, n, word, strings.Join(how, ", "))
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
