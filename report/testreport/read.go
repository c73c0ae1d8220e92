package testreport

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

var errEmpty = errors.New("the file is empty")

// reportHeapLimit is the soft heap limit while report files are read. The
// live heap is the tally (about 200 bytes a test); the rest is the XML
// decoder's garbage, which the default pacing lets grow to twice the live
// heap: a 1 GiB TRX of 131,072 results peaked at 121 MiB RSS without it.
// Past the limit the runtime collects more often, never fails.
const reportHeapLimit = 40 << 20

// lowerMemoryLimit lowers the process's soft memory limit to limit (never
// raises it: GOMEMLIMIT or a caller's lower limit stands) and returns what
// restores it.
func lowerMemoryLimit(limit int64) func() {
	prev := debug.SetMemoryLimit(-1)
	if prev <= limit {
		return func() {}
	}
	debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(prev) }
}

// readReport detects the format from the content and streams the file.
func readReport(path string, sink *fileSink) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sink.file = f
	br := bufio.NewReaderSize(f, 64<<10)
	format, parse, err := detect(br)
	sink.format = format
	if err != nil {
		return err
	}
	if err := parse(br, sink); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected EOF") {
			return fmt.Errorf("%s: truncated: %w", format, err)
		}
		return fmt.Errorf("%s: malformed: %w", format, err)
	}
	return nil
}
