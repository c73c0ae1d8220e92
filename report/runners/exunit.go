package runners

import (
	"regexp"
	"strconv"
	"strings"
)

// ExUnit (Elixir's test framework, run by `mix test`) prints each failure
// as a numbered block when it happens:
//
//  1. test adds (MathTest)
//     test/math_test.exs:12
//     Assertion with == failed
//     code:  assert Math.add(1, 2) == 4
//     left:  3
//     right: 4
//     stacktrace:
//     test/math_test.exs:13: (test)
//
// and at the end "Finished in 0.05 seconds (0.00s async, 0.05s sync)" with
// the total right under it: "1 doctest, 5 tests, 2 failures, 1 excluded, 2
// invalid, 1 skipped" (a module whose setup_all failed invalidates its
// tests: "  3) MathTest: failure on setup_all callback, all tests have been
// invalidated"). An umbrella project's `mix test` prints "==> app" over
// each app's run. With --trace it names every test as it runs it, under
// its module ("MathTest [test/math_test.exs]", "  * test adds (0.02ms)
// [L#12]"), which the test index takes.
//
// The parser is hand-written, not declared: ExUnit prints no banner
// before its failures, whose headings start with a digit (a declared
// Failure line would make every digit-led line of any log reach its
// regexp), and a heading is one only with its location line right under
// it; --trace's lines name passing tests, which a declaration does not.
// Its excerpts are declared (declare_exunit.go): a heading to the next.
//
// A heading counts, and the location line under it names the failure;
// "Finished in" counts, and the total right under it; "==> app" counts
// (it names the unit). The message is read from lines that count nothing.
type exunitParser struct {
	atts     []attempt
	fails    failSet
	app      string   // the umbrella app whose run this is ("==> app")
	pending  []string // a test heading's match, until its location line
	headAt   *Span
	finished bool // "Finished in" was read: the total may follow
	msg      exunitMessage
	msgLeft  int
	verifier bool
	// --trace: the module being run and the tests it named.
	module  string
	traced  []tracedTest
	invalid map[string]bool // modules whose setup_all failed
	// eunit: since the last total, a line only rebar3's EUnit run prints
	// ("===> Performing EUnit tests...", a failure headed "1)
	// calc_tests:add_test/0"): its "Finished in" and "5 tests, 2
	// failures" are EUnit's, not ExUnit's.
	eunit bool
}

type tracedTest struct {
	module, name string
	skip         bool
}

var (
	// exunitHeading: "1) test adds (MathTest)", a doctest's "2) doctest
	// Math.add/2 (1) (MathTest)", a property's.
	exunitHeading = regexp.MustCompile(`^\d+\) ((?:test|doctest|property) .+) \(([A-Z][\w.]*)\)$`)
	// exunitAll: a module whose setup_all failed.
	exunitAll      = regexp.MustCompile(`^\d+\) ([A-Z][\w.]*): failure on setup_all callback, all tests have been invalidated$`)
	exunitLocation = regexp.MustCompile(`^(\S+\.exs?):(\d+)$`)
	exunitFinished = regexp.MustCompile(`^Finished in [0-9.]+ seconds?(?: \(.*\))?$`)
	exunitTotal    = regexp.MustCompile(`^(?:(\d+) doctests?, )?(?:(\d+) propert(?:y|ies), )?(\d+) tests?, (\d+) failures?((?:, \d+ (?:excluded|invalid|skipped))*)$`)
	exunitApp      = regexp.MustCompile(`^==> ([a-z_][a-z0-9_]*)$`)
	// exunitTraced: --trace's line for a test that ran, or was excluded
	// or skipped: "* test adds (0.02ms) [L#12]".
	exunitTraced = regexp.MustCompile(`^\* (.+) \(([0-9.]+ms|excluded|skipped|invalid)\) \[L#\d+\]$`)
	// eunitHeading: rebar3's EUnit failure heading, "1) calc_tests:add_test/0":
	// an Erlang function, where ExUnit's names a test and its module.
	eunitHeading = regexp.MustCompile(`^\d+\) [a-z][\w@]*:[^\s()]+/\d+$`)
	exunitModule = regexp.MustCompile(`^([A-Z][\w.]*) \[\S+\.exs\]$`)
	// exunitFrame: a stacktrace's frame, "test/math_test.exs:13: (test)",
	// "(math 0.1.0) lib/math.ex:9: Math.div/2".
	exunitFrame = regexp.MustCompile(`^(?:\(([a-z_][a-z0-9_]*) [^)]*\) )?(\S+?\.(?:exs?|erl)):(\d+): (.*)$`)
)

// rebar3EUnitBanner is the line rebar3 prints before EUnit's tests.
const rebar3EUnitBanner = "===> Performing EUnit tests..."

func (p *exunitParser) name() string { return "exunit" }

// following reports that the parser must see the next line.
func (p *exunitParser) following() bool { return p.pending != nil || p.finished || p.msgLeft > 0 }

func (p *exunitParser) feed(l *line, ws string) bool {
	t := l.trim
	if p.pending != nil {
		m := p.pending
		p.pending = nil
		if lm := exunitLocation.FindStringSubmatch(t); lm != nil {
			f := Failure{Name: m[1], Classname: m[2], File: lm[1], Span: p.headAt}
			f.Line, _ = strconv.Atoi(lm[2])
			p.headAt.End, p.headAt.LastLine = l.end, l.num
			p.failure(f)
			return true
		}
	}
	if p.finished {
		p.finished = false
		if m := exunitTotal.FindStringSubmatch(t); m != nil {
			if p.eunit {
				p.eunit, p.msgLeft = false, 0
				p.fails.take()
				return false
			}
			p.total(ws, l, m)
			return true
		}
	}
	if p.msgLeft > 0 {
		p.msgLeft--
		if !p.msg.line(t) {
			p.msgLeft = 0
		}
		if n := len(p.fails.list); n > 0 {
			f := &p.fails.list[n-1]
			f.Message = p.msg.message()
			if file, line := p.msg.place(f.Name, f.File); file != "" {
				f.File, f.Line = file, line
			}
		}
	}
	if t == "" {
		return false
	}
	switch t[0] {
	case 'F':
		if exunitFinished.MatchString(t) {
			p.finished, p.msgLeft = true, 0
			return true
		}
	case '=':
		if t == rebar3EUnitBanner {
			p.eunit = true
			return false
		}
		if m := exunitApp.FindStringSubmatch(t); m != nil {
			p.app = m[1]
			return true
		}
	case '*':
		if m := exunitTraced.FindStringSubmatch(t); m != nil && !p.verifier && len(p.traced) < maxIndexed {
			p.traced = append(p.traced, tracedTest{p.module, m[1], m[2] == "excluded" || m[2] == "skipped"})
		}
		return false
	}
	if startsDigit(t) && strings.Contains(t, ") ") {
		if m := exunitHeading.FindStringSubmatch(t); m != nil {
			p.pending, p.headAt, p.msgLeft = m, spanOf(l), 0
			return true
		}
		if eunitHeading.MatchString(t) {
			p.eunit = true
			return false
		}
		if m := exunitAll.FindStringSubmatch(t); m != nil {
			if p.invalid == nil {
				p.invalid = map[string]bool{}
			}
			p.invalid[m[1]] = true
			p.failure(Failure{Name: "failure on setup_all callback", Classname: m[1], Span: spanOf(l)})
			return true
		}
		return false
	}
	if strings.HasSuffix(t, ".exs]") {
		if m := exunitModule.FindStringSubmatch(t); m != nil {
			p.module = m[1]
		}
	}
	return false
}

// failure names a failing test and starts reading its message.
func (p *exunitParser) failure(f Failure) {
	n := len(p.fails.list)
	p.fails.add(f)
	p.msgLeft = 0
	if len(p.fails.list) > n {
		p.msg, p.msgLeft = exunitMessage{test: f.File}, maxMessageLines
	}
}

// total ends a run: "1 doctest, 5 tests, 2 failures, 1 excluded, 2
// invalid, 1 skipped". The doctests and properties are tests too;
// excluded and skipped tests are skipped, invalid ones errors. ExUnit
// prints no pass count: passed is what is left.
func (p *exunitParser) total(ws string, l *line, m []string) {
	tests := atoi(m[1]) + atoi(m[2]) + atoi(m[3])
	failed := atoi(m[4])
	n := map[string]int{}
	for _, item := range strings.Split(strings.TrimPrefix(m[5], ", "), ", ") {
		if c, word, ok := strings.Cut(item, " "); ok {
			n[word] += atoi(c)
		}
	}
	skipped, errors := n["excluded"]+n["skipped"], n["invalid"]
	fails := p.fails.take()
	a := attempt{unit: unitKey(ws, p.app+" tests="+strconv.Itoa(tests)), tests: intp(tests), failed: intp(failed),
		skipped: intp(skipped), errors: intp(errors), failures: fails, at: l.start,
		note: "ExUnit prints no pass count: passed is the tests (doctests and properties among them) minus failures, excluded, skipped and invalid ones"}
	if passed := tests - failed - skipped - errors; passed >= 0 {
		a.passed = intp(passed)
	}
	if !p.verifier {
		failedNames := map[string]bool{}
		for _, f := range fails {
			failedNames[f.Classname+"\x00"+f.Name] = true
		}
		named := len(p.traced) == tests
		for _, tt := range p.traced {
			if failedNames[tt.module+"\x00"+tt.name] {
				continue
			}
			if p.invalid[tt.module] {
				named = false // --trace printed it as run; its module's setup_all failed
				continue
			}
			a.passes.add([]byte(tt.module+"\x00"+tt.name), tt.skip)
		}
		a.named = named
	}
	p.atts = append(p.atts, a)
	p.traced, p.module, p.invalid, p.msgLeft = nil, "", nil, 0
}

func (p *exunitParser) end(string) []attempt { return p.atts }

// exunitMessage reads a failure's block under its location: the lines up
// to "stacktrace:", each "label: value" kept as said ("Assertion with ==
// failed; code: assert Math.add(1, 2) == 4; left: 3; right: 4", "**
// (RuntimeError) boom; code: Math.boom()"), then the frames: the first in
// the test's file is the failure's place, and when the failure happened
// elsewhere (the first frame is not in a test file) the first frame of the
// project's own code joins the message ("at lib/math.ex:9: Math.div/2").
type exunitMessage struct {
	test   string // the test's file
	parts  []string
	frames bool // past "stacktrace:"
	first  bool // the first frame was read
	inLib  bool // ... and it is not in a test file
	at     frame
	lib    string
	done   bool
	blanks int // blank lines just read
}

// line reads one line, blanks trimmed; false: the block has ended (a
// blank line after the frames, two before them: an exception's message
// may hold one).
func (r *exunitMessage) line(t string) bool {
	if r.done {
		return false
	}
	if t == "" {
		r.blanks++
		if r.frames || r.blanks >= 2 && len(r.parts) > 0 {
			r.done = true
			return false
		}
		return true
	}
	r.blanks = 0
	if r.frames {
		r.frame(t)
		return true
	}
	if t == "stacktrace:" {
		r.frames = true
		return true
	}
	if len(r.parts) >= 16 {
		return true
	}
	t = strings.Join(strings.Fields(t), " ")
	// A label ("code:", "left:", "doctest:") starts a part; a value's
	// further lines (a long left: map) join it.
	if n := len(r.parts); n > 0 && !exunitLabel.MatchString(t) && !strings.HasPrefix(t, "** (") {
		r.parts[n-1] += " " + t
		return true
	}
	r.parts = append(r.parts, t)
	return true
}

// exunitLabel: a line that starts a part of the message: the labels
// ExUnit's formatter prints, or a failure's first words.
var exunitLabel = regexp.MustCompile(`^(?:(?:code|left|right|arguments|doctest|value|expected|received|message|reason|hint|test):(?: |$)|Assertion |Doctest |Expected |Wrong message |No message |\S.* failed$)`)

// frame reads a stacktrace's frame.
func (r *exunitMessage) frame(t string) {
	m := exunitFrame.FindStringSubmatch(t)
	if m == nil {
		return
	}
	app, file := m[1], m[2]
	test := app == "" && strings.HasSuffix(file, ".exs")
	if !r.first {
		r.first, r.inLib = true, !test
	}
	// An umbrella's heading names apps/calc/test/x_test.exs, its frames
	// test/x_test.exs: the heading's spelling is kept.
	if test && (r.test == "" || file == r.test || strings.HasSuffix(r.test, "/"+file)) {
		if r.test != "" {
			file = r.test
		}
		r.at.offer(file, m[3], true)
	}
	if r.lib == "" && !test && !exunitOwnApp[app] {
		r.lib = file + ":" + m[3] + ": " + m[4]
	}
}

// exunitOwnApp: Elixir's and Erlang's own applications, whose frames are
// not the project's.
var exunitOwnApp = map[string]bool{"elixir": true, "stdlib": true, "kernel": true, "ex_unit": true, "mix": true,
	"logger": true, "erts": true, "iex": true, "eex": true, "crypto": true, "ssl": true}

func (r *exunitMessage) message() string {
	m := strings.Join(r.parts, "; ")
	if r.inLib && r.lib != "" {
		m += "; at " + r.lib
	}
	return clipMessage(m)
}

// place is the failure's place: its assertion's frame in the test's file;
// a doctest's, the first frame (the docstring's line in the module).
func (r *exunitMessage) place(name, file string) (string, int) {
	if strings.HasPrefix(name, "doctest ") && r.lib != "" {
		f, rest, _ := strings.Cut(r.lib, ":")
		n, _, _ := strings.Cut(rest, ":")
		if line, err := strconv.Atoi(n); err == nil {
			return f, line
		}
	}
	return r.at.place()
}

// exunitWants reports a line, blanks trimmed and not empty, that ExUnit's
// parser may act on when it follows nothing, beyond the digit-led and
// "test " lines: "Finished in" and --trace's module lines. It is asked of
// the lines ending in ")s]" only.
func exunitWants(t []byte) bool {
	switch t[len(t)-1] {
	case ')', 's':
		return t[0] == 'F' && hasPrefix(t, "Finished in ")
	case ']': // pytest -v's lines end so too: "[ 50%]"
		return len(t) > 5 && t[len(t)-5] == '.' && hasSuffixB(t, ".exs]")
	}
	return false
}
