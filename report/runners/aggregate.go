package runners

import (
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
	at       int64 // offset of the line that ended it
}

// parser reads one runner's output. feed reports whether the line changed the
// parser's state; only such lines may influence counts or names, which is
// what lets Verify reproduce a result from the recorded lines alone.
type parser interface {
	name() string
	feed(l *line, ws string) bool
	end(ws string) []attempt
}

func newParsers() []parser {
	return []parser{
		&goParser{}, &gotestsumParser{}, &pytestParser{}, &cargoParser{},
		&nodeParser{src: "tap"}, &nodeParser{src: "node"}, &jestParser{},
		&mochaParser{}, &surefireParser{}, &gradleParser{},
	}
}

// npmBanner is npm's `> pkg@1.0.0 test` line; it tells workspaces apart, so
// `npm test --workspaces` sums its runs instead of taking them for retries.
var npmBanner = regexp.MustCompile(`^> (\S+@\S+) \S+$`)

type state struct {
	parsers []parser
	ws      string
	spans   []Span
}

func newState() *state { return &state{parsers: newParsers()} }

func (st *state) feed(l *line) {
	used := false
	if strings.HasPrefix(l.text, "> ") {
		if m := npmBanner.FindStringSubmatch(l.text); m != nil {
			st.ws, used = m[1], true
		}
	}
	for _, p := range st.parsers {
		if p.feed(l, st.ws) {
			used = true
		}
	}
	if used {
		st.addSpan(l)
	}
}

func (st *state) addSpan(l *line) {
	if n := len(st.spans); n > 0 && st.spans[n-1].End == l.start {
		st.spans[n-1].End, st.spans[n-1].LastLine = l.end, l.num
		return
	}
	st.spans = append(st.spans, Span{Start: l.start, End: l.end, FirstLine: l.num, LastLine: l.num})
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
	parts = dropWrapped(parts)
	if len(parts) == 0 {
		return &Summary{Source: SourceNone}
	}
	s := &Summary{Spans: st.spans}
	var names []string
	zero := 0
	s.Tests, s.Passed, s.Failed, s.Skipped, s.Errors = &zero, &zero, &zero, &zero, &zero
	for i, p := range parts {
		names = append(names, p.name)
		mergePart(s, p, i == 0)
	}
	s.Source = strings.Join(names, "+")
	return s
}

// dropWrapped removes the go results that gotestsum, which wraps go test and
// prints its lines, summarised again: those before its last DONE line. A go
// run after it is another run and stays.
func dropWrapped(parts []part) []part {
	done := int64(-1)
	for _, p := range parts {
		if p.name == "gotestsum" {
			done = p.attempts[len(p.attempts)-1].at
		}
	}
	out := parts[:0:0]
	for _, p := range parts {
		if p.name == "go" && done >= 0 {
			p.attempts = slices.DeleteFunc(slices.Clone(p.attempts), func(a attempt) bool { return a.at < done })
		}
		if len(p.attempts) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// mergePart adds each unit's last attempt to s and reports earlier failures
// that the last attempt no longer has as flaky.
func mergePart(s *Summary, p part, first bool) {
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
	for _, u := range order {
		fin := p.attempts[last[u]]
		s.Tests, s.Passed = addp(s.Tests, fin.tests), addp(s.Passed, fin.passed)
		s.Failed, s.Skipped = addp(s.Failed, fin.failed), addp(s.Skipped, fin.skipped)
		s.Errors = addp(s.Errors, fin.errors)
		s.Failures = append(s.Failures, fin.failures...)
		flakyOf(s, p.attempts, u, last[u])
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
	complete := len(atts[fin].failures) >= val(atts[fin].failed)+val(atts[fin].errors)
	seen := map[string]bool{}
	for _, a := range atts[:fin] {
		if a.unit != u {
			continue
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
	list []Failure
	seen map[string]bool
}

func (fs *failSet) add(f Failure) {
	k := f.Classname + "\x00" + f.Name
	if fs.seen[k] {
		return
	}
	if fs.seen == nil {
		fs.seen = map[string]bool{}
	}
	fs.seen[k] = true
	fs.list = append(fs.list, f)
}

// decorate gives the latest failure the file:line output under its heading,
// if it has none yet. It changes no count or name.
func (fs *failSet) decorate(file, ln, msg string) {
	if n := len(fs.list); n > 0 && fs.list[n-1].File == "" {
		fs.list[n-1].File, fs.list[n-1].Line, fs.list[n-1].Message = file, atoi(ln), msg
	}
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
