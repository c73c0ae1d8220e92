package testreport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"github.com/runledger/runledger/report/testindex"
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

// parseDart reads the Dart/Flutter test runner's JSON events (`dart test
// --reporter json`, `flutter test --machine`). A test is counted at its
// testDone; hidden tests (the runner's own "loading" entries) only when
// they did not succeed, since then a file failed to load. Only tests
// still running are kept.
func parseDart(r io.Reader, sink *fileSink) error {
	sink.format = FormatDart
	type dartTest struct {
		name, url string
		line      int
		suite     int
		message   string
	}
	running := map[int]*dartTest{}
	suites := map[int]string{}
	done := false
	err := eachLine(r, func(_ int, line []byte) error {
		var ev struct {
			Type  string
			Suite *struct {
				ID   int
				Path string
			}
			Test *struct {
				ID, SuiteID, Line int
				Name, URL         string
			}
			TestID          int
			Result, Error   string
			Skipped, Hidden bool
		}
		if err := json.Unmarshal(line, &ev); err != nil {
			return err
		}
		switch ev.Type {
		case "done":
			done = true
		case "suite":
			if ev.Suite != nil {
				suites[ev.Suite.ID] = ev.Suite.Path
			}
		case "testStart":
			if ev.Test != nil {
				running[ev.Test.ID] = &dartTest{name: ev.Test.Name, url: ev.Test.URL, line: ev.Test.Line, suite: ev.Test.SuiteID}
			}
		case "error":
			if t := running[ev.TestID]; t != nil && t.message == "" {
				t.message = clip(ev.Error, 1000)
			}
		case "testDone":
			t := running[ev.TestID]
			delete(running, ev.TestID)
			if t == nil || ev.Hidden && ev.Result == "success" {
				return nil
			}
			c := caseResult{ID: TestID{Suite: suites[t.suite], Name: t.name}, Message: t.message, Line: t.line, SrcFile: suites[t.suite]}
			switch {
			case ev.Skipped:
				c.Outcome = testindex.Skipped
			case ev.Result == "success":
				c.Outcome = testindex.Passed
			case ev.Result == "failure":
				c.Outcome = testindex.Failed
			default:
				c.Outcome = testindex.Errored
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
	if !done {
		sink.notes = append(sink.notes, `no "done" event: the run may have stopped early`)
	}
	return nil
}
