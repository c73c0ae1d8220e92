package evidence

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkScanDense: the excerpt scan of a dense `go test -v` log:
// `=== RUN`, one t.Log line and `--- PASS` for each of 200,000 tests.
func BenchmarkScanDense(b *testing.B) {
	var buf bytes.Buffer
	for i := range 200000 {
		fmt.Fprintf(&buf, "=== RUN   TestDense%08d\n    dense_test.go:14: step %d ok\n--- PASS: TestDense%08d (0.00s)\n", i, i, i)
	}
	buf.WriteString("PASS\nok  \texample.com/dense\t1.0s\n")
	ra := bytes.NewReader(buf.Bytes())
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Scan(ra, ra.Size(), nil); err != nil {
			b.Fatal(err)
		}
	}
}
