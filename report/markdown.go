package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/runledger/runledger/record"
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

const (
	mdDefaultBytes = 16384
	mdLimitBytes   = 60000 // below GitHub's 65,536-character comment limit
)

// MarkdownOptions tunes RenderMarkdown.
type MarkdownOptions struct {
	// MaxBytes is the budget for the whole body (default 16384, at most 60000).
	MaxBytes int
	// ArtifactURL, when set, links the artifact holding the full logs.
	ArtifactURL string
}

func (o MarkdownOptions) budget() int {
	switch {
	case o.MaxBytes <= 0:
		return mdDefaultBytes
	case o.MaxBytes > mdLimitBytes:
		return mdLimitBytes
	}
	return o.MaxBytes
}

// mdPlan says how much a render leaves out to fit the budget.
type mdPlan struct {
	lines, width int  // excerpt Text limits; 0 means none
	dropDup      int  // a test's second and later excerpts left out, lowest priority first
	dropEx       int  // excerpts left out, lowest priority first
	dropSup      int  // superseded attempts left out, last first
	clamp        int  // untrusted summary and warning strings cut to this; 0 means none
	over         bool // nothing more can go: say the budget is exceeded
}

// mdTrims are the excerpt shrinking steps: fewer context lines, narrower
// lines. Before any of them, a test's later excerpts go (mdDupOrder):
// cutting excerpts to fewer lines would drop the assertion and location
// lines the evidence planner chose for each test's first one.
var mdTrims = [][2]int{{40, 400}, {20, 200}, {10, 160}, {5, 120}, {2, 120}}

// RenderMarkdown renders env as a PR comment body of at most opts.MaxBytes
// bytes: a status line showing exactly env.Status, a table with one row per
// run, excerpts of the runs that did not pass, pointers to the full logs,
// superseded attempts, and the envelope as JSON between MarkerEnvelopeBegin
// and MarkerEnvelopeEnd inside a <details> block (see ExtractEnvelope).
//
// To fit, failure messages and warnings over 2000 bytes are cut first (one
// such string must not squeeze out every excerpt), then excerpts shrink
// (a test's later excerpts left out, then fewer and narrower lines, then
// whole excerpts left out, lowest priority first),
// then superseded attempts go, then failure messages and
// warnings are cut further; every cut
// leaves a marker saying how many bytes went and where they are. The
// embedded envelope is the one actually shown: a copy of env with the same
// cuts and env.Omitted counting them (Bytes counts left-out text bytes).
// When nothing is cut it is env exactly. env itself is not modified.
//
// Status rows are never dropped: if the status table and envelope alone
// exceed the budget, the body is returned over budget with a note saying
// so, without the per-run sections (the envelope still points at every
// log). Such a body can exceed GitHub's 65,536-character limit when there
// are hundreds of runs; the caller must then fall back (e.g. job summary).
func RenderMarkdown(env *Envelope, opts MarkdownOptions) (string, error) {
	if env == nil {
		return "", errors.New("render markdown: nil envelope")
	}
	budget := opts.budget()
	render := func(p mdPlan) (string, error) {
		e, dropped := mdApply(env, p)
		body, err := mdBuild(e, dropped, opts, budget, p)
		if err != nil {
			return "", fmt.Errorf("render markdown: %w", err)
		}
		return body, nil
	}
	var p mdPlan
	if body, err := render(p); err != nil || len(body) <= budget {
		return body, err
	}
	// A huge untrusted string (a 100 KiB assertion diff as a failure
	// message) would otherwise squeeze out every excerpt: cut those first.
	p.clamp = 2000
	if body, err := render(p); err != nil || len(body) <= budget {
		return body, err
	}
	if n := len(mdDupOrder(env)); n > 0 {
		body, ok, err := mdSearch(render, p, func(p *mdPlan, k int) { p.dropDup = k }, n, budget)
		if err != nil || ok {
			return body, err
		}
		p.dropDup = n
	}
	for _, t := range mdTrims {
		p.lines, p.width = t[0], t[1]
		if body, err := render(p); err != nil || len(body) <= budget {
			return body, err
		}
	}
	steps := []struct {
		set func(*mdPlan, int)
		n   int
	}{
		{func(p *mdPlan, k int) { p.dropEx = k }, mdCountExcerpts(env)},
		{func(p *mdPlan, k int) { p.dropSup = k }, len(env.Superseded)},
	}
	for _, s := range steps {
		body, ok, err := mdSearch(render, p, s.set, s.n, budget)
		if err != nil || ok {
			return body, err
		}
		s.set(&p, s.n)
	}
	for _, c := range []int{200, 60} {
		p.clamp = c
		if body, err := render(p); err != nil || len(body) <= budget {
			return body, err
		}
	}
	p.over = true
	return render(p)
}

// mdSearch finds the least k in [1, n] for which the render fits, assuming
// size falls as k grows, and checks the answer.
func mdSearch(render func(mdPlan) (string, error), p mdPlan, set func(*mdPlan, int), n, budget int) (string, bool, error) {
	var firstErr error
	k := 1 + sort.Search(n, func(i int) bool {
		q := p
		set(&q, i+1)
		body, err := render(q)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return err == nil && len(body) <= budget
	})
	if firstErr != nil {
		return "", false, firstErr
	}
	if k > n {
		return "", false, nil
	}
	set(&p, k)
	body, err := render(p)
	return body, err == nil && len(body) <= budget, err
}

func mdCountExcerpts(env *Envelope) int {
	n := 0
	for _, r := range env.Runs {
		n += len(r.Excerpts)
	}
	return n
}

// mdReasonRank orders excerpt reasons, best first; unknown reasons go first.
func mdReasonRank(reason string) int {
	for i, r := range exReasons {
		if r == reason {
			return i
		}
	}
	return len(exReasons)
}

// mdDropOrder lists excerpts, as [run, excerpt] indexes, in the order they
// are left out: those of passed runs, then the weakest reasons, later runs
// and later excerpts first.
func mdDropOrder(env *Envelope) [][2]int {
	var order [][2]int
	for i, r := range env.Runs {
		for j := range r.Excerpts {
			order = append(order, [2]int{i, j})
		}
	}
	key := func(x [2]int) (bool, int) {
		r := env.Runs[x[0]]
		return r.Status == "passed", mdReasonRank(r.Excerpts[x[1]].Reason)
	}
	sort.SliceStable(order, func(a, b int) bool {
		pa, ra := key(order[a])
		pb, rb := key(order[b])
		switch {
		case pa != pb:
			return pa
		case ra != rb:
			return ra > rb
		case order[a][0] != order[b][0]:
			return order[a][0] > order[b][0]
		}
		return order[a][1] > order[b][1]
	})
	return order
}

// mdDupOrder lists, in mdDropOrder's order, the excerpts that are not
// their test's first: a test's first excerpt holds its evidence, the
// later ones grow it.
func mdDupOrder(env *Envelope) [][2]int {
	var out [][2]int
	for _, x := range mdDropOrder(env) {
		r := env.Runs[x[0]]
		test := r.Excerpts[x[1]].Test
		for _, prev := range r.Excerpts[:x[1]] {
			if test != "" && prev.Test == test {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// mdApply returns a copy of env with plan p's cuts applied and Omitted
// counting them, and the excerpts left out per run index.
func mdApply(env *Envelope, p mdPlan) (*Envelope, map[int][]Excerpt) {
	e := *env
	var om Omitted
	if env.Omitted != nil {
		om = *env.Omitted
	}
	changed := false
	drop := map[[2]int]bool{}
	for _, x := range mdDropOrder(env)[:p.dropEx] {
		drop[x] = true
	}
	if p.dropDup > 0 {
		for _, x := range mdDupOrder(env)[:p.dropDup] {
			drop[x] = true
		}
	}
	dropped := map[int][]Excerpt{}
	if env.Runs != nil {
		e.Runs = make([]Run, len(env.Runs))
	}
	for i, src := range env.Runs {
		r := src
		if src.Excerpts != nil {
			r.Excerpts = make([]Excerpt, 0, len(src.Excerpts))
		}
		for j, x := range src.Excerpts {
			if drop[[2]int{i, j}] {
				dropped[i] = append(dropped[i], x)
				om.Excerpts++
				om.Bytes += int64(len(x.Text))
				changed = true
				continue
			}
			if t, n := mdTrimText(x, p.lines, p.width); n > 0 {
				x.Text = t
				om.Bytes += n
				changed = true
			}
			r.Excerpts = append(r.Excerpts, x)
		}
		if p.clamp > 0 {
			n := mdClampRun(&r, p.clamp)
			om.Bytes += n
			changed = changed || n > 0
		}
		e.Runs[i] = r
	}
	if p.dropSup > 0 {
		e.Superseded = append([]Superseded{}, env.Superseded[:len(env.Superseded)-p.dropSup]...)
		om.Superseded += p.dropSup
		changed = true
	}
	if p.clamp > 0 {
		var n int64
		e.Warnings, n = mdClampAll(env.Warnings, p.clamp)
		om.Bytes += n
		changed = changed || n > 0
	}
	if changed {
		e.Omitted = &om
	}
	return &e, dropped
}

// mdClampRun cuts a run's long untrusted strings, returning bytes left out.
func mdClampRun(r *Run, limit int) int64 {
	var total, n int64
	r.Warnings, n = mdClampAll(r.Warnings, limit)
	total += n
	r.Summary.Note, n = mdClamp(r.Summary.Note, limit)
	total += n
	if r.Summary.Failures != nil {
		fs := make([]Failure, len(r.Summary.Failures))
		for i, f := range r.Summary.Failures {
			f.Name, n = mdClamp(f.Name, limit)
			total += n
			f.Message, n = mdClamp(f.Message, limit)
			total += n
			fs[i] = f
		}
		r.Summary.Failures = fs
	}
	return total
}

func mdClampAll(ss []string, limit int) ([]string, int64) {
	if ss == nil {
		return nil, 0
	}
	out := make([]string, len(ss))
	var total int64
	for i, s := range ss {
		var n int64
		out[i], n = mdClamp(s, limit)
		total += n
	}
	return out, total
}

// mdClamp cuts s to about limit bytes on a rune boundary, with a marker.
func mdClamp(s string, limit int) (string, int64) {
	if len(s) <= limit {
		return s, 0
	}
	k := mdRuneCut(s, limit)
	return s[:k] + fmt.Sprintf("…[%d bytes omitted]…", len(s)-k), int64(len(s) - k)
}

func mdRuneCut(s string, n int) int {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// mdTrimText keeps at most maxLines lines of x.Text, each at most width
// bytes, and returns the text and how many bytes it left out. The marker
// for dropped lines names the stream lines and the excerpt's byte range,
// where the full bytes can be read.
func mdTrimText(x Excerpt, maxLines, width int) (string, int64) {
	lines := strings.SplitAfter(x.Text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	var omitted int64
	for i, ln := range lines {
		if maxLines > 0 && i == maxLines && len(lines) > maxLines+1 {
			rest := int64(len(strings.Join(lines[i:], "")))
			omitted += rest
			b.WriteString(mdLinesMarker(x, i, len(lines), rest))
			break
		}
		if width > 0 && len(ln) > width+1 {
			body := strings.TrimSuffix(ln, "\n")
			k := mdRuneCut(body, width)
			omitted += int64(len(body) - k)
			ln = body[:k] + fmt.Sprintf("…[%d bytes omitted]…", len(body)-k) + ln[len(body):]
		}
		b.WriteString(ln)
	}
	if omitted == 0 {
		return x.Text, 0
	}
	return b.String(), omitted
}

func mdLinesMarker(x Excerpt, from, total int, n int64) string {
	where := fmt.Sprintf("%s bytes %d–%d", cleanTerminalText(x.Stream, true), x.Start, x.End)
	if x.LastLine-x.FirstLine+1 == int64(total) {
		where = fmt.Sprintf("lines %d–%d of %s", x.FirstLine+int64(from), x.LastLine, where)
	}
	return fmt.Sprintf("…[%d bytes omitted: %s]…\n", n, where)
}

// mdBuild writes the body for an already cut envelope.
func mdBuild(e *Envelope, dropped map[int][]Excerpt, opts MarkdownOptions, budget int, p mdPlan) (string, error) {
	var b strings.Builder
	b.WriteString(MarkerComment + "\n")
	mdStatusLine(&b, e)
	mdNotes(&b, e, budget, p)
	mdTable(&b, e)
	mdWarnings(&b, e)
	for i, r := range e.Runs {
		if p.over {
			break
		}
		if mdHasSection(r, len(dropped[i])) {
			mdRunSection(&b, r, dropped[i], opts)
		}
	}
	mdSuperseded(&b, e)
	if err := mdEnvelope(&b, e); err != nil {
		return "", err
	}
	return b.String(), nil
}

// MayShowLogs reports whether RenderMarkdown can give run r (of an envelope
// before any cut) a section of its own, where its log pointers and
// artifact link are: a run that did not pass, counts failures or errors,
// or carries excerpts (a passing run's section shows only when some were
// cut to fit). The renderer's own test is narrower, never wider.
func MayShowLogs(r Run) bool { return mdHasSection(r, len(r.Excerpts)) }

// mdHasSection: a run gets a section when it did not pass, counts failures
// or errors, or has excerpts to show (for a passing run, ones cut to fit).
func mdHasSection(r Run, excerpts int) bool {
	return r.Status != "passed" || mdPositive(r.Summary.Failed) || mdPositive(r.Summary.Errors) || excerpts > 0
}

// mdStatusWord is what the status line shows for status: the word itself
// when the schema defines it, and otherwise a label that cannot be read as
// any defined status, so "passedX" or "passed\u200b" never shows as a pass.
func mdStatusWord(status string) string {
	switch {
	case status == "":
		return "unknown"
	case mdKnownStatus[status]:
		return status
	}
	return "unrecognised status " + EscapeInline(mdShort(status, 40))
}

// mdKnownStatus holds every status a record or envelope can carry.
var mdKnownStatus = map[string]bool{
	"passed": true, "failed": true, "timed_out": true, "signaled": true,
	"cancelled": true, "start_failed": true, "running": true, "incomplete": true,
	"unverified": true, "no_runs": true,
}

func mdStatusLine(b *strings.Builder, e *Envelope) {
	fmt.Fprintf(b, "**runledger: %s**", mdStatusWord(e.Status))
	if e.Status == "" {
		b.WriteString(" (the envelope has no status)")
	}
	if len(e.Runs) == 0 {
		b.WriteString(" · no runs recorded\n\n")
		return
	}
	var order []string
	counts := map[string]int{}
	for _, r := range e.Runs {
		if counts[r.Status] == 0 {
			order = append(order, r.Status)
		}
		counts[r.Status]++
	}
	parts := make([]string, len(order))
	for i, s := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[s], mdStatusWord(s))
	}
	fmt.Fprintf(b, " · %s: %s\n\n", mdPlural(len(e.Runs), "run"), strings.Join(parts, ", "))
}

// mdNotes warns about an envelope contradicting itself and about cuts.
func mdNotes(b *strings.Builder, e *Envelope, budget int, p mdPlan) {
	if e.Status == "passed" {
		for _, r := range e.Runs {
			if r.Status != "passed" || r.ExitCode == nil || *r.ExitCode != 0 || r.TimedOut {
				fmt.Fprintf(b, "> **Warning:** the envelope says passed but run %s is %s; do not treat this as a pass.\n\n",
					CodeSpan(mdShort(r.Name, 100), false), mdStatusWord(r.Status))
				break
			}
		}
		if len(e.Runs) == 0 {
			b.WriteString("> **Warning:** the envelope says passed but records no run; do not treat this as a pass.\n\n")
		}
	}
	if p.over {
		fmt.Fprintf(b, "> **Over budget:** this report exceeds its %d-byte budget even with every excerpt, superseded attempt and per-run section left out; status rows and the envelope are never dropped.\n\n", budget)
	}
	if o := e.Omitted; o != nil && (p != mdPlan{}) {
		fmt.Fprintf(b, "_Cut to fit %d bytes: %s, %d bytes of text and %s left out; `omitted` in the envelope counts them._\n\n",
			budget, mdPlural(o.Excerpts, "excerpt"), o.Bytes, mdPlural(o.Superseded, "superseded attempt"))
	}
}

func mdTable(b *strings.Builder, e *Envelope) {
	if len(e.Runs) == 0 {
		return
	}
	b.WriteString("| run | attempt | status | exit | duration | tests | truncated | logs |\n")
	b.WriteString("| --- | ---: | --- | --- | ---: | --- | --- | --- |\n")
	for _, r := range e.Runs {
		status := mdStatusWord(r.Status)
		if r.Termination != "" && r.Termination != "exited" {
			status += " (" + EscapeInline(r.Termination) + ")"
		}
		fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s | %s | %s |\n",
			CodeSpan(mdShort(r.Name, 100), true), r.Attempt, status, mdExit(r), mdDuration(r.DurationMS),
			mdTests(r.Summary), mdYesNo(r.Truncated), mdLogSizes(r.Logs))
	}
	b.WriteString("\n")
}

func mdExit(r Run) string {
	switch {
	case r.TimedOut:
		return "timed out"
	case r.ExitCode != nil:
		return strconv.Itoa(*r.ExitCode)
	case r.Signal != nil:
		return "signal " + EscapeInline(*r.Signal)
	}
	return "—"
}

func mdTests(s Summary) string {
	if s.Source == "" || s.Source == "none" || (s.Tests == nil && s.Passed == nil && s.Failed == nil) {
		return "— (no summary)"
	}
	var parts []string
	switch {
	case s.Passed != nil && s.Tests != nil:
		parts = append(parts, fmt.Sprintf("%d/%d passed", *s.Passed, *s.Tests))
	case s.Passed != nil:
		parts = append(parts, fmt.Sprintf("%d passed", *s.Passed))
	case s.Tests != nil:
		parts = append(parts, fmt.Sprintf("%d tests", *s.Tests))
	}
	for _, c := range []struct {
		n    *int
		word string
	}{{s.Failed, "failed"}, {s.Errors, "errors"}, {s.Skipped, "skipped"}} {
		if c.n != nil && (*c.n > 0 || c.word != "errors") {
			parts = append(parts, fmt.Sprintf("%d %s", *c.n, c.word))
		}
	}
	verified := "unverified"
	if s.Verified {
		verified = "verified"
	}
	return fmt.Sprintf("%s (%s, %s)", strings.Join(parts, ", "), EscapeInline(s.Source), verified)
}

func mdWarnings(b *strings.Builder, e *Envelope) {
	var lines []string
	for _, w := range e.Warnings {
		lines = append(lines, EscapeInline(mdShort(w, 300)))
	}
	for _, r := range e.Runs {
		name := CodeSpan(mdShort(r.Name, 100), false)
		for _, w := range r.Warnings {
			lines = append(lines, name+": "+EscapeInline(mdShort(w, 300)))
		}
		if r.Summary.Note != "" {
			lines = append(lines, name+": "+EscapeInline(mdShort(r.Summary.Note, 300)))
		}
	}
	if len(lines) == 0 {
		return
	}
	b.WriteString("**Warnings**\n\n")
	for _, l := range lines {
		b.WriteString("- " + l + "\n")
	}
	b.WriteString("\n")
}

// mdRunSection shows a run that did not pass: failing tests, excerpts,
// what was left out, and where the full logs are.
func mdRunSection(b *strings.Builder, r Run, dropped []Excerpt, opts MarkdownOptions) {
	fmt.Fprintf(b, "#### %s · attempt %d · %s\n\n", CodeSpan(mdShort(r.Name, 100), false), r.Attempt, mdStatusWord(r.Status))
	mdFailures(b, r)
	for _, x := range mdByTest(r.Excerpts) {
		b.WriteString(mdExcerptLabel(x) + "\n\n")
		b.WriteString(FenceBlock(x.Text, "text"))
		b.WriteString("\n")
	}
	mdDropped(b, dropped)
	mdLogs(b, r, opts)
}

func mdFailures(b *strings.Builder, r Run) {
	fs := r.Summary.Failures
	if len(fs) == 0 && len(r.Flaky) == 0 {
		return
	}
	const show = 10
	if len(fs) > 0 {
		fmt.Fprintf(b, "Failing tests (%d):\n\n", len(fs))
	}
	for i, f := range fs {
		if i == show {
			fmt.Fprintf(b, "- … and %d more in the envelope\n", len(fs)-show)
			break
		}
		line := CodeSpan(mdShort(f.Name, 120), false)
		if f.Classname != "" {
			line += " (" + CodeSpan(mdShort(f.Classname, 120), false) + ")"
		}
		if f.File != "" {
			loc := f.File
			if f.Line > 0 {
				loc += ":" + strconv.Itoa(f.Line)
			}
			line += " at " + CodeSpan(mdShort(loc, 160), false)
		}
		if f.Message != "" {
			line += ": " + CodeSpan(mdShort(f.Message, 200), false)
		}
		b.WriteString("- " + line + "\n")
	}
	if len(r.Flaky) > 0 {
		names := make([]string, 0, len(r.Flaky))
		for _, t := range r.Flaky {
			names = append(names, CodeSpan(mdShort(t.Name, 120), false))
		}
		fmt.Fprintf(b, "\nFlaky (failed, then passed on retry): %s\n", strings.Join(names, ", "))
	}
	b.WriteString("\n")
}

func mdExcerptLabel(x Excerpt) string {
	what := EscapeInline(mdShort(x.Reason, 20))
	if x.Test != "" {
		what = CodeSpan(mdShort(x.Test, 120), false) + " · " + what
	}
	return fmt.Sprintf("**%s** · %s · bytes %d–%d · lines %d–%d · sha256 %s",
		EscapeInline(mdShort(x.Stream, 40)), what, x.Start, x.End, x.FirstLine, x.LastLine,
		mdHash(x.SHA256))
}

// mdByTest orders excerpts for reading: each failing test's excerpts
// together, tests in the order the envelope first cites them, each test's
// excerpts in log order.
func mdByTest(xs []Excerpt) []Excerpt {
	first := map[string]int{}
	for i, x := range xs {
		if _, ok := first[x.Test]; !ok {
			first[x.Test] = i
		}
	}
	out := append([]Excerpt(nil), xs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := first[out[i].Test], first[out[j].Test]
		if a != b {
			return a < b
		}
		if out[i].Stream != out[j].Stream {
			return out[i].Stream > out[j].Stream // stdout before stderr
		}
		return out[i].Start < out[j].Start
	})
	return out
}

// mdHash shows the first 12 hex digits of a well-formed SHA-256 only.
func mdHash(h string) string {
	if !mdHexRE.MatchString(h) {
		return "(invalid)"
	}
	return "`" + h[:12] + "`"
}

var (
	mdHexRE    = regexp.MustCompile(`^[0-9a-f]{64}$`)
	mdMarkerRE = regexp.MustCompile(`^<<cg:[0-9a-f]{16}>>$`)
)

func mdDropped(b *strings.Builder, dropped []Excerpt) {
	if len(dropped) == 0 {
		return
	}
	const show = 5
	var n int64
	var where []string
	for i, x := range dropped {
		n += int64(len(x.Text))
		if i < show {
			where = append(where, fmt.Sprintf("%s bytes %d–%d (lines %d–%d, %s)", EscapeInline(mdShort(x.Stream, 40)),
				x.Start, x.End, x.FirstLine, x.LastLine, EscapeInline(mdShort(x.Reason, 20))))
		}
	}
	if len(dropped) > show {
		where = append(where, fmt.Sprintf("and %d more", len(dropped)-show))
	}
	fmt.Fprintf(b, "…[%s (%d bytes of text) left out for size: %s]…\n\n",
		mdPlural(len(dropped), "excerpt"), n, strings.Join(where, "; "))
}

func mdStreams(logs map[string]Log) []string {
	var names []string
	for _, s := range record.StreamNames {
		if _, ok := logs[s]; ok {
			names = append(names, s)
		}
	}
	var rest []string
	for s := range logs {
		if mdKnownStream(s) {
			continue
		}
		rest = append(rest, s)
	}
	sort.Strings(rest)
	return append(names, rest...)
}

func mdKnownStream(s string) bool {
	for _, k := range record.StreamNames {
		if s == k {
			return true
		}
	}
	return false
}

func mdLogSizes(logs map[string]Log) string {
	if len(logs) == 0 {
		return "—"
	}
	var parts []string
	for _, s := range mdStreams(logs) {
		parts = append(parts, EscapeInline(mdShort(s, 40))+" "+mdBytes(logs[s].Bytes))
	}
	return strings.Join(parts, ", ")
}

func mdLogs(b *strings.Builder, r Run, opts MarkdownOptions) {
	if len(r.Logs) == 0 && opts.ArtifactURL == "" {
		return
	}
	b.WriteString("Full logs")
	if link := mdLink("artifact", opts.ArtifactURL); link != "" {
		b.WriteString(" (" + link + ")")
	}
	b.WriteString(":\n\n")
	for _, s := range mdStreams(r.Logs) {
		l := r.Logs[s]
		line := fmt.Sprintf("- %s: %s, sha256 %s", EscapeInline(mdShort(s, 40)), mdBytes(l.Bytes), mdHash(l.SHA256))
		if l.Truncated {
			line += ", truncated, stored " + mdRanges(l.Stored)
		}
		if link := mdLink("artifact", l.Artifact); link != "" {
			line += " · " + link
		} else if l.Artifact != "" {
			line += " · artifact " + EscapeInline(mdShort(l.Artifact, 200))
		}
		if l.Path != "" {
			line += " · " + EscapeInline(mdShort(l.Path, 200))
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\n")
}

func mdRanges(rs [][2]int64) string {
	if len(rs) == 0 {
		return "(ranges unknown)"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%d–%d", r[0], r[1])
	}
	return strings.Join(parts, ", ")
}

func mdSuperseded(b *strings.Builder, e *Envelope) {
	dropped := 0
	if e.Omitted != nil {
		dropped = e.Omitted.Superseded
	}
	if len(e.Superseded) == 0 && dropped == 0 {
		return
	}
	fmt.Fprintf(b, "**Superseded attempts**\n\n")
	for _, s := range e.Superseded {
		exit := "—"
		if s.ExitCode != nil {
			exit = strconv.Itoa(*s.ExitCode)
		}
		line := fmt.Sprintf("- %s · attempt %d · %s · exit %s", CodeSpan(mdShort(s.Name, 100), false), s.Attempt, mdStatusWord(s.Status), exit)
		if mdMarkerRE.MatchString(s.Marker) {
			line += " · `" + s.Marker + "`"
		} else if s.Marker != "" {
			line += " · invalid marker " + EscapeInline(mdShort(s.Marker, 40))
		}
		if link := mdLink("full text", s.Pointer); link != "" {
			line += " · " + link
		} else if s.Pointer != "" {
			line += " · " + EscapeInline(mdShort(s.Pointer, 200))
		}
		b.WriteString(line + "\n")
	}
	if dropped > 0 {
		fmt.Fprintf(b, "- …[%s left out for size; counted in the envelope]…\n", mdPlural(dropped, "superseded attempt"))
	}
	b.WriteString("\n")
}

// mdEnvelope embeds e as one line of JSON. encoding/json escapes <, > and &,
// so no marker or HTML can appear in it, and decoding gives e back.
func mdEnvelope(b *strings.Builder, e *Envelope) error {
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

// ExtractEnvelope returns the envelope embedded in a body RenderMarkdown
// produced: the JSON between MarkerEnvelopeBegin and MarkerEnvelopeEnd.
func ExtractEnvelope(body string) (*Envelope, error) {
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
	var e Envelope
	if err := json.Unmarshal([]byte(lines[1]), &e); err != nil {
		return nil, fmt.Errorf("extract envelope: %w", err)
	}
	return &e, nil
}

// mdLink renders a link to an http(s) URL, or "" for anything else. Bytes
// that could end the destination or start markup are percent-encoded.
func mdLink(text, url string) string {
	if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		return ""
	}
	var b strings.Builder
	for i := 0; i < len(url); i++ {
		c := url[i]
		if c > ' ' && c < 0x7f && !strings.ContainsRune("<>()[]\\\"'`|{}^ ", rune(c)) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return "[" + text + "](" + b.String() + ")"
}

// mdShort cuts s to at most n runes for display; the envelope keeps it whole.
func mdShort(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

func mdPlural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func mdPositive(n *int) bool { return n != nil && *n > 0 }

func mdYesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

func mdBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, suffix := float64(n), []string{"KiB", "MiB", "GiB", "TiB"}
	i := -1
	for v >= unit && i < len(suffix)-1 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %s", v, suffix[i])
}

func mdDuration(ms *int64) string {
	switch {
	case ms == nil:
		return "—"
	case *ms < 1000:
		return fmt.Sprintf("%dms", *ms)
	case *ms < 60_000:
		return fmt.Sprintf("%.1fs", float64(*ms)/1000)
	}
	s := *ms / 1000
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}
