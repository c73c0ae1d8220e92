package evidence

import (
	"bytes"
	"regexp"

	"github.com/runledger/runledger/report/runners"
)

// numberedGrammar reads the runners that list failures as numbered blocks
// after a section heading, each block running to the next number or the
// section's end:
//   - mocha: `N failing`, then `  1) suite` / `       test:` with the
//     error, the +expected -actual diff and the `at` frames;
//   - PHPUnit: `There was 1 failure:` / `There were N errors:`, then
//     `1) Class::testMethod`, the message, the diff and `/path/XTest.php:12`;
//   - RSpec: `Failures:`, then `  1) Thing does x`, `Failure/Error:`,
//     expected/got and `# ./spec/x_spec.rb:12` frames; rebar3's EUnit
//     prints the same, its items named `1) calc_tests:add_test/0` (a
//     module, a function and its arity), and its blocks are EUnit's;
//     cucumber-js's progress formatter too, its items unindented
//     `1) Scenario: total with tax # features/cart.feature:3` with the
//     steps under them, and its blocks are cucumber's;
//   - minitest, which has no section heading: `  1) Failure:` or
//     `  1) Error:`, then `TestX#test_y [file.rb:12]:` and the message.
type numberedGrammar struct {
	runner string // the section the grammar is in, "" outside one
	block  *Block
	blanks int // blank lines just before the current one
}

func newNumberedGrammar() *numberedGrammar { return &numberedGrammar{} }

var (
	mochaFailing   = regexp.MustCompile(`^\d+ failing`)
	phpunitSection = regexp.MustCompile(`^There (was|were) \d+ (failure|error)s?:$`)
	numberedItem   = regexp.MustCompile(`^(\d+)\) (.*)$`)
	minitestItem   = regexp.MustCompile(`^\d+\) (Failure|Error):$`)
	minitestEnd    = regexp.MustCompile(`^\d+ (runs|tests), \d+ assertions`)
)

func (g *numberedGrammar) starts() string { return digits + "TF" }
func (g *numberedGrammar) busy() bool     { return g.runner != "" }

func (g *numberedGrammar) reset() { g.runner, g.block = "", nil }

func (g *numberedGrammar) line(l *Line, sc *scanner) bool {
	blanks := g.blanks
	if l.blank() {
		g.blanks++
	} else {
		g.blanks = 0
	}
	return g.take(l, sc, blanks)
}

func (g *numberedGrammar) take(l *Line, sc *scanner, blanks int) bool {
	t := l.T
	if l.Indent <= 4 && g.opens(t, l.Indent) {
		return true
	}
	if g.runner == "" {
		if len(t) < 4 || t[0] < '0' || t[0] > '9' || !minitestItem.Match(t) {
			return false
		}
		g.runner = "minitest"
	}
	if g.closes(l, blanks) {
		g.runner, g.block = "", nil
		return false
	}
	if m := numberedItem.FindSubmatch(t); m != nil && (l.Indent <= 4 || g.block == nil) {
		g.block = sc.open(g.itemRunner(t), string(clip(m[2], 300)), "test", KindTest)
	}
	if g.block == nil {
		return true // between the heading and the first item
	}
	if g.runner == "minitest" && g.block.Lines == 1 {
		g.block.Test = string(clip(bytes.TrimSuffix(t, []byte(":")), 300))
	}
	g.block.add(l)
	return true
}

// itemRunner is the runner whose item t is: the section's, but for
// rebar3's EUnit items under `Failures:`.
func (g *numberedGrammar) itemRunner(t []byte) string {
	if g.runner == "rspec" && eunitArity.Match(t) && runners.EUnitHeading.Match(t) {
		return "eunit"
	}
	if g.runner == "rspec" && cucumberItem.Match(t) {
		return "cucumber"
	}
	return g.runner
}

// cucumberItem: cucumber-js's `1) Scenario: title # file.feature:3`.
var cucumberItem = regexp.MustCompile(`^\d+\) Scenario(?: Outline)?: `)

// eunitArity: an Erlang function's arity, `/0`.
var eunitArity = regexp.MustCompile(`/\d+\b`)

// opens starts a section at its heading line.
func (g *numberedGrammar) opens(t []byte, indent int) bool {
	switch {
	case len(t) > 0 && t[0] >= '0' && t[0] <= '9' && mochaFailing.Match(t):
		g.runner = "mocha"
	case indent == 0 && hasPrefix(t, "There w") && phpunitSection.Match(t):
		g.runner = "phpunit"
	case indent == 0 && string(t) == "Failures:":
		g.runner = "rspec"
	default:
		return false
	}
	g.block = nil
	return true
}

// closes reports a line past the section's end. Mocha prints parts of a
// message unindented (`7 !== 10`), so its section ends only at an
// unindented line after two blank ones, or at npm's own lines.
func (g *numberedGrammar) closes(l *Line, blanks int) bool {
	t := l.T
	switch g.runner {
	case "mocha":
		return l.Indent == 0 && !l.blank() && (blanks >= 2 || hasPrefix(t, "npm ") || hasPrefix(t, "> "))
	case "phpunit":
		return l.Indent == 0 && (hasPrefix(t, "FAILURES!") || hasPrefix(t, "ERRORS!") || hasPrefix(t, "OK (") || hasPrefix(t, "Tests: "))
	case "rspec":
		// Its items and what is under them are indented but cucumber's
		// items: any other line in the first column is past the section
		// (RSpec's "Finished in", cucumber's "3 scenarios (1 failed, …)").
		return l.Indent == 0 && !l.blank() && !numberedItem.Match(t)
	case "minitest":
		return l.Indent == 0 && (minitestEnd.Match(t) || hasPrefix(t, "Finished in "))
	}
	return false
}

func init() {
	register(Grammar{Runner: "numbered", Order: 110, New: func() grammar { return newNumberedGrammar() }})
}
