package runners

import "regexp"

// node's test runner (TAP "# pass 1" / spec "ℹ fail 0"), TAP's "not ok
// N", npm's errors, jest's "Tests:" line and mocha's "2 passing (5ms)".
// npm prints its errors only when the script it ran failed, so it is not
// outer: `npm test` belongs to the runner the script ran.
func init() {
	register(Declaration{Runner: "node", Parser: &Parser{New: func(bool) parser { return &nodeParser{src: "node"} }, Order: 60,
		Starts: []string{"ℹ ", "✖ "}},
		Lines: []LineRule{
			{Re: regexp.MustCompile(`^not ok \d+\b`), Run: true, Verdict: Failed},
			{Re: regexp.MustCompile(`^(?:#|ℹ) (pass|fail) (\d+)$`), Run: true, Total: true, Judge: judgeTAP},
		}})
	register(Declaration{Runner: "npm", Lines: []LineRule{
		{Re: regexp.MustCompile(`^npm (ERR!|error )`), Run: true, Verdict: Failed},
	}})
	register(Declaration{Runner: "jest", Parser: &Parser{New: func(bool) parser { return &jestParser{} }, Order: 70,
		Starts: []string{"● ", "FAIL", "Test"}},
		Lines: []LineRule{
			{Re: regexp.MustCompile(`^Tests:\s+((?:\d+ [a-z]+(?:, )?)+)$`), Run: true, Total: true, Judge: judgeCounts("failed")},
		}})
	register(Declaration{Runner: "mocha", Parser: &Parser{New: func(bool) parser { return &mochaParser{} }, Order: 80,
		Starts: []string{"✖ ", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}},
		Lines: []LineRule{
			{Re: regexp.MustCompile(`^(\d+ passing) \(\d+(?:\.\d+)?m?s\)$`), Run: true, Total: true, Judge: judgeCounts("failing")},
			{Re: regexp.MustCompile(`^(\d+ failing)$`), Run: true, Total: true, Judge: judgeCounts("failing")},
		}})
}

// judgeTAP: "fail N" fails when N > 0; "pass N" and "fail 0" pass.
func judgeTAP(m []string) Verdict {
	return verdictOf(m[1] == "fail" && m[2] != "0", m[1] == "pass" || m[2] == "0")
}
