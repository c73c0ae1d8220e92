package runners

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	proveDiag    = regexp.MustCompile(`^#\s+Failed test(?: '(.*)')?(?:\s+at (\S+) line (\d+)\.)?$`)
	proveAt      = regexp.MustCompile(`^#\s+at (\S+) line (\d+)\.$`)
	proveFile    = regexp.MustCompile(`^(\S+)\s+\(Wstat: .*Tests: (\d+) Failed: (\d+)\)$`)
	proveFailed  = regexp.MustCompile(`^Failed tests?:\s+([\d, -]+)$`)
	proveTotals  = regexp.MustCompile(`^Files=(\d+), Tests=(\d+),`)
	proveMsgSkip = regexp.MustCompile(`^#\s+(Looks like|at )`)
)

// proveDiagnosis is one `#   Failed test 'name'` / `#   at t/a.t line 9.`
// diagnostic of Test::More, with the lines under it that say how
// (`#          got: 'x'`, `#     expected: 'y'`, an error's message).
type proveDiagnosis struct {
	name, file, msg string
	line, extra     int
}

// proveParser reads Perl's prove: the `Test Summary Report` (`t/a.t
// (Wstat: 256 (exited 1) Tests: 4 Failed: 1)`, `Failed test:  3`), the
// `Files=2, Tests=6, …` totals, and Test::More's diagnostics, which the
// test files print to stderr, even under `prove -j2`: each failing test is
// named by its diagnostic when it has one, its message is what the
// diagnostic says of it, and its place is the diagnostic's `at … line N`.
type proveParser struct {
	diags   []proveDiagnosis
	cur     *proveDiagnosis // the diagnostic whose lines are being read
	summary bool            // inside the Test Summary Report
	files   []proveFailures
	atts    []attempt
}

// proveFailures is one file of the summary report: its failed tests.
type proveFailures struct {
	file   string
	failed int
	nums   []int
	span   *Span // its line in the report
}

func (p *proveParser) name() string { return "prove" }

func (p *proveParser) feed(l *line, ws string) bool {
	t := l.trim
	switch {
	case strings.HasPrefix(t, "#"):
		return p.diagnostic(t)
	case t == "Test Summary Report":
		p.summary, p.files = true, nil
		return true
	case strings.HasPrefix(t, "Files="):
		if m := proveTotals.FindStringSubmatch(t); m != nil && p.summary {
			p.close(ws, atoi(m[2]))
			return true
		}
	case p.summary:
		if m := proveFile.FindStringSubmatch(t); m != nil {
			p.files = append(p.files, proveFailures{file: m[1], failed: atoi(m[3]), span: spanOf(l)})
			return true
		}
		if m := proveFailed.FindStringSubmatch(t); m != nil && len(p.files) > 0 {
			f := &p.files[len(p.files)-1]
			f.nums = testNumbers(m[1])
			return true
		}
	}
	return false
}

// diagnostic reads a `#` line: a failing test's diagnostic opens, its
// `at` line places it, and the lines under it say how it failed.
func (p *proveParser) diagnostic(t string) bool {
	if m := proveDiag.FindStringSubmatch(t); m != nil {
		if len(p.diags) < maxNamed {
			p.diags = append(p.diags, proveDiagnosis{name: m[1], file: m[2], line: atoi(m[3])})
			p.cur = &p.diags[len(p.diags)-1]
		}
		return true
	}
	if p.cur == nil {
		return false
	}
	if m := proveAt.FindStringSubmatch(t); m != nil && p.cur.file == "" {
		p.cur.file, p.cur.line = m[1], atoi(m[2])
		return true
	}
	if proveMsgSkip.MatchString(t) {
		if strings.Contains(t, "Looks like") {
			p.cur = nil
		}
		return false
	}
	if s := strings.TrimSpace(strings.TrimPrefix(t, "#")); s != "" && p.cur.extra < 3 {
		if p.cur.msg != "" {
			p.cur.msg += "; "
		}
		p.cur.msg += s
		p.cur.extra++
	}
	return false
}

// close ends a run: its failures are the summary's failed tests, file by
// file, each named and explained by the next diagnostic placed in its file.
func (p *proveParser) close(ws string, total int) {
	var fs failSet
	failed := 0
	used := map[int]bool{}
	for _, f := range p.files {
		failed += f.failed
		for i, n := range f.nums {
			if i >= f.failed {
				break
			}
			d := p.diagnosis(f.file, used)
			name := "test " + strconv.Itoa(n)
			fl := Failure{Classname: f.file, Name: name, File: f.file, Span: f.span}
			if d != nil {
				if d.name != "" {
					fl.Name = d.name
				}
				fl.Line, fl.Message = d.line, d.msg
			}
			fs.add(fl)
		}
	}
	om := fs.omitted
	p.atts = append(p.atts, attempt{unit: suiteKey(ws, total), tests: intp(total), passed: intp(max(total-failed, 0)),
		failed: intp(failed), skipped: intp(0), errors: intp(0), failures: fs.take(), omitted: om})
	p.summary, p.files, p.diags, p.cur = false, nil, nil, nil
}

// diagnosis takes the first unused diagnostic placed in file.
func (p *proveParser) diagnosis(file string, used map[int]bool) *proveDiagnosis {
	for i := range p.diags {
		if !used[i] && p.diags[i].file == file {
			used[i] = true
			return &p.diags[i]
		}
	}
	return nil
}

func (p *proveParser) end(string) []attempt { return p.atts }

// testNumbers reads prove's list of failed tests: `3`, `1-2`, `2, 5-7`.
func testNumbers(s string) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, ranged := strings.Cut(strings.TrimSpace(part), "-")
		a, b := atoi(lo), atoi(hi)
		if !ranged {
			b = a
		}
		for n := a; n <= b && len(out) < maxNamed; n++ {
			out = append(out, n)
		}
	}
	return out
}
