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
