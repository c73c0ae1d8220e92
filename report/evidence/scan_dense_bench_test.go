package evidence

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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

// BenchmarkScanUnknown: the excerpt scan of an unknown program's log (the
// corpus's unknown-runner case, repeated to 32 MiB), where every line
// reaches the generic error matcher.
func BenchmarkScanUnknown(b *testing.B) {
	logs, _ := filepath.Glob("../testdata/corpus/unknown-runner/store/*/stdout.log")
	if len(logs) == 0 {
		b.Skip("the corpus's unknown-runner case is not here")
	}
	one, err := os.ReadFile(logs[0])
	if err != nil {
		b.Fatal(err)
	}
	log := bytes.Repeat(one, max(1, (32<<20)/len(one)))
	ra := bytes.NewReader(log)
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Scan(ra, ra.Size(), nil); err != nil {
			b.Fatal(err)
		}
	}
}
