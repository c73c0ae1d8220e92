package evidence

import "testing"

// TestSelectLinesJVM: under a limit that holds two of a surefire block's
// three lines, the assertion is quoted with the heading, not the frame
// (a JVM block's last line, only the place); a Python block's last line,
// its exception, still comes first.
func TestSelectLinesJVM(t *testing.T) {
	tests := []struct {
		name  string
		block string
		limit int64
		want  []bool
	}{
		{"surefire: heading and assertion", "[ERROR] adds(calc.CalcTest)  Time elapsed: 0 s  <<< FAILURE!\n" +
			"org.junit.ComparisonFailure: expected:<800[7]> but was:<800[6]>\n" +
			"\tat calc.CalcTest.adds(CalcTest.java:11)\n", 130, []bool{true, true, false}},
		{"python: heading and the exception last", "Traceback (most recent call last):\n" +
			"  File \"t.py\", line 3, in test_adds\n" +
			"ValueError: boom\n", 55, []bool{true, false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := selectLines(appendLines(nil, []byte(tt.block), 0, 1), tt.limit)
			for i := range tt.want {
				if got[i] != tt.want[i] {
					t.Errorf("selected %v, want %v", got, tt.want)
					break
				}
			}
		})
	}
	for line, want := range map[string]bool{
		"\tat calc.CalcTest.adds(CalcTest.java:11)\n": true, "    at a.B.c(B.kt:3)\n": true,
		"    at Object.<anonymous> (test.js:3:9)\n": false, "org.junit.ComparisonFailure: x\n": false,
	} {
		if got := jvmFrame([]byte(line)); got != want {
			t.Errorf("jvmFrame(%q) = %v, want %v", line, got, want)
		}
	}
}
