package runners

import (
	"strings"
	"testing"
)

func TestExampleMessage(t *testing.T) {
	long := func(prefix string, n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(prefix)
			b.WriteString(strings.Repeat("x", 20))
			b.WriteByte(byte('a' + i%26))
			b.WriteByte('\n')
		}
		return b.String()
	}
	tests := []struct {
		name, out, want string
	}{
		{"short outputs whole", "got:\nhello bob\nsecond\nwant:\nhi bob\nsecond\nFAIL\n", "got: hello bob second want: hi bob second"},
		{"long: the first line that differs", "got:\n" + long("# ", 20) + "changed\nwant:\n" + long("# ", 20) + "expected\n=== RUN   ExampleNext\n",
			"output line 21: got: changed want: expected"},
		{"got ends first", "got:\n" + long("", 20) + "want:\n" + long("", 20) + "one more\n--- FAIL: ExampleNext (0.00s)\n",
			"output line 21: got: (end of output) want: one more"},
		{"no want: a panic ended it", "got:\nhalf\npanic: boom\n", ""},
		{"not got: no message", "some line\nFAIL\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var e exampleOut
			e.start("ExampleX")
			msg, done := "", false
			for _, l := range strings.SplitAfter(tc.out, "\n") {
				if !e.reading() || done {
					break
				}
				msg, done = e.line([]byte(strings.TrimSuffix(l, "\n")))
			}
			if msg != tc.want {
				t.Errorf("message = %q, want %q", msg, tc.want)
			}
		})
	}
}
