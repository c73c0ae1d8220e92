package runners

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// attempt is one result block of one runner: a Go package line, a pytest
// summary line, a cargo `test result:` line, ….
type attempt struct {
	unit     string // what it tested; a later attempt of the same unit replaces it
	tests    *int
	passed   *int
	failed   *int
	skipped  *int
	errors   *int
	failures []Failure
	omitted  int   // failing tests past maxNamed: counted, not named
	at       int64 // offset of the line that ended it
	// from is the offset of the line that began it, for the runs that
	// print a banner (ctest's "Test project", a gtest binary's): where a
	// run printed inside another's output is told by it (see nestInCtest).
	from int64
	// name is the unit as a reader knows it across commits (a Go
	// package), "" when the runner names none; passes are its passing and
	// skipped tests by name, named whether that is all of them.
	name   string
	passes passList
	named  bool
	// note says how a count was derived (a declared total's Counts.Note).
	note string
	// flaky are tests the runner itself ran again and that then passed
	// (pytest-rerunfailures' RERUN, Surefire's Flakes:).
	flaky []TestRef
}

// maxNamed bounds the failing tests named per result block and per
// summary, so a log with millions of failing tests keeps memory flat. The
// counts always cover every test; Summary.FailuresOmitted and Note say how
// many names are missing. A variable so that tests can lower it.
var maxNamed = 10000

// parser reads one runner's output. feed reports whether the line changed the
// parser's state; only such lines may influence counts or names, which is
// what lets Verify reproduce a result from the recorded lines alone.
type parser interface {
	name() string
	feed(l *line, ws string) bool
	end(ws string) []attempt
}

// state feeds every line to every parser. The parsers the fast paths must
// know about are kept by type as well.
type state struct {
	// declared are the declarations' Totals (declared_totals.go); declBusy:
	// one of them must see the next line. A field, set after each line the
	// parsers read, since wants asks it for every line.
	declared []*declaredParser
	declBusy bool
	// follow: a hand-written parser takes whatever line comes next. Only
	// their feeds change that, so it is set after they read a line rather
	// than asked of seven parsers on every line wants sees.
	follow bool
	// rules: a parser reads `--- ` and `=== ` lines too (ruleReader);
	// wanting: a stateWanter is wanting. Set with follow, so that the
	// lines of a dense go -v log ask no parser.
	rules, wanting bool

	parsers []parser
	// followers, wanters and readers are the parsers that are followers,
	// stateWanters and ruleReaders (registry.go).
	followers []follower
	wanters   []stateWanter
	readers   []ruleReader
	// The parsers the fast paths call directly.
	golang    *goParser
	gotestsum *gotestsumParser
	pytest    *pytestParser
	ws        string
	// onlyDecor: wants took the line only for its `file.go:N:` text;
	// onlyPytest: only for pytest -v's `x.py::test PASSED  [ 40%]` shape.
	onlyDecor  bool
	onlyPytest bool
	spans      spanSet
	tap        *tap // when set, hands the counted lines to a verifier as they come
	verifier   bool // re-reads a scan's lines: builds no test index
}

func newState() *state { return newStateOf(false) }

// newStateOf builds the state from the registry: every registered parser,
// then every declared Totals.
func newStateOf(verifier bool) *state {
	st := &state{parsers: parsers(verifier), verifier: verifier}
	for _, p := range st.parsers {
		if f, ok := p.(follower); ok {
			st.followers = append(st.followers, f)
		}
		if w, ok := p.(stateWanter); ok {
			st.wanters = append(st.wanters, w)
		}
		if r, ok := p.(ruleReader); ok {
			st.readers = append(st.readers, r)
		}
	}
	st.golang = parserOf[*goParser](st.parsers)
	st.gotestsum = parserOf[*gotestsumParser](st.parsers)
	st.pytest = parserOf[*pytestParser](st.parsers)
	st.declared = declaredParsers()
	return st
}

// readerAt lets the declared parsers read the scanned log, ra, at offsets:
// prove's die message is the line before the one that says a test died
// (Totals.Before). Only a scan's state has one, so a message read back
// this way is the scan's alone; a re-read of the cited lines, which
// compares no message, keeps the one under the failure's line.
func (st *state) readerAt(ra io.ReaderAt) {
	for _, p := range st.declared {
		p.ra = ra
	}
}

// newVerifier is the state that re-reads a scan's counted lines. The test
// index is not part of what it must reproduce (see sameResult), so it
// builds none: in a dense log that was a third of its allocations.
func newVerifier() *state { return newStateOf(true) }

// npmBanner is npm's `> pkg@1.0.0 test` line; it tells workspaces apart, so
// `npm test --workspaces` sums its runs instead of taking them for retries.
var npmBanner = regexp.MustCompile(`^> (\S+@\S+) \S+$`)

// feed gives l to the parsers and reports whether any of them used it.
func (st *state) feed(l *line) bool {
	if st.golang.plain.recent.cont { // seldom: the call costs more than the check
		st.golang.plain.continuation(l.textB)
	}
	if st.gotestsum.msgs.recent.cont {
		st.gotestsum.msgs.continuation(l.textB)
	}
	if !noFast && !st.wants(l) {
		return false
	}
	if !noFast && st.onlyDecor {
		st.decor(l)
		return false
	}
	if !noFast && st.onlyPytest {
		// A pytest -v log is mostly such lines: no other parser reads
		// them, and pytest only their verdict (nothing follows, so no
		// section of its is open), on bytes.
		used := st.pytest.verbose(l.trimB)
		if used {
			l.materialize()
			st.count(l)
		}
		return used
	}
	if used, ok := st.golang.fast(l, !noFast && st.quiet(l)); ok {
		if used {
			st.count(l)
		}
		return used
	}
	l.materialize()
	used, ws := false, st.ws
	if strings.HasPrefix(l.text, "> ") {
		if m := npmBanner.FindStringSubmatch(l.text); m != nil {
			ws, used = m[1], true
		}
	}
	// The banner names the workspace of the lines after it: a total it
	// leaves unclosed is the previous workspace's, as a verifier that
	// reads the banner right after the total's cited lines sees it too.
	for _, p := range st.parsers {
		if p.feed(l, st.ws) {
			used = true
		}
	}
	st.follow, st.rules, st.wanting = st.following(), st.readRules(), st.anyWanting()
	if st.feedDeclared(l) {
		used = true
	}
	st.ws = ws
	if used {
		st.count(l)
	}
	return used
}

// count records l as a line the result depends on.
func (st *state) count(l *line) {
	st.spans.add(l)
	if st.tap != nil {
		st.tap.add(l)
	}
}

// noFast turns the byte-level shortcuts (wants and the go fast path) off,
// for tests that compare them with every parser reading every line.
var noFast = false

// wants reports whether any parser may act on l. It is the union of the
// parsers' own entry checks (see each feed), done on bytes, so the lines
// no parser cares about, most of any log, cost no allocation and no
// regexp. A parser that starts acting on another line shape must be added
// here.
func (st *state) wants(l *line) bool {
	st.onlyDecor, st.onlyPytest = false, false
	if st.follow || st.declBusy {
		return true // a parser is inside a message, a title, a total or a run
	}
	t := l.trimB
	if len(t) == 0 {
		return false
	}
	if wanted.match(t) || totalPrefixes.match(t) {
		return true
	}
	if t[len(t)-1] == ']' && bytes.HasSuffix(t, []byte("%]")) { // pytest -v's verdicts
		st.onlyPytest = true
		return true
	}
	if st.wanting {
		for _, w := range st.wanters {
			if w.wanting() && w.wants(t) {
				return true
			}
		}
	}
	// go and gotestsum attach `file.go:12: message` lines to failures;
	// such a line starts with its path once trimmed.
	st.onlyDecor = goPathColon(t)
	return st.onlyDecor
}

// following reports whether a hand-written parser takes whatever line
// comes next.
func (st *state) following() bool {
	for _, f := range st.followers {
		if f.following() {
			return true
		}
	}
	return false
}

// decor hands a line wanted only for its `file.go:12: message` text to the
// two parsers that attach such lines to failures, as their feed would,
// without making strings of it unless gotestsum keeps it. A `go test -v`
// log of tests that log with t.Log is mostly such lines.
func (st *state) decor(l *line) {
	t := l.textB
	if body := skipBlanks(t); len(body) < len(t) && len(t)-len(body) == cap(t)-cap(l.trimB) {
		// What feedDecor checks, wants checked on the same bytes: trimB
		// starts where the blanks end and ends in blanks at most, which
		// hold no colon.
		st.golang.plain.noteBody(st.golang.decorName(), t, body)
	} else {
		st.golang.feedDecor(l)
	}
	if st.gotestsum.wantsDecor() {
		l.materialize()
		st.gotestsum.feedDecor(l)
	}
}

// hasPrefix is bytes.HasPrefix for a short constant prefix, without the
// call to memequal: a prefix of 1, 2, 4 or 8 bytes is one load and one
// comparison (the compiler folds the switch on a constant), others a
// loop of bytes.
func hasPrefix(b []byte, p string) bool {
	if len(b) < len(p) {
		return false
	}
	switch len(p) {
	case 1, 2, 4, 8:
		return string(b[:len(p)]) == p
	}
	for i := 0; i < len(p); i++ {
		if b[i] != p[i] {
			return false
		}
	}
	return true
}

// quiet reports whether no parser but go can act on a line that starts with
// `--- ` or `=== ` and is no gotestsum `=== FAIL:` line, which lets the go
// parser take it alone.
func (st *state) quiet(l *line) bool {
	t := l.trimB
	if len(t) == 0 {
		return false
	}
	last := t[len(t)-1]
	if st.declBusy || last == '=' || last == 'D' && bytes.HasSuffix(t, []byte(" FAILED")) {
		return false
	}
	return !st.rules
}

// anyWanting reports whether a stateWanter wants lines beyond the table's.
func (st *state) anyWanting() bool {
	for _, w := range st.wanters {
		if w.wanting() {
			return true
		}
	}
	return false
}

// readRules reports whether a parser reads the `--- ` and `=== ` lines
// the go parser otherwise takes alone.
func (st *state) readRules() bool {
	for _, r := range st.readers {
		if r.readsRules() {
			return true
		}
	}
	return false
}

type part struct {
	name     string
	attempts []attempt
}

func (st *state) summary() *Summary {
	var parts []part
	for _, p := range st.parsers {
		if a := p.end(st.ws); len(a) > 0 {
			parts = append(parts, part{p.name(), a})
		}
	}
	for _, p := range st.declared {
		if a := p.end(st.ws); len(a) > 0 {
			parts = append(parts, part{p.name(), a})
		}
	}
	parts = dropWrapped(parts)
	parts = nestInCtest(parts)
	if len(parts) == 0 {
		return &Summary{Source: SourceNone}
	}
	s := &Summary{Spans: st.spans.final()}
	var names []string
	zero := 0
	s.Tests, s.Passed, s.Failed, s.Skipped, s.Errors = &zero, &zero, &zero, &zero, &zero
	for _, p := range parts {
		names = append(names, p.name)
		mergePart(s, p, !st.verifier)
	}
	s.Index.Entries = oneWhole(s.Index.Entries)
	s.Source = strings.Join(names, "+")
	if len(names) > 1 && slices.Contains(names, "ctest") {
		// ctest ran programs whose own runner's output the log shows too
		// (Catch2's totals under --output-on-failure or -V): both count.
		s.Note = strings.TrimPrefix(s.Note+"; ctest counts the programs it ran, "+strings.Join(slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "ctest" }), " and ")+
			" the tests in the output it shows of them: the totals add both", "; ")
	}
	if s.FailuresOmitted > 0 {
		s.Note = strings.TrimPrefix(s.Note+fmt.Sprintf("; %d failing tests past the first %d are counted but not named",
			s.FailuresOmitted, maxNamed), "; ")
	}
	return s
}

// dropWrapped removes the results of a wrapped runner that its wrapper
// (Parser.Wraps: gotestsum prints go test's lines and sums them up again)
// summarised: those before the wrapper's last result. A run of the
// wrapped runner after it is another run and stays.
func dropWrapped(parts []part) []part {
	done := map[string]int64{} // wrapped runner: offset of its wrapper's last result
	for _, p := range parts {
		if w := wrapsOf(p.name); w != "" {
			done[w] = p.attempts[len(p.attempts)-1].at
		}
	}
	if len(done) == 0 {
		return parts
	}
	out := parts[:0:0]
	for _, p := range parts {
		if at, ok := done[p.name]; ok {
			p.attempts = slices.DeleteFunc(slices.Clone(p.attempts), func(a attempt) bool { return a.at < at })
		}
		if len(p.attempts) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// nestInCtest reads the gtest runs that ctest --output-on-failure prints
// under a failing test's status line as that test's output: the ctest
// test they explain (with a failed or crashed gtest test, or a failed
// suite) is no longer counted or named by itself, its gtest tests are,
// so a failure is not counted twice and is named by the test that
// failed. A gtest run under a ctest test whose runs all passed (the
// process failed after its tests, a sanitizer's report at exit) explains
// nothing: the ctest test keeps its failure, and its gtest runs are not
// counted. A ctest run that a later attempt of its unit replaced takes
// its gtest runs with it. Offsets decide which run is inside which, so a
// re-read of the cited lines nests them alike.
func nestInCtest(parts []part) []part {
	ci, gi := -1, -1
	for i, p := range parts {
		switch p.name {
		case "ctest":
			ci = i
		case "gtest":
			gi = i
		}
	}
	if ci < 0 || gi < 0 {
		return parts
	}
	ctest, gtest := slices.Clone(parts[ci].attempts), parts[gi].attempts
	last := map[string]int{}
	for k, c := range ctest {
		last[c.unit] = k
	}
	drop := make([]bool, len(gtest))
	for k := range ctest {
		c := &ctest[k]
		// The gtest runs under each of c's failures.
		under := map[int][]int{}
		for j, g := range gtest {
			if g.from <= c.from || g.from >= c.at {
				continue
			}
			if last[c.unit] != k {
				drop[j] = true // c was replaced, and its output with it
				continue
			}
			owner := -1
			for i, f := range c.failures {
				if f.Span != nil && f.Span.Start < g.from && (owner < 0 || f.Span.Start > c.failures[owner].Span.Start) {
					owner = i
				}
			}
			if owner >= 0 {
				under[owner] = append(under[owner], j)
			}
		}
		if len(under) == 0 {
			continue
		}
		var kept []Failure
		for i, f := range c.failures {
			js, ok := under[i]
			if !ok {
				kept = append(kept, f)
				continue
			}
			if !explains(gtest, js) {
				kept = append(kept, f)
				for _, j := range js {
					drop[j] = true
				}
				continue
			}
			c.tests, c.failed = addp(c.tests, intp(-1)), addp(c.failed, intp(-1))
		}
		if len(kept) < len(c.failures) {
			c.note = strings.TrimPrefix(c.note+"; "+ctestNested, "; ")
		}
		c.failures = kept
	}
	kept := make([]attempt, 0, len(gtest))
	for j, g := range gtest {
		if !drop[j] {
			kept = append(kept, g)
		}
	}
	out := slices.Clone(parts)
	out[ci].attempts = ctest
	out[gi].attempts = kept
	if len(kept) == 0 {
		out = slices.Delete(out, gi, gi+1)
	}
	return out
}

// ctestNested says how nestInCtest counted.
const ctestNested = "a failed ctest test whose output holds a gtest run is counted and named by that run's tests"

// explains: some of the gtest runs js failed a test or a suite.
func explains(gtest []attempt, js []int) bool {
	for _, j := range js {
		if val(gtest[j].failed)+val(gtest[j].errors) > 0 || len(gtest[j].failures) > 0 {
			return true
		}
	}
	return false
}

// mergePart adds each unit's last attempt to s and reports earlier failures
// that the last attempt no longer has as flaky.
func mergePart(s *Summary, p part, index bool) {
	var order []string
	last := map[string]int{}
	for i, a := range p.attempts {
		if _, ok := last[a.unit]; !ok {
			order = append(order, a.unit)
		}
		last[a.unit] = i
	}
	s.Runs += len(p.attempts)
	s.Superseded += len(p.attempts) - len(order)
	flaky0 := len(s.Flaky)
	for _, u := range order {
		fin := p.attempts[last[u]]
		s.Tests, s.Passed = addp(s.Tests, fin.tests), addp(s.Passed, fin.passed)
		s.Failed, s.Skipped = addp(s.Failed, fin.failed), addp(s.Skipped, fin.skipped)
		s.Errors = addp(s.Errors, fin.errors)
		s.FailuresOmitted += fin.omitted
		if fin.note != "" && !strings.Contains(s.Note, fin.note) {
			s.Note = strings.TrimPrefix(s.Note+"; "+fin.note, "; ")
		}
		for _, f := range fin.failures {
			if len(s.Failures) >= maxNamed {
				s.FailuresOmitted++
				continue
			}
			s.Failures = append(s.Failures, f)
		}
		flakyOf(s, p.attempts, u, last[u])
		for _, t := range fin.flaky {
			if !slices.Contains(s.Flaky[flaky0:], t) {
				s.Flaky = append(s.Flaky, t)
			}
		}
	}
	if index {
		indexPart(&s.Index, p, order, last, s.Flaky[flaky0:])
	}
}

// flakyOf records tests of unit u that failed before attempt fin but not in
// it. When fin's failing names are incomplete that cannot be told, and the
// note says so instead of dropping them.
func flakyOf(s *Summary, atts []attempt, u string, fin int) {
	now := map[string]bool{}
	for _, f := range atts[fin].failures {
		now[f.Classname+"\x00"+f.Name] = true
	}
	complete := len(atts[fin].failures) >= val(atts[fin].failed)+val(atts[fin].errors) && atts[fin].omitted == 0
	seen := map[string]bool{}
	for _, a := range atts[:fin] {
		if a.unit != u {
			continue
		}
		if a.omitted > 0 {
			s.Note = "an earlier attempt failed more tests than are named; flaky tests among them are not listed"
		}
		for _, f := range a.failures {
			k := f.Classname + "\x00" + f.Name
			if now[k] || seen[k] {
				continue
			}
			seen[k] = true
			if !complete {
				s.Note = "an earlier attempt failed tests whose last verdict the log does not name"
				continue
			}
			s.Flaky = append(s.Flaky, TestRef{Name: f.Name, Classname: f.Classname})
		}
	}
}

func val(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// addp sums two counts; unknown plus anything is unknown.
func addp(a, b *int) *int {
	if a == nil || b == nil {
		return nil
	}
	v := *a + *b
	return &v
}

func intp(v int) *int { return &v }

// unitKey joins the npm workspace with the runner's own unit name.
func unitKey(ws, unit string) string { return ws + "\x00" + unit }

// suiteKey names the unit of a runner that prints no unit name by its test
// total: a retry loop re-runs the same suite, while two different suites run
// one after the other (`pytest a; pytest b`) usually differ in size, and are
// then summed rather than one passing suite hiding the other's failures.
func suiteKey(ws string, total int) string { return unitKey(ws, "tests="+strconv.Itoa(total)) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func spanOf(l *line) *Span {
	return &Span{Start: l.start, End: l.end, FirstLine: l.num, LastLine: l.num}
}

// failSet gathers a block's failing tests, each name once.
type failSet struct {
	list    []Failure
	seen    map[string]bool
	omitted int // failures past maxNamed; repeats among them are not told apart
}

// place gives the latest failure the place a stack showed, if it has none.
func (fs *failSet) place(at frame) {
	if n := len(fs.list); n > 0 && at.file != "" && fs.list[n-1].File == "" {
		fs.list[n-1].File, fs.list[n-1].Line = at.place()
	}
}

// find returns the index of the failure named so, -1 when it is not
// listed (past maxNamed).
func (fs *failSet) find(classname, name string) int {
	for i := len(fs.list) - 1; i >= 0; i-- {
		if fs.list[i].Name == name && fs.list[i].Classname == classname {
			return i
		}
	}
	return -1
}

func (fs *failSet) add(f Failure) {
	k := f.Classname + "\x00" + f.Name
	if fs.seen[k] {
		return
	}
	if len(fs.list) >= maxNamed {
		fs.omitted++
		return
	}
	if fs.seen == nil {
		fs.seen = map[string]bool{}
	}
	fs.seen[k] = true
	fs.list = append(fs.list, f)
}

// take returns the gathered failures and starts afresh.
func (fs *failSet) take() []Failure {
	l := fs.list
	*fs = failSet{}
	return l
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
