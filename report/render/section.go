package render

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/internal/terminal"
)

// runSection shows a run that did not pass: failing tests, excerpts,
// what was left out, and where the full logs are. A body of one run has
// its heading already (the status line, or a comment section's title).
func runSection(b *strings.Builder, r report.Run, dropped []report.Excerpt, opts Options, alone bool) {
	if !alone {
		head := Icon(r.Status) + " " + EscapeInline(short(opts.label(r.Name), 100)) + " · " + statusWord(r.Status)
		if how := ending(r); how != "" {
			head += " · " + how
		}
		b.WriteString("#### " + head + "\n\n")
	}
	baselineLine(b, r)
	failureList(b, r)
	for _, g := range excerptGroups(byTest(r.Excerpts)) {
		b.WriteString(groupLabel(g) + "\n\n")
		b.WriteString(FenceBlock(groupText(g), "text"))
		b.WriteString("\n")
	}
	droppedNote(b, dropped)
	logLine(b, r, opts)
}

// bullet is one failing test as a list shows it. Tag is a short label
// after the name (e.g. the failure's origin against the base branch).
type bullet struct {
	Name, Tag, Class, Where, Message string
	// Past is the test's history in words (pastWords), already rendered.
	Past string
}

// bullets lists a run's failures for reading: a parent test that fails
// only because a subtest did (Go's TestTotal above TestTotal/case) is
// folded into its subtests rather than given a bare line of its own.
func bullets(fs []report.Failure, tag, past func(report.Failure) string) ([]bullet, []string) {
	parents := map[string]bool{}
	for _, f := range fs {
		name := f.Name
		for i := strings.LastIndexByte(name, '/'); i > 0; i = strings.LastIndexByte(name, '/') {
			name = name[:i]
			parents[f.Classname+"\x00"+name] = true
		}
	}
	var out []bullet
	var folded []string
	for _, f := range fs {
		if parents[f.Classname+"\x00"+f.Name] && f.Message == "" {
			folded = append(folded, f.Name)
			continue
		}
		where := f.File
		if where != "" && f.Line > 0 {
			where += ":" + strconv.Itoa(f.Line)
		}
		b := bullet{Name: f.Name, Class: f.Classname, Where: where, Message: f.Message}
		if tag != nil {
			b.Tag = tag(f)
		}
		if past != nil {
			b.Past = past(f)
		}
		out = append(out, b)
	}
	return out, folded
}

// foldedNote names the parent tests bullets folded into their subtests.
func foldedNote(folded []string, name func(string) string) string {
	if len(folded) == 0 {
		return ""
	}
	const show = 5
	names := make([]string, 0, show)
	for _, f := range folded[:min(len(folded), show)] {
		names = append(names, name(f))
	}
	if len(folded) > show {
		names = append(names, fmt.Sprintf("%d more", len(folded)-show))
	}
	verb := "fails"
	if len(folded) > 1 {
		verb = "fail"
	}
	return strings.Join(names, ", ") + " " + verb + " through the subtests listed"
}

func failureList(b *strings.Builder, r report.Run) {
	fs := r.Summary.Failures
	if len(fs) == 0 && len(r.Flaky) == 0 {
		return
	}
	const show = listedFailures
	list, folded := bullets(fs, originTag(r), func(f report.Failure) string {
		return pastWords(r, f, shortCommit, EscapeInline)
	})
	if line := historyLine(r, EscapeInline); line != "" {
		b.WriteString(line + "\n\n")
	}
	if len(fs) > 0 {
		fmt.Fprintf(b, "**Failing tests (%d%s)**", len(fs)+r.Summary.FailuresOmitted, originCounts(r))
		if note := foldedNote(folded, func(s string) string { return CodeSpan(short(s, 120), false) }); note != "" {
			b.WriteString(" · " + note)
		}
		b.WriteString("\n\n")
	}
	for i, f := range list {
		if i == show {
			fmt.Fprintf(b, "- … and %d more in the envelope\n", len(list)-show)
			break
		}
		b.WriteString("- " + bulletLine(f) + "\n")
	}
	if r.Summary.FailuresOmitted > 0 && len(list) <= show {
		fmt.Fprintf(b, "- … and %d more left out for size\n", r.Summary.FailuresOmitted)
	}
	if len(r.Flaky) > 0 {
		names := make([]string, 0, len(r.Flaky))
		for _, t := range r.Flaky {
			names = append(names, CodeSpan(short(t.Name, 120), false))
		}
		fmt.Fprintf(b, "\nFlaky (failed, then passed on retry): %s\n", strings.Join(names, ", "))
	}
	b.WriteString("\n")
}

// bulletLine is one failing test: its name, a tag if any, the message,
// then where (file:line, then the class or package), plain and small.
func bulletLine(f bullet) string {
	line := CodeSpan(short(f.Name, 120), false)
	if f.Tag != "" {
		tag := "_" + EscapeInline(short(f.Tag, 40)) + "_"
		if strings.HasPrefix(f.Tag, "new") { // what this change broke stands out
			tag = "**" + EscapeInline(short(f.Tag, 40)) + "**"
		}
		line += " " + tag
	}
	if f.Past != "" {
		line += " — " + f.Past
	}
	if f.Message != "" {
		line += " — " + EscapeInline(short(f.Message, 200))
	}
	var where []string
	for _, w := range []string{f.Where, f.Class} {
		if w != "" {
			where = append(where, EscapeInline(short(w, 160)))
		}
	}
	if len(where) > 0 {
		line += " · " + strings.Join(where, " · ")
	}
	return line
}

// excerptLabel names what an excerpt shows and where it is in the log;
// its byte range and hash are the envelope's.
func excerptLabel(x report.Excerpt) string {
	what := EscapeInline(reasonText(x.Reason))
	if x.Test != "" {
		what = "**" + CodeSpan(short(x.Test, 120), false) + "**"
	}
	return fmt.Sprintf("%s · %s, %s", what, EscapeInline(short(x.Stream, 40)), lineRange(x.FirstLine, x.LastLine))
}

// excerptGroups puts a test's excerpts together, to be shown as one
// block under one label; excerpts of no test stand alone.
func excerptGroups(xs []report.Excerpt) [][]report.Excerpt {
	var gs [][]report.Excerpt
	for _, x := range xs {
		if n := len(gs); n > 0 && x.Test != "" && gs[n-1][0].Test == x.Test {
			gs[n-1] = append(gs[n-1], x)
			continue
		}
		gs = append(gs, []report.Excerpt{x})
	}
	return gs
}

// groupLabel is excerptLabel for a group: each excerpt's place, in order.
func groupLabel(g []report.Excerpt) string {
	if len(g) == 1 {
		return excerptLabel(g[0])
	}
	var places []string
	for i, x := range g {
		place := lineRange(x.FirstLine, x.LastLine)
		if i == 0 || x.Stream != g[i-1].Stream {
			place = EscapeInline(short(x.Stream, 40)) + " " + place
		} else {
			place = strings.TrimPrefix(strings.TrimPrefix(place, "lines "), "line ")
		}
		places = append(places, place)
	}
	return "**" + CodeSpan(short(g[0].Test, 120), false) + "** · " + strings.Join(places, ", ")
}

// groupText joins a group's texts as a reader is shown them (see shown);
// a line "⋮" stands for the log between two excerpts that do not touch,
// unless the first one's note says what lies between.
func groupText(g []report.Excerpt) string {
	var b strings.Builder
	for i, x := range g {
		if i > 0 && g[i-1].Note == "" && !(x.Stream == g[i-1].Stream && x.Start == g[i-1].End) {
			b.WriteString("⋮\n")
		}
		b.WriteString(shown(x.Text))
		if x.Note != "" {
			b.WriteString("…[" + terminal.Clean(x.Note, true) + "]…\n")
		}
	}
	return b.String()
}

// shown is an excerpt's text as a terminal would end up showing it, line
// by line: a line overwritten with carriage returns (a progress bar) shows
// its last non-empty segment, a CR before LF goes, and control characters
// become their visible pictures (terminal.Clean). The excerpt's Text stays
// its bytes; this is only how a surface prints it. It ends in a newline.
func shown(text string) string {
	var b strings.Builder
	for _, ln := range strings.SplitAfter(text, "\n") {
		if ln == "" {
			continue
		}
		body := strings.TrimSuffix(strings.TrimSuffix(ln, "\n"), "\r")
		b.WriteString(terminal.Clean(lastSegment(body), false))
		b.WriteByte('\n')
	}
	return b.String()
}

// lastSegment is the last segment of a line after a carriage return or
// a move to the first column (`ESC[1G`, `ESC[G`: bats' pretty formatter
// writes its ✓ or ✗ over the test's name so) that shows something.
func lastSegment(line string) string {
	for {
		i, n := lastReturn(line)
		if i < 0 {
			return line
		}
		if rest := line[i+n:]; strings.TrimSpace(terminal.Clean(rest, true)) != "" || n == 1 && rest != "" {
			return rest
		}
		line = line[:i]
	}
}

// lastReturn returns where the last carriage return or move to the first
// column of line starts and its length, or -1.
func lastReturn(line string) (at, n int) {
	at, n = strings.LastIndexByte(line, '\r'), 1
	for _, seq := range []string{"\x1b[1G", "\x1b[G"} {
		if i := strings.LastIndex(line, seq); i > at {
			at, n = i, len(seq)
		}
	}
	return at, n
}

// reasonText is an excerpt's reason as a reader says it.
func reasonText(reason string) string {
	switch reason {
	case "tail":
		return "last lines before the end"
	case "head":
		return "first lines"
	case "whole":
		return "whole log"
	}
	return short(reason, 20)
}

func lineRange(first, last int64) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d–%d", first, last)
}

// byTest orders excerpts for reading: each failing test's excerpts
// together, tests in the order the envelope first cites them, each test's
// excerpts in log order.
func byTest(xs []report.Excerpt) []report.Excerpt {
	first := map[string]int{}
	for i, x := range xs {
		if _, ok := first[x.Test]; !ok {
			first[x.Test] = i
		}
	}
	out := append([]report.Excerpt(nil), xs...)
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

func droppedNote(b *strings.Builder, dropped []report.Excerpt) {
	if len(dropped) == 0 {
		return
	}
	const show = 5
	var n int64
	var where []string
	for i, x := range dropped {
		n += int64(len(x.Text))
		if i < show {
			where = append(where, fmt.Sprintf("%s bytes %d–%d (lines %d–%d, %s)", EscapeInline(short(x.Stream, 40)),
				x.Start, x.End, x.FirstLine, x.LastLine, EscapeInline(short(x.Reason, 20))))
		}
	}
	if len(dropped) > show {
		where = append(where, fmt.Sprintf("and %d more", len(dropped)-show))
	}
	fmt.Fprintf(b, "…[%s (%d bytes of text) left out for size: %s]…\n\n",
		plural(len(dropped), "excerpt"), n, strings.Join(where, "; "))
}

// logLine says where the full logs are, for a reader: the artifact and
// the job's log page when linked, each stream's size once. Store paths,
// hashes and artifact ids are the envelope's.
func logLine(b *strings.Builder, r report.Run, opts Options) {
	var links []string
	artifact, named := opts.ArtifactURL, ""
	for _, s := range streamOrder(r.Logs) {
		if a := r.Logs[s].Artifact; artifact == "" && linkTo("", a) != "" {
			artifact = a
		} else if a != "" && named == "" && linkTo("", a) == "" {
			named = a
		}
	}
	if l := linkTo("artifact", artifact); l != "" {
		links = append(links, l)
	} else if named != "" {
		links = append(links, "artifact "+CodeSpan(short(named, 200), false))
	}
	if l := linkTo("job log", opts.JobURL); l != "" {
		links = append(links, l)
	}
	var sizes []string
	for _, s := range streamOrder(r.Logs) {
		l := r.Logs[s]
		if !sizeShown(r.Logs, s) {
			continue
		}
		size := EscapeInline(short(s, 40)) + " " + byteSize(l.Bytes)
		if l.Truncated {
			size += " truncated to its head and tail"
		}
		sizes = append(sizes, size)
	}
	if len(links) == 0 && len(sizes) == 0 {
		return
	}
	line := "Full logs"
	if len(links) > 0 {
		line += ": " + strings.Join(links, " · ")
	}
	if len(sizes) > 0 {
		line += " (" + strings.Join(sizes, ", ") + ")"
	}
	b.WriteString(line + "\n\n")
}

// sizeShown: a stream's size is worth a reader's glance. output is both
// streams interleaved, their sizes say it; an empty stream is left out
// unless every stream is empty.
func sizeShown(logs map[string]report.Log, s string) bool {
	_, stdout := logs["stdout"]
	_, stderr := logs["stderr"]
	if s == "output" && (stdout || stderr) {
		return false
	}
	if logs[s].Bytes > 0 {
		return true
	}
	for k, l := range logs {
		if l.Bytes > 0 && k != s {
			return false
		}
	}
	return true
}
