package testindex

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func tst(o Outcome, suite, name string) Entry {
	return Entry{Kind: Test, Outcome: o, Key: Key{Suite: suite, Name: name}}
}

func idx(complete bool, es ...Entry) *Index {
	return &Index{Header: Header{Run: "unit", Status: "failed", Source: "junit", Verified: true, Complete: complete}, Entries: es}
}

func TestRoundTrip(t *testing.T) {
	tests := 3
	x := idx(true,
		Entry{Kind: Test, Outcome: Failed, Flaky: true, Key: Key{Suite: "a\tb", Class: "C\\D", Name: "x\ny\r", File: "f.go"}},
		tst(Passed, "pkg", "TestA"), tst(Skipped, "pkg", "TestB"),
		Entry{Kind: NamedUnit, Outcome: Errored, Key: Key{Suite: "pkg"}},
		Entry{Kind: Unit, Outcome: Passed})
	x.Tests = &tests
	var buf bytes.Buffer
	if err := Write(&buf, x); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, x) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, x)
	}
}

// TestCompact: 100k tests of a real-looking shape (packages of tests with
// subtests) stay a few bytes each.
func TestCompact(t *testing.T) {
	x := idx(true)
	for i := range 100_000 {
		x.Entries = append(x.Entries, tst(Passed, fmt.Sprintf("github.com/acme/shop/internal/pkg%03d", i/500),
			fmt.Sprintf("TestCheckout%03d/case_%d_with_discount", i/20%25, i%20)))
	}
	var buf bytes.Buffer
	if err := Write(&buf, x); err != nil {
		t.Fatal(err)
	}
	per := float64(buf.Len()) / 100_000
	if per > 8 {
		t.Errorf("%d bytes for 100k tests: %.1f a test, want at most 8", buf.Len(), per)
	}
	t.Logf("%d bytes for 100,000 tests: %.2f a test", buf.Len(), per)
}

func TestReadRejects(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	head := `#{"schema":"runledger.tests/v1","run":"u","status":"passed","source":"go","verified":true,"complete":true}` + "\n"
	tests := []struct{ name, want string }{
		{"not gzip", "not a gzip'd test index"},
		{"", "empty"},
		{"no header\n", "no header"},
		{`#{"schema":"other/v9"}` + "\n", `schema "other/v9"`},
		{head + "tP\tpkg\t\tTestA\n", "line 2: 4 fields, want 5"},
		{head + "tX\tpkg\t\tTestA\t\n", "kind and outcome"},
		{head + "tP\tpkg\t\tTest\\q\t\n", `unknown escape \q`},
	}
	for _, tt := range tests {
		data := gz(tt.name)
		if tt.name == "not gzip" {
			data = []byte(tt.name)
		}
		_, err := Read(bytes.NewReader(data))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one saying %q", tt.name, err, tt.want)
		}
	}
}

func TestCompare(t *testing.T) {
	pkgOK := Entry{Kind: Unit, Outcome: Passed, Key: Key{Suite: "pkg"}}
	pkgNamed := Entry{Kind: NamedUnit, Outcome: Passed, Key: Key{Suite: "pkg"}}
	tests := []struct {
		name string
		cur  Entry
		base *Index
		want Origin
	}{
		{"no baseline", tst(Failed, "pkg", "TestA"), nil, Unknown},
		{"flaky within the run", Entry{Kind: Test, Outcome: Failed, Flaky: true, Key: Key{Suite: "pkg", Name: "TestA"}}, nil, Flaky},
		{"passed on the base", tst(Failed, "pkg", "TestA"), idx(true, tst(Passed, "pkg", "TestA")), New},
		{"skipped on the base", tst(Failed, "pkg", "TestA"), idx(true, tst(Skipped, "pkg", "TestA")), New},
		{"failed on the base", tst(Failed, "pkg", "TestA"), idx(true, tst(Errored, "pkg", "TestA")), PreExisting},
		{"absent from a complete base", tst(Failed, "pkg", "TestA"), idx(true, tst(Passed, "pkg", "TestB")), NewTest},
		{"absent from a base that dropped names", tst(Failed, "pkg", "TestA"), idx(false, tst(Passed, "pkg", "TestB")), Unknown},
		{"in a package that passed unnamed", tst(Failed, "pkg", "TestA"), idx(false, pkgOK), New},
		{"in a package whose tests are named", tst(Failed, "pkg", "TestA"), idx(false, pkgNamed, tst(Passed, "pkg", "TestB")), NewTest},
		{"in a package that failed unnamed", tst(Failed, "pkg", "TestA"), idx(false, Entry{Kind: Unit, Outcome: Failed, Key: Key{Suite: "pkg"}}), Unknown},
		{"a whole run that passed", tst(Failed, "t.py", "t.py::test_a"), idx(false, Entry{Kind: Unit, Outcome: Passed}), New},
		{"moved to another file", Entry{Kind: Test, Outcome: Failed, Key: Key{Suite: "s", Name: "a", File: "new.js"}},
			idx(true, Entry{Kind: Test, Outcome: Failed, Key: Key{Suite: "s", Name: "a", File: "old.js"}}), PreExisting},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Compare(idx(true, tt.cur), tt.base)
			if got := c.Origins[tt.cur.Key]; got != tt.want {
				t.Errorf("origin %q, want %q", got, tt.want)
			}
			if c.Counts[tt.want] != 1 || c.Regressions() != map[bool]int{true: 1}[tt.want.Regression()] {
				t.Errorf("counts %v, regressions %d", c.Counts, c.Regressions())
			}
		})
	}
}

func TestCompareMissingAndFixed(t *testing.T) {
	base := idx(true, tst(Failed, "pkg", "TestFixed"), tst(Passed, "pkg", "TestGone"), tst(Failed, "pkg", "TestStill"),
		tst(Passed, "other", "TestX"), Entry{Kind: Unit, Outcome: Passed, Key: Key{Suite: "unnamed"}})
	cur := idx(true, tst(Passed, "pkg", "TestFixed"), tst(Failed, "pkg", "TestStill"), tst(Failed, "pkg", "TestNew"))
	wantMissing := []Key{{Suite: "other", Name: "TestX"}, {Suite: "pkg", Name: "TestGone"}, {Suite: "unnamed"}}
	base.Sort()
	c := Compare(cur, base)
	if c.Missing != 3 || !reflect.DeepEqual(c.MissingNames, wantMissing) {
		t.Errorf("missing %d %v, want 3 %v", c.Missing, c.MissingNames, wantMissing)
	}
	if c.Fixed != 1 || c.FixedNames[0].Name != "TestFixed" {
		t.Errorf("fixed %d %v, want TestFixed", c.Fixed, c.FixedNames)
	}
	if c.Origins[Key{Suite: "pkg", Name: "TestStill"}] != PreExisting || c.Origins[Key{Suite: "pkg", Name: "TestNew"}] != NewTest {
		t.Errorf("origins %v", c.Origins)
	}
	if c.Regressions() != 1 || c.BaseTests != 4 {
		t.Errorf("regressions %d base tests %d, want 1 and 4", c.Regressions(), c.BaseTests)
	}
}

// TestCompareCounts: a runner that names no passing test still shows a
// partial run by its count.
func TestCompareCounts(t *testing.T) {
	n, m := 120, 64
	base, cur := idx(false, Entry{Kind: Unit, Outcome: Passed}), idx(false, Entry{Kind: Unit, Outcome: Passed})
	base.Tests, cur.Tests = &n, &m
	if c := Compare(cur, base); c.Missing != 56 {
		t.Errorf("missing %d, want 56", c.Missing)
	}
}

// BenchmarkCompare100k compares two indexes of 100,000 tests in 200
// packages (named units, as go test -v gives), a few failing on each side,
// after reading the base's from its file as --baseline does.
func BenchmarkCompare100k(b *testing.B) {
	mk := func(failing ...int) *Index {
		bad := map[int]bool{}
		for _, f := range failing {
			bad[f] = true
		}
		x := idx(true)
		for i := range 100_000 {
			o := Passed
			if bad[i] {
				o = Failed
			}
			x.Entries = append(x.Entries, tst(o, fmt.Sprintf("example.com/shop/pkg%03d", i/500), fmt.Sprintf("TestCheckout%05d", i)))
			if i%500 == 0 {
				x.Entries = append(x.Entries, Entry{Kind: NamedUnit, Outcome: Passed, Key: Key{Suite: fmt.Sprintf("example.com/shop/pkg%03d", i/500)}})
			}
		}
		return x
	}
	var buf bytes.Buffer
	if err := Write(&buf, mk(7, 50_000)); err != nil {
		b.Fatal(err)
	}
	cur := mk(50_000, 99_999, 123)
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		base, err := Read(bytes.NewReader(buf.Bytes()))
		if err != nil {
			b.Fatal(err)
		}
		if c := Compare(cur, base); c.Regressions() != 2 || c.Fixed != 1 {
			b.Fatalf("regressions %d fixed %d", c.Regressions(), c.Fixed)
		}
	}
}

// TestCompareParents: go test fails the parent of a failing subtest; the
// subtest is the failure, so the parent is labelled but not counted.
func TestCompareParents(t *testing.T) {
	cur := idx(true, tst(Failed, "pkg", "TestTotal"), tst(Failed, "pkg", "TestTotal/350_units"), tst(Failed, "pkg", "TestTotalX"),
		tst(Failed, "pkg", "TestAlone"))
	c := Compare(cur, idx(true, tst(Passed, "pkg", "TestTotal"), tst(Passed, "pkg", "TestTotal/350_units"), tst(Passed, "pkg", "TestAlone")))
	if c.Regressions() != 3 || c.Counts[New] != 2 || c.Counts[NewTest] != 1 {
		t.Errorf("counts %v, want the parent TestTotal not counted: 2 new (the subtest, TestAlone), 1 new test", c.Counts)
	}
	if c.Origins[Key{Suite: "pkg", Name: "TestTotal"}] != New {
		t.Errorf("the parent is not labelled: %v", c.Origins)
	}
}
