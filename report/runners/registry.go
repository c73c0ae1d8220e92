package runners

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
)

// Parser is a runner's hand-written summary parser, for output a
// declared Totals cannot read (go's nested subtests, pytest's sections,
// jest's blocks). It is registered in the runner's Declaration, next to
// the lines compaction reads, so one register call says all the summary
// side knows of a runner.
//
// The scan shows a parser only the lines it may act on: the lines its
// Starts, Lines, Ends and Want name, and every line while it is
// following (see follower). The registry turns them into tables looked
// up by a line's first and last byte at init (wantTable), so a runner
// added costs next to nothing on other runners' logs.
type Parser struct {
	// New makes the parser for a scan, or for a verifier, which re-reads
	// a scan's counted lines and must reproduce its counts but builds no
	// test index (names no passes).
	New func(verifier bool) parser
	// Order places the parser's part in a summary: Source joins the
	// runners that summed a log in this order ("go+pytest"), and envelopes
	// carry it, so a runner keeps its number. Declared Totals come after
	// every parser, by name.
	Order int
	// Starts are how the lines it may start acting on begin, blanks
	// trimmed ("--- ", "●"); a one-byte prefix takes every line starting
	// with that byte.
	Starts []string
	// Lines are whole lines, blanks trimmed, it acts on ("─").
	Lines []string
	// Ends are how the lines it may act on end ("FAILED").
	Ends []string
	// Want, when set, is asked of a line (blanks trimmed, not empty) that
	// ends with one of the bytes in WantEnds, for shapes no prefix or
	// suffix says (a rule of 40 dashes).
	Want     func(t []byte) bool
	WantEnds string
	// Wraps names a runner whose output this one prints again and sums up
	// (gotestsum wraps go test): that runner's results before this one's
	// last are not counted twice.
	Wraps string
}

// follower is a parser that, inside a message or a block, must see the
// next line whatever it is.
type follower interface{ following() bool }

// stateWanter is a parser whose wanted lines depend on where it is (gtest
// reads MSVC's `t.cc(5): error:` lines only inside a test): wanting says
// whether it is there, and depends only on the lines it was fed; wants is
// then asked of a line no table wanted.
type stateWanter interface {
	wanting() bool
	wants(t []byte) bool
}

// ruleReader is a parser that, in some states, reads the `--- ` and
// `=== ` lines the go parser otherwise takes alone (mocha's title, cargo's
// captured output).
type ruleReader interface{ readsRules() bool }

// register adds a runner: what compaction reads of it, and what its
// summary and excerpts are read with. Each runner calls it once, from
// init in its own file; the registry is kept sorted by name, so that
// matching does not depend on the order the files' init functions ran
// in, and no two runners share a name.
func register(d Declaration) {
	for _, o := range declarations {
		if o.Runner == d.Runner {
			panic(fmt.Sprintf("runners: %q registered twice", d.Runner))
		}
	}
	declarations = append(declarations, d)
	if d.Totals != nil {
		d.Totals.index(&totalPrefixes)
	}
	if d.Parser != nil {
		wanted.add(d.Parser)
	}
	sort.Slice(declarations, func(i, j int) bool { return declarations[i].Runner < declarations[j].Runner })
}

// Names returns the registered runners' names, sorted.
func Names() []string {
	out := make([]string, len(declarations))
	for i, d := range declarations {
		out[i] = d.Runner
	}
	return out
}

// parsers returns the registered parsers in their Order, made for a scan
// or a verifier.
func parsers(verifier bool) []parser {
	var ps []*Parser
	for _, d := range declarations {
		if d.Parser != nil {
			ps = append(ps, d.Parser)
		}
	}
	slices.SortStableFunc(ps, func(a, b *Parser) int { return a.Order - b.Order })
	out := make([]parser, len(ps))
	for i, p := range ps {
		out[i] = p.New(verifier)
	}
	return out
}

// wantTable is every parser's Starts, Lines, Ends and Want, by a line's
// first and last byte: the union the scan's prefilter asks of each line.
type wantTable struct {
	// first and last say, per byte, which of the lists below a line
	// starting or ending with it must be looked up in: two loads decide
	// most lines, which no parser wants.
	first, last [256]uint8
	starts      [256]startSet
	lines       [256][]string
	ends        [256][]string
	want        [256][]func([]byte) bool
}

// The bits of wantTable.first and wantTable.last.
const (
	wantAll    = 1 << iota // a one-byte Start: every line starting with the byte
	wantStarts             // starts holds prefixes starting with the byte
	wantLines              // lines holds lines starting with it
	wantEnds               // ends holds suffixes ending with it
	wantFuncs              // want holds Wants asked of lines ending with it
)

// wanted is the registered parsers' table; register fills it.
var wanted wantTable

func (w *wantTable) add(p *Parser) {
	// Runners share starts ("test ", digits): each is kept once, as a
	// line that no parser wants is asked every one of its first byte's.
	for _, s := range p.Starts {
		switch {
		case len(s) == 1:
			w.first[s[0]] |= wantAll
		case w.starts[s[0]].add(s):
			w.first[s[0]] |= wantStarts
		}
	}
	for _, s := range p.Lines {
		if !slices.Contains(w.lines[s[0]], s) {
			w.lines[s[0]] = append(w.lines[s[0]], s)
			w.first[s[0]] |= wantLines
		}
	}
	for _, s := range p.Ends {
		if c := s[len(s)-1]; !slices.Contains(w.ends[c], s) {
			w.ends[c] = append(w.ends[c], s)
			w.last[c] |= wantEnds
		}
	}
	for _, c := range []byte(p.WantEnds) {
		w.want[c] = append(w.want[c], p.Want)
		w.last[c] |= wantFuncs
	}
}

// match reports whether a parser may act on t, blanks trimmed and not
// empty, when none is following. Small enough to be inlined: a line a
// whole first byte is wanted for (`=== RUN`) costs one load.
func (w *wantTable) match(t []byte) bool {
	f := w.first[t[0]]
	return f&wantAll != 0 || w.lookup(t, f)
}

// lookup asks the lists of t's first and last bytes.
func (w *wantTable) lookup(t []byte, f uint8) bool {
	if f&wantStarts != 0 && w.starts[t[0]].match(t) || f&wantLines != 0 && slices.Contains(w.lines[t[0]], string(t)) {
		return true
	}
	return w.last[t[len(t)-1]] != 0 && w.matchEnd(t)
}

// startSet is the Starts that begin with one byte, each also kept as its
// first eight bytes and a mask, compared as one word, inline: most lines
// of a dense go -v log are asked this (`--- PASS`), and a call and a
// slice per line cost a tenth of its scan. More than inlineStarts spill
// to more.
type startSet struct {
	n          int
	word, mask [inlineStarts]uint64
	s          [inlineStarts]string
	more       []string
}

const inlineStarts = 4

// add adds a prefix; false if it was there.
func (ss *startSet) add(p string) bool {
	if slices.Contains(ss.s[:ss.n], p) || slices.Contains(ss.more, p) {
		return false
	}
	if ss.n == inlineStarts {
		ss.more = append(ss.more, p)
		return true
	}
	var b [8]byte
	k := copy(b[:], p)
	ss.word[ss.n], ss.mask[ss.n] = binary.LittleEndian.Uint64(b[:]), ^uint64(0)>>(64-8*k)
	ss.s[ss.n] = p
	ss.n++
	return true
}

// match reports whether t, not empty, starts with one of the prefixes.
func (ss *startSet) match(t []byte) bool {
	if len(t) >= 8 {
		x := binary.LittleEndian.Uint64(t)
		for i := 0; i < ss.n; i++ {
			if x&ss.mask[i] == ss.word[i] && (len(ss.s[i]) <= 8 || hasPrefix(t, ss.s[i])) {
				return true
			}
		}
	} else {
		for i := 0; i < ss.n; i++ {
			if hasPrefix(t, ss.s[i]) {
				return true
			}
		}
	}
	for _, p := range ss.more {
		if hasPrefix(t, p) {
			return true
		}
	}
	return false
}

// matchEnd asks the Ends and Wants of t's last byte.
func (w *wantTable) matchEnd(t []byte) bool {
	last := t[len(t)-1]
	for _, s := range w.ends[last] {
		if hasSuffixB(t, s) {
			return true
		}
	}
	for _, f := range w.want[last] {
		if f(t) {
			return true
		}
	}
	return false
}

// wrapsOf returns the runner the named runner's parser wraps, "" if none.
func wrapsOf(name string) string {
	for _, d := range declarations {
		if d.Runner == name && d.Parser != nil {
			return d.Parser.Wraps
		}
	}
	return ""
}

// parserOf returns the parser of type T among ps; the scan's fast paths
// for the densest logs (go -v, pytest -v) call those parsers directly.
func parserOf[T parser](ps []parser) T {
	for _, p := range ps {
		if t, ok := p.(T); ok {
			return t
		}
	}
	panic(fmt.Sprintf("runners: no %T registered", *new(T)))
}
