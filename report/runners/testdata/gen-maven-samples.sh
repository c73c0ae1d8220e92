#!/bin/sh
# Regenerates the Maven samples (see README.md): real output of `mvn -o`
# (Maven 3.8.7, Surefire 2.22.3, JUnit 4.13.2 with Hamcrest 2.2, JUnit
# 5.9.2) on small projects written here, offline against the repository
# Debian's packages install in /usr/share/maven-repo:
#
#   apt-get install maven libsurefire-java libmaven-compiler-plugin-java \
#     libmaven-resources-plugin-java junit4 junit5 libhamcrest-java
#
# Usage: sh testdata/gen-maven-samples.sh [SAMPLE...] (from report/runners;
# SAMPLE: junit4 junit4-color junit5 junit5-quiet rerun reactor compile; none: all of them)
#
# The projects are written to the fixed directory /tmp/runledger-maven-samples
# (wiped at start and end) so that the paths Maven prints stay the same.
set -eu
only=" ${*:-junit4 junit4-color junit5 junit5-quiet rerun reactor compile} "
wanted() { case "$only" in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
out=$(cd "$(dirname "$0")" && pwd)
work=/tmp/runledger-maven-samples
rm -rf "$work"
trap 'rm -rf "$work"' EXIT
# Debian's settings: /usr/share/maven-repo as the local repository, offline.
mvn="mvn -s /etc/maven/settings-debian.xml -o"

# pom DIR ARTIFACT DEPS [MODULE-LINES]: a jar project with the plugins pinned
# to the versions Debian installs.
pom() {
  mkdir -p "$1"
  cat > "$1/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>$2</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.source>11</maven.compiler.source>
    <maven.compiler.target>11</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
$3
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.0</version></plugin>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
      <plugin><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version></plugin>
    </plugins>
  </build>
</project>
EOF
}
junit4='    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>'
junit5='    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-engine</artifactId><version>5.9.2</version><scope>test</scope></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-params</artifactId><version>5.9.2</version><scope>test</scope></dependency>'

# calc DIR: a JUnit 4 project: assertEquals, a Hamcrest assertThat, a
# string ComparisonFailure, an exception thrown in library code, an
# @Ignore, a class that passes and one whose @BeforeClass throws.
calc() {
  pom "$1" calc "$junit4"
  mkdir -p "$1/src/main/java/com/example/calc" "$1/src/test/java/com/example/calc"
  cat > "$1/src/main/java/com/example/calc/Calc.java" <<'EOF'
package com.example.calc;

public class Calc {
    public static int add(int a, int b) {
        return a + b + (a > 5 ? 1 : 0);
    }

    public static String label(int n) {
        return String.valueOf(n);
    }

    public static String greet(String name) {
        return "Hello " + name;
    }

    public static double ratio(int a, int b) {
        if (b == 0) {
            throw new ArithmeticException("ratio of " + a + " to zero");
        }
        return (double) a / b;
    }
}
EOF
  cat > "$1/src/test/java/com/example/calc/CalcTest.java" <<'EOF'
package com.example.calc;

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
        assertEquals(8, Calc.add(6, 2));
    }

    @Test
    public void labelsThousands() {
        assertThat(Calc.label(1000), is("1,000"));
    }

    @Test
    public void greets() {
        assertEquals("greeting", "Hello, World", Calc.greet("World"));
    }

    @Test
    public void ratioOfZero() {
        assertEquals(0.0, Calc.ratio(0, 0), 0.001);
    }

    @Ignore("needs the currency service")
    @Test
    public void converts() {
    }
}
EOF
  cat > "$1/src/test/java/com/example/calc/RatioTest.java" <<'EOF'
package com.example.calc;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class RatioTest {
    @Test
    public void halves() {
        assertEquals(0.5, Calc.ratio(1, 2), 0.001);
    }

    @Test
    public void whole() {
        assertEquals(2.0, Calc.ratio(4, 2), 0.001);
    }

    @Test
    public void thirds() {
        assertEquals(0.333, Calc.ratio(1, 3), 0.001);
    }
}
EOF
  cat > "$1/src/test/java/com/example/calc/LedgerTest.java" <<'EOF'
package com.example.calc;

import static org.junit.Assert.assertEquals;

import org.junit.BeforeClass;
import org.junit.Test;

public class LedgerTest {
    @BeforeClass
    public static void open() {
        throw new IllegalStateException("ledger.db is locked");
    }

    @Test
    public void balances() {
        assertEquals(0, Calc.add(0, 0));
    }
}
EOF
}

# words DIR: a JUnit 5 project: assertEquals, assertThrows, a
# @ParameterizedTest (two of its cases fail), a @Nested class, an
# exception in library code, a @Disabled test, and a class whose
# @BeforeAll throws.
words() {
  pom "$1" words "$junit5"
  mkdir -p "$1/src/main/java/com/example/words" "$1/src/test/java/com/example/words"
  cat > "$1/src/main/java/com/example/words/Words.java" <<'EOF'
package com.example.words;

public class Words {
    public static int count(String s) {
        if (s.isEmpty()) {
            return 1;
        }
        return s.trim().split("\\s+").length;
    }

    public static String initials(String s) {
        StringBuilder b = new StringBuilder();
        for (String w : s.split(" ")) {
            b.append(w.charAt(0));
        }
        return b.toString();
    }

    public static int parseAge(String s) {
        int n = Integer.parseInt(s);
        if (n < 0) {
            throw new IllegalArgumentException("negative age: " + n);
        }
        return n;
    }
}
EOF
  cat > "$1/src/test/java/com/example/words/WordsTest.java" <<'EOF'
package com.example.words;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WordsTest {
    @Test
    void countsWords() {
        assertEquals(3, Words.count("a b c"));
    }

    @Test
    void countsNothing() {
        assertEquals(0, Words.count(""));
    }

    @Test
    void rejectsNegativeAge() {
        assertThrows(IllegalStateException.class, () -> Words.parseAge("-3"));
    }

    @Test
    void initialsOfDoubleSpace() {
        assertEquals("ab", Words.initials("a  b"));
    }

    @Disabled("later")
    @Test
    void hyphens() {
    }

    @ParameterizedTest
    @CsvSource({"a b, 2", "'', 0", "' ', 0"})
    void countsMany(String in, int want) {
        assertEquals(want, Words.count(in));
    }

    @Nested
    class Ages {
        @Test
        void parsesAge() {
            assertEquals(41, Words.parseAge("42"), "age");
        }

        @Test
        void parsesZero() {
            assertEquals(0, Words.parseAge("0"));
        }
    }
}
EOF
  cat > "$1/src/test/java/com/example/words/DictionaryTest.java" <<'EOF'
package com.example.words;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DictionaryTest {
    @BeforeAll
    static void load() {
        throw new IllegalStateException("dictionary.txt not found");
    }

    @Test
    void knowsWords() {
        assertTrue(true);
    }
}
EOF
}

# flaky DIR: a JUnit 4 class run with -Dsurefire.rerunFailingTestsCount=2:
# a test that passes on its second run, a multi-line ComparisonFailure, an
# exception with a cause, a message longer than the Results list keeps.
flaky() {
  pom "$1" flaky "$junit4"
  mkdir -p "$1/src/test/java/com/example/flaky"
  cat > "$1/src/test/java/com/example/flaky/RetryTest.java" <<'EOF'
package com.example.flaky;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class RetryTest {
    static int runs;

    @Test
    public void secondTime() {
        runs++;
        System.out.println("run " + runs);
        assertEquals(2, runs);
    }

    @Test
    public void lines() {
        assertEquals("a\nb\nc", "a\nB\nc");
    }

    @Test
    public void wrapped() {
        try {
            Integer.parseInt("zz");
        } catch (NumberFormatException e) {
            throw new IllegalStateException("config value is not a number", e);
        }
    }

    @Test
    public void longMessage() {
        throw new RuntimeException("the service configuration names a port that is out of range, far past the width the Results list keeps");
    }
}
EOF
}

if wanted junit4; then
  calc "$work/calc"
  (cd "$work/calc" && $mvn -B test > "$out/surefire-junit4-fail.log" 2>&1) || true
fi

# The same project as CI logs show it without -B (Maven colours its
# output even into a pipe), with the whole stacks (surefire 3's default).
if wanted junit4-color; then
  calc "$work/calc-color"
  (cd "$work/calc-color" && $mvn -DtrimStackTrace=false test > "$out/surefire-junit4-color.log" 2>&1) || true
fi

if wanted junit5; then
  words "$work/words"
  (cd "$work/words" && $mvn -B test > "$out/surefire-junit5-fail.log" 2>&1) || true
fi

# The same quiet (-q): no plugin line names the module, no Results: line.
if wanted junit5-quiet; then
  words "$work/words-quiet"
  (cd "$work/words-quiet" && $mvn -B -q test > "$out/surefire-junit5-quiet.log" 2>&1) || true
fi

if wanted rerun; then
  flaky "$work/flaky"
  (cd "$work/flaky" && $mvn -B -Dsurefire.rerunFailingTestsCount=2 test > "$out/surefire-rerun-fail.log" 2>&1) || true
fi

# A reactor: shop-util (JUnit 5, passes), shop-core (JUnit 4, one failure)
# and shop-api, which needs shop-core and is skipped.
if wanted reactor; then
  d="$work/shop"
  mkdir -p "$d"
  cat > "$d/pom.xml" <<'EOF'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>shop</artifactId>
  <version>1.0</version>
  <packaging>pom</packaging>
  <modules>
    <module>shop-util</module>
    <module>shop-core</module>
    <module>shop-api</module>
  </modules>
</project>
EOF
  pom "$d/shop-util" shop-util "$junit5"
  mkdir -p "$d/shop-util/src/main/java/com/example/util" "$d/shop-util/src/test/java/com/example/util"
  printf 'package com.example.util;\n\npublic class Money {\n    public static long cents(double euros) {\n        return Math.round(euros * 100);\n    }\n}\n' > "$d/shop-util/src/main/java/com/example/util/Money.java"
  printf 'package com.example.util;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass MoneyTest {\n    @Test\n    void cents() {\n        assertEquals(250, Money.cents(2.5));\n    }\n\n    @Test\n    void rounds() {\n        assertEquals(1, Money.cents(0.005));\n    }\n}\n' > "$d/shop-util/src/test/java/com/example/util/MoneyTest.java"
  pom "$d/shop-core" shop-core "$junit4"
  mkdir -p "$d/shop-core/src/main/java/com/example/core" "$d/shop-core/src/test/java/com/example/core"
  printf 'package com.example.core;\n\npublic class Cart {\n    public static int total(int... prices) {\n        int sum = 0;\n        for (int i = 1; i < prices.length; i++) {\n            sum += prices[i];\n        }\n        return sum;\n    }\n}\n' > "$d/shop-core/src/main/java/com/example/core/Cart.java"
  printf 'package com.example.core;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\npublic class CartTest {\n    @Test\n    public void empty() {\n        assertEquals(0, Cart.total());\n    }\n\n    @Test\n    public void sums() {\n        assertEquals("total of 3 items", 60, Cart.total(10, 20, 30));\n    }\n}\n' > "$d/shop-core/src/test/java/com/example/core/CartTest.java"
  pom "$d/shop-api" shop-api "    <dependency><groupId>com.example</groupId><artifactId>shop-core</artifactId><version>1.0</version></dependency>
$junit4"
  mkdir -p "$d/shop-api/src/main/java/com/example/api" "$d/shop-api/src/test/java/com/example/api"
  printf 'package com.example.api;\n\nimport com.example.core.Cart;\n\npublic class Api {\n    public static String total(int... prices) {\n        return "total=" + Cart.total(prices);\n    }\n}\n' > "$d/shop-api/src/main/java/com/example/api/Api.java"
  printf 'package com.example.api;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\npublic class ApiTest {\n    @Test\n    public void total() {\n        assertEquals("total=0", Api.total());\n    }\n}\n' > "$d/shop-api/src/test/java/com/example/api/ApiTest.java"
  (cd "$d" && $mvn -B test > "$out/surefire-reactor-fail.log" 2>&1) || true
fi

# The JUnit 4 project with a main source that does not compile.
if wanted compile; then
  calc "$work/calc-broken"
  f="$work/calc-broken/src/main/java/com/example/calc/Calc.java"
  sed -i 's/return a + b + (a > 5 ? 1 : 0);/return a + b + offset;/; s/return String.valueOf(n);/return String.valueOf(n).reversed();/' "$f"
  (cd "$work/calc-broken" && $mvn -B test > "$out/maven-compile-error.log" 2>&1) || true
fi
