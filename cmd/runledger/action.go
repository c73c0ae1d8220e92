package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/publish"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/render"
	"github.com/runledger/runledger/store"
)

// actionInputs are the action's inputs (action.yml), read from INPUT_*.
type actionInputs struct {
	command, name, junit, comment, artifactName, token, mode, dir, failOn string
	runName                                                               string // name, or the step's identity (stepRunName)
	timeout                                                               time.Duration
	retries, retentionDays, prNumber                                      int
	maxLogBytes                                                           int64
	summary                                                               bool
}

func readActionInputs(getenv func(string) string) (*actionInputs, error) {
	in := func(name string) string { return strings.TrimSpace(getenv("INPUT_" + strings.ToUpper(name))) }
	o := &actionInputs{command: in("command"), name: in("name"), junit: in("junit"), comment: in("comment"),
		artifactName: in("artifact-name"), token: in("token"), mode: in("mode"), dir: in("dir"), failOn: in("fail-on")}
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
func stepRunName(o *actionInputs, getenv func(string) string) string {
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

func (o *actionInputs) validate() []error {
	var errs []error
	oneOf := func(name, v string, allowed ...string) {
		for _, a := range allowed {
			if v == a {
				return
			}
		}
		errs = append(errs, fmt.Errorf("input %s %q: want one of %s", name, v, strings.Join(allowed, ", ")))
	}
	defaults := map[*string]string{&o.mode: "run", &o.comment: "true", &o.failOn: "failure", &o.dir: store.DefaultDir}
	for p, d := range defaults {
		if *p == "" {
			*p = d
		}
	}
	oneOf("mode", o.mode, "run", "report", "aggregate")
	oneOf("comment", o.comment, "true", "false", "update-only")
	oneOf("fail-on", o.failOn, "failure", "never")
	if o.mode == "run" && o.command == "" {
		errs = append(errs, errors.New("input command: required in mode run"))
	}
	return errs
}

// cmdAction is the container's entrypoint: capture → report → upload →
// publish. Publishing problems are warnings; the step's result is the
// command's (fail-on: failure) and never a masked test result.
func cmdAction(a *app, _ []string) error {
	step := publish.NewStep(a.stdout, a.getenv)
	in, err := readActionInputs(a.getenv)
	step.Mask(in.token)
	if err != nil {
		return &usageError{err.Error()}
	}
	workspace := a.getenv("GITHUB_WORKSPACE")
	if a.getenv(imageEnv) != "" {
		if err := checkImageDir(in.dir, workspace); err != nil {
			return &usageError{err.Error()}
		}
		started := time.Now()
		defer func() {
			for _, err := range giveBack(workspace, in.dir, started) {
				fmt.Fprintf(a.stdout, "::warning::runledger: give the workspace back to its owner: %s\n", escapeCommand(err.Error()))
			}
		}()
	}
	st, err := store.Open(in.dir)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if in.mode == "aggregate" {
		return a.aggregate(ctx, in, step)
	}
	code := -1 // no command of ours ran
	var names []string
	imageWarning := ""
	cancelled := false
	if in.mode == "run" {
		last, err := a.actionRun(in, st)
		if err != nil && last == nil {
			return err
		}
		code, names = capture.ExitCode(last), []string{last.Name}
		cancelled = last.Status == record.StatusCancelled
		if hint := imageHint(last); hint != "" && a.getenv(imageEnv) != "" {
			fmt.Fprintf(a.stdout, "::error::runledger: %s\n", escapeCommand(hint))
			imageWarning = hint
		}
	}
	env, err := report.Build(st, report.Options{Names: names})
	if err != nil {
		return err
	}
	if imageWarning != "" {
		env.Warnings = append(env.Warnings, imageWarning)
	}
	if in.mode == "report" && len(env.Runs) == 1 && env.Runs[0].ExitCode != nil {
		code = *env.Runs[0].ExitCode // the one run published: its status is the step's, as in mode run
	}
	if in.prNumber == 0 {
		// The records know the pull request where the event does not: in
		// workflow_run, the triggering run's records downloaded into dir
		// (the event's pull_requests is empty for forks).
		in.prNumber = prFromRecords(in.dir)
	}
	pub := a.publishAll(ctx, in, st, env, step, cancelled)
	return a.actionStatus(in, step, env, code, pub)
}

func (a *app) actionRun(in *actionInputs, st *store.Store) (*record.Record, error) {
	var junit []string
	for _, line := range strings.Split(in.junit, "\n") {
		if p := strings.TrimSpace(line); p != "" {
			junit = append(junit, p)
		}
	}
	recs, err := capture.Run(st, capture.Options{
		Name: in.runName, Argv: []string{"sh", "-c", in.command}, Timeout: in.timeout,
		Env:         gitSafeDirectory(commandEnv(os.Environ()), a.getenv("GITHUB_WORKSPACE")),
		MaxLogBytes: in.maxLogBytes, Retries: in.retries, JUnit: junit,
		CI: capture.CIFromEnv(a.getenv), Version: buildVersion(), Workspace: a.getenv("GITHUB_WORKSPACE"),
		Stdin: nil, Stdout: a.stdout, Stderr: a.stderr, Cancel: wrapperSignals(),
	})
	if err != nil {
		fmt.Fprintf(a.stderr, "::warning::runledger: %v\n", err)
	}
	if len(recs) == 0 {
		return nil, err
	}
	return recs[len(recs)-1], err
}

// commandEnv is the environment a plain `run:` step would give the command:
// the action's inputs (the token among them) and the Actions runtime's
// credentials are the action's, not the tests'. A test that prints its
// environment must not put a token into the logs, the artifact or the comment.
func commandEnv(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "INPUT_"),
			name == "ACTIONS_RUNTIME_TOKEN", name == "ACTIONS_RESULTS_URL", name == "ACTIONS_RUNTIME_URL":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// published is what publishing produced, for the outputs.
type published struct {
	reportPath, commentURL, artifactID, artifactURL string
	warnings                                        []string
}

func (a *app) publishAll(ctx context.Context, in *actionInputs, st *store.Store, env *report.Envelope, step *publish.Step, cancelled bool) published {
	out := published{reportPath: filepath.Join(st.Dir, "report.json")}
	if cancelled {
		return a.publishCancelled(ctx, in, st, env, step, out)
	}
	a.upload(ctx, in, st, env, &out)
	a.announce(ctx, in, env, step, &out)
	return out
}

// maxNameTries bounds the suffixes tried after an artifact name conflict.
const maxNameTries = 5

// cancelBudget bounds publishing after the runner cancelled the step: it
// sends SIGINT, SIGTERM 7.5 s later, then kills the container.
const cancelBudget = 5 * time.Second

// publishCancelled says what happened before it uploads: the summary and
// the comment (without the artifact's link) first, then the upload in the
// time left, then the comment again with the link if time still allows.
// A slow upload of a large log must not cost the step its report.
func (a *app) publishCancelled(ctx context.Context, in *actionInputs, st *store.Store, env *report.Envelope, step *publish.Step, out published) published {
	ctx, stop := context.WithTimeout(ctx, cancelBudget)
	defer stop()
	setArtifact(env, "")
	if err := writeJSON(out.reportPath, env); err != nil {
		out.warnings = append(out.warnings, "write "+out.reportPath+": "+err.Error())
	}
	a.announce(ctx, in, env, step, &out)
	a.upload(ctx, in, st, env, &out)
	if deadline, _ := ctx.Deadline(); out.artifactID != "" && in.comment != "false" && time.Until(deadline) > time.Second {
		full, compact := a.renderSections(in, env, out.artifactURL)
		if url, _ := a.comment(ctx, in, env, full, compact); url != "" {
			out.commentURL = url
		}
	}
	for _, w := range out.warnings { // the upload's, after the summary was written
		fmt.Fprintf(a.stdout, "::warning::runledger: %s\n", escapeCommand(w))
	}
	return out
}

// upload writes the envelope and uploads it with the logs. The envelope
// names its artifact before the upload, so the copy inside the artifact
// says where it lives; a failed upload takes the name back.
func (a *app) upload(ctx context.Context, in *actionInputs, st *store.Store, env *report.Envelope, out *published) {
	base, err := a.artifactName(in)
	// A name the workflow run already used (the action run twice in one
	// step's place, an artifact-name given twice) is a 409: the next free
	// suffix is taken rather than losing the logs.
	for n := 1; err == nil && n <= maxNameTries; n++ {
		name := base
		if n > 1 {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		setArtifact(env, name)
		if err = writeJSON(out.reportPath, env); err != nil {
			break
		}
		var res *artifact.Result
		if res, err = a.uploadLogs(ctx, in, st, env, name, out.reportPath); err == nil {
			out.artifactID, out.artifactURL = strconv.FormatInt(res.ID, 10), res.URL
			pinBlocks(env, res.Entries)
			if n > 1 {
				out.warnings = append(out.warnings, fmt.Sprintf("artifact %q exists in this workflow run already; the logs went to %q", base, name))
			}
			break
		}
		if !errors.Is(err, artifact.ErrNameConflict) || n == maxNameTries {
			break
		}
		err = nil // the next suffix
	}
	if err != nil {
		out.warnings = append(out.warnings, fmt.Sprintf("artifact: %v; the logs stay in %s on the runner", err, st.Dir))
		setArtifact(env, "")
		if werr := writeJSON(out.reportPath, env); werr != nil {
			out.warnings = append(out.warnings, "write "+out.reportPath+": "+werr.Error())
		}
	}
}

// renderSections is the comment's full and compact sections.
func (a *app) renderSections(in *actionInputs, env *report.Envelope, artifactURL string) (string, string) {
	full, _ := render.Markdown(env, render.Options{Budget: render.CommentBudget, ArtifactURL: artifactURL})
	compact, _ := render.Markdown(env, render.Options{Budget: render.CompactBudget, ArtifactURL: artifactURL})
	// Second line of defence: the runner masks the log, not the comment.
	full, compact = redact(full, in.token), redact(compact, in.token)
	// The comment has its own marker; a section is the rest of the body.
	return strings.TrimPrefix(full, render.MarkerComment+"\n"), strings.TrimPrefix(compact, render.MarkerComment+"\n")
}

// announce posts the comment, the annotations and the job summary, and
// prints the warnings gathered so far.
func (a *app) announce(ctx context.Context, in *actionInputs, env *report.Envelope, step *publish.Step, out *published) {
	full, compact := a.renderSections(in, env, out.artifactURL)
	if in.comment != "false" {
		url, w := a.comment(ctx, in, env, full, compact)
		out.commentURL, out.warnings = url, append(out.warnings, w...)
	}
	omitted := step.Annotate(allFailures(env))
	if in.summary {
		summary := full
		if omitted > 0 {
			summary += fmt.Sprintf("\n%d more failing tests were not annotated (GitHub shows 10 per step).\n", omitted)
		}
		for _, w := range out.warnings {
			summary += "\n> runledger warning: " + render.EscapeInline(w) + "\n"
		}
		if _, err := step.WriteSummary(summary); err != nil {
			out.warnings = append(out.warnings, "job summary: "+err.Error())
		}
	}
	for _, w := range out.warnings {
		fmt.Fprintf(a.stdout, "::warning::runledger: %s\n", escapeCommand(w))
	}
	out.warnings = nil // printed; what comes later is printed by whoever adds it
}

func (a *app) uploadLogs(ctx context.Context, in *actionInputs, st *store.Store, env *report.Envelope, name, reportPath string) (*artifact.Result, error) {
	u, err := artifact.NewUploader(a.getenv, nil)
	if err != nil {
		return nil, err
	}
	u.Stdout, u.RetentionDays = a.stdout, in.retentionDays
	files := []artifact.File{{Name: "report.json", Path: reportPath}}
	for _, r := range env.Runs {
		fs, err := artifact.RunFiles(filepath.Join(st.Dir, r.ID), r.ID)
		if err != nil {
			return nil, err
		}
		files = append(files, fs...)
	}
	return u.Upload(ctx, name, files)
}

// artifactName is the artifact-name input, or one derived from the job and
// the run name (a Docker action cannot see the matrix values).
func (a *app) artifactName(in *actionInputs) (string, error) {
	if in.artifactName != "" {
		return artifact.SanitizeName(in.artifactName), nil
	}
	// The step's identity keeps two steps of a job (and a second use of
	// the action) from uploading one name, which GitHub refuses (409).
	parts := map[string]string{}
	if in.name != "" {
		parts["name"] = in.name
	}
	if step := a.getenv("GITHUB_ACTION"); step != "" && in.name == "" {
		parts["step"] = strings.TrimLeft(step, "_")
	}
	matrix := ""
	if len(parts) > 0 {
		b, _ := json.Marshal(parts)
		matrix = string(b)
	}
	name, err := artifact.DefaultName(a.getenv("GITHUB_JOB"), matrix, a.getenv("GITHUB_RUN_ATTEMPT"))
	return name, err // DefaultName sanitises
}

func setArtifact(env *report.Envelope, name string) {
	for i := range env.Runs {
		for k, l := range env.Runs[i].Logs {
			l.Artifact = name
			env.Runs[i].Logs[k] = l
		}
	}
}

// pinBlocks copies each log's blocks_sha256 from the upload into the
// envelope the comment embeds: a value from outside the artifact, which
// ties the artifact's manifest (and so every byte read back) to the run.
func pinBlocks(env *report.Envelope, entries []artifact.Entry) {
	byName := map[string]string{}
	for _, e := range entries {
		byName[e.Name] = e.BlocksSHA256
	}
	for i, r := range env.Runs {
		for k, l := range r.Logs {
			l.BlocksSHA256 = byName[r.ID+"/"+filepath.Base(l.Path)]
			env.Runs[i].Logs[k] = l
		}
	}
}

// comment writes this job's section of the sticky comment.
func (a *app) comment(ctx context.Context, in *actionInputs, env *report.Envelope, full, compact string) (string, []string) {
	title := a.getenv("GITHUB_JOB")
	if in.runName != "" {
		title += " · " + in.runName
	}
	sec := publish.Section{
		Key:   strings.Join([]string{a.getenv("GITHUB_WORKFLOW"), a.getenv("GITHUB_JOB"), cmp.Or(in.name, a.getenv("GITHUB_ACTION"))}, "/"),
		Title: title, Status: statusLine(env, in.token), Full: full, Compact: compact,
	}
	p, err := a.publisher(in)
	if err != nil {
		return "", []string{"comment: " + err.Error()}
	}
	return postSections(ctx, p, []publish.Section{sec})
}

// publisher is the one publish.Publisher of a step: its retrying client
// serves every call the step makes to GitHub.
func (a *app) publisher(in *actionInputs) (*publish.Publisher, error) {
	cfg := publish.ConfigFromEnv(a.getenv, in.token)
	cfg.PR, cfg.UpdateOnly = in.prNumber, in.comment == "update-only"
	return publish.New(cfg)
}

// postSections finds the pull request and writes the sections in one edit
// (one job's, or a matrix's). Every problem is a warning for the summary,
// never the step's result.
func postSections(ctx context.Context, p *publish.Publisher, secs []publish.Section) (string, []string) {
	ref, err := p.FindPR(ctx)
	if err != nil {
		return "", []string{"comment: " + err.Error()}
	}
	if ref.Source == "none" {
		return "", []string{"comment: no pull request: " + ref.Note}
	}
	res, err := p.Aggregate(ctx, ref.Number, secs)
	if err != nil {
		return res.CommentURL, append(res.Warnings, "comment: "+err.Error())
	}
	return res.CommentURL, res.Warnings
}

// actionStatus writes the outputs and decides the step's exit status.
func (a *app) actionStatus(in *actionInputs, step *publish.Step, env *report.Envelope, code int, pub published) error {
	out := publish.Outputs{Status: env.Status, ReportJSON: pub.reportPath, CommentURL: pub.commentURL,
		ArtifactID: pub.artifactID, ArtifactURL: pub.artifactURL}
	if code >= 0 {
		out.ExitCode = &code
	}
	for _, r := range env.Runs {
		out.TimedOut = out.TimedOut || r.TimedOut
	}
	if err := step.WriteOutputs(out); err != nil {
		fmt.Fprintf(a.stdout, "::warning::runledger: outputs: %s\n", escapeCommand(err.Error()))
	}
	if in.failOn == "never" || env.Status == "passed" {
		return nil
	}
	if code > 0 {
		return &exitError{code}
	}
	return &exitError{1} // not passed, whatever the command's own status
}

func allFailures(env *report.Envelope) []report.Failure {
	var out []report.Failure
	for _, r := range env.Runs {
		out = append(out, r.Summary.Failures...)
	}
	return out
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// escapeCommand escapes a workflow command's message.
func escapeCommand(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
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

// redact replaces a secret in text that leaves the runner's masked log.
func redact(text, secret string) string {
	if len(secret) < 8 {
		return text
	}
	return strings.ReplaceAll(text, secret, "***")
}

// statusLine is a section's one-line verdict. When a later result replaces
// it, the comment keeps it as history, so it follows the compaction rules
// by itself: a failed run's line carries its <<cg:HASH>> marker and where
// its log is, a passed run's line is just that.
func statusLine(env *report.Envelope, token string) string {
	parts := []string{"**" + env.Status + "**"}
	for _, r := range env.Runs {
		p := fmt.Sprintf("%s attempt %d: %s", render.CodeSpan(redact(r.Name, token), false), r.Attempt, r.Status)
		switch {
		case r.TimedOut:
			p += " (timed out)"
		case r.ExitCode != nil && *r.ExitCode != 0:
			p += fmt.Sprintf(" (exit %d)", *r.ExitCode)
		}
		if s := r.Summary; s.Failed != nil && s.Tests != nil {
			p += fmt.Sprintf(", %d/%d tests failed (%s)", *s.Failed, *s.Tests, s.Source)
		}
		if out, ok := r.Logs["output"]; ok && r.Status != "passed" && len(out.SHA256) >= 16 {
			// In a code span the marker shows as written, and the raw body
			// that agents read holds its exact bytes.
			p += fmt.Sprintf(" `<<cg:%s>>` run %s", out.SHA256[:16], r.ID)
			if out.Artifact != "" {
				p += " in artifact " + render.EscapeInline(out.Artifact)
			}
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " · ")
}
