package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlaywright quotes the failures of the real Playwright Test runs in
// report/runners/testdata/playwright: each failing test's header, its
// error with the Expected/Received lines and its file:line frame, never the
// passing tests or the Error Context path; a retried test's first error
// before any retry's.
func TestPlaywright(t *testing.T) {
	for _, c := range []struct {
		sample    string
		want, not []string
	}{
		{"list-fail", []string{
			"1) tests/flaky.spec.js:3:1 › passes on retry",
			"Error: expect(received).toBe(expected) // Object.is equality", "Expected: 7", "Received: 6",
			"at /src/tests/math.spec.js:8:17",
			"Error: config file missing: settings.json", "at /src/tests/math.spec.js:19:11",
		}, []string{"adds two numbers", "Error Context:"}},
		{"line-retries", []string{
			"2) tests/flaky.spec.js:7:1 › strings", `Expected substring: "planet"`, "at /src/tests/flaky.spec.js:8:25",
			"Error: expect(received).toEqual(expected) // deep equality", `-   "size": 3,`, `+   "size": 2,`,
		}, []string{"[1/7]", "Error Context:"}},
		{"dot-fail", []string{"3) tests/math.spec.js:7:1 › multiplies", "Expected: 7", "at /src/tests/math.spec.js:8:17"}, []string{"FF·FF°F"}},
		{"list-projects-maxfail", []string{
			"1) [api] › tests/flaky.spec.js:3:1 › passes on retry", "Expected: > 0", "Received:   0",
		}, nil},
	} {
		t.Run(c.sample, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "runners", "testdata", "playwright", c.sample+".log"))
			if err != nil {
				t.Fatal(err)
			}
			log := string(b)
			ps, res := plan(t, log, Budget{Bytes: 2400, Block: 900, Ended: true})
			q := quoted(log, ps)
			for _, w := range c.want {
				if !strings.Contains(q, w) {
					t.Errorf("not quoted: %q\nquoted:\n%s", w, q)
				}
			}
			for _, n := range c.not {
				if strings.Contains(q, n) {
					t.Errorf("quoted: %q\nquoted:\n%s", n, q)
				}
			}
			checkPieces(t, log, nil, ps)
			pw := 0
			for _, b := range res.Blocks {
				if b.Runner == "playwright" {
					pw++
				}
			}
			if pw == 0 {
				t.Errorf("no block from the playwright grammar")
			}
		})
	}
}
