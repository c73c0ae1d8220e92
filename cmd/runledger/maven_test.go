package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The Maven reactor TestMavenEndToEnd builds: a JUnit 4 module and a
// JUnit 5 one, offline against the repository Debian's packages install
// (.ci/run installs them: maven, libsurefire-java, the compiler and
// resources plugins, junit4, junit5, libhamcrest-java).
const mavenRepo = "/usr/share/maven-repo"

var mavenFixture = map[string]string{
	"settings.xml": `<settings>
  <localRepository>` + mavenRepo + `</localRepository>
  <offline>true</offline>
</settings>
`,
	"pom.xml": `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>shop</artifactId>
  <version>1.0</version>
  <packaging>pom</packaging>
  <modules>
    <module>calc</module>
    <module>words</module>
  </modules>
  <properties>
    <maven.compiler.source>11</maven.compiler.source>
    <maven.compiler.target>11</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <build>
    <pluginManagement>
      <plugins>
        <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.0</version></plugin>
        <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
        <plugin><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version></plugin>
      </plugins>
    </pluginManagement>
  </build>
</project>
`,
	"calc/pom.xml": mavenModule("calc", `<dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>`),
	"calc/src/main/java/com/example/calc/Calc.java": `package com.example.calc;

public class Calc {
    public static int add(int a, int b) {
        return a + b + (a > 5 ? 1 : 0);
    }

    public static String label(int n) {
        return String.valueOf(n);
    }

    public static double ratio(int a, int b) {
        if (b == 0) {
            throw new ArithmeticException("ratio of " + a + " to zero");
        }
        return (double) a / b;
    }
}
`,
	"calc/src/test/java/com/example/calc/CalcTest.java": `package com.example.calc;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.Assert.assertEquals;

import org.junit.Ignore;
import org.junit.Test;

public class CalcTest {
    @Test
    public void addsSmall() {
        assertEquals(3, Calc.add(1, 2));
    }

    @Test
    public void addsLarge() {
        assertEquals(8, Calc.add(6, 2)); // addsLarge
    }

    @Test
    public void labelsThousands() {
        assertThat(Calc.label(1000), is("1,000")); // labelsThousands
    }

    @Test
    public void ratioOfZero() {
        assertEquals(0.0, Calc.ratio(0, 0), 0.001); // ratioOfZero
    }

    @Ignore("needs the currency service")
    @Test
    public void converts() {
    }
}
`,
	"words/pom.xml": mavenModule("words", `<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-engine</artifactId><version>5.9.2</version><scope>test</scope></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-params</artifactId><version>5.9.2</version><scope>test</scope></dependency>`),
	"words/src/main/java/com/example/words/Words.java": `package com.example.words;

public class Words {
    public static int count(String s) {
        if (s.isEmpty()) {
            return 1;
        }
        return s.trim().split("\\s+").length;
    }

    public static int parseAge(String s) {
        int n = Integer.parseInt(s);
        if (n < 0) {
            throw new IllegalArgumentException("negative age: " + n);
        }
        return n;
    }
}
`,
	"words/src/test/java/com/example/words/WordsTest.java": `package com.example.words;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WordsTest {
    @Test
    void rejectsNegativeAge() {
        assertThrows(IllegalStateException.class, () -> Words.parseAge("-3")); // rejectsNegativeAge
    }

    @ParameterizedTest
    @CsvSource({"a b, 2", "'', 0", "a b c, 3"})
    void countsMany(String in, int want) {
        assertEquals(want, Words.count(in)); // countsMany
    }

    @Nested
    class Ages {
        @Test
        void parsesAge() {
            assertEquals(41, Words.parseAge("42"), "age"); // parsesAge
        }

        @Test
        void parsesZero() {
            assertEquals(0, Words.parseAge("0"));
        }
    }
}
`,
}

func mavenModule(name, deps string) string {
	return `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>com.example</groupId><artifactId>shop</artifactId><version>1.0</version></parent>
  <artifactId>` + name + `</artifactId>
  <dependencies>
    ` + deps + `
  </dependencies>
</project>
`
}

// TestMavenEndToEnd runs one real `mvn -o test` (Maven's colours on, as CI
// logs show them, and whole stacks) of a two-module reactor under the real
// binary, then reads its report: Surefire's totals summed over the
// modules and verified; each failing test named with its class in full,
// placed at its test class's frame and explained by its assertion; the
// excerpts quote each failure's assertion and frames in the project's
// code, not the JDK's and JUnit's, under its heading as their label; the
// Markdown comment says the same within 16 KiB.
func TestMavenEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Skip("mvn is not installed here")
	}
	for _, dir := range []string{"org/apache/maven/plugins/maven-surefire-plugin/2.22.3", "org/apache/maven/plugins/maven-compiler-plugin/3.10.1",
		"org/apache/maven/plugins/maven-resources-plugin/3.3.0", "junit/junit/4.13.2", "org/junit/jupiter/junit-jupiter-engine/5.9.2",
		"org/junit/jupiter/junit-jupiter-params/5.9.2", "org/apache/maven/surefire/surefire-junit-platform/2.22.3"} {
		if _, err := os.Stat(filepath.Join(mavenRepo, dir)); err != nil {
			t.Skipf("Debian's Maven plugins or JUnit are not installed here: %v", err)
		}
	}
	work := t.TempDir()
	for name, body := range mavenFixture {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	store := t.TempDir()
	run := exec.Command(binary, "run", "--quiet", "--dir", store, "--name", "mvn", "--",
		"mvn", "-s", "settings.xml", "-o", "--fail-at-end", "-DtrimStackTrace=false", "test")
	run.Dir = work
	if out, err := run.CombinedOutput(); err != nil && (run.ProcessState == nil || run.ProcessState.ExitCode() != 1) {
		t.Fatalf("runledger run: %v\n%s", err, out)
	}
	out, err := exec.Command(binary, "report", "--dir", store, "--format", "json").Output()
	if len(out) == 0 {
		t.Fatalf("runledger report: %v", err)
	}
	var env struct {
		Runs []struct {
			ExitCode int `json:"exit_code"`
			Summary  struct {
				Source   string `json:"source"`
				Verified bool   `json:"verified"`
				Tests    *int   `json:"tests"`
				Passed   *int   `json:"passed"`
				Failed   *int   `json:"failed"`
				Skipped  *int   `json:"skipped"`
				Errors   *int   `json:"errors"`
				Note     string `json:"note"`
				Failures []struct {
					Name, Classname, File, Message string
					Line                           int
				} `json:"failures"`
			} `json:"summary"`
			Excerpts []struct {
				Reason, Text string
			} `json:"excerpts"`
			Logs map[string]struct {
				Bytes int64 `json:"bytes"`
			} `json:"logs"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &env); err != nil || len(env.Runs) != 1 {
		t.Fatalf("report: %v, %d runs\n%s", err, len(env.Runs), out)
	}
	r := env.Runs[0]
	s := r.Summary
	got := [5]int{deref(s.Tests), deref(s.Passed), deref(s.Failed), deref(s.Skipped), deref(s.Errors)}
	// calc: 5 tests, 1 passed, 2 failed, 1 error, 1 skipped; words: 6
	// tests (three cases of countsMany), 3 failed.
	if want := [5]int{11, 4, 5, 1, 1}; s.Source != "surefire" || !s.Verified || got != want || r.ExitCode != 1 {
		t.Fatalf("summary %s verified %v counts %v (%s), exit %d; want surefire, verified, %v, exit 1\n%s", s.Source, s.Verified, got, s.Note, r.ExitCode, want, out)
	}
	calcTest, wordsTest := mavenFixture["calc/src/test/java/com/example/calc/CalcTest.java"], mavenFixture["words/src/test/java/com/example/words/WordsTest.java"]
	wantFailures := map[string]string{
		"addsLarge":                  "com.example.calc.CalcTest com/example/calc/CalcTest.java:" + lineOf(t, calcTest, "// addsLarge") + " java.lang.AssertionError: expected:<8> but was:<9>",
		"labelsThousands":            "com.example.calc.CalcTest com/example/calc/CalcTest.java:" + lineOf(t, calcTest, "// labelsThousands") + ` java.lang.AssertionError: Expected: is "1,000" but: was "1000"`,
		"ratioOfZero":                "com.example.calc.CalcTest com/example/calc/CalcTest.java:" + lineOf(t, calcTest, "// ratioOfZero") + " java.lang.ArithmeticException: ratio of 0 to zero",
		"rejectsNegativeAge":         "com.example.words.WordsTest com/example/words/WordsTest.java:" + lineOf(t, wordsTest, "// rejectsNegativeAge") + " org.opentest4j.AssertionFailedError: Unexpected exception type thrown, expected: <java.lang.IllegalStateException> but was: <java.lang.IllegalArgumentException>",
		"countsMany{String, int}[2]": "com.example.words.WordsTest com/example/words/WordsTest.java:" + lineOf(t, wordsTest, "// countsMany") + " org.opentest4j.AssertionFailedError: expected: <0> but was: <1>",
		"parsesAge":                  "com.example.words.WordsTest$Ages com/example/words/WordsTest.java:" + lineOf(t, wordsTest, "// parsesAge") + " org.opentest4j.AssertionFailedError: age ==> expected: <41> but was: <42>",
	}
	if len(s.Failures) != len(wantFailures) {
		t.Errorf("%d failures, want %d: %+v", len(s.Failures), len(wantFailures), s.Failures)
	}
	for _, f := range s.Failures {
		got := f.Classname + " " + f.File + ":" + strconv.Itoa(f.Line) + " " + f.Message
		if want, ok := wantFailures[f.Name]; !ok || got != want {
			t.Errorf("failure %s: %q, want %q", f.Name, got, want)
		}
	}

	// The log is past the comment's budget, so it is quoted in excerpts.
	if r.Logs["output"].Bytes <= 16<<10 {
		t.Errorf("the log has %d bytes; the fixture must print more than 16 KiB for its excerpts to be chosen", r.Logs["output"].Bytes)
	}
	var quoted strings.Builder
	for _, e := range r.Excerpts {
		if e.Reason == "whole" {
			t.Errorf("the log was quoted whole")
		}
		quoted.WriteString(ansi.ReplaceAllString(e.Text, ""))
	}
	quote := []string{
		"java.lang.AssertionError: expected:<8> but was:<9>",
		"at com.example.calc.CalcTest.addsLarge(CalcTest.java:" + lineOf(t, calcTest, "// addsLarge") + ")",
		"Expected: is \"1,000\"\n     but: was \"1000\"",
		"java.lang.ArithmeticException: ratio of 0 to zero\n\tat com.example.calc.Calc.ratio(Calc.java:" + lineOf(t, mavenFixture["calc/src/main/java/com/example/calc/Calc.java"], "throw new ArithmeticException") + ")",
		"Caused by: java.lang.IllegalArgumentException: negative age: -3",
		"at com.example.words.WordsTest$Ages.parsesAge(WordsTest.java:" + lineOf(t, wordsTest, "// parsesAge") + ")",
	}
	noise := []string{"NativeMethodAccessorImpl", "ForkedBooter", "at org.junit.Assert.assertEquals", "BlockJUnit4ClassRunner", "There are test failures."}
	for _, q := range quote {
		if !strings.Contains(quoted.String(), q) {
			t.Errorf("no excerpt quotes %q; they quote:\n%s", q, quoted.String())
		}
	}
	for _, n := range noise {
		if strings.Contains(quoted.String(), n) {
			t.Errorf("an excerpt quotes %q:\n%s", n, quoted.String())
		}
	}

	md, err := exec.Command(binary, "report", "--dir", store, "--format", "markdown", "--max-bytes", "16384").Output()
	if len(md) == 0 {
		t.Fatalf("runledger report --format markdown: %v", err)
	}
	comment := string(md)
	if i := strings.Index(comment, "<details><summary>envelope"); i > 0 {
		comment = comment[:i]
	}
	for _, w := range []string{
		"11 tests, 5 failed, 1 error, 1 skipped",
		"**Failing tests (6)**",
		"**`addsLarge(com.example.calc.CalcTest)`** · stdout",
		"**`countsMany{String, int}[2]`** · stdout",
		"`addsLarge` — java.lang.AssertionError: expected:&lt;8&gt; but was:&lt;9&gt; · com/example/calc/CalcTest.java:" + lineOf(t, calcTest, "// addsLarge") + " · com.example.calc.CalcTest",
		"`parsesAge` — org.opentest4j.AssertionFailedError: age ==&gt; expected: &lt;41&gt; but was: &lt;42&gt;",
		"java.lang.AssertionError: expected:<8> but was:<9>",
		"Caused by: java.lang.IllegalArgumentException: negative age: -3",
		"at com.example.calc.Calc.ratio(Calc.java:",
	} {
		if !strings.Contains(comment, w) {
			t.Errorf("the comment lacks %q:\n%s", w, comment)
		}
	}
	for _, n := range noise {
		if strings.Contains(comment, n) {
			t.Errorf("the comment quotes %q:\n%s", n, comment)
		}
	}
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// lineOf is the 1-based line of src holding marker.
func lineOf(t *testing.T, src, marker string) string {
	t.Helper()
	i := strings.Index(src, marker)
	if i < 0 {
		t.Fatalf("no %q in the fixture", marker)
	}
	return strconv.Itoa(strings.Count(src[:i], "\n") + 1)
}
