package evidence

import (
	"fmt"
	"slices"
	"strings"

	"github.com/runledger/runledger/report/runners"
)

// Grammar is one runner's excerpt grammar, registered once from the file
// that holds it (pytest's in python.go, cargo's in rust.go) under the name
// the runner registered in report/runners. A runner whose evidence fits a
// runners.Evidence declares it there instead, and needs no file here.
type Grammar struct {
	// Runner names the runner, or the shape the grammar reads for many
	// runners ("traceback", "sanitizer", "numbered").
	Runner string
	// Order is the grammar's place among the others: a grammar earlier in
	// the order that takes a line leaves it taken (claimed) for the later
	// ones, so a runner's own grammar comes before a shape's (pytest's
	// before the traceback's). The go grammar is first: the scanner calls
	// it directly on the lines of a dense `go test -v` log. Declared
	// runners' grammars come at declaredOrder, by name.
	Order int
	New   func() grammar
	// Shapes are how its evidence lines look, for the comment's ranking.
	Shapes Shapes
}

// declaredOrder places the declared runners' grammars (declared.go):
// after go's, before the hand-written ones that leave a line one of them
// took alone (pytest's, the traceback's).
const declaredOrder = 25

// grammars are the registered grammars, in Order.
var grammars []Grammar

// register adds a grammar; the grammars' files call it from init.
func register(g Grammar) {
	if i := slices.IndexFunc(grammars, func(o Grammar) bool { return o.Order == g.Order }); i >= 0 {
		panic(fmt.Sprintf("evidence: grammars %q and %q share order %d", grammars[i].Runner, g.Runner, g.Order))
	}
	grammars = append(grammars, g)
	addShapes(g.Shapes)
	slices.SortFunc(grammars, func(a, b Grammar) int { return a.Order - b.Order })
}

// newGrammars makes every registered grammar for one scan, the declared
// runners' in their place.
func newGrammars() []grammar {
	var gs []grammar
	declared := false
	for _, g := range grammars {
		if !declared && g.Order > declaredOrder {
			gs, declared = append(gs, declaredGrammars()...), true
		}
		gs = append(gs, g.New())
	}
	if !declared {
		gs = append(gs, declaredGrammars()...)
	}
	return gs
}

// Grammars returns the registered grammars' runners, in order, the
// declared runners' among them: what the excerpts of a log are read with.
func Grammars() []string {
	var out []string
	declared := false
	for _, g := range grammars {
		if !declared && g.Order > declaredOrder {
			for _, d := range runners.Evidences() {
				out = append(out, d.Runner)
			}
			declared = true
		}
		out = append(out, g.Runner)
	}
	return out
}

// bitset is a set of grammars by index, one bit each, as wide as the
// registry needs: no cap on how many runners register.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

// startTable[c*words : (c+1)*words] is the set of grammars that can open
// something on a line starting with byte c ("" starts: every line).
func startTable(gs []grammar, words int) []uint64 {
	t := make([]uint64, 256*words)
	for i, g := range gs {
		st := g.starts()
		for c := 0; c < 256; c++ {
			if st == "" || c != 0 && strings.IndexByte(st, byte(c)) >= 0 {
				t[c*words+i/64] |= 1 << (i % 64)
			}
		}
	}
	return t
}
