// Package compaction shortens a sequence of command outputs, such as a
// coding agent's transcript or a job's attempts, without losing a result:
// the latest run is kept in full, an earlier run that passed is kept
// verbatim, and an earlier run that failed collapses to one pointer line
// with a <<cg:HASH>> marker whose text stays recoverable through Expand.
package compaction

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Output is one command output in a sequence.
type Output struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// MarkerMode says what a collapse leaves behind.
type MarkerMode string

const (
	// ModeFull stores the original and leaves a resolvable marker.
	ModeFull MarkerMode = "full"
	// ModeSummary leaves the marker line without storing the original.
	ModeSummary MarkerMode = "summary"
	// ModeOff collapses nothing.
	ModeOff MarkerMode = "off"
)

// DefaultMinTokens is the smallest run worth collapsing.
const DefaultMinTokens = 100

// Options tune Compact. The zero value is the default: MinTokens 100,
// ModeFull. A negative MinTokens collapses runs of any size.
type Options struct {
	MinTokens  int
	MarkerMode MarkerMode
	// Expand is the command a collapsed output's pointer line names to get
	// the text back, before the hash: "runledger expand" by default; a
	// caller keeping its texts elsewhere names that store, so that copying
	// the hint works ("runledger expand --store DIR").
	Expand string
	// ExpandURL, when set, is a URL the text is also served under, before
	// the hash: a proxy's "http://127.0.0.1:8787/expand/", for an agent
	// with a fetch tool and no shell.
	ExpandURL string
	// Cache, when set, freezes decisions across calls (see Cache).
	Cache *Cache
	// Verdicts, when set, remembers classifications across calls.
	Verdicts *Verdicts
	// Formats, when set, are the request body shapes CompactRequest
	// takes; another is ErrFormat, before anything is decided.
	Formats []Format
}

func (o Options) normalized() (Options, error) {
	if o.MinTokens == 0 {
		o.MinTokens = DefaultMinTokens
	}
	if o.Expand == "" {
		o.Expand = "runledger expand"
	}
	switch o.MarkerMode {
	case "":
		o.MarkerMode = ModeFull
	case ModeFull, ModeSummary, ModeOff:
	default:
		return o, fmt.Errorf("marker mode %q: want full, summary or off", o.MarkerMode)
	}
	return o, nil
}

// Decision kinds and reasons, as they appear in Filter's JSON.
const (
	Kept      = "kept"
	Collapsed = "collapsed"

	ReasonCollapsed     = "collapsed"
	ReasonNotRunLike    = "not_run_like"
	ReasonPassed        = "earlier_run_passed"
	ReasonUnknown       = "earlier_run_unknown"
	ReasonTooSmall      = "too_small"
	ReasonNoGain        = "no_gain"
	ReasonLatest        = "latest"
	ReasonNoFamily      = "no_family"
	ReasonCached        = "cached"
	ReasonHasMarker     = "has_marker"
	ReasonModeOff       = "mode_off"
	supersededLinePrefx = "[superseded by a later run] "
)

// Decision says what Compact did with one output and why.
type Decision struct {
	ID          string `json:"id"`
	Decision    string `json:"decision"`
	Reason      string `json:"reason"`
	Marker      string `json:"marker,omitempty"`
	BytesBefore int    `json:"bytes_before"`
	BytesAfter  int    `json:"bytes_after"`
	// Outcome and Evidence are the classifier's view, for the reader who
	// wants to check a decision.
	Outcome  Outcome `json:"outcome"`
	Evidence string  `json:"evidence,omitempty"`
	// Family is the run's command family; only a later run of the same
	// family supersedes it.
	Family string `json:"family,omitempty"`
	// Targets are the test files the run names; see Verdict.
	Targets []string `json:"targets,omitempty"`
	// Frozen: the decision was an earlier call's, replayed byte for byte.
	Frozen bool `json:"frozen,omitempty"`
	// Cold: this call took the prompt cache as expired and decided every
	// item afresh.
	Cold bool `json:"cold,omitempty"`
}

// markerRe finds a marker, also as JSON with HTML escaping ("\u003c\u003ccg:").
var markerRe = regexp.MustCompile(`(?i)(<<|\\u003c\\u003c)cg:`)

// Compact returns outputs with every failed run that a later run of its
// family supersedes collapsed, and one Decision per output. In ModeFull the collapsed texts are put in store
// before their marker is returned, so no marker ever points at nothing.
func Compact(outputs []Output, opts Options, store Store) ([]Output, []Decision, error) {
	opts, err := opts.normalized()
	if err != nil {
		return nil, nil, fmt.Errorf("compact: %w", err)
	}
	if opts.MarkerMode == ModeFull && store == nil {
		return nil, nil, fmt.Errorf("compact: marker mode full needs a store")
	}
	st := &cacheState{c: &Cache{}} // no cached prefix: every item is decided afresh
	if opts.Cache != nil {
		if st, err = loadCache(opts.Cache, outputs); err != nil {
			return nil, nil, err
		}
	}
	verdicts := make([]Verdict, len(outputs))
	for i, o := range outputs {
		verdicts[i] = opts.Verdicts.classify(o.Text)
	}
	latest := latestOfFamily(verdicts)
	out := make([]Output, len(outputs))
	decisions := make([]Decision, len(outputs))
	for i, o := range outputs {
		out[i] = o
		text, d, replayed, err := st.replay(i, o, verdicts[i].RunLike && !latest[i])
		if err != nil {
			return nil, nil, err
		}
		if !replayed {
			text, d, err = decide(o, verdicts[i], latest[i], opts, store)
			if err != nil {
				return nil, nil, err
			}
		}
		out[i].Text = text
		d.BytesAfter, d.Cold = len(text), st.cold
		decisions[i] = d
	}
	if opts.Cache != nil {
		if err := st.record(outputs, out, decisions); err != nil {
			return nil, nil, err
		}
	}
	return out, decisions, nil
}

// latestOfFamily marks the runs no later run supersedes. A later run of
// the same family supersedes an earlier one when it tested all the
// earlier one's targets; a run that names no targets is taken to be
// covered by any later run, and, if it passed, to have tested its
// runner's whole target (pytest -q names no file).
func latestOfFamily(vs []Verdict) []bool {
	latest := make([]bool, len(vs))
	for i, v := range vs {
		if !v.RunLike {
			continue
		}
		latest[i] = true
		for _, w := range vs[i+1:] {
			if w.RunLike && w.Family == v.Family && covers(w, v.Targets) {
				latest[i] = false
				break
			}
		}
	}
	return latest
}

// covers reports whether the later run tested every one of the earlier
// run's targets. A later run that names none and did not pass stands for
// none: it is a runner that crashed before it ran anything (python -m
// pytest stopped by a syntax error in the code under test, a file not
// found), and whether it was pointed at the earlier run's files the text
// does not say.
func covers(later Verdict, earlier []string) bool {
	if len(earlier) == 0 {
		return true
	}
	if len(later.Targets) == 0 {
		return later.Outcome == OutcomePassed
	}
	have := map[string]bool{}
	for _, t := range later.Targets {
		have[t] = true
	}
	for _, t := range earlier {
		if !have[t] {
			return false
		}
	}
	return true
}

// decide is one output's fresh decision.
func decide(o Output, v Verdict, latest bool, opts Options, store Store) (string, Decision, error) {
	d := Decision{ID: o.ID, Decision: Kept, BytesBefore: len(o.Text),
		Outcome: v.Outcome, Evidence: v.Evidence, Family: v.Family, Targets: v.Targets}
	d.Reason = skipReason(o.Text, v, latest, opts)
	if d.Reason != "" {
		return o.Text, d, nil
	}
	return collapse(o, v, d, opts, store)
}

// skipReason says why an output must stay as it is, or "" to collapse it.
// The order matters: the latest run and every non-failure are kept before
// any size consideration is made.
func skipReason(text string, v Verdict, latest bool, opts Options) string {
	switch {
	case opts.MarkerMode == ModeOff:
		return ReasonModeOff
	case !v.RunLike:
		return ReasonNotRunLike
	case v.Family == "":
		return ReasonNoFamily
	case latest:
		return ReasonLatest
	case markerRe.MatchString(text):
		return ReasonHasMarker
	case v.Outcome == OutcomePassed:
		return ReasonPassed
	case v.Outcome != OutcomeFailed:
		return ReasonUnknown
	case opts.MinTokens > 0 && len(text)/4 < opts.MinTokens:
		return ReasonTooSmall
	}
	return ""
}

// collapse replaces a failed earlier run with its pointer line, unless
// that would not make it smaller.
func collapse(o Output, v Verdict, d Decision, opts Options, store Store) (string, Decision, error) {
	hash := Hash([]byte(o.Text))
	line := pointerLine(o.Text, v, hash, opts)
	if len(line) >= len(o.Text) {
		d.Reason = ReasonNoGain
		return o.Text, d, nil
	}
	if opts.MarkerMode == ModeFull {
		if err := store.Put(hash, []byte(o.Text)); err != nil {
			return "", d, fmt.Errorf("compact %s: %w", o.ID, err)
		}
	}
	d.Decision, d.Reason, d.Marker = Collapsed, ReasonCollapsed, Marker(hash)
	return line, d, nil
}

// pointerLine is the one line left in place of a collapsed run: the
// marker, the line that showed the failure, and how to get the rest.
func pointerLine(text string, v Verdict, hash string, opts Options) string {
	lines := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		lines++
	}
	where := "not stored"
	if opts.MarkerMode == ModeFull {
		where = opts.Expand + " " + hash
		if opts.ExpandURL != "" {
			where += " or GET " + opts.ExpandURL + hash
		}
	}
	line := fmt.Sprintf("%s%s failed at line %d: %q (%d bytes, %d lines; %s)",
		supersededLinePrefx, Marker(hash), v.Line, clip(v.Evidence, 120), len(text), lines, where)
	if strings.HasSuffix(text, "\n") {
		line += "\n"
	}
	return line
}

// clip shortens s to at most n bytes without splitting a UTF-8 sequence.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
