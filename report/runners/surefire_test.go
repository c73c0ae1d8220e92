package runners

import (
	"os"
	"strconv"
	"testing"
)

// TestSurefireSamples: the real Maven samples (testdata/README.md) verify,
// and read the same on the fast path as with every parser on every line.
func TestSurefireSamples(t *testing.T) {
	for _, name := range []string{"surefire-junit4-fail.log", "surefire-junit4-color.log", "surefire-junit5-fail.log",
		"surefire-junit5-quiet.log", "surefire-rerun-fail.log", "surefire-reactor-fail.log", "maven-compile-error.log"} {
		t.Run(name, func(t *testing.T) {
			log, err := os.ReadFile("testdata/" + name)
			if err != nil {
				t.Fatal(err)
			}
			checkVerifies(t, log)
		})
	}
}

// TestSurefireLogs: the shapes of surefire's report the samples do not
// show (surefire 3's, Failsafe's, quiet runs of several modules) and the
// names, messages and places read from them.
func TestSurefireLogs(t *testing.T) {
	const s3 = "[INFO] --- surefire:3.2.5:test (default-test) @ core ---\n" +
		"[INFO] Running com.x.CalcTest\n" +
		"[ERROR] Tests run: 5, Failures: 2, Errors: 1, Skipped: 0, Time elapsed: 0.04 s <<< FAILURE! -- in com.x.CalcTest\n" +
		"[ERROR] com.x.CalcTest.adds -- Time elapsed: 0.01 s <<< FAILURE!\n" +
		"org.opentest4j.AssertionFailedError: expected: <3> but was: <4>\n" +
		"\tat org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:151)\n" +
		"\tat com.x.CalcTest.adds(CalcTest.java:12)\n" +
		"\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)\n\n" +
		"[ERROR] com.x.CalcTest.many(int)[2] -- Time elapsed: 0.01 s <<< FAILURE!\n" +
		"org.opentest4j.AssertionFailedError: expected: <true> but was: <false>\n" +
		"\tat com.x.CalcTest.many(CalcTest.java:20)\n\n" +
		"[ERROR] com.x.CalcTest.parses -- Time elapsed: 0 s <<< ERROR!\n" +
		"java.lang.NumberFormatException: For input string: \"x\"\n" +
		"\tat java.base/java.lang.Integer.parseInt(Integer.java:652)\n" +
		"\tat com.x.Calc.parse(Calc.java:9)\n" +
		"\tat com.x.CalcTest.parses(CalcTest.java:30)\n\n" +
		"[INFO] \n[INFO] Results:\n[INFO] \n[ERROR] Failures: \n" +
		"[ERROR]   CalcTest.adds:12 expected: <3> but was: <4>\n" +
		"[ERROR]   CalcTest.many:20 expected: <true> but was: <false>\n" +
		"[ERROR] Errors: \n" +
		"[ERROR]   CalcTest.parses:30 » NumberFormat For input string: \"x\"\n" +
		"[INFO] \n[ERROR] Tests run: 5, Failures: 2, Errors: 1, Skipped: 0\n"
	tests := []struct {
		name, log string
		want      want
		places    map[string]string // failure name → "classname file:line message"
	}{
		{"surefire 3: full names in the headings, the test's frame under the library's", s3,
			want{"surefire", 5, 2, 2, 0, 1, []string{"adds", "many(int)[2]", "parses"}, nil, 1},
			map[string]string{
				"adds":         "com.x.CalcTest com/x/CalcTest.java:12 org.opentest4j.AssertionFailedError: expected: <3> but was: <4>",
				"many(int)[2]": "com.x.CalcTest com/x/CalcTest.java:20 org.opentest4j.AssertionFailedError: expected: <true> but was: <false>",
				"parses":       "com.x.CalcTest com/x/CalcTest.java:30 java.lang.NumberFormatException: For input string: \"x\"",
			}},
		{"Failsafe's run of the same module is another run, not a retry",
			s3 + "[INFO] --- failsafe:3.2.5:integration-test (default) @ core ---\n[INFO] Results:\n[INFO] \n[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0\n",
			want{"surefire", 7, 4, 2, 0, 1, []string{"adds", "many(int)[2]", "parses"}, nil, 2}, nil},
		{"the same module tested twice: the second run counts",
			s3 + "[INFO] --- surefire:3.2.5:test (default-test) @ core ---\n[INFO] Results:\n[INFO] \n[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0\n",
			want{"surefire", 5, 5, 0, 0, 0, nil, []string{"adds", "many(int)[2]", "parses"}, 2}, nil},
		{"-q: no module named, two modules' totals summed",
			"[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in com.x.ATest\n" +
				"[ERROR] a(com.x.ATest)  Time elapsed: 0 s  <<< FAILURE!\njava.lang.AssertionError: boom\n\tat com.x.ATest.a(ATest.java:7)\n\n" +
				"[ERROR] Failures: \n[ERROR]   ATest.a:7 boom\n[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0\n" +
				"[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in com.y.BTest\n" +
				"[ERROR] b(com.y.BTest)  Time elapsed: 0 s  <<< ERROR!\njava.lang.IllegalStateException: no db\n\tat com.y.BTest.b(BTest.java:9)\n\n" +
				"[ERROR] Errors: \n[ERROR]   BTest.b:9 IllegalState no db\n[ERROR] Tests run: 4, Failures: 0, Errors: 1, Skipped: 0\n",
			want{"surefire", 7, 5, 1, 0, 1, []string{"a", "b"}, nil, 2},
			map[string]string{"a": "com.x.ATest com/x/ATest.java:7 java.lang.AssertionError: boom", "b": "com.y.BTest com/y/BTest.java:9 java.lang.IllegalStateException: no db"}},
		{"an entry with no report: its class's package from the class line, the entry's message and its continuation",
			"[INFO] --- maven-surefire-plugin:2.22.2:test (default-test) @ m ---\n" +
				"[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in com.x.HamTest\n" +
				"[INFO] Results:\n[ERROR] Failures: \n[ERROR]   HamTest.label:23 \nExpected: is \"1,000\"\n     but: was \"1000\"\n" +
				"[INFO] \n[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0\n",
			want{"surefire", 2, 1, 1, 0, 0, []string{"label"}, nil, 1},
			map[string]string{"label": "com.x.HamTest :23 Expected: is \"1,000\" but: was \"1000\""}},
		{"surefire 3's reruns and flakes: the rerun's head names the test in full",
			"[INFO] --- surefire:3.2.5:test (default-test) @ m ---\n" +
				"[INFO] Results:\n[ERROR] Failures: \n[ERROR] com.x.RetryTest.always\n[ERROR]   Run 1: RetryTest.always:9 expected: <1> but was: <2>\n" +
				"[ERROR]   Run 2: RetryTest.always:9 expected: <1> but was: <2>\n[INFO] \n[WARNING] Flakes: \n[WARNING] com.x.RetryTest.sometimes\n" +
				"[ERROR]   Run 1: RetryTest.sometimes:14 expected: <2> but was: <1>\n[INFO]   Run 2: PASS\n[INFO] \n" +
				"[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Flakes: 1\n",
			want{"surefire", 3, 2, 1, 0, 0, []string{"always"}, []string{"sometimes"}, 1},
			map[string]string{"always": "com.x.RetryTest :0 expected: <1> but was: <2>"}},
		{"an inherited test (`Sub>Base.method`), its stack trimmed to nothing; the class's own run of it, placed in its frame",
			"[INFO] --- maven-surefire-plugin:2.22.3:test (default-test) @ codec ---\n" +
				"[ERROR] Tests run: 9, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in com.x.DirectHexTest\n" +
				"[ERROR] encodes(com.x.DirectHexTest)  Time elapsed: 0 s  <<< FAILURE!\norg.junit.ComparisonFailure: expected:<6[f]> but was:<6[e]>\n\n" +
				"[ERROR] Tests run: 9, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in com.x.HexTest\n" +
				"[ERROR] encodes(com.x.HexTest)  Time elapsed: 0 s  <<< FAILURE!\norg.junit.ComparisonFailure: expected:<6[f]> but was:<6[e]>\n" +
				"\tat com.x.HexTest.check(HexTest.java:40)\n\tat com.x.HexTest.encodes(HexTest.java:12)\n\n" +
				"[INFO] Results:\n[ERROR] Failures: \n[ERROR]   DirectHexTest>HexTest.encodes:12->check:40 expected:<6[f]> but was:<6[e]>\n" +
				"[ERROR]   HexTest.encodes:12->check:40 expected:<6[f]> but was:<6[e]>\n[ERROR] Tests run: 18, Failures: 2, Errors: 0, Skipped: 0\n",
			want{"surefire", 18, 16, 2, 0, 0, []string{"encodes", "encodes"}, nil, 1},
			nil},
		{"a report's heading with no results after it is no run",
			"[ERROR] adds(com.x.CalcTest)  Time elapsed: 0 s  <<< FAILURE!\njava.lang.AssertionError\n",
			want{"none", -1, -1, -1, -1, -1, nil, nil, 0}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := []byte(tt.log)
			s := checkVerifies(t, log)
			check(t, s, tt.want, log)
			for name, want := range tt.places {
				f := findFailure(s, name)
				if f == nil {
					t.Errorf("%s: not among %+v", name, s.Failures)
					continue
				}
				if got := f.Classname + " " + f.File + ":" + strconv.Itoa(f.Line) + " " + f.Message; got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
		})
	}
}
