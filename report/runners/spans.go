package runners

import (
	"slices"
)

// spanCap bounds Summary.Spans, so memory does not grow with the number of
// counted lines. A variable so that tests can make small logs coalesce.
var spanCap = 1024

// spanSet gathers the byte ranges of the lines a result depends on. Up to
// spanCap ranges it keeps every such line exactly, adjacent lines merged.
// Past that it merges the ranges closest to each other, and from then on
// merges any new line that close to the previous range as it comes: each
// range then covers its counted lines and the uncounted lines between them.
//
// The merging depends only on the sequence of counted lines, so a re-parse
// that counts the same lines (what Verify checks) rebuilds the same ranges.
type spanSet struct {
	spans []Span
	gap   int64 // a line at most this far after the last range joins it
}

func (ss *spanSet) add(l *line) {
	if n := len(ss.spans); n > 0 && l.start-ss.spans[n-1].End <= ss.gap {
		ss.spans[n-1].End, ss.spans[n-1].LastLine = l.end, l.num
		return
	}
	ss.spans = append(ss.spans, Span{Start: l.start, End: l.end, FirstLine: l.num, LastLine: l.num})
	if len(ss.spans) >= 2*spanCap {
		ss.compact()
	}
}

// final returns the ranges, at most spanCap of them.
func (ss *spanSet) final() []Span {
	if len(ss.spans) > spanCap {
		ss.compact()
	}
	return ss.spans
}

// compact merges the len-spanCap smallest gaps between neighbouring ranges
// (the leftmost first among equal gaps) and raises the merge distance to
// the largest gap merged.
func (ss *spanSet) compact() {
	n := len(ss.spans)
	drop := n - spanCap
	if drop <= 0 {
		return
	}
	order := make([]int, n-1) // gap i lies between span i and span i+1
	for i := range order {
		order[i] = i
	}
	gapOf := func(i int) int64 { return ss.spans[i+1].Start - ss.spans[i].End }
	slices.SortStableFunc(order, func(a, b int) int {
		ga, gb := gapOf(a), gapOf(b)
		switch {
		case ga < gb:
			return -1
		case ga > gb:
			return 1
		}
		return a - b
	})
	merge := make([]bool, n-1)
	for _, i := range order[:drop] {
		merge[i] = true
		ss.gap = max(ss.gap, gapOf(i))
	}
	out := ss.spans[:1]
	for i := 1; i < n; i++ {
		if merge[i-1] {
			last := &out[len(out)-1]
			last.End, last.LastLine = ss.spans[i].End, ss.spans[i].LastLine
			continue
		}
		out = append(out, ss.spans[i])
	}
	ss.spans = out
}
