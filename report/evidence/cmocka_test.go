package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCmockaBlocks: cmocka prints GoogleTest's markers, and the grammar
// that reads them quotes its failures (the ERROR and LINE lines under the
// test's RUN line) labelled cmocka's, not gtest's: the runner named is the
// one that ran.
func TestCmockaBlocks(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "runners", "testdata", "cmocka", "calc-fail.log"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	ps, res := plan(t, log, Budget{Bytes: 2400, Block: 900, Ended: true})
	q := quoted(log, ps)
	for _, w := range []string{`[  ERROR   ] --- 0x67 != 0x66`, "[   LINE   ] --- calc_test.c:11: error: Failure!", "[  FAILED  ] test_string"} {
		if !strings.Contains(q, w) {
			t.Errorf("not quoted: %q\nquoted:\n%s", w, q)
		}
	}
	checkPieces(t, log, nil, ps)
	n := 0
	for _, b := range res.Blocks {
		if b.Runner == "gtest" {
			t.Errorf("block %q labelled gtest", b.Test)
		}
		if b.Runner == "cmocka" {
			n++
		}
	}
	if n == 0 {
		t.Error("no block labelled cmocka")
	}
}
