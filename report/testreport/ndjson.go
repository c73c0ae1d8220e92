package testreport

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// eachLine decodes each non-blank line of r as one JSON event. Lines are
// read with a bounded buffer: one event, not the file, is in memory.
func eachLine(r io.Reader, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := fn(n, line); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
	return sc.Err()
}
