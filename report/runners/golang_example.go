package runners

import (
	"bytes"
	"fmt"
	"strings"
)

// Bounds on what an example's output costs: it is read only after its
// --- FAIL line, and the excerpt quotes all of it anyway.
const (
	maxExampleLines = 200 // of got and of want
	maxExampleLine  = 200 // bytes of one line kept
	shortExample    = 300 // bytes up to which the message is both outputs whole
)

// exampleOut reads what a failed Example prints right under its --- FAIL
// line, `got:`, its output, `want:`, the output its comment expected: an
// example has no file:line line, so its message is made from those.
type exampleOut struct {
	name      string
	got, want []string
	inWant    bool
	state     uint8 // exampleNone, exampleGot (the --- FAIL line was read), exampleIn
}

const (
	exampleNone = iota
	exampleGot
	exampleIn
)

// start follows the --- FAIL line of test name when it is an example.
func (e *exampleOut) start(name string) {
	*e = exampleOut{}
	if strings.HasPrefix(name, "Example") {
		e.name, e.state = name, exampleGot
	}
}

// reading reports whether the next line may be part of the output.
func (e *exampleOut) reading() bool { return e.state != exampleNone }

// line takes the next line printed after the --- FAIL line. It reports a
// finished message and true at a line that is not the example's: the
// first one when it is not `got:`, else any line go test itself prints
// next (a result, a marker, a package line).
func (e *exampleOut) line(t []byte) (msg string, done bool) {
	t = bytes.TrimRight(t, " \t\r")
	switch {
	case e.state == exampleGot:
		e.state = exampleNone
		if string(t) == "got:" {
			e.state = exampleIn
		}
		return "", false
	case goPrinted(t):
		e.state = exampleNone
		return e.message(), true
	case !e.inWant && string(t) == "want:":
		e.inWant = true
		return "", false
	}
	out := &e.got
	if e.inWant {
		out = &e.want
	}
	if len(*out) < maxExampleLines {
		*out = append(*out, string(clipBytes(bytes.TrimLeft(t, " \t"), maxExampleLine)))
	}
	return "", false
}

// message is both outputs when they are short, else the first line where
// they part: a long output's difference is what a reader looks for.
func (e *exampleOut) message() string {
	if !e.inWant {
		return ""
	}
	got, want := strings.Join(e.got, " "), strings.Join(e.want, " ")
	if len(got)+len(want) <= shortExample {
		return "got: " + got + " want: " + want
	}
	i := 0
	for i < len(e.got) && i < len(e.want) && e.got[i] == e.want[i] {
		i++
	}
	return fmt.Sprintf("output line %d: got: %s want: %s", i+1, lineOr(e.got, i), lineOr(e.want, i))
}

// lineOr is out's line i, or what stands for its end.
func lineOr(out []string, i int) string {
	if i < len(out) {
		return out[i]
	}
	return "(end of output)"
}

func clipBytes(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return append(b[:n:n], "…"...)
}

// goPrinted reports a line go test prints after an example's output.
func goPrinted(t []byte) bool {
	for _, p := range []string{"=== ", "--- ", "FAIL", "ok  ", "PASS", "panic: ", "?   "} {
		if bytes.HasPrefix(t, []byte(p)) {
			return true
		}
	}
	return false
}
