package runners

import (
	"testing"
)

// TestRegistry walks the registry: every parser is made, answers to the
// name it registered under, has a place of its own in a summary's order,
// and tells the prefilter which lines it wants.
func TestRegistry(t *testing.T) {
	orders := map[int]string{}
	for _, d := range declarations {
		p := d.Parser
		if p == nil {
			if d.Totals == nil && d.Evidence == nil && len(d.Lines) == 0 {
				t.Errorf("%s: registers no lines, no Totals, no Evidence and no Parser", d.Runner)
			}
			continue
		}
		if o, ok := orders[p.Order]; ok {
			t.Errorf("%s and %s share Order %d", o, d.Runner, p.Order)
		}
		orders[p.Order] = d.Runner
		for _, verifier := range []bool{false, true} {
			if got := p.New(verifier).name(); got != d.Runner {
				t.Errorf("%s: its parser names itself %q", d.Runner, got)
			}
		}
		if len(p.Starts)+len(p.Lines)+len(p.Ends) == 0 && p.Want == nil {
			t.Errorf("%s: its parser wants no line", d.Runner)
		}
		if (p.Want == nil) != (p.WantEnds == "") {
			t.Errorf("%s: Want and WantEnds go together", d.Runner)
		}
		for _, s := range append(append(append([]string(nil), p.Starts...), p.Lines...), p.Ends...) {
			if s == "" {
				t.Errorf("%s: an empty start, line or end", d.Runner)
			}
		}
	}
	st := newState()
	if len(st.parsers) != len(orders) {
		t.Errorf("the state has %d parsers, the registry %d", len(st.parsers), len(orders))
	}
	for i := 1; i < len(st.parsers); i++ {
		if byName(st.parsers[i-1].name()).Order >= byName(st.parsers[i].name()).Order {
			t.Errorf("parsers out of order: %s before %s", st.parsers[i-1].name(), st.parsers[i].name())
		}
	}
}

// TestWantTable: what the registry's tables want, line by line, for a few
// shapes of each kind of rule.
func TestWantTable(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`{"Action":"run"}`, true},        // a one-byte start
		{"--- FAIL: TestX (0.00s)", true}, // a prefix
		{"-- not go", false},
		{"─", true},                                              // a whole line
		{"──", false},                                            // not that line
		{"tests/a.py::t FAILED", true},                           // an end
		{"[  FAILED  ] 1 test", true},                            // a one-byte start
		{"All tests passed (3 assertions in 1 test case)", true}, // a Want
		{"All is well (really)", false},
		{"hello world", false},
		{"WARNING: DATA RACE", true}, // a start longer than a word
		{"WARNING: DATA", false},
		{"ok", true}, {"o", false}, // shorter than a word
		{"✘ [fail]: x", true}, {"✘ x", false}, // a byte's fourth start
	} {
		if got := wanted.match([]byte(c.line)); got != c.want {
			t.Errorf("wanted.match(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func byName(n string) *Parser {
	for _, d := range declarations {
		if d.Runner == n {
			return d.Parser
		}
	}
	return nil
}

// TestWantTableOnce: a start several runners share is asked once.
func TestWantTableOnce(t *testing.T) {
	n := 0
	ss := wanted.starts['t']
	for _, p := range append(ss.s[:ss.n:ss.n], ss.more...) {
		if p == "test " {
			n++
		}
	}
	if n != 1 {
		t.Errorf(`"test " is in the table %d times, want once`, n)
	}
}
