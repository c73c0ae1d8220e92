package action

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report/history"
	"github.com/runledger/runledger/store"
)

// inputs are the action's inputs (action.yml), read from INPUT_*.
type inputs struct {
	command, name, reports, comment, artifactName, token, mode, dir, failOn, baseline string
	retryEffects                                                                      string
	runName                                                                           string // name, or the step's identity (stepRunName)
	timeout                                                                           time.Duration
	retries, retentionDays, prNumber, history                                         int
	maxLogBytes                                                                       int64
	summary                                                                           bool
}

func readInputs(getenv func(string) string) (*inputs, error) {
	in := func(name string) string { return strings.TrimSpace(getenv("INPUT_" + strings.ToUpper(name))) }
	o := &inputs{command: in("command"), name: in("name"), reports: joinLines(in("reports"), in("junit")), comment: in("comment"),
		artifactName: in("artifact-name"), token: in("token"), mode: in("mode"), dir: in("dir"), failOn: in("fail-on"),
		baseline: in("baseline"), retryEffects: in("retry-effects")}
	var errs []error
	num := func(name string, def int64) int64 {
		v := in(name)
		if v == "" {
			return def
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			errs = append(errs, fmt.Errorf("input %s %q: want a whole number >= 0", name, v))
		}
		return n
	}
	o.retries, o.retentionDays, o.prNumber = int(num("retries", 0)), int(num("retention-days", 0)), int(num("pr-number", 0))
	o.maxLogBytes = num("max-log-bytes", capture.DefaultMaxLogBytes)
	o.history = int(num("history", history.DefaultWindow))
	if v := in("timeout"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			errs = append(errs, fmt.Errorf("input timeout %q: want a duration such as 20m", v))
		}
		o.timeout = d
	}
	o.summary = in("summary") != "false"
	errs = append(errs, o.validate()...)
	o.runName = stepRunName(o, getenv)
	return o, errors.Join(errs...)
}

// stepRunName is the run's name: the name input, else one that identifies
// the step, so that two unnamed steps of a job are two runs and never
// attempts of one (a failing lint step superseded by a passing test step
// would read as passed). GITHUB_ACTION is the step's id, or __run,
// __owner_repo and such with _2, _3 for later steps of one job; it stays
// the same when the job is re-run, so a re-run is a later attempt.
func stepRunName(o *inputs, getenv func(string) string) string {
	if o.name != "" {
		return o.name
	}
	words := commandWords(o.command)
	where := strings.Join(slices.DeleteFunc([]string{getenv("GITHUB_JOB"), getenv("GITHUB_ACTION")},
		func(s string) bool { return s == "" }), "/")
	switch {
	case where == "":
		return words
	case words == "":
		return where
	}
	return words + " (" + where + ")"
}

// commandWords is the first words of the command's first line, as a
// reader would name it ("go test", "npm test").
func commandWords(command string) string {
	for _, line := range strings.Split(command, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			w := strings.Join(f[:min(len(f), 3)], " ")
			if len(w) > 40 {
				w = strings.TrimSpace(w[:40])
			}
			return w
		}
	}
	return ""
}

func (o *inputs) validate() []error {
	var errs []error
	oneOf := func(name, v string, allowed ...string) {
		for _, a := range allowed {
			if v == a {
				return
			}
		}
		errs = append(errs, fmt.Errorf("input %s %q: want one of %s", name, v, strings.Join(allowed, ", ")))
	}
	defaults := map[*string]string{&o.mode: "run", &o.comment: "true", &o.failOn: "failure", &o.dir: store.DefaultDir,
		&o.baseline: "auto", &o.retryEffects: capture.RetryEffectsRefuse}
	for p, d := range defaults {
		if *p == "" {
			*p = d
		}
	}
	oneOf("mode", o.mode, "run", "report", "aggregate")
	oneOf("comment", o.comment, "true", "false", "update-only")
	oneOf("fail-on", o.failOn, "failure", "regression", "never")
	oneOf("baseline", o.baseline, "auto", "off")
	oneOf("retry-effects", o.retryEffects, capture.RetryEffectsRefuse, capture.RetryEffectsAllow)
	if o.mode == "run" && o.command == "" {
		errs = append(errs, errors.New("input command: required in mode run"))
	}
	return errs
}

// prFromRecords returns the pull request number the first record below dir
// carries in its CI context, or 0.
func prFromRecords(dir string) int {
	pr := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || pr != 0 || d.IsDir() || d.Name() != record.FileName {
			return err
		}
		if r, err := record.Read(filepath.Dir(p)); err == nil && r.CI != nil && r.CI.PR > 0 {
			pr = r.CI.PR
			return filepath.SkipAll
		}
		return nil
	})
	return pr
}

// joinLines joins inputs of one meaning (reports and its alias junit):
// the globs of both are read.
func joinLines(a, b string) string {
	return strings.TrimSpace(a + "\n" + b)
}
