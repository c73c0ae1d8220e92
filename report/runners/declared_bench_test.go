package runners

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// unittestVerboseLog writes a `python3 -m unittest -v` log of about size
// bytes: passing tests' verdict lines, a docstring line now and then, one
// failure block in the middle, and the total at the end.
func unittestVerboseLog(dir string, size int64) (string, error) {
	path := filepath.Join(dir, "unittest.log")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n, tests int64
	for i := 0; n < size; i++ {
		line := fmt.Sprintf("test_price_%06d (shop.tests.test_cart.CartTest.test_price_%06d) ... ok\n", i, i)
		if i%50 == 0 {
			line = fmt.Sprintf("test_stock_%06d (shop.tests.test_stock.StockTest.test_stock_%06d)\nReserving returns the items to the shelf. ... ok\n", i, i)
		}
		if n <= size/2 && n+int64(len(line)) > size/2 {
			line += "test_middle (shop.tests.test_cart.CartTest.test_middle) ... FAIL\n"
		}
		w.WriteString(line)
		n += int64(len(line))
		tests++
	}
	fmt.Fprintf(w, "\n%s\nFAIL: test_middle (shop.tests.test_cart.CartTest.test_middle)\n%s\n", rule('='), rule('-'))
	w.WriteString("Traceback (most recent call last):\n  File \"/src/shop/tests/test_cart.py\", line 12, in test_middle\n    self.assertEqual(total([10, 20], discount=0.15), 25.0)\nAssertionError: 25.5 != 25.0\n\n")
	fmt.Fprintf(w, "%s\nRan %d tests in 41.250s\n\nFAILED (failures=1)\n", rule('-'), tests+1)
	if err := w.Flush(); err != nil {
		return "", err
	}
	return path, f.Close()
}

func rule(c byte) string {
	b := make([]byte, 70)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

// pytestVerboseLog writes a `pytest -v` log of about size bytes: passing
// tests' lines (which start like sympy's unpadded total, "tests"), one
// failure, the final line.
func pytestVerboseLog(dir string, size int64) (string, error) {
	path := filepath.Join(dir, "pytest.log")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("============================= test session starts ==============================\n")
	var n, tests int64
	for i := 0; n < size; i++ {
		line := fmt.Sprintf("tests/test_cart.py::test_price[%06d] PASSED                            [ %2d%%]\n", i, n*100/size)
		w.WriteString(line)
		n += int64(len(line))
		tests++
	}
	w.WriteString("tests/test_cart.py::test_middle FAILED                                   [100%]\n\n")
	w.WriteString("=========================== short test summary info ============================\n")
	w.WriteString("FAILED tests/test_cart.py::test_middle - assert 25.5 == 25.0\n")
	fmt.Fprintf(w, "======================== 1 failed, %d passed in 41.25s =========================\n", tests)
	if err := w.Flush(); err != nil {
		return "", err
	}
	return path, f.Close()
}

// BenchmarkScanVerbose: Scan over 64 MiB verbose logs whose lines no
// hand-written parser wants, from a file: `python3 -m unittest -v`, whose
// total the declarations read, and `pytest -v`, another runner's log.
// Their lines reach no regexp: the declarations' first-byte table and
// word compare turn them away (compare with the commit before the
// declared totals, where the same benchmark reads "none" of unittest).
func BenchmarkScanVerbose(b *testing.B) {
	cases := []struct {
		name string
		gen  func(string, int64) (string, error)
		ok   func(*Summary) bool
	}{
		{"unittest", unittestVerboseLog, func(s *Summary) bool { return s.Source == "unittest" && num(s.Failed) == 1 }},
		{"pytest", pytestVerboseLog, func(s *Summary) bool { return s.Source == "pytest" && num(s.Failed) == 1 }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			path, err := c.gen(b.TempDir(), benchLogSize)
			if err != nil {
				b.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(st.Size())
			b.ReportAllocs()
			for b.Loop() {
				if _, err := f.Seek(0, 0); err != nil {
					b.Fatal(err)
				}
				s, err := Scan(f)
				if err != nil || !c.ok(s) {
					b.Fatalf("scan: %+v %v", s, err)
				}
			}
		})
	}
}
