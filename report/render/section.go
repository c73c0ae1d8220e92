package render

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/runledger/runledger/report"
)

// runSection shows a run that did not pass: failing tests, excerpts,
// what was left out, and where the full logs are.
func runSection(b *strings.Builder, r report.Run, dropped []report.Excerpt, artifactURL string) {
	fmt.Fprintf(b, "#### %s · attempt %d · %s\n\n", CodeSpan(short(r.Name, 100), false), r.Attempt, statusWord(r.Status))
	baselineLine(b, r)
	failureList(b, r)
	for _, x := range byTest(r.Excerpts) {
		b.WriteString(excerptLabel(x) + "\n\n")
		b.WriteString(FenceBlock(x.Text, "text"))
		b.WriteString("\n")
	}
	droppedNote(b, dropped)
	logList(b, r, artifactURL)
}

func failureList(b *strings.Builder, r report.Run) {
	fs := r.Summary.Failures
	if len(fs) == 0 && len(r.Flaky) == 0 {
		return
	}
	const show = 10
	if len(fs) > 0 {
		fmt.Fprintf(b, "Failing tests (%d%s):\n\n", len(fs), originCounts(r))
	}
	commit := ""
	if r.Baseline != nil {
		commit = r.Baseline.Commit
	}
	for i, f := range fs {
		if i == show {
			fmt.Fprintf(b, "- … and %d more in the envelope\n", len(fs)-show)
			break
		}
		line := CodeSpan(short(f.Name, 120), false)
		if w := originWords(f.Origin, commit); w != "" {
			line = w + " · " + line
		}
		if f.Classname != "" {
			line += " (" + CodeSpan(short(f.Classname, 120), false) + ")"
		}
		if f.File != "" {
			loc := f.File
			if f.Line > 0 {
				loc += ":" + strconv.Itoa(f.Line)
			}
			line += " at " + CodeSpan(short(loc, 160), false)
		}
		if f.Message != "" {
			line += ": " + CodeSpan(short(f.Message, 200), false)
		}
		b.WriteString("- " + line + "\n")
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

func excerptLabel(x report.Excerpt) string {
	what := EscapeInline(short(x.Reason, 20))
	if x.Test != "" {
		what = CodeSpan(short(x.Test, 120), false) + " · " + what
	}
	return fmt.Sprintf("**%s** · %s · bytes %d–%d · lines %d–%d · sha256 %s",
		EscapeInline(short(x.Stream, 40)), what, x.Start, x.End, x.FirstLine, x.LastLine,
		shortHash(x.SHA256))
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

func logList(b *strings.Builder, r report.Run, artifactURL string) {
	if len(r.Logs) == 0 && artifactURL == "" {
		return
	}
	b.WriteString("Full logs")
	if link := linkTo("artifact", artifactURL); link != "" {
		b.WriteString(" (" + link + ")")
	}
	b.WriteString(":\n\n")
	for _, s := range streamOrder(r.Logs) {
		l := r.Logs[s]
		line := fmt.Sprintf("- %s: %s, sha256 %s", EscapeInline(short(s, 40)), byteSize(l.Bytes), shortHash(l.SHA256))
		if l.Truncated {
			line += ", truncated, stored " + rangeList(l.Stored)
		}
		if link := linkTo("artifact", l.Artifact); link != "" {
			line += " · " + link
		} else if l.Artifact != "" {
			line += " · artifact " + EscapeInline(short(l.Artifact, 200))
		}
		if l.Path != "" {
			line += " · " + EscapeInline(short(l.Path, 200))
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\n")
}
