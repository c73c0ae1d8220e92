package runners

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// BenchmarkReplayDense: the verifier's re-read of a dense `go test -v`
// log's counted lines (a `--- PASS` line of every three), alone.
func BenchmarkReplayDense(b *testing.B) {
	var buf bytes.Buffer
	for i := range 200000 {
		fmt.Fprintf(&buf, "=== RUN   TestDense%08d\n    dense_test.go:14: step %d ok\n--- PASS: TestDense%08d (0.00s)\n", i, i, i)
	}
	buf.WriteString("PASS\nok  \texample.com/dense\t1.0s\n")
	ra := bytes.NewReader(buf.Bytes())
	st := newState()
	t := newTap()
	var spans []Span
	done := make(chan struct{})
	go func() {
		for batch := range t.out {
			spans = append(spans, batch...)
			t.free <- batch
		}
		close(done)
	}()
	st.tap = t
	if _, err := scan(st, bytes.NewReader(buf.Bytes())); err != nil {
		b.Fatal(err)
	}
	t.close()
	<-done
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		lr := newLineReader(io.NewSectionReader(ra, 0, ra.Size()), readBlock)
		if err := replay(newVerifier(), lr, spans); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScanDense: the summary scan of the same log, as Feed reads it.
func BenchmarkScanDense(b *testing.B) {
	var buf bytes.Buffer
	for i := range 200000 {
		fmt.Fprintf(&buf, "=== RUN   TestDense%08d\n    dense_test.go:14: step %d ok\n--- PASS: TestDense%08d (0.00s)\n", i, i, i)
	}
	buf.WriteString("PASS\nok  \texample.com/dense\t1.0s\n")
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scan(newState(), bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}
