package runners

import (
	"fmt"
	"os"
	"testing"
)

// debianMavenRepo holds the plugins and JUnit that Debian packages
// (libsurefire-java, libmaven-compiler-plugin-java,
// libmaven-resources-plugin-java, junit4), so mvn -o builds without Maven
// Central.
const debianMavenRepo = "/usr/share/maven-repo"

// surefirePom pins each lifecycle plugin the test phase runs to the version
// Debian installed; junit's "4.x" is Debian's version-independent link.
const surefirePom = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>calc</artifactId>
  <version>1.0</version>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.source>11</maven.compiler.source>
    <maven.compiler.target>11</maven.compiler.target>
  </properties>
  <dependencies>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.x</version><scope>test</scope></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.0</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version></plugin>
    </plugins>
  </build>
</project>
`

// TestSurefireReal runs Maven surefire 2.22 (JUnit 4) offline on a project
// with a failed assertEquals, an exception from library code, a skip and
// two passes: the totals after Results: count once, each failure is named
// with its line in the test class and its message.
func TestSurefireReal(t *testing.T) {
	for _, p := range []string{"org/apache/maven/plugins/maven-surefire-plugin/2.22.3",
		"org/apache/maven/plugins/maven-compiler-plugin/3.10.1",
		"org/apache/maven/plugins/maven-resources-plugin/3.3.0", "junit/junit/4.x"} {
		if _, err := os.Stat(debianMavenRepo + "/" + p); err != nil {
			t.Skipf("Debian's maven plugins are not installed here: %v", err)
		}
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"pom.xml": surefirePom,
		"src/main/java/calc/Calc.java": `package calc;

public class Calc {
    public int add(int a, int b) {
        return a + b + (a == 1 ? 1 : 0);
    }

    public int parse(String s) {
        return Integer.parseInt(s);
    }
}
`,
		"src/test/java/calc/CalcTest.java": `package calc;

import static org.junit.Assert.assertEquals;

import org.junit.Ignore;
import org.junit.Test;

public class CalcTest {
    @Test
    public void addsSmall() {
        assertEquals(3, new Calc().add(1, 2));
    }

    @Test
    public void addsBig() {
        assertEquals(30, new Calc().add(10, 20));
    }

    @Test
    public void parsesNumber() {
        assertEquals(7, new Calc().parse("seven"));
    }

    @Ignore("not yet")
    @Test
    public void later() {
    }

    @Test
    public void parsesDigits() {
        assertEquals(7, new Calc().parse("7"));
    }
}
`,
	})
	log := runTool(t, dir, nil, "mvn", "-o", "-B", "-Dmaven.repo.local="+debianMavenRepo, "test")
	s := scanBytes(t, log)
	check(t, s, want{"surefire", 5, 2, 1, 1, 1, []string{"addsSmall", "parsesNumber"}, nil, 1}, log)
	for name, want := range map[string]string{
		"addsSmall":    `CalcTest:11: expected:<3> but was:<4>`,
		"parsesNumber": `CalcTest:21: NumberFormat For input string: "seven"`,
	} {
		if f := findFailure(s, name); f == nil || fmt.Sprintf("%s:%d: %s", f.Classname, f.Line, f.Message) != want {
			t.Errorf("%s = %+v, want %s", name, f, want)
		}
	}
}

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
