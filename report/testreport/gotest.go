package testreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"github.com/runledger/runledger/report/testindex"
)

func init() {
	register(Format{Name: FormatGoJSON, FirstLine: func(first map[string]json.RawMessage) bool { return first["Action"] != nil }, parse: parseGoJSON})
}

// goLocation is where go test prints a failure: "    x_test.go:12: msg".
var goLocation = regexp.MustCompile(`^\s+([\w./-]+\.go):(\d+): (.*)`)

// parseGoJSON reads `go test -json` output saved to a file. Each test's
// pass, fail or skip is its outcome (subtests are tests of their own); a
// package that fails without a failing test (a build error, TestMain, a
// panic outside tests) is an error. Only tests still running keep output,
// and only its first bytes.
func parseGoJSON(r io.Reader, sink *fileSink) error {
	sink.format = FormatGoJSON
	type key struct{ pkg, test string }
	running := map[key]*textBuf{}
	pkgFailed := map[string]bool{} // a test of the package failed
	pkgOpen := map[string]bool{}   // seen, without its final pass, fail or skip
	err := eachLine(r, func(_ int, line []byte) error {
		var ev struct{ Action, Package, Test, Output string }
		if err := json.Unmarshal(line, &ev); err != nil {
			return err
		}
		k := key{ev.Package, ev.Test}
		if ev.Test == "" && (ev.Action == "pass" || ev.Action == "fail" || ev.Action == "skip") {
			delete(pkgOpen, ev.Package)
		} else if ev.Package != "" {
			pkgOpen[ev.Package] = true
		}
		switch ev.Action {
		case "run":
			running[k] = &textBuf{on: true}
		case "output":
			if b := running[k]; b != nil && ev.Test != "" {
				b.add([]byte(ev.Output))
			}
		case "pass", "fail", "skip":
			out := running[k]
			delete(running, k)
			if ev.Test == "" {
				if ev.Action == "fail" && !pkgFailed[ev.Package] {
					sink.test(caseResult{ID: TestID{Suite: ev.Package, Name: "(package)"}, Outcome: testindex.Errored, Message: "the package failed outside its tests"})
				}
				return nil
			}
			c := caseResult{ID: TestID{Suite: ev.Package, Name: ev.Test}, Outcome: map[string]testindex.Outcome{"pass": testindex.Passed, "fail": testindex.Failed, "skip": testindex.Skipped}[ev.Action]}
			if c.Outcome == testindex.Failed {
				pkgFailed[ev.Package] = true
				if out != nil {
					c.SrcFile, c.Line, c.Message = goFailure(out.take())
				}
			}
			sink.test(c)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(running) > 0 {
		return fmt.Errorf("unexpected EOF: %d tests started and never ended", len(running))
	}
	if len(pkgOpen) > 0 {
		sink.notes = append(sink.notes, fmt.Sprintf("%d packages have no final pass or fail: the run may have stopped early", len(pkgOpen)))
	}
	return nil
}

// goFailure finds the first "file.go:N: message" line of a failed test's
// output, else its first line that is not the runner's own.
func goFailure(out string) (string, int, string) {
	first := ""
	for _, l := range bytes.Split([]byte(out), []byte("\n")) {
		if m := goLocation.FindSubmatch(l); m != nil {
			n, _ := strconv.Atoi(string(m[2]))
			return string(m[1]), n, string(m[3])
		}
		t := bytes.TrimSpace(l)
		if first == "" && len(t) > 0 && !bytes.HasPrefix(t, []byte("=== ")) && !bytes.HasPrefix(t, []byte("--- ")) {
			first = string(t)
		}
	}
	return "", 0, first
}
