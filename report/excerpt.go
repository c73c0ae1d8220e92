package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/runledger/runledger/report/internal/lines"
)

// ExcerptOptions bounds SelectExcerpts. Zero fields take the defaults shown.
type ExcerptOptions struct {
	// PerKind is how many hits of each pattern kind are kept: the first ones
	// for failures and errors, the last ones for summary lines (default 8).
	PerKind int
	// MaxExcerpts caps the excerpts returned, best first (default 16).
	MaxExcerpts int
	// MaxBytes caps the raw byte range of one excerpt (default 8192). A hit
	// line longer than that is clipped to its first MaxBytes bytes.
	MaxBytes int64
	// MaxLineBytes: longer lines are cut in Text, keeping their start and
	// end around a "…[N bytes omitted]…" marker (default 1024).
	MaxLineBytes int
	// HeadLines and TailLines size the fallback used when nothing matched
	// (defaults 20 and 40).
	HeadLines, TailLines int
	// StoredRanges, when the stored file holds several pieces of the
	// original stream (head and tail of a truncated stream), lists the
	// original [start, end) of each piece in file order. Excerpts never
	// cross a boundary between pieces. Nil means one piece.
	StoredRanges [][2]int64
}

func (o ExcerptOptions) withDefaults() ExcerptOptions {
	if o.PerKind <= 0 {
		o.PerKind = 8
	}
	if o.MaxExcerpts <= 0 {
		o.MaxExcerpts = 16
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 8192
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = 1024
	}
	if o.HeadLines <= 0 {
		o.HeadLines = 20
	}
	if o.TailLines <= 0 {
		o.TailLines = 40
	}
	return o
}

// Excerpt reasons, best first; the order is the priority of SelectExcerpts.
const (
	exRankFailure = iota
	exRankError
	exRankSummary
	exRankHead
	exRankTail
)

var exReasons = [...]string{"failure", "error", "summary", "head", "tail"}

// SelectExcerpts chooses excerpts of one stored stream file of size bytes,
// reading it once front to back with bounded memory (lines of any length,
// NUL-filled or binary content included).
//
// Priority: failing tests' blocks and assertion lines and the runner's
// failure sections (reason "failure"), then error markers with a little
// context ("error"), then runner summary lines ("summary"); head and tail
// ("head", "tail") only when nothing matched. Patterns match at line starts,
// leading blanks allowed, after terminal escapes are removed; a numbered
// source listing or a diff line that merely contains the words does not
// match. Each hit gets up to 3 lines before and a bounded block after,
// overlapping ranges are merged, and each excerpt stays within MaxBytes.
//
// Offsets are byte offsets into the stored file and FirstLine/LastLine are
// 1-based line numbers counted in the stored file; use MapOffsets to turn
// the offsets into original-stream offsets when the stream was truncated.
// SHA256 is of exactly the raw bytes [Start, End). Text is those bytes made
// readable: ANSI escapes removed; a line overwritten with carriage returns
// (a progress bar) shows only its last non-empty \r-separated segment, as a
// terminal would end up showing it, and a CR before LF is dropped; invalid
// UTF-8 becomes U+FFFD and control characters their visible control
// pictures (NUL as ␀); lines over MaxLineBytes are cut with a
// "…[N bytes omitted]…" marker counting raw bytes. Text has one line per
// raw line, so lines in Text map to FirstLine…LastLine.
func SelectExcerpts(ra io.ReaderAt, size int64, stream string, opts ExcerptOptions) ([]Excerpt, error) {
	opts = opts.withDefaults()
	segs, err := exSegments(size, opts.StoredRanges)
	if err != nil {
		return nil, fmt.Errorf("select excerpts of %s: %w", stream, err)
	}
	sc := newExScanner(opts)
	for _, seg := range segs {
		if err := sc.scanSegment(ra, seg[0], seg[1]); err != nil {
			return nil, fmt.Errorf("select excerpts of %s: %w", stream, err)
		}
	}
	ranges := exMerge(sc.finish(), opts.MaxBytes, segs)
	sort.SliceStable(ranges, func(i, j int) bool {
		if ranges[i].rank != ranges[j].rank {
			return ranges[i].rank < ranges[j].rank
		}
		return ranges[i].start < ranges[j].start
	})
	if len(ranges) > opts.MaxExcerpts {
		ranges = ranges[:opts.MaxExcerpts]
	}
	out := make([]Excerpt, 0, len(ranges))
	for _, r := range ranges {
		ex, err := r.excerpt(ra, stream, opts.MaxLineBytes)
		if err != nil {
			return nil, fmt.Errorf("select excerpts of %s: %w", stream, err)
		}
		out = append(out, ex)
	}
	return out, nil
}

// exSegments turns stored ranges into [start, end) pieces of the stored
// file, checking that they are ordered and add up to size.
func exSegments(size int64, stored [][2]int64) ([][2]int64, error) {
	if len(stored) == 0 {
		return [][2]int64{{0, size}}, nil
	}
	segs := make([][2]int64, 0, len(stored))
	var off int64
	for i, r := range stored {
		if r[1] < r[0] || (i > 0 && r[0] < stored[i-1][1]) {
			return nil, fmt.Errorf("stored range %d [%d,%d) is out of order", i, r[0], r[1])
		}
		segs = append(segs, [2]int64{off, off + r[1] - r[0]})
		off += r[1] - r[0]
	}
	if off != size {
		return nil, fmt.Errorf("stored ranges hold %d bytes, file has %d", off, size)
	}
	return segs, nil
}

// exLine is one line of the stored file, or the piece of it inside one
// stored segment.
type exLine struct {
	start, end int64 // [start, end), end after the newline if any
	no         int64 // 1-based line number in the stored file
	nl         bool  // ends with '\n'
}

// exRange is a candidate excerpt while scanning.
type exRange struct {
	start, end     int64
	first, last    int64 // line numbers of the first and last line
	firstLineStart int64 // start of the first line (< start when clipped)
	lastLineStart  int64
	lastLineEnd    int64 // end of the last line (> end when clipped)
	lastNL         bool
	rank           int
	mode           exMode
	afterLeft      int
	dropped        bool
}

func newExRange(l exLine, rank int) *exRange {
	return &exRange{start: l.start, end: l.end, first: l.no, last: l.no,
		firstLineStart: l.start, lastLineStart: l.start, lastLineEnd: l.end,
		lastNL: l.nl, rank: rank}
}

// exScanPrefix is how much of each line is kept for matching.
const exScanPrefix = 4096

type exScanner struct {
	opts     ExcerptOptions
	lineNo   int64
	recent   exRing // last lines of the current segment: context before a hit, and the tail
	head     *exRange
	headDone bool
	open     []*exRange
	done     []*exRange
	counts   map[string]int
	last     map[string][]*exRange // summary kinds keep their last hits
	lines    *lines.Reader
}

func newExScanner(opts ExcerptOptions) *exScanner {
	return &exScanner{opts: opts, lineNo: 1, counts: map[string]int{},
		last: map[string][]*exRange{}, recent: newExRing(max(exMaxBefore, opts.TailLines)),
		lines: lines.NewReader(nil, exScanPrefix, lines.ReadBlock)}
}

// exRing keeps the last lines seen, oldest first.
type exRing struct {
	buf      []exLine
	first, n int
}

func newExRing(size int) exRing { return exRing{buf: make([]exLine, size)} }

func (r *exRing) push(l exLine) {
	if r.n < len(r.buf) {
		r.buf[r.n] = l // not yet wrapped: first is 0
		r.n++
		return
	}
	r.buf[r.first] = l
	if r.first++; r.first == len(r.buf) {
		r.first = 0
	}
}

// back returns the k-th line from the newest (0 is the newest).
func (r *exRing) back(k int) exLine {
	i := r.first + r.n - 1 - k
	if i >= len(r.buf) {
		i -= len(r.buf)
	}
	return r.buf[i]
}

func (r *exRing) reset() { r.first, r.n = 0, 0 }

// scanSegment reads the stored bytes [start, end) line by line. Context and
// open blocks end at the segment's end: the next segment follows a gap.
func (sc *exScanner) scanSegment(ra io.ReaderAt, start, end int64) error {
	if end <= start {
		sc.closeAll()
		return nil
	}
	sc.lines.Reset(io.NewSectionReader(ra, start, end-start))
	off := start
	sc.recent.reset()
	for off < end {
		ln, err := sc.lines.Next()
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return fmt.Errorf("read at %d: %w", off, err)
		}
		l := exLine{start: off, end: off + ln.Len, no: sc.lineNo, nl: ln.NL}
		off = l.end
		sc.line(l, ln.Prefix, !ln.Dirty)
		if l.nl {
			sc.lineNo++
		}
	}
	sc.closeAll()
	return nil
}

// line handles one line: it extends open blocks, then records a hit.
func (sc *exScanner) line(l exLine, prefix []byte, clean bool) {
	view := prefix
	if !clean {
		view = exMatchView(prefix)
	} else if n := len(view); n > 0 && view[n-1] == '\n' {
		view = view[:n-1]
	}
	trimmed := view
	for len(trimmed) > 0 && (trimmed[0] == ' ' || trimmed[0] == '\t') {
		trimmed = trimmed[1:]
	}
	indented := len(trimmed) < len(view) && len(trimmed) > 0
	p := exMatch(trimmed, indented)
	stopsSection := p != nil && (p.section || p.rank == exRankSummary)
	sc.extendOpen(l, indented, stopsSection)
	if p != nil {
		sc.hit(l, p)
	}
	sc.remember(l)
}

func (sc *exScanner) extendOpen(l exLine, indented, sectionStart bool) {
	if len(sc.open) == 0 {
		return
	}
	kept := sc.open[:0]
	for _, r := range sc.open {
		if !r.dropped && r.extend(l, indented, sectionStart, sc.opts.MaxBytes) {
			kept = append(kept, r)
		}
	}
	clear(sc.open[len(kept):])
	sc.open = kept
}

// extend adds l to r per r's mode and reports whether r stays open.
func (r *exRange) extend(l exLine, indented, sectionStart bool, maxBytes int64) bool {
	include, stop := true, false
	switch r.mode {
	case exModeIndented:
		include, stop = indented, !indented
	case exModeTrace:
		stop = !indented
	case exModeSection:
		include, stop = !sectionStart, sectionStart
	}
	if include && l.end-r.start > maxBytes {
		return false
	}
	if include {
		r.end, r.last, r.lastLineStart, r.lastLineEnd, r.lastNL = l.end, l.no, l.start, l.end, l.nl
		r.afterLeft--
	}
	return !stop && r.afterLeft > 0
}

func (sc *exScanner) hit(l exLine, p *exPattern) {
	if p.rank != exRankSummary {
		if sc.counts[p.kind] >= sc.opts.PerKind {
			return
		}
		sc.counts[p.kind]++
	}
	r := newExRange(l, p.rank)
	r.mode, r.afterLeft = p.mode, p.after
	if l.end-l.start > sc.opts.MaxBytes {
		r.end = l.start + sc.opts.MaxBytes
		r.afterLeft = 0
	} else {
		for k := 0; k < min(sc.recent.n, p.before); k++ {
			b := sc.recent.back(k)
			if r.end-b.start > sc.opts.MaxBytes {
				break
			}
			r.start, r.first, r.firstLineStart = b.start, b.no, b.start
		}
	}
	if p.rank == exRankSummary {
		q := append(sc.last[p.kind], r)
		if len(q) > sc.opts.PerKind {
			q[0].dropped = true
			q = q[1:]
		}
		sc.last[p.kind] = q
	} else {
		sc.done = append(sc.done, r)
	}
	if r.afterLeft > 0 {
		sc.open = append(sc.open, r)
	}
}

// remember keeps the context ring, the fallback head and the tail ring.
func (sc *exScanner) remember(l exLine) {
	sc.recent.push(l)
	sc.extendHead(l)
}

func (sc *exScanner) extendHead(l exLine) {
	if sc.headDone {
		return
	}
	switch {
	case sc.head == nil:
		sc.head = newExRange(l, exRankHead)
		if l.end-l.start > sc.opts.MaxBytes {
			sc.head.end = l.start + sc.opts.MaxBytes
			sc.headDone = true
		}
	case l.start != sc.head.end || l.end-sc.head.start > sc.opts.MaxBytes ||
		sc.head.last-sc.head.first+1 >= int64(sc.opts.HeadLines):
		sc.headDone = true
	default:
		h := sc.head
		h.end, h.last, h.lastLineStart, h.lastLineEnd, h.lastNL = l.end, l.no, l.start, l.end, l.nl
	}
}

func (sc *exScanner) closeAll() {
	clear(sc.open)
	sc.open = sc.open[:0]
	sc.headDone = sc.headDone || sc.head != nil
}

// finish returns the kept ranges, or head and tail when nothing matched.
func (sc *exScanner) finish() []*exRange {
	out := append([]*exRange(nil), sc.done...)
	for _, q := range sc.last {
		for _, r := range q {
			if !r.dropped {
				out = append(out, r)
			}
		}
	}
	if len(out) > 0 || sc.head == nil {
		return out
	}
	return append(out, sc.head, sc.tailRange())
}

// tailRange covers the last lines of the last segment within MaxBytes; a
// last line longer than that is clipped to its final MaxBytes bytes.
func (sc *exScanner) tailRange() *exRange {
	last := sc.recent.back(0)
	r := newExRange(last, exRankTail)
	if last.end-last.start > sc.opts.MaxBytes {
		r.start = last.end - sc.opts.MaxBytes
		return r
	}
	for k := 1; k < min(sc.recent.n, sc.opts.TailLines); k++ {
		l := sc.recent.back(k)
		if r.end-l.start > sc.opts.MaxBytes || l.end != r.start {
			break
		}
		r.start, r.first, r.firstLineStart = l.start, l.no, l.start
	}
	return r
}

// exMerge merges overlapping ranges (and touching ones inside one
// segment) while the result stays within maxBytes; otherwise the later
// range is clipped to start where the earlier one ends. A merged range
// takes the better reason.
func exMerge(rs []*exRange, maxBytes int64, segs [][2]int64) []*exRange {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].start != rs[j].start {
			return rs[i].start < rs[j].start
		}
		return rs[i].end > rs[j].end
	})
	var out []*exRange
	for _, r := range rs {
		if len(out) == 0 {
			out = append(out, r)
			continue
		}
		cur := out[len(out)-1]
		switch {
		case r.end <= cur.end:
			cur.rank = min(cur.rank, r.rank)
		case r.start > cur.end || (r.start == cur.end && exIsBoundary(cur.end, segs)):
			out = append(out, r)
		case r.end-cur.start <= maxBytes:
			cur.rank = min(cur.rank, r.rank)
			cur.end, cur.last, cur.lastLineStart, cur.lastLineEnd, cur.lastNL =
				r.end, r.last, r.lastLineStart, r.lastLineEnd, r.lastNL
		default:
			r.clipStart(cur)
			out = append(out, r)
		}
	}
	return out
}

// clipStart makes r start where prev ends.
func (r *exRange) clipStart(prev *exRange) {
	r.start = prev.end
	switch {
	case prev.end < prev.lastLineEnd: // prev ends inside its last line
		r.first, r.firstLineStart = prev.last, prev.lastLineStart
	case prev.lastNL:
		r.first, r.firstLineStart = prev.last+1, prev.end
	default: // a line piece cut by a segment end; not reached while merging
		r.first, r.firstLineStart = prev.last, prev.lastLineStart
	}
}

func exIsBoundary(off int64, segs [][2]int64) bool {
	for _, s := range segs {
		if s[0] == off {
			return true
		}
	}
	return false
}

// excerpt reads r's bytes (at most MaxBytes) and builds the Excerpt.
func (r *exRange) excerpt(ra io.ReaderAt, stream string, maxLine int) (Excerpt, error) {
	raw := make([]byte, r.end-r.start)
	if n, err := ra.ReadAt(raw, r.start); n < len(raw) {
		if err == nil {
			err = io.ErrUnexpectedEOF // a ReaderAt must say why a read came short; this one did not
		}
		return Excerpt{}, fmt.Errorf("read [%d,%d): %w", r.start, r.end, err)
	}
	sum := sha256.Sum256(raw)
	text := exText(raw, maxLine)
	if r.start > r.firstLineStart {
		text = fmt.Sprintf("…[line starts %d bytes earlier]…", r.start-r.firstLineStart) + text
	}
	if r.end < r.lastLineEnd {
		text += fmt.Sprintf("…[line continues for %d more bytes]…\n", r.lastLineEnd-r.end)
	}
	return Excerpt{Stream: stream, Start: r.start, End: r.end, FirstLine: r.first,
		LastLine: r.last, Reason: exReasons[r.rank], SHA256: hex.EncodeToString(sum[:]),
		Text: text}, nil
}

// exText renders raw log bytes line by line; see SelectExcerpts.
func exText(raw []byte, maxLine int) string {
	var b strings.Builder
	for len(raw) > 0 {
		line, rest, nl := bytes.Cut(raw, []byte{'\n'})
		raw = rest
		b.WriteString(exLineText(line, maxLine))
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func exLineText(line []byte, maxLine int) string {
	line = exLastSegment(bytes.TrimSuffix(line, []byte{'\r'}))
	if len(line) <= maxLine {
		return cleanTerminalText(string(line), false)
	}
	headN := exRuneCut(line, maxLine*3/4)
	tailN := len(line) - exRuneCut(line, len(line)-maxLine/4)
	omitted := len(line) - headN - tailN
	return cleanTerminalText(string(line[:headN]), false) +
		fmt.Sprintf("…[%d bytes omitted]…", omitted) +
		cleanTerminalText(string(line[len(line)-tailN:]), false)
}

// exLastSegment returns the last non-empty \r-separated segment of a line.
func exLastSegment(line []byte) []byte {
	for {
		i := bytes.LastIndexByte(line, '\r')
		if i < 0 {
			return line
		}
		if i+1 < len(line) {
			return line[i+1:]
		}
		line = line[:i]
	}
}

// exRuneCut moves n back to a UTF-8 rune start (at most 3 bytes).
func exRuneCut(b []byte, n int) int {
	for k := 0; k < 3 && n > 0 && n < len(b) && !utf8.RuneStart(b[n]); k++ {
		n--
	}
	return n
}

// exMatchView is the part of a line patterns are matched against: the last
// \r segment with terminal escapes removed.
func exMatchView(prefix []byte) []byte {
	p := prefix
	if n := len(p); n > 0 && p[n-1] == '\n' {
		p = p[:n-1]
	}
	if n := len(p); n > 0 && p[n-1] == '\r' {
		p = p[:n-1]
	}
	if bytes.IndexByte(p, '\r') >= 0 {
		p = exLastSegment(p)
	}
	if bytes.IndexByte(p, 0x1b) < 0 {
		return p
	}
	var out []byte
	for i := 0; i < len(p); {
		if p[i] == 0x1b {
			i = lines.SkipEscape(p, i)
			continue
		}
		out = append(out, p[i])
		i++
	}
	return out
}

// exMode says how far a hit's block extends after it.
type exMode int

const (
	exModeLines    exMode = iota // the next lines, up to the limit
	exModeIndented               // the following indented lines
	exModeTrace                  // indented lines and the first unindented one
	exModeSection                // until the next section or summary line
)

// exMaxBefore is the most context lines any pattern takes before a hit.
const exMaxBefore = 3

// exPattern is one kind of structural line.
type exPattern struct {
	kind    string
	rank    int
	before  int
	after   int
	mode    exMode
	section bool // starts a section: ends an open exModeSection block
	// first lists the bytes a matching line can start with; empty means
	// any. It only lets exMatch skip patterns that cannot match.
	first string
	match func(t []byte, indented bool) bool
}

func exPrefix(ps ...string) func([]byte, bool) bool {
	return func(t []byte, _ bool) bool {
		for _, p := range ps {
			if bytes.HasPrefix(t, []byte(p)) {
				return true
			}
		}
		return false
	}
}

// exRegexp matches re only when the cheap guard (a prefix, or any byte
// when empty) passes, keeping the per-line cost low on huge logs.
func exRegexp(guard, re string) func([]byte, bool) bool {
	rx := regexp.MustCompile(re)
	return func(t []byte, _ bool) bool {
		return bytes.HasPrefix(t, []byte(guard)) && rx.Match(t)
	}
}

var (
	exGoAssert   = regexp.MustCompile(`^[\w./-]+_test\.go:\d+: `)
	exCompileErr = regexp.MustCompile(`^[^\s:()]+\.[A-Za-z0-9]+(:\d+:\d+: |\(\d+,\d+\): error )`)
	exException  = regexp.MustCompile(`^[A-Za-z_][\w.$]*(Error|Exception)(: |:$)`)
	exPytestSum  = regexp.MustCompile(`^(=+ )?\d+ (passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?)\b.* in [0-9.]+s\b`)
	exMavenTag   = regexp.MustCompile(`^\[[A-Z]+\] `)
	exMochaSum   = regexp.MustCompile(`^\d+ (passing|failing|pending)\b`)
	exPytestHead = regexp.MustCompile(`^=+ (FAILURES|ERRORS) =+$`)
)

// exPatterns lists every structural line, best reason first; the first
// match wins. Order within a reason only matters for overlapping matchers.
var exPatterns = []*exPattern{
	{kind: "go-fail", first: "-", rank: exRankFailure, before: 3, after: 20, mode: exModeIndented, section: true,
		match: exPrefix("--- FAIL: ")},
	{kind: "go-assert", first: exWordBytes + "./-", rank: exRankFailure, before: 1, after: 10, mode: exModeIndented,
		match: func(t []byte, ind bool) bool {
			return ind && bytes.Contains(t, []byte("_test.go:")) && exGoAssert.Match(t)
		}},
	{kind: "pytest-header", first: "=", rank: exRankFailure, after: 2, mode: exModeLines, section: true,
		match: func(t []byte, _ bool) bool { return t[len(t)-1] == '=' && exPytestHead.Match(t) }},
	{kind: "pytest-section", first: "_", rank: exRankFailure, after: 30, mode: exModeSection, section: true,
		match: exRegexp("___", `^_{3,} .+ _{3,}$`)},
	{kind: "pytest-assert", first: "E", rank: exRankFailure, before: 2, after: 4, mode: exModeLines,
		match: exPrefix("E   ")},
	{kind: "pytest-failed", first: "F", rank: exRankFailure, mode: exModeLines, match: exPrefix("FAILED ")},
	{kind: "cargo-section", first: "-", rank: exRankFailure, after: 20, mode: exModeSection, section: true,
		match: exRegexp("---- ", `^---- .+ std(out|err) ----$`)},
	{kind: "cargo-panic", first: "t", rank: exRankFailure, before: 1, after: 6, mode: exModeLines,
		match: exRegexp("thread '", `^thread '.*' panicked at`)},
	{kind: "jest-cross", first: "\xe2\xc3", rank: exRankFailure, mode: exModeLines,
		match: exPrefix("✕ ", "× ", "✖ ", "✗ ")},
	{kind: "jest-file", first: "F", rank: exRankFailure, mode: exModeLines, match: exPrefix("FAIL  ")},
	{kind: "jest-detail", first: "\xe2", rank: exRankFailure, after: 25, mode: exModeSection, section: true,
		match: exPrefix("● ")},
	{kind: "tap-not-ok", first: "n", rank: exRankFailure, after: 20, mode: exModeIndented,
		match: exPrefix("not ok ")},

	{kind: "go-panic", first: "p", rank: exRankError, before: 3, after: 20, mode: exModeLines, match: exPrefix("panic: ")},
	{kind: "goroutine", first: "g", rank: exRankError, after: 20, mode: exModeLines,
		match: exRegexp("goroutine ", `^goroutine \d+ \[running\]:`)},
	{kind: "traceback", first: "T", rank: exRankError, before: 1, after: 40, mode: exModeTrace,
		match: exPrefix("Traceback (most recent call last):")},
	{kind: "compile", rank: exRankError, before: 1, after: 3, mode: exModeLines,
		match: func(t []byte, _ bool) bool {
			return exMaybeCompileErr(t) && exCompileErr.Match(t)
		}},
	{kind: "rust-error", first: "e", rank: exRankError, after: 10, mode: exModeLines,
		match: exRegexp("error", `^error(\[E\d+\])?: `)},
	{kind: "npm", first: "n", rank: exRankError, after: 3, mode: exModeLines, match: exPrefix("npm ERR! ", "npm error ")},
	{kind: "exception", first: exLetters + "_", rank: exRankError, before: 1, after: 12, mode: exModeIndented,
		match: func(t []byte, _ bool) bool {
			return (bytes.Contains(t, []byte("Error:")) || bytes.Contains(t, []byte("Exception:"))) &&
				exException.Match(t)
		}},
	{kind: "fatal", first: "Ff", rank: exRankError, before: 2, after: 5, mode: exModeLines,
		match: exPrefix("FATAL", "fatal error: ", "fatal: ")},
	{kind: "build-failure", first: "[BF", rank: exRankError, before: 2, after: 10, mode: exModeLines,
		match: func(t []byte, _ bool) bool {
			t = exStripTag(t)
			return exPrefix("BUILD FAILURE", "BUILD FAILED", "FAILURE: Build failed")(t, false)
		}},

	{kind: "go-pkg-fail", first: "F", rank: exRankSummary, match: exPrefix("FAIL\t")},
	{kind: "go-pkg-ok", first: "o", rank: exRankSummary, match: exPrefix("ok  \t")},
	{kind: "pytest-summary", first: "=" + exDigits, rank: exRankSummary,
		match: func(t []byte, _ bool) bool {
			return exMaybePytestSum(t) && exPytestSum.Match(t)
		}},
	{kind: "cargo-result", first: "t", rank: exRankSummary, match: exPrefix("test result: ")},
	{kind: "jest-summary", first: "T", rank: exRankSummary, after: 2, mode: exModeLines, match: exPrefix("Tests:", "Test Suites:")},
	{kind: "tap-summary", first: "#", rank: exRankSummary,
		match: exRegexp("# ", `^# (tests|suites|pass|fail|cancelled|skipped|todo) \d+$`)},
	{kind: "mocha-summary", first: exDigits, rank: exRankSummary,
		match: func(t []byte, _ bool) bool {
			return t[0] >= '0' && t[0] <= '9' && exMochaSum.Match(t)
		}},
	{kind: "unittest-summary", first: "R", rank: exRankSummary, match: exRegexp("Ran ", `^Ran \d+ tests? in `)},
	{kind: "build-success", first: "[B", rank: exRankSummary,
		match: func(t []byte, _ bool) bool {
			t = exStripTag(t)
			return exPrefix("BUILD SUCCESS")(t, false)
		}},
}

// exMaybeCompileErr is a necessary condition for exCompileErr: a run of
// bytes other than blanks, ':', '(' and ')' that ends with `.ext` and is
// followed by ':' or '('.
func exMaybeCompileErr(t []byte) bool {
	r := 0
	for r < len(t) && !exNotPath[t[r]] {
		r++
	}
	if r == 0 || r == len(t) || (t[r] != ':' && t[r] != '(') {
		return false
	}
	dot := bytes.LastIndexByte(t[:r], '.')
	return dot > 0 && dot < r-1
}

// exNotPath is the complement of exCompileErr's [^\s:()].
var exNotPath = [256]bool{' ': true, '\t': true, '\n': true, '\f': true, '\r': true, ':': true, '(': true, ')': true}

// exMaybePytestSum is a necessary condition for exPytestSum: a digit, after
// a run of '=' and a blank if the line starts with '='.
func exMaybePytestSum(t []byte) bool {
	i := 0
	for i < len(t) && t[i] == '=' {
		i++
	}
	if i > 0 {
		if i == len(t) || t[i] != ' ' {
			return false
		}
		i++
	}
	return i < len(t) && t[i] >= '0' && t[i] <= '9'
}

// exStripTag drops a Maven-style "[INFO] " level tag.
func exStripTag(t []byte) []byte {
	if t[0] != '[' {
		return t
	}
	return t[len(exMavenTag.Find(t)):]
}

const (
	exDigits    = "0123456789"
	exLetters   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	exWordBytes = exLetters + exDigits + "_"
)

// exByFirst lists, for each first byte, the patterns that can match a line
// starting with it, in exPatterns order.
var exByFirst = func() (t [256][]*exPattern) {
	for _, p := range exPatterns {
		for c := range t {
			if p.first == "" || strings.IndexByte(p.first, byte(c)) >= 0 {
				t[c] = append(t[c], p)
			}
		}
	}
	return t
}()

// exMatch returns the first pattern matching a trimmed line, or nil.
func exMatch(t []byte, indented bool) *exPattern {
	if len(t) == 0 {
		return nil
	}
	for _, p := range exByFirst[t[0]] {
		if p.match(t, indented) {
			return p
		}
	}
	return nil
}

// MapOffsets converts excerpts from stored-file offsets to original-stream
// offsets, given the stream's stored ranges (record.Stream.StoredRanges: the
// original [start, end) of each piece the stored file holds, in order). Nil
// or empty ranges mean the file is the whole stream and nothing changes.
//
// An excerpt never spans a gap: one that crosses a boundary between pieces
// (possible only when it was selected without ExcerptOptions.StoredRanges)
// is split there, each part re-read from ra and re-hashed, and the parts'
// Text say which original bytes are missing between them. Line numbers stay
// counted in the stored file.
func MapOffsets(ra io.ReaderAt, ex []Excerpt, storedRanges [][2]int64) ([]Excerpt, error) {
	if len(storedRanges) == 0 {
		return ex, nil
	}
	var size int64
	for _, r := range storedRanges {
		size += r[1] - r[0]
	}
	segs, err := exSegments(size, storedRanges)
	if err != nil {
		return nil, fmt.Errorf("map excerpt offsets: %w", err)
	}
	out := make([]Excerpt, 0, len(ex))
	for _, e := range ex {
		parts, err := exSplitAtGaps(ra, e, segs)
		if err != nil {
			return nil, fmt.Errorf("map excerpt %s [%d,%d): %w", e.Stream, e.Start, e.End, err)
		}
		for _, p := range parts {
			i := exSegmentOf(p.Start, p.End, segs)
			shift := storedRanges[i][0] - segs[i][0]
			p.Start += shift
			p.End += shift
			out = append(out, p)
		}
	}
	return out, nil
}

// exSegmentOf returns the segment holding the stored range [start, end).
func exSegmentOf(start, end int64, segs [][2]int64) int {
	for i, s := range segs {
		if start >= s[0] && (start < s[1] || (start == end && start == s[1])) {
			return i
		}
	}
	return len(segs) - 1
}

// exMaxSplitBytes bounds what exSplitAtGaps reads to re-hash a part.
const exMaxSplitBytes = 1 << 20

// exSplitAtGaps returns e unchanged when it lies in one segment, else its
// parts, one per segment, re-hashed from ra.
func exSplitAtGaps(ra io.ReaderAt, e Excerpt, segs [][2]int64) ([]Excerpt, error) {
	if e.Start < 0 || e.End < e.Start || e.End > segs[len(segs)-1][1] {
		return nil, fmt.Errorf("outside the stored file of %d bytes", segs[len(segs)-1][1])
	}
	i := exSegmentOf(e.Start, e.End, segs)
	if e.End <= segs[i][1] {
		return []Excerpt{e}, nil
	}
	if ra == nil || e.End-e.Start > exMaxSplitBytes {
		return nil, fmt.Errorf("spans a gap and cannot be re-read to split it")
	}
	raw := make([]byte, e.End-e.Start)
	if n, err := ra.ReadAt(raw, e.Start); n < len(raw) {
		return nil, fmt.Errorf("read: %w", err)
	}
	var parts []Excerpt
	line := e.FirstLine
	for start := e.Start; start < e.End; i++ {
		end := min(e.End, segs[i][1])
		chunk := raw[start-e.Start : end-e.Start]
		last := line + int64(bytes.Count(chunk[:max(len(chunk)-1, 0)], []byte{'\n'}))
		sum := sha256.Sum256(chunk)
		p := Excerpt{Stream: e.Stream, Start: start, End: end, FirstLine: line, LastLine: last,
			Reason: e.Reason, SHA256: hex.EncodeToString(sum[:]), Text: exText(chunk, 1024)}
		if start > e.Start {
			p.Text = "…[continued after a gap: the original bytes before this were not stored]…\n" + p.Text
		}
		if end < e.End {
			p.Text += "\n…[excerpt split: the stream was truncated here and the original bytes up to the next part were not stored]…\n"
		}
		parts = append(parts, p)
		line = last
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			line++
		}
		start = end
	}
	return parts, nil
}
