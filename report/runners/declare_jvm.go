package runners

import "regexp"

// Maven and Gradle end a build with BUILD SUCCESS / BUILD FAILURE (Maven,
// after its "[INFO] " tag) or BUILD SUCCESSFUL / BUILD FAILED (Gradle),
// the verdict of the whole build, whatever ran under it.
func init() {
	register(Declaration{Runner: "jvm", Outer: true, Lines: []LineRule{
		{Re: regexp.MustCompile(`^BUILD FAIL(ED|URE)?\b`), Run: true, Total: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^BUILD SUCCESS(FUL)?\b`), Run: true, Total: true, Verdict: Passed},
	}})
}
