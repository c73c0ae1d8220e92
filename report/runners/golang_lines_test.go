package runners

import (
	"regexp"
	"testing"
)

// TestParseGoResult: ParseGoResult reads a verdict line as goResult does.
func TestParseGoResult(t *testing.T) {
	tests := []struct {
		line          string
		verdict, name string // "" for no match
	}{
		{"--- PASS: TestA (0.00s)", "PASS", "TestA"},
		{"--- FAIL: TestA/sub_case#01 (12.345s)", "FAIL", "TestA/sub_case#01"},
		{"--- SKIP: TestA (0.0s) trailing", "SKIP", "TestA"},
		{"--- PASS: TestA (1.25s)x", "PASS", "TestA"},
		{"--- PASS: TestA (100.00s)", "PASS", "TestA"},
		{"--- PASS: TestA (0.00s", "", ""},
		{"--- PASS: TestA (0.00)", "", ""},
		{"--- PASS: TestA (.00s)", "", ""},
		{"--- PASS: TestA (0.s)", "", ""},
		{"--- PASS: TestA (0a00s)", "", ""},
		{"--- PASS: TestA (0.0Xs)", "", ""},
		{"--- PASS: TestA\t(0.00s)", "", ""},
		{"--- PASS:  TestA (0.00s)", "", ""},
		{"--- PASSED: TestA (0.00s)", "", ""},
		{"--- pass: TestA (0.00s)", "", ""},
		{"--- PASS TestA (0.00s)", "", ""},
		{"--- PASS: ", "", ""},
		{"--- PASS: Tést✓ (0.00s)", "PASS", "Tést✓"},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			verdict, name, ok := ParseGoResult([]byte(tc.line))
			if ok != (tc.verdict != "") || verdict != tc.verdict || string(name) != tc.name {
				t.Errorf("ParseGoResult = %q %q %v, want %q %q", verdict, name, ok, tc.verdict, tc.name)
			}
			checkGoResult(t, []byte(tc.line))
		})
	}
}

// FuzzParseGoResult: ParseGoResult and the regexp it stands for agree.
func FuzzParseGoResult(f *testing.F) {
	for _, s := range []string{"--- PASS: TestA (0.00s)", "--- FAIL: T (1.5s)", "--- SKIP: T (0.00s"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkGoResult(t, line) })
}

func checkGoResult(t *testing.T, line []byte) {
	t.Helper()
	verdict, name, ok := ParseGoResult(line)
	m := goResult.FindSubmatch(line)
	if ok != (m != nil) || ok && (verdict != string(m[1]) || string(name) != string(m[2])) {
		t.Fatalf("%q: ParseGoResult %q %q %v, goResult %q", line, verdict, name, ok, m)
	}
	// The name a `=== RUN` line before it would give, and others.
	for _, cur := range [][]byte{name, name[:len(name)/2], []byte("TestA"), []byte("T"), nil, line[min(len(line), 10):]} {
		if nonSpace(cur) != len(cur) {
			continue // parseGoResultOf's callers pass no such name
		}
		v, nm, k := parseGoResultOf(line, cur)
		if v != verdict || string(nm) != string(name) || k != ok {
			t.Fatalf("%q named %q: parseGoResultOf %q %q %v, ParseGoResult %q %q %v", line, cur, v, nm, k, verdict, name, ok)
		}
	}
}

// TestNonSpace: nonSpace ends a run where the regexp's \S+ does, control
// bytes and bytes past 0x7f in and around the words it reads at once.
func TestNonSpace(t *testing.T) {
	tests := []string{"", "a", "TestDense00000001 (0.00s)", "abcdefgh", "abcdefgh ", "abcdefg\x01h i",
		"ab\vcd\x00efgh\x1fij kl", "Tést✓\u00a0x y", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7 x", "abcdefghijklmnop\tq",
		"\x80\x20", "a\x7fbcdefgh\r", "abcdefghijklmnopqrstuvwx\n"}
	for _, s := range tests {
		want := len(leadingNonSpace.FindString(s))
		if got := nonSpace([]byte(s)); got != want {
			t.Errorf("nonSpace(%q) = %d, want %d", s, got, want)
		}
	}
}

var leadingNonSpace = regexp.MustCompile(`^\S*`)
