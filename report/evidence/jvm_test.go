package evidence

import (
	"os"
	"strings"
	"testing"
)

// readSample reads one of report/runners' real runner samples.
func readSample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../runners/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestJVMGrammar: the real Maven samples (report/runners/testdata's
// README says how they were made), at a budget below their size: each
// failing test's heading, assertion and frames in the project's code are
// quoted, its thirty frames of reflection and runner are not; javac's
// errors are quoted once, not again where Maven repeats them.
func TestJVMGrammar(t *testing.T) {
	padding := strings.Repeat("[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/example/lib/1.0/lib-1.0.jar (12 kB at 100 kB/s)\n", 200)
	tests := []struct {
		name, log string
		budget    int64
		want      []string
		not       []string
	}{
		{"surefire 2.22, JUnit 4, whole stacks, in colour", readSample(t, "surefire-junit4-color.log"), 4000,
			[]string{
				"java.lang.AssertionError: expected:<8> but was:<9>",
				"at com.example.calc.CalcTest.addsLarge(CalcTest.java:18)",
				"Expected: is \"1,000\"", "but: was \"1000\"",
				"java.lang.ArithmeticException: ratio of 0 to zero",
				"at com.example.calc.Calc.ratio(Calc.java:18)",
				"at com.example.calc.CalcTest.ratioOfZero(CalcTest.java:33)",
				"java.lang.IllegalStateException: ledger.db is locked",
			},
			[]string{"NativeMethodAccessorImpl", "ForkedBooter", "at org.junit.Assert.assertEquals", "BlockJUnit4ClassRunner", "There are test failures."}},
		{"surefire 2.22, JUnit 5: causes, nested classes, parameterised cases", padding + readSample(t, "surefire-junit5-fail.log"), 3000,
			[]string{
				"Caused by: java.lang.IllegalArgumentException: negative age: -3",
				"org.opentest4j.AssertionFailedError: age ==> expected: <41> but was: <42>",
				"at com.example.words.WordsTest$Ages.parsesAge(WordsTest.java:48)",
				"java.lang.IllegalStateException: dictionary.txt not found",
			},
			[]string{"Downloaded from central"}},
		{"reruns: each test's first report", padding + readSample(t, "surefire-rerun-fail.log"), 3000,
			[]string{
				"org.junit.ComparisonFailure: ", "[b]", "c> but was:<a",
				"Caused by: java.lang.NumberFormatException: For input string: \"zz\"",
				"java.lang.AssertionError: expected:<2> but was:<1>",
			},
			nil},
		{"javac's errors, once", padding + readSample(t, "maven-compile-error.log"), 1500,
			[]string{
				"[ERROR] /tmp/runledger-maven-samples/calc-broken/src/main/java/com/example/calc/Calc.java:[5,24] cannot find symbol\n  symbol:   variable offset\n  location: class com.example.calc.Calc",
				"Calc.java:[9,33] cannot find symbol\n  symbol:   method reversed()",
			},
			[]string{"[ERROR]   symbol:   variable offset", "Downloaded from central"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, _ := plan(t, tt.log, Budget{Bytes: tt.budget, Block: 1200, Ended: true})
			q := quoted(tt.log, ps)
			for _, w := range tt.want {
				if !strings.Contains(q, w) {
					t.Errorf("not quoted: %q\nquoted:\n%s", w, q)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(q, n) {
					t.Errorf("quoted: %q\nquoted:\n%s", n, q)
				}
			}
			checkPieces(t, tt.log, nil, ps)
		})
	}
}

// TestSurefireBlockNames: a report's heading names its block (the
// excerpt's label shows it) and is not quoted.
func TestSurefireBlockNames(t *testing.T) {
	log := strings.Repeat("[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/example/lib/1.0/lib-1.0.jar (12 kB at 100 kB/s)\n", 200) +
		readSample(t, "surefire-junit5-fail.log") +
		// Surefire 3's heading, which Debian's 2.22 does not print.
		"[ERROR] com.example.core.CalcTest.subtractsWrongly -- Time elapsed: 0.009 s <<< FAILURE!\n" +
		"org.opentest4j.AssertionFailedError: expected: <1> but was: <2>\n\tat com.example.core.CalcTest.subtractsWrongly(CalcTest.java:14)\n\n"
	ps, _ := plan(t, log, Budget{Bytes: 4000, Block: 1200, Ended: true})
	names := map[string]bool{}
	for _, p := range ps {
		names[p.Test] = true
		if strings.Contains(log[p.Start:p.End], "Time elapsed") {
			t.Errorf("a heading is quoted: %q", log[p.Start:p.End])
		}
	}
	for _, n := range []string{"rejectsNegativeAge", "countsMany{String, int}[3]", "com.example.words.DictionaryTest", "com.example.core.CalcTest.subtractsWrongly"} {
		if !names[n] {
			t.Errorf("no excerpt of %q among %v", n, names)
		}
	}
}

// TestJVMFrameKeys: a JVM frame in the project's code is a location, one
// in the JDK, a test framework or the runner is nothing (`Assert` in
// org.junit.Assert is no assertion of the test's), and other runners'
// `at` lines keep their scores.
func TestJVMFrameKeys(t *testing.T) {
	for line, want := range map[string]int{
		"\tat com.example.calc.CalcTest.addsLarge(CalcTest.java:18)":                          1,
		"\tat com.example.AssertionsTest.checks(AssertionsTest.java:9)":                       1,
		"\tat org.junit.Assert.assertEquals(Assert.java:117)":                                 0,
		"\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)": 0,
		"\tat org.apache.maven.surefire.booter.ForkedBooter.main(ForkedBooter.java:418)":      0,
		"\tat app//org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)":         0,
		"\tat app//com.example.WordsTest.counts(WordsTest.java:20)":                           1,
		"    at Object.<anonymous> (test/cart.test.js:7:12)":                                  1,
		"Caused by: java.lang.IllegalArgumentException: negative age: -3":                     2,
		"     but: was \"1000\"": 2,
		"[ERROR] addsLarge(com.example.calc.CalcTest)  Time elapsed: 0 s  <<< FAILURE!":                              2,
		"org.opentest4j.AssertionFailedError: expected: <0> but was: <1>":                                            2,
		"\tat org.hamcrest.MatcherAssert.assertThat(MatcherAssert.java:20)":                                          0,
		"\tat com.example.calc.Calc.ratio(Calc.java:18)":                                                             1,
		"\tat com.example.words.WordsTest.lambda$rejectsNegativeAge$0(WordsTest.java:25)":                            1,
		"\tat org.junit.jupiter.engine.execution.MethodInvocation.proceed(MethodInvocation.java:60)":                 0,
		"\tat kotlin.collections.CollectionsKt___CollectionsKt.first(_Collections.kt:199)":                           0,
		"\tat org.gradle.api.internal.tasks.testing.junit.JUnitTestClassExecutor.run(JUnitTestClassExecutor.java:1)": 0,
	} {
		if got := LineKey(line); got != want {
			t.Errorf("LineKey(%q) = %d, want %d", line, got, want)
		}
	}
}
