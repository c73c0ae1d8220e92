package runners

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestJasmineReal runs Debian's jasmine on specs that pass, fail an
// expectation, throw from library code, stay pending and fail twice.
func TestJasmineReal(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"spec/support/jasmine.json": `{"spec_dir": "spec", "spec_files": ["**/*[sS]pec.js"], "random": false}`,
		"calc.js": `exports.add = (a, b) => a + b + (a > 5 ? 1 : 0);
exports.parse = (s) => { if (!s) throw new TypeError("nothing to parse"); return Number(s); };
`,
		"spec/calc.spec.js": `const calc = require("../calc");
describe("calc", () => {
  it("adds small numbers", () => { expect(calc.add(1, 2)).toBe(3); });
  it("adds large numbers", () => { expect(calc.add(6, 2)).toBe(8); });
  it("parses nothing", () => { expect(calc.parse("")).toBe(0); });
  xit("is pending", () => {});
  it("checks twice", () => { expect(1).toBe(2); expect("a").toEqual("b"); });
});
`,
	})
	// Debian's jasmine finds its modules where Debian's node looks.
	log := runTool(t, dir, []string{"NODE_PATH=/usr/share/nodejs"}, "jasmine")
	s := scanBytes(t, log)
	check(t, s, want{"jasmine", 5, 1, 3, 1, 0, []string{"calc adds large numbers", "calc parses nothing", "calc checks twice"}, nil, 1}, log)
	spec := filepath.Join(dir, "spec", "calc.spec.js")
	for name, want := range map[string]string{
		"calc adds large numbers": spec + ":4: Expected 9 to be 8.",
		"calc parses nothing":     spec + ":5: TypeError: nothing to parse",
		"calc checks twice":       spec + ":7: Expected 1 to be 2.",
	} {
		if f := findFailure(s, name); f == nil || fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Message) != want {
			t.Errorf("%s = %+v, want %s", name, f, want)
		}
	}
}

// TestJasmineTotals: what counts as a jasmine run and what does not.
func TestJasmineTotals(t *testing.T) {
	tests := []struct {
		name string
		log  string
		want want
		note string
	}{
		{"a total outside a run is none",
			"5 specs, 1 failure\nFinished in 0.01 seconds\n", want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, ""},
		{"pending specs are numbered too, and are no failures",
			"Started\n.F*\n\nFailures:\n1) a fails\n  Message:\n    Expected 1 to be 2.\n  Stack:\n        at <Jasmine>\nPending:\n\n1) a waits\n  Temporarily disabled with xit\n\n" +
				"3 specs, 1 failure, 1 pending spec\nFinished in 0.01 seconds\n",
			want{"jasmine", 3, 1, 1, 1, 0, []string{"a fails"}, nil, 1}, "passed is the specs minus"},
		{"a numbered item before Failures: names nothing",
			"Started\n1) a quoted item\n..\n\n2 specs, 0 failures\nFinished in 0.01 seconds\n",
			want{"jasmine", 2, 2, 0, 0, 0, nil, nil, 1}, ""},
		{"two suites sum",
			"Started\n.\n\n1 spec, 0 failures\nFinished in 0.01 seconds\nStarted\nF.\n\nFailures:\n1) b fails\n  Message:\n    boom\n\n2 specs, 1 failure\nFinished in 0.01 seconds\n",
			want{"jasmine", 3, 2, 1, 0, 0, []string{"b fails"}, nil, 2}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := checkVerifies(t, []byte(tt.log))
			check(t, s, tt.want, []byte(tt.log))
			if !strings.Contains(s.Note, tt.note) {
				t.Errorf("note = %q, want it to say %q", s.Note, tt.note)
			}
		})
	}
}

// TestJasmineLines: what compaction reads of a jasmine run.
func TestJasmineLines(t *testing.T) {
	checkLines(t, []lineCase{
		{"1605 specs, 8 failures", "jasmine", Failed, true},
		{"5 specs, 0 failures, 1 pending spec", "jasmine", Passed, true},
	}, "5 specs", "Started", "8 failures")
}

func FuzzJasmine(f *testing.F) {
	fuzzDeclared(f, "Started\nF\n\nFailures:\n1) a fails\n  Message:\n    Expected 1 to be 2.\n  Stack:\n        at x (spec/a.spec.js:1:2)\n\n1 spec, 1 failure\nFinished in 0.01 seconds\n",
		"Started\n.\n\n1 spec, 0 failures\n", "Pending:\n1) a\n")
}
