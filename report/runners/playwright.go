package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// Playwright Test (`npx playwright test`) with its list, line or dot
// reporter: a banner, each failure's numbered block, then a summary that
// counts and names.
//
//	Running 7 tests using 1 worker
//	…
//	  1) tests/math.spec.js:7:1 › multiplies ──────────
//
//	    Error: expect(received).toBe(expected) // Object.is equality
//
//	    Expected: 7
//	    Received: 6
//	    …
//	  2 failed
//	    tests/math.spec.js:7:1 › multiplies ───────────
//	    [webkit] › tests/a.spec.ts:3:5 › suite › title ─
//	  1 flaky
//	    tests/flaky.spec.js:3:1 › passes on retry ─────
//	  1 skipped
//	  3 passed (5.9s)
//
// The counts come in that order (failed, interrupted, flaky, skipped, did
// not run, passed, errors not a part of any test), each only when not zero; the tests under failed,
// interrupted and flaky are named. A flaky test failed and then passed on
// a retry: it counts as passed and is listed as flaky. Interrupted tests
// count as errors, and so do the errors that were not a part of any test
// (a run stopped by --max-failures, a hook that threw), though they are no
// tests; tests that did not run as skipped. The note says so. Only a summary after the banner
// counts; every summary line and the line that ends the summary count,
// so a re-read of the cited lines ends it at the same place. The failure
// blocks give the names their place and message, and count nothing.
type playwrightParser struct {
	begun, inSum bool
	kind         int // the latest count line's kind in the summary
	list         int // the kind whose names the lines under it are, -1 none
	counts       [pwKinds]int
	fails        failSet
	flaky        []TestRef
	from, last   int64 // where the run's banner and the summary's latest line start
	atts         []attempt
	// A failure block being read: its test, and how many lines more may
	// hold its message.
	msgFor  string
	msgLeft int
	msgs    map[string]pwMessage
}

// The kinds of count lines, in the order Playwright prints them.
const (
	pwFailed = iota
	pwInterrupted
	pwFlaky
	pwSkipped
	pwNotRun
	pwPassed
	pwFatal // errors that were not a part of any test
	pwKinds
)

var pwKindWords = [pwKinds]string{"failed", "interrupted", "flaky", "skipped", "did not run", "passed", "error"}

type pwMessage struct {
	text string
	file string
	line int
}

var (
	pwBanner = regexp.MustCompile(`^Running \d+ tests? using \d+ workers?(?:, shard \d+ of \d+)?$`)
	pwCount  = regexp.MustCompile(`^(\d+) (failed|interrupted|flaky|skipped|did not run|passed \(\d+(?:\.\d+)?(?:ms|s|m|h)\)|errors? (?:was|were) not a part of any test, see above for details)$`)
	// pwTitle is a test's header: `[project] › file:line:col › titles`,
	// padded with a rule; m[1] project, m[2] file, m[3] line, m[5] titles.
	pwTitle = regexp.MustCompile(`^(?:\[(.+?)\] › )?(\S[^›]*?):(\d+):(\d+) › (.+?)(?: ─+)?$`)
	// pwBlock is a failure block's numbered header.
	pwBlock = regexp.MustCompile(`^\d+\) `)
	// pwAt is the frame under an error: `at /abs/tests/a.spec.js:8:17`.
	pwAt = regexp.MustCompile(`^at (?:.* \()?(.+?):(\d+):\d+\)?$`)
)

// pwMessageLines bounds how far under a block's header its message is read.
const pwMessageLines = 40

func (p *playwrightParser) name() string { return "playwright" }

func (p *playwrightParser) following() bool { return p.inSum || p.msgLeft > 0 }

func (p *playwrightParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.inSum {
		if p.summaryLine(l, t, ws) {
			return true
		}
		// Any other line ends the summary, and may begin the next run.
		// A re-read of the cited lines ends it at the next cited line,
		// which is no summary line either.
		p.close(ws)
	}
	if p.msgLeft > 0 {
		p.message(t)
	}
	if t == "" {
		return false
	}
	switch {
	case t[0] == 'R' && pwBanner.MatchString(t):
		p.begun, p.from = true, l.start
		return true
	case p.begun && t[0] >= '1' && t[0] <= '9':
		if m := pwCount.FindStringSubmatch(t); m != nil {
			p.inSum, p.kind, p.list = true, -1, -1
			p.summaryLine(l, t, ws)
			return true
		}
		if pwBlock.MatchString(t) {
			p.block(t[strings.IndexByte(t, ' ')+1:])
		}
	}
	return false
}

// summaryLine reads a line inside a summary; false: it ends the summary.
func (p *playwrightParser) summaryLine(l *line, t, ws string) bool {
	if m := pwCount.FindStringSubmatch(t); m != nil {
		k := pwKindOf(m[2])
		if k <= p.kind {
			return false // a count out of order starts another summary
		}
		p.kind, p.list, p.last = k, -1, l.start
		p.counts[k] = atoi(m[1])
		if k == pwFailed || k == pwInterrupted || k == pwFlaky {
			p.list = k
		}
		return true
	}
	m := pwTitle.FindStringSubmatch(t)
	if m == nil || p.list < 0 || !strings.HasPrefix(l.text, "    ") {
		return false
	}
	f := pwFailure(m)
	p.last = l.start
	if p.list == pwFlaky {
		if len(p.flaky) < maxNamed {
			p.flaky = append(p.flaky, TestRef{Name: f.Name, Classname: f.Classname})
		}
		return true
	}
	if msg, ok := p.msgs[f.Classname+"\x00"+f.Name]; ok {
		f.Message = msg.text
		if msg.line > 0 && strings.HasSuffix(msg.file, "/"+f.File) {
			f.Line = msg.line
		}
	}
	f.Span = spanOf(l)
	p.fails.add(f)
	return true
}

func pwKindOf(word string) int {
	for k, w := range pwKindWords {
		if strings.HasPrefix(word, w) {
			return k
		}
	}
	return -1
}

// pwFailure names the test a header or a summary line names.
func pwFailure(m []string) Failure {
	f := Failure{Name: m[5], Classname: m[2], File: m[2], Line: atoi(m[3])}
	if m[1] != "" {
		f.Classname = "[" + m[1] + "] › " + m[2]
	}
	return f
}

// block starts reading a failure block's message, h its header without
// its number.
func (p *playwrightParser) block(h string) {
	m := pwTitle.FindStringSubmatch(h)
	if m == nil {
		return
	}
	f := pwFailure(m)
	key := f.Classname + "\x00" + f.Name
	if _, ok := p.msgs[key]; ok || len(p.msgs) >= maxNamed {
		return // a retry's block repeats the test; the first error says it
	}
	if p.msgs == nil {
		p.msgs = map[string]pwMessage{}
	}
	p.msgs[key] = pwMessage{}
	p.msgFor, p.msgLeft = key, pwMessageLines
}

// message reads a line of the block being read: its first line is the
// error, the Expected and Received lines under it complete it, and the
// first `at` frame is where it failed.
func (p *playwrightParser) message(t string) {
	p.msgLeft--
	msg := p.msgs[p.msgFor]
	switch {
	case t == "":
	case msg.text == "":
		msg.text = t
	case strings.HasPrefix(t, "Expected") || strings.HasPrefix(t, "Received"):
		if !strings.Contains(msg.text, "; Received") {
			msg.text += "; " + strings.Join(strings.Fields(t), " ")
		}
	case strings.HasPrefix(t, "at "):
		if m := pwAt.FindStringSubmatch(t); m != nil {
			msg.file, msg.line = m[1], atoi(m[2])
		}
		p.msgLeft = 0
	case pwBlock.MatchString(t) || strings.HasPrefix(t, "Retry #"):
		p.msgLeft = 0
	}
	p.msgs[p.msgFor] = msg
}

// close ends the summary being read.
func (p *playwrightParser) close(ws string) {
	c := p.counts
	passed := c[pwPassed] + c[pwFlaky]
	tests := passed + c[pwFailed] + c[pwInterrupted] + c[pwSkipped] + c[pwNotRun]
	a := attempt{unit: suiteKey(ws, tests), tests: intp(tests), passed: intp(passed), failed: intp(c[pwFailed]),
		skipped: intp(c[pwSkipped] + c[pwNotRun]), errors: intp(c[pwInterrupted] + c[pwFatal]),
		failures: p.fails.list, omitted: p.fails.omitted, flaky: p.flaky, at: p.last, from: p.from}
	var notes []string
	if c[pwNotRun] > 0 {
		notes = append(notes, strconv.Itoa(c[pwNotRun])+" tests did not run (counted as skipped)")
	}
	if c[pwFatal] > 0 {
		notes = append(notes, strconv.Itoa(c[pwFatal])+" errors were not a part of any test (counted as errors, not as tests)")
	}
	a.note = strings.Join(notes, "; ")
	p.atts = append(p.atts, a)
	*p = playwrightParser{atts: p.atts, msgs: p.msgs}
}

func (p *playwrightParser) end(ws string) []attempt {
	if p.inSum {
		p.close(ws)
	}
	return p.atts
}

func init() {
	register(Declaration{Runner: "playwright", Parser: &Parser{New: func(bool) parser { return &playwrightParser{} }, Order: 160,
		Starts: []string{"Running ", "1", "2", "3", "4", "5", "6", "7", "8", "9"}},
		Lines: []LineRule{
			{Re: pwBanner, Run: true, Verdict: Ran},
			{Re: regexp.MustCompile(`^\d+ passed \(\d+(?:\.\d+)?(?:ms|s|m|h)\)$`), Run: true, Verdict: Ran},
		}})
}
