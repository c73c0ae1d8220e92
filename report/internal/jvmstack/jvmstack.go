// Package jvmstack tells the frames of a JVM stack trace that belong to
// the JDK, the test frameworks and the build tools that run them from the
// frames of the project's own code: a failing JUnit test's stack is its
// own frames under thirty of reflection and runner, and what explains it
// is the former.
package jvmstack

import "strings"

// frameworks are the packages of the JDK, of the test frameworks and
// assertion libraries, and of the build tools' test runners.
var frameworks = []string{
	"java.", "javax.", "jdk.", "sun.", "com.sun.",
	"org.junit.", "junit.", "org.opentest4j.", "org.hamcrest.", "org.assertj.", "org.testng.",
	"org.mockito.", "net.bytebuddy.", "org.easymock.", "org.spockframework.",
	"org.apache.maven.surefire.", "org.apache.maven.plugin.surefire.", "org.gradle.", "worker.org.gradle.",
	"kotlin.", "kotlinx.coroutines.", "scala.", "groovy.", "org.codehaus.groovy.", "org.apache.groovy.",
	"com.intellij.rt.",
}

// Framework reports whether a frame's class (`org.junit.Assert`,
// `jdk.internal.reflect.NativeMethodAccessorImpl`) is the JDK's, a test
// framework's or a build tool's rather than the project's.
func Framework(class string) bool {
	for _, p := range frameworks {
		if strings.HasPrefix(class, p) {
			return true
		}
	}
	return false
}
