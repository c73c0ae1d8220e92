package runners

import (
	"fmt"
	"testing"
)

// TestSurefireEntries: the shapes of surefire 2.22's `Results:` entries, as
// commons-codec's suite printed them, and what each names.
func TestSurefireEntries(t *testing.T) {
	tests := []struct {
		entry, want string // want: class.name:line: message
	}{
		{"CalcTest.addsSmall:11 expected:<3> but was:<4>", "CalcTest.addsSmall:11: expected:<3> but was:<4>"},
		{`CalcTest.parsesNumber:21 » NumberFormat For input string: "seven"`, `CalcTest.parsesNumber:21: NumberFormat For input string: "seven"`},
		{"HexTest.testEncodeDecodeHexCharArrayRandom:434", "HexTest.testEncodeDecodeHexCharArrayRandom:434: "},
		{"AllocateDirectHexTest>HexTest.testCustomCharset:173->HexTest.testCustomCharset:215 Big5 expected:<H[ello Wo]rld> but was:<H[dlln Vn]rld>",
			"AllocateDirectHexTest.testCustomCharset:173: Big5 expected:<H[ello Wo]rld> but was:<H[dlln Vn]rld>"},
		{"HexTest.testCustomCharset:173->testCustomCharset:215 Big5 expected:<H[ello Wo]rld>", "HexTest.testCustomCharset:173: Big5 expected:<H[ello Wo]rld>"},
		{"adds(com.x.CalcTest): expected:<3> but was:<4>", "com.x.CalcTest.adds:0: expected:<3> but was:<4>"},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			log := "[INFO] Results:\n[INFO] \n[ERROR] Failures: \n[ERROR]   " + tt.entry + "\n[INFO] \n[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0\n"
			s := checkVerifies(t, []byte(log))
			if len(s.Failures) != 1 {
				t.Fatalf("failures = %+v, want 1", s.Failures)
			}
			f := s.Failures[0]
			if got := fmt.Sprintf("%s.%s:%d: %s", f.Classname, f.Name, f.Line, f.Message); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	// Lines under [ERROR] that are no entries: a compiler's notes, maven's hint.
	for _, l := range []string{"  symbol:   variable missing", "  location: class calc.Calc", "  mvn <args> -rf :a"} {
		s := scanBytes(t, []byte("[ERROR] "+l+"\n[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0\n"))
		if len(s.Failures) != 0 {
			t.Errorf("%q named %+v", l, s.Failures)
		}
	}
}
