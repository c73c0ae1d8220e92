package runners

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// prove, Perl's TAP harness (TAP::Harness), prints a line per test file
// ("t/calc.t .. ok", or "Dubious, test returned 1" and "Failed 1/4
// subtests" under it), then, when a file failed, a "Test Summary Report"
// naming each failing file ("t/calc.t (Wstat: 256 (exited 1) Tests: 4
// Failed: 1)", padded to the longest name under -j) with what went
// wrong indented under it, and always
// "Files=3, Tests=7,  0 wallclock secs (…)" followed by "Result: PASS" or
// "Result: FAIL".
//
// The units prove reports on are files: "Failed 1/4 subtests" is one
// file's, and its Test Summary Report names files, never the failed tests
// across them (a file that died after its first test failed none). So the
// summary counts files: tests is Files=, failed the files the report
// names, passed the rest; Tests= (the TAP tests the files ran, skipped and
// TODO ones among them) is in the note.
func init() {
	register(Declaration{Runner: "prove", Lines: []LineRule{
		{Re: proveFiles, Run: true, Verdict: Ran},
		{Re: proveResult, Run: true, Total: true, Judge: judgeProve},
		{Re: proveReport, Run: true, Verdict: Failed},
		{Re: regexp.MustCompile(`^Dubious, test returned \d+ \(wstat \d+, 0x[0-9a-f]+\)$`), Run: true, Verdict: Failed},
	}, Targets: []*regexp.Regexp{regexp.MustCompile(`^([\w./-]+\.t) \.+ ?(?:ok|skipped: .*|$)`)},
		Scripts: []*regexp.Regexp{regexp.MustCompile(`(^|/)prove$`)},
		Totals: &Totals{
			// Its failing files are named only in the report block.
			Prefixes: []string{"Test Summary Report", "Files="},
			Begin:    proveReport,
			Open:     proveFiles,
			Close:    proveResult,
			Count:    countProve,
			Named:    nameProve,
			Failure:  regexp.MustCompile(`^(\S.*?) +\(Wstat: \d+ .*?Tests: \d+ Failed: \d+\)$`),
			Name:     func(m []string) Failure { return Failure{Name: m[1], File: m[1]} },
			Message:  func() messageReader { return &proveDetails{} },
			Before: &Before{
				Prefixes: []string{"#   Failed test", "# Looks like your test exited"},
				New:      func() beforeReader { return &proveDiagnostics{} },
			},
		}})
}

var (
	proveFiles  = regexp.MustCompile(`^Files=(\d+), Tests=(\d+), `)
	proveResult = regexp.MustCompile(`^Result: (PASS|FAIL|NOTESTS)$`)
	proveReport = regexp.MustCompile(`^Test Summary Report$`)
)

func judgeProve(m []string) Verdict {
	if m[1] == "NOTESTS" {
		return Ran
	}
	return verdictOf(m[1] == "FAIL", m[1] == "PASS")
}

// countProve reads "Files=F, Tests=N, …" and the Result line under it:
// F files, none failed on PASS; on FAIL, nameProve counts the named ones.
func countProve(m ...[]string) (Counts, bool) {
	files, err1 := strconv.Atoi(m[0][1])
	tap, err2 := strconv.Atoi(m[0][2])
	if err1 != nil || err2 != nil {
		return Counts{}, false
	}
	note := fmt.Sprintf("prove counts test files: tests is Files=%d, failed the files its Test Summary Report names; they ran Tests=%d TAP tests", files, tap)
	if len(m) < 2 || m[1] == nil {
		return Counts{Tests: &files, Note: note + "; the Files= line has no Result line under it"}, true
	}
	if m[1][1] == "FAIL" {
		return Counts{Tests: &files, Note: note}, true
	}
	passed, failed, errors := files, 0, 0
	return Counts{Tests: &files, Passed: &passed, Failed: &failed, Errors: &errors, Note: note}, true
}

// nameProve counts a failed run's failing files from the Test Summary
// Report's names; a failed run that named none (its report was cut)
// keeps an unknown failure count.
func nameProve(c *Counts, named int) {
	if c.Failed != nil || named == 0 || c.Tests == nil || named > *c.Tests {
		return
	}
	failed, passed, errors := named, *c.Tests-named, 0
	c.Failed, c.Passed, c.Errors = &failed, &passed, &errors
}

// A failing file's message is what its test said on stderr, which prove
// passes through before its Test Summary Report names the file (even under
// -j, files' lines interleaved). proveDiagnostics reads it:
//
//   - the first Test::More diagnostic placed in the file ("#   Failed test
//     'name'" and "#   at t/slug.t line 9.", or "#   Failed test at
//     t/x.t line 14.") with the "#" lines right under it, up to four: the
//     message is "Failed test 'name' at t/slug.t line 9: got: '-trim-me-';
//     expected: 'trim-me'" and the failure's line 9;
//   - else, for a file that died, the line before Test::More's "# Looks
//     like your test exited with 255 just after 1." (the die message,
//     read back from the log): "cannot open config: No such file; Looks
//     like your test exited with 255 just after 1.". It is the file's when
//     it names the file ("… at t/die.t line 4.", Perl's own ending, which
//     also gives the line), or when it is the only death in the run with
//     the exit status and test count the report gives the file;
//   - else the report's lines under the file (proveDetails), as before.
//
// None of these lines counts, so the summary's counts, names and spans are
// the report's alone; a re-read of them (Verify) explains no file this way
// and compares no message.
type proveDiagnostics struct {
	first  map[string]*proveDiag // a file's first diagnostic
	cur    *proveDiag            // the latest, until its details end
	curAt  int64                 // the line it opened or was placed at
	last   int64                 // the last line read
	deaths []proveDeath
}

// proveDiag is one "#   Failed test" diagnostic.
type proveDiag struct {
	name, file string
	line       int
	details    []string
	size       int  // of the details, which stop at what a message keeps
	detailing  bool // its details began: a line that is none ends them
}

// proveDeath is one "# Looks like your test exited with E just after N."
// and the die message before it ("" when the line before is none).
type proveDeath struct {
	msg, file   string
	line        int
	exit, after string
	looksLike   string
}

const (
	// proveDiagWindow bounds how many lines after its diagnostic opened a
	// test's "at" line and details are looked for: under -j another
	// file's lines may come between, never many.
	proveDiagWindow = 40
	// maxProveDetails: is_deeply's three lines, and one more.
	maxProveDetails = 4
	// maxProveFiles bounds the diagnostics and deaths kept per run, and
	// maxProveFile a file's name, so that with every name, detail and die
	// message clipped to what a message keeps, a log with no total (which
	// never starts a new run) holds a few MiB at most.
	maxProveFiles = 10000
	maxProveFile  = 512
	// maxProveMessage is what clipMessage keeps of a message.
	maxProveMessage = 300
)

var (
	proveFailedTest = regexp.MustCompile(`^#\s+Failed test(?: '(.*?)'?| at (\S.*) line (\d+)\.)$`)
	proveAt         = regexp.MustCompile(`^#\s+at (\S.*) line (\d+)\.$`)
	proveExited     = regexp.MustCompile(`^# Looks like your test exited with (\d+) (?:just after (\d+)|before it could output anything)\.$`)
	proveDiedAt     = regexp.MustCompile(` at (\S+\.t) line (\d+)\.$`)
	// proveNotDie: lines the one before a death's "Looks like" may be
	// that are not its die message (TAP, prove's own lines, another
	// diagnostic), under -j another file's.
	proveNotDie = regexp.MustCompile(`^(?:#|ok\b|not ok\b|\d+\.\.\d+|Bail out!|Dubious, test returned|Failed \d+/\d+ subtests|\(less |All tests successful|Result: |Files=|Test Summary Report$|-+$|[\w./-]+\.t \.+)`)
	proveWstat  = regexp.MustCompile(`\(exited (\d+)\) Tests: (\d+) Failed: `)
)

func (p *proveDiagnostics) busy() bool { return p.cur != nil && p.last < p.curAt+proveDiagWindow }

func (p *proveDiagnostics) line(l *line, back func(end int64) (string, bool)) {
	p.last = l.num
	t := l.trim
	if p.cur != nil && l.num > p.curAt+proveDiagWindow {
		p.cur = nil
	}
	if m := proveFailedTest.FindStringSubmatch(t); m != nil {
		p.cur, p.curAt = &proveDiag{name: clipMessage(m[1])}, l.num
		if m[2] != "" {
			p.place(m[2], m[3])
		}
		return
	}
	if strings.HasPrefix(t, "# Looks like your test exited") {
		p.died(l, t, back)
	}
	d := p.cur
	switch {
	case d == nil:
	case d.file == "":
		if m := proveAt.FindStringSubmatch(t); m != nil {
			p.place(m[1], m[2])
			p.curAt = l.num
		}
	case strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "# Looks like"):
		if s := strings.Join(strings.Fields(t[1:]), " "); s != "" {
			if len(d.details) < maxProveDetails && d.size < maxProveMessage {
				s = clipMessage(s)
				d.details, d.size = append(d.details, s), d.size+len(s)
			}
			d.detailing = true
		}
	case d.detailing:
		p.cur = nil // its details ended
	}
}

// place gives the open diagnostic its file and line; the first one placed
// in a file is kept.
func (p *proveDiagnostics) place(file, n string) {
	d := p.cur
	d.file, d.line = strings.TrimPrefix(file, "./"), atoi(n)
	if p.first == nil {
		p.first = map[string]*proveDiag{}
	}
	if p.first[d.file] == nil && len(p.first) < maxProveFiles && len(d.file) <= maxProveFile {
		p.first[d.file] = d
	}
}

// died notes a death, its die message the line before, when it is one.
func (p *proveDiagnostics) died(l *line, t string, back func(end int64) (string, bool)) {
	m := proveExited.FindStringSubmatch(t)
	if m == nil || len(p.deaths) >= maxProveFiles {
		return
	}
	after := m[2]
	if after == "" {
		after = "0"
	}
	d := proveDeath{exit: m[1], after: after, looksLike: strings.TrimSpace(strings.TrimPrefix(t, "#"))}
	if msg, ok := back(l.start); ok && msg != "" && !proveNotDie.MatchString(msg) {
		d.msg = clipMessage(msg)
		if at := proveDiedAt.FindStringSubmatch(msg); at != nil {
			d.file, d.line = strings.TrimPrefix(at[1], "./"), atoi(at[2])
		}
	}
	p.deaths = append(p.deaths, d)
}

func (p *proveDiagnostics) explain(f *Failure, m []string) bool {
	file := strings.TrimPrefix(m[1], "./")
	if d := p.first[file]; d != nil {
		msg := "Failed test"
		if d.name != "" {
			msg += " '" + d.name + "'"
		}
		msg += fmt.Sprintf(" at %s line %d", d.file, d.line)
		if len(d.details) > 0 {
			msg += ": " + strings.Join(d.details, "; ")
		}
		f.Message, f.Line = clipMessage(msg), d.line
		return true
	}
	if d := p.death(file, m[0]); d != nil {
		f.Message, f.Line = clipMessage(d.msg+"; "+d.looksLike), d.line
		return true
	}
	return false
}

// death finds the file's death with a die message: the one naming the
// file, else the only death in the run with the exit status and number of
// tests its report line gives.
func (p *proveDiagnostics) death(file, report string) *proveDeath {
	for i := range p.deaths {
		if d := &p.deaths[i]; d.file == file {
			return d
		}
	}
	w := proveWstat.FindStringSubmatch(report)
	if w == nil {
		return nil
	}
	var found *proveDeath
	for i := range p.deaths {
		d := &p.deaths[i]
		if d.exit != w[1] || d.after != w[2] {
			continue
		}
		if found != nil {
			return nil // two deaths alike: neither is known to be the file's
		}
		found = d
	}
	if found == nil || found.msg == "" || found.file != "" {
		return nil
	}
	return found
}

// proveDetails reads the indented lines the Test Summary Report prints
// under a failing file ("Failed test:  2", "Non-zero exit status: 1",
// "Parse errors: Bad plan.  You planned 3 tests but ran 1."), joined.
type proveDetails struct {
	parts []string
	done  bool
}

func (p *proveDetails) line(text string) {
	if p.done {
		return
	}
	if !strings.HasPrefix(text, " ") && !strings.HasPrefix(text, "\t") {
		p.done = true
		return
	}
	if t := strings.Join(strings.Fields(text), " "); t != "" {
		p.parts = append(p.parts, t)
	}
}

func (p *proveDetails) message() string { return clipMessage(strings.Join(p.parts, "; ")) }
