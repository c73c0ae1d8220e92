package testindex

import (
	"bytes"
	"compress/gzip"
	"reflect"
	"testing"
)

// FuzzRead feeds Read any text behind a valid gzip header (an index read
// back from someone else's artifact is untrusted). It must never panic,
// and what it accepts must write and read back to the same index.
func FuzzRead(f *testing.F) {
	head := `#{"schema":"runledger.tests/v1","run":"unit","status":"failed","source":"go","verified":true,"complete":true}` + "\n"
	for _, body := range []string{"", "tP\tpkg\t\tTestA\t\n", "uF\t\t\t\t\ntF~\ts\\tx\tC\\\\\tn\\n\tf.go\n", "tX\t\n", "nP\tpkg\t\t\t"} {
		f.Add([]byte(head + body))
	}
	f.Add([]byte("not a header\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(text)
		zw.Close()
		x, err := Read(&gz)
		if err != nil {
			return
		}
		var again bytes.Buffer
		if err := Write(&again, x); err != nil {
			t.Fatalf("write what was read: %v", err)
		}
		y, err := Read(&again)
		if err != nil {
			t.Fatalf("read back what was written: %v", err)
		}
		if len(x.Entries) == 0 && len(y.Entries) == 0 {
			x.Entries, y.Entries = nil, nil
		}
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("round trip changed the index:\n%+v\n%+v", x, y)
		}
	})
}
