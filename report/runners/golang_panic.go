package runners

import (
	"bytes"
	"strconv"
)

// maxPanicTrace bounds the lines read after a panic for its test's frame.
const maxPanicTrace = 400

// panicPlace follows the goroutine trace under a test's panic for the
// test's own frame (`\t/src/table/table_test.go:12 +0x70`): the panic's
// line names no file, and the first _test.go frame of the goroutine that
// panicked is where the test called what failed. Frames in other files
// (the runtime's, testing's, the library's) are passed over.
type panicPlace struct {
	test    string
	left    int  // lines still read
	inTrace bool // the `goroutine 8 [running]:` line was read
}

func (pp *panicPlace) start(test string) {
	*pp = panicPlace{}
	if test != "" {
		pp.test, pp.left = test, maxPanicTrace
	}
}

func (pp *panicPlace) reading() bool { return pp.left > 0 }

// line reads the next line; ok when it is the test's frame. The trace of
// the first goroutine ends at a blank line.
func (pp *panicPlace) line(t []byte) (file string, ln int, ok bool) {
	pp.left--
	s := bytes.TrimSpace(t)
	switch {
	case !pp.inTrace:
		pp.inTrace = bytes.HasPrefix(s, []byte("goroutine "))
	case len(s) == 0:
		pp.left = 0
	case t[0] == '\t':
		if file, ln, ok = goFrame(s); ok {
			pp.left = 0
		}
	}
	return file, ln, ok
}

// goFrame reads a trace's `/src/x/x_test.go:12 +0x70` when its file is a
// test file.
func goFrame(s []byte) (string, int, bool) {
	if i := bytes.IndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	c := bytes.LastIndexByte(s, ':')
	if c < 0 || !bytes.HasSuffix(s[:c], []byte("_test.go")) {
		return "", 0, false
	}
	n, err := strconv.Atoi(string(s[c+1:]))
	if err != nil || n <= 0 {
		return "", 0, false
	}
	return string(s[:c]), n, true
}

// panicked gives test name's message, chosen from its panic, the place
// the trace under it shows.
func (a *goAcc) panicked(name, file string, ln int) {
	if d, ok := a.decor[name]; ok && d.file == "" {
		d.file, d.line = file, ln
		a.decor[name] = d
	}
}
