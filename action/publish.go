package action

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/runledger/runledger/publish"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/render"
)

// cancelBudget bounds publishing after the runner cancelled the step: it
// sends SIGINT, SIGTERM 7.5 s later, then kills the container.
const cancelBudget = 5 * time.Second

// publishCancelled says what happened before it uploads: the summary and
// the comment (without the artifact's link) first, then the upload in the
// time left, then the comment again with the link if time still allows.
// A slow upload of a large log must not cost the step its report.
func (s *step) publishCancelled(ctx context.Context, env *report.Envelope) {
	in, out := s.in, &s.out
	ctx, stop := context.WithTimeout(ctx, cancelBudget)
	defer stop()
	setArtifact(env, "")
	if err := writeJSON(out.reportPath, env); err != nil {
		out.warnings = append(out.warnings, "write "+out.reportPath+": "+err.Error())
	}
	s.announce(ctx, env)
	s.upload(ctx, env)
	if deadline, _ := ctx.Deadline(); out.artifactID != "" && in.comment != "false" && time.Until(deadline) > time.Second {
		full, compact := s.sections(env, render.CommentBudget, render.CompactBudget, out.artifactURL)
		if url, _ := s.comment(ctx, env, full, compact); url != "" {
			out.commentURL = url
		}
	}
	for _, w := range out.warnings { // the upload's, after the summary was written
		s.warnf("%s", w)
	}
}

// announce posts the comment, the annotations and the job summary, and
// prints the warnings gathered so far.
func (s *step) announce(ctx context.Context, env *report.Envelope) {
	in, out := s.in, &s.out
	full, compact := s.sections(env, render.CommentBudget, render.CompactBudget, out.artifactURL)
	if in.comment != "false" {
		url, w := s.comment(ctx, env, full, compact)
		out.commentURL, out.warnings = url, append(out.warnings, w...)
	}
	omitted := s.gh.Annotate(allFailures(env))
	if in.summary {
		// The summary stands alone: it opens with its own verdict line,
		// which a comment section leaves to the section's status.
		s.summary(s.render(env, render.CommentBudget, out.artifactURL), omitted)
	}
	for _, w := range out.warnings {
		s.warnf("%s", w)
	}
	out.warnings = nil // printed; what comes later is printed by whoever adds it
}

// summary writes the job summary: body, then what did not fit elsewhere
// and the warnings so far.
func (s *step) summary(body string, unannotated int) {
	if unannotated > 0 {
		body += fmt.Sprintf("\n%d more failing tests were not annotated (GitHub shows 10 per step).\n", unannotated)
	}
	for _, w := range s.out.warnings {
		body += "\n> runledger warning: " + render.EscapeInline(w) + "\n"
	}
	if _, err := s.gh.WriteSummary(redact(body, s.in.token)); err != nil {
		s.out.warnings = append(s.out.warnings, "job summary: "+err.Error())
	}
}

// sections renders a comment section at its full and compact budgets.
// The comment has its own marker, and the section's status line is the
// verdict: a section is the rest of the body.
func (s *step) sections(env *report.Envelope, fullBudget, compactBudget int, artifactURL string) (string, string) {
	return s.sectionsNamed(env, fullBudget, compactBudget, artifactURL, s.names())
}

func (s *step) sectionsNamed(env *report.Envelope, fullBudget, compactBudget int, artifactURL string, names map[string]string) (string, string) {
	opts := render.Options{ArtifactURL: artifactURL, Names: names, InSection: true, JobURL: s.jobURL}
	opts.Budget = fullBudget
	full := s.renderWith(env, opts)
	opts.Budget = compactBudget
	compact := s.renderWith(env, opts)
	return strings.TrimPrefix(full, render.MarkerComment+"\n"), strings.TrimPrefix(compact, render.MarkerComment+"\n")
}

// render is the report as Markdown at a budget, the token redacted (the
// runner masks its log, not the comment). A rendering that fails is a
// warning and an empty body: the status line still says what happened.
func (s *step) render(env *report.Envelope, budget int, artifactURL string) string {
	return s.renderWith(env, render.Options{Budget: budget, ArtifactURL: artifactURL, Names: s.names(), JobURL: s.jobURL})
}

// names are the display names of this step's runs: in mode run the run
// named for the step shows as the step's label.
func (s *step) names() map[string]string {
	if s.in.mode != "run" {
		return nil
	}
	return map[string]string{s.in.runName: stepLabel(s.in, s.env.Getenv("GITHUB_JOB"))}
}

func (s *step) renderWith(env *report.Envelope, opts render.Options) string {
	body, err := render.Markdown(env, opts)
	if err != nil {
		s.out.warnings = append(s.out.warnings, err.Error())
		return ""
	}
	return redact(body, s.in.token)
}

// comment writes this job's section of the sticky comment.
func (s *step) comment(ctx context.Context, env *report.Envelope, full, compact string) (string, []string) {
	p, err := s.publisher()
	if err != nil {
		return "", []string{"comment: " + err.Error()}
	}
	return postSections(ctx, p, []publish.Section{s.section(env, full, compact)})
}

// title is the section's: the step's label; in mode report without a
// name, the job and the names the CLI gave the runs it publishes.
func (s *step) title(env *report.Envelope) string {
	job := s.env.Getenv("GITHUB_JOB")
	if s.in.mode != "report" || s.in.name != "" || len(env.Runs) == 0 {
		return stepLabel(s.in, job)
	}
	const show = 3
	var names []string
	for _, r := range env.Runs[:min(len(env.Runs), show)] {
		names = append(names, r.Name)
	}
	if len(env.Runs) > show {
		names = append(names, fmt.Sprintf("%d more", len(env.Runs)-show))
	}
	return strings.Join(slices.DeleteFunc([]string{job, strings.Join(names, ", ")}, func(s string) bool { return s == "" }), " · ")
}

// section is this step's part of the comment: keyed by the step's
// identity, titled as a reader names it.
func (s *step) section(env *report.Envelope, full, compact string) publish.Section {
	in := s.in
	return publish.Section{
		Key:   strings.Join([]string{s.env.Getenv("GITHUB_WORKFLOW"), s.env.Getenv("GITHUB_JOB"), cmp.Or(in.name, s.env.Getenv("GITHUB_ACTION"))}, "/"),
		Title: render.EscapeInline(redact(s.title(env), in.token)), Status: redact(render.Verdict(env), in.token),
		Collapsed: collapsed(env, s.names(), in.token), Full: full, Compact: compact,
	}
}

// publisher is the one publish.Publisher of a step: its retrying client
// serves every call the step makes to GitHub.
func (s *step) publisher() (Publisher, error) {
	cfg := publish.ConfigFromEnv(s.env.Getenv, s.in.token)
	cfg.PR, cfg.UpdateOnly = s.in.prNumber, s.in.comment == "update-only"
	return s.env.NewPublisher(cfg)
}

// postSections finds the pull request and writes the sections in one edit
// (one job's, or a matrix's). Every problem is a warning for the summary,
// never the step's result.
func postSections(ctx context.Context, p Publisher, secs []publish.Section) (string, []string) {
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

func allFailures(env *report.Envelope) []report.Failure {
	var out []report.Failure
	for _, r := range env.Runs {
		out = append(out, r.Summary.Failures...)
	}
	return out
}

// redact replaces a secret in text that leaves the runner's masked log.
func redact(text, secret string) string {
	if len(secret) < 8 {
		return text
	}
	return strings.ReplaceAll(text, secret, "***")
}

// collapsed is what a section's status keeps once a later result replaces
// it, following the compaction rules: each run that did not pass names
// its <<cg:HASH>> marker, its run id and its artifact; a passed run's
// line is kept as it is. The latest result shows none of it.
func collapsed(env *report.Envelope, names map[string]string, token string) string {
	var parts []string
	for _, r := range env.Runs {
		out, ok := r.Logs["output"]
		if !ok || r.Status == "passed" || len(out.SHA256) < 16 {
			continue
		}
		// In a code span the marker shows as written, and the raw body
		// that agents read holds its exact bytes.
		p := fmt.Sprintf("`<<cg:%s>>` run %s", out.SHA256[:16], render.EscapeInline(r.ID))
		if len(env.Runs) > 1 { // which run's: the section names one
			p = render.EscapeInline(redact(cmp.Or(names[r.Name], r.Name), token)) + " " + p
		}
		if out.Artifact != "" {
			p += " in artifact " + render.EscapeInline(out.Artifact)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " · ")
}

// jobBudget bounds the one call that finds the job's log page: a link
// is worth a second or two, not more.
const jobBudget = 5 * time.Second

// findJob looks up the job's log page, for the comment to link: one
// listing of this attempt's jobs (it needs actions: read). Without it the
// comment links the artifact only.
func (s *step) findJob(ctx context.Context) {
	getenv := s.env.Getenv
	runID, _ := strconv.ParseInt(getenv("GITHUB_RUN_ID"), 10, 64)
	attempt, _ := strconv.Atoi(getenv("GITHUB_RUN_ATTEMPT"))
	if runID <= 0 || attempt <= 0 || getenv("RUNNER_NAME") == "" || s.in.comment == "false" && !s.in.summary {
		return
	}
	p, err := s.publisher()
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, jobBudget)
	defer cancel()
	if url, err := p.JobURL(ctx, runID, attempt, getenv("RUNNER_NAME")); err == nil {
		s.jobURL = url
	}
}
