package jvmstack

import "testing"

func TestFramework(t *testing.T) {
	for _, c := range []struct {
		class string
		want  bool
	}{
		{"org.junit.Assert", true},
		{"jdk.internal.reflect.NativeMethodAccessorImpl", true},
		{"org.apache.maven.surefire.junit4.JUnit4Provider", true},
		{"org.hamcrest.MatcherAssert", true},
		{"com.example.calc.CalcTest", false},
		{"org.apache.commons.codec.binary.Hex", false},
		{"javalang.Parser", false}, // a project package that merely starts with "java"
	} {
		if got := Framework(c.class); got != c.want {
			t.Errorf("Framework(%q) = %v, want %v", c.class, got, c.want)
		}
	}
}
