package publish

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/runledger/runledger/report"
	"github.com/sethvargo/go-githubactions"
)

// GitHub's limits on what one step may write.
const (
	MaxSummaryBytes      = 1 << 20 // above it the whole summary is discarded
	MaxErrorAnnotations  = 10      // per step; more are dropped by the runner
	MaxAnnotationMessage = 4096
)

// Step writes to the running workflow step through go-githubactions: masks,
// the job summary, step outputs and annotations.
type Step struct {
	action *githubactions.Action
	getenv func(string) string
}

// NewStep writes workflow commands to w (the step's stdout) and finds the
// summary and output files through getenv (os.Getenv in production).
func NewStep(w io.Writer, getenv func(string) string) *Step {
	return &Step{
		action: githubactions.New(githubactions.WithWriter(w), githubactions.WithGetenv(getenv)),
		getenv: getenv,
	}
}

// Mask asks the runner to replace secret with *** in all later log output.
func (s *Step) Mask(secret string) {
	if secret != "" {
		s.action.AddMask(secret)
	}
}

// command runs a go-githubactions command, which panics when its file or
// stream cannot be written (https://github.com/sethvargo/go-githubactions/pull/41),
// and returns that as an error.
func command(name string, f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: %v", name, r)
		}
	}()
	f()
	return nil
}

// Warning and Error print a ::warning or ::error workflow command for
// msg, escaped by go-githubactions so that it stays one command. A step
// whose stdout is gone loses the line, not the run.
func (s *Step) Warning(msg string) { _ = command("warning", func() { s.action.Warningf("%s", msg) }) }

func (s *Step) Error(msg string) { _ = command("error", func() { s.action.Errorf("%s", msg) }) }

// WriteSummary appends markdown to the job summary without ever taking the
// file over MaxSummaryBytes, since GitHub discards an oversized summary whole.
// The caller puts the status first: only the end is cut, at a line
// boundary, with a visible note. It reports whether it cut.
func (s *Step) WriteSummary(markdown string) (cut bool, err error) {
	path := s.getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return false, errors.New("job summary: GITHUB_STEP_SUMMARY is unset")
	}
	var used int64
	if fi, err := os.Stat(path); err == nil {
		used = fi.Size()
	}
	// Less the line break the file command appends: \r\n on Windows.
	room := MaxSummaryBytes - int(used) - len(githubactions.EOF)
	text, cut := fitSummary(markdown, room)
	if text == "" {
		return cut, nil
	}
	return cut, command("job summary", func() { s.action.AddStepSummary(text) })
}

const summaryCutNote = "\n\n> [!WARNING]\n> This summary was cut to stay under GitHub's 1 MiB job-summary limit; the run's artifact holds the full report.\n"

// fitSummary cuts markdown to room bytes, ending on a whole line plus a note.
func fitSummary(markdown string, room int) (string, bool) {
	if len(markdown) <= room {
		return markdown, false
	}
	keep := room - len(summaryCutNote)
	if keep <= 0 {
		return "", true
	}
	head := markdown[:keep]
	if i := strings.LastIndexByte(head, '\n'); i > 0 {
		head = head[:i]
	}
	for !utf8.ValidString(head) && head != "" {
		head = head[:len(head)-1]
	}
	return head + summaryCutNote, true
}

// Outputs are the step outputs action.yml declares.
type Outputs struct {
	Status      string
	ExitCode    *int // empty output when the process did not exit on its own
	TimedOut    bool
	ReportJSON  string
	CommentURL  string
	ArtifactID  string
	ArtifactURL string
	// Regressions is the count of new failures, "" when unknown.
	Regressions string
}

// outputDelimiter is the fixed heredoc delimiter go-githubactions uses; a
// value holding it on a line would end the value early and forge outputs.
const outputDelimiter = "_GitHubActionsFileCommandDelimeter_"

// WriteOutputs sets every output, empty ones included, so that later steps
// see a defined value.
func (s *Step) WriteOutputs(o Outputs) error {
	exit := ""
	if o.ExitCode != nil {
		exit = strconv.Itoa(*o.ExitCode)
	}
	kv := [][2]string{
		{"status", o.Status}, {"exit-code", exit}, {"timed-out", strconv.FormatBool(o.TimedOut)},
		{"report-json", o.ReportJSON}, {"comment-url", o.CommentURL},
		{"artifact-id", o.ArtifactID}, {"artifact-url", o.ArtifactURL}, {"regressions", o.Regressions},
	}
	if s.getenv("GITHUB_OUTPUT") == "" {
		return errors.New("step outputs: GITHUB_OUTPUT is unset")
	}
	for _, e := range kv {
		if strings.Contains(e[1], outputDelimiter) {
			return fmt.Errorf("output %s: value holds the file-command delimiter", e[0])
		}
		if err := command("output "+e[0], func() { s.action.SetOutput(e[0], e[1]) }); err != nil {
			return err
		}
	}
	return nil
}

// Annotate emits one ::error per failing test, with file and line when
// known, at most MaxErrorAnnotations; it returns how many it left out so the
// summary can count them.
func (s *Step) Annotate(failures []report.Failure) (omitted int) {
	for i, f := range failures {
		if i == MaxErrorAnnotations {
			return len(failures) - i
		}
		props := map[string]string{"title": annotationTitle(f)}
		if f.File != "" {
			props["file"] = f.File
			if f.Line > 0 {
				props["line"] = strconv.Itoa(f.Line)
			}
		}
		msg := f.Message
		if msg == "" {
			msg = "test failed"
		}
		// %s keeps '%' in the message from being read as a verb.
		s.action.WithFieldsMap(props).Errorf("%s", cutBytes(msg, MaxAnnotationMessage))
	}
	return 0
}

func annotationTitle(f report.Failure) string {
	if f.Classname != "" {
		return cutBytes(f.Classname+"."+f.Name, 255)
	}
	return cutBytes(f.Name, 255)
}

// cutBytes cuts s to at most n bytes (so to at most n characters whichever
// way they are counted) at a rune boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
