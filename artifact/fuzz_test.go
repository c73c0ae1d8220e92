package artifact

import (
	"archive/zip"
	"bytes"
	"context"
	"testing"
)

// FuzzVerify corrupts one byte of an artifact and cites a range of its
// stored log. Whatever the corruption, Verify may only succeed when the
// bytes it read are the cited bytes: a damaged artifact never verifies.
func FuzzVerify(f *testing.F) {
	f.Add([]byte("--- FAIL: TestParse\nFAIL\n"), uint16(0), byte(1), uint8(0), uint8(10))
	f.Add([]byte("ok  \tpkg\t0.1s\n"), uint16(40), byte(0xff), uint8(2), uint8(5))
	f.Add(bytes.Repeat([]byte("x"), 300), uint16(500), byte(0x80), uint8(100), uint8(200))
	f.Fuzz(func(t *testing.T, log []byte, at uint16, flip byte, start, end uint8) {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "run/stdout.log", Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(log)
		zw.Close()
		blob := buf.Bytes()
		blob[int(at)%len(blob)] ^= flip
		s, e := int64(start), int64(end)
		if e > int64(len(log)) || s > e {
			s, e = 0, int64(len(log))
		}
		cited := sha(log[s:e])
		ctx := context.Background()
		r, err := NewReader(ctx, bytes.NewReader(blob), int64(len(blob)))
		if err != nil {
			return
		}
		if r.Verify(ctx, "run/stdout.log", s, e, cited) != nil {
			return
		}
		got, err := r.ReadRange(ctx, "run/stdout.log", s, e)
		if err != nil || !bytes.Equal(got, log[s:e]) {
			t.Fatalf("Verify passed but the range reads %q, want %q (err %v)", got, log[s:e], err)
		}
	})
}
