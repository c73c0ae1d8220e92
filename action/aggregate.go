package action

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"

	"github.com/runledger/runledger/publish"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/render"
)

// aggregate is the final job of a matrix: it reads every leg's envelope
// (report.json files downloaded from the legs' artifacts under dir) and
// writes all sections in one comment edit.
func (s *step) aggregate(ctx context.Context) (int, error) {
	in := s.in
	legs, err := readLegs(in.dir)
	if err != nil {
		return 0, err
	}
	if len(legs) == 0 {
		return 0, fmt.Errorf("mode aggregate: no report.json under %s; download the legs' artifacts there first", in.dir)
	}
	if in.prNumber == 0 {
		in.prNumber = prFromRecords(in.dir)
	}
	p, perr := s.publisher()
	links, linkWarning := s.legArtifactLinks(ctx, p, perr, legs)
	if linkWarning != "" {
		s.out.warnings = append(s.out.warnings, linkWarning)
	}
	overall := &report.Envelope{Schema: report.Schema, Status: worstOf(legs)}
	var secs []publish.Section
	for _, leg := range legs {
		link := links[legArtifact(leg.env)]
		full, compact := s.sectionsNamed(leg.env, render.LegBudget, render.LegCompactBudget, link, legNames(leg.env))
		secs = append(secs, publish.Section{Key: leg.key, Title: render.EscapeInline(leg.key), Status: redact(render.Verdict(leg.env), in.token),
			Collapsed: collapsed(leg.env, legNames(leg.env), in.token),
			Full:      full, Compact: compact})
		overall.Runs = append(overall.Runs, leg.env.Runs...)
		overall.Superseded = append(overall.Superseded, leg.env.Superseded...)
	}
	switch {
	case in.comment == "false":
	case perr != nil:
		s.out.warnings = append(s.out.warnings, "comment: "+perr.Error())
	default:
		var warnings []string
		s.out.commentURL, warnings = postSections(ctx, p, secs)
		s.out.warnings = append(s.out.warnings, warnings...)
	}
	if in.summary {
		s.summary(s.render(overall, render.SummaryBudget, ""), 0)
	}
	for _, w := range s.out.warnings {
		s.warnf("%s", w)
	}
	return s.finish(overall, -1), nil
}

// legArtifactLinks links the artifacts of legs whose sections can point to
// logs (render.MayShowLogs) on the run's page, by name from one listing
// of this workflow run's artifacts. Without a token, a run id or such a
// leg there is no call; a failed listing is a warning, not an error.
func (s *step) legArtifactLinks(ctx context.Context, p Publisher, perr error, legs []leg) (map[string]string, string) {
	runID, err := strconv.ParseInt(s.env.Getenv("GITHUB_RUN_ID"), 10, 64)
	needed := slices.ContainsFunc(legs, func(l leg) bool { return showsLogs(l.env) && legArtifact(l.env) != "" })
	if s.in.token == "" || err != nil || !needed {
		return nil, ""
	}
	if perr != nil {
		return nil, "artifact links: " + perr.Error()
	}
	ids, err := p.RunArtifacts(ctx, runID)
	if err != nil {
		return nil, "artifact links: " + err.Error()
	}
	links := map[string]string{}
	for _, l := range legs {
		if name := legArtifact(l.env); ids[name] != 0 && showsLogs(l.env) {
			links[name] = p.ArtifactURL(runID, ids[name])
		}
	}
	return links, ""
}

// stepNameRE matches a name stepRunName gave: "WORDS (JOB/STEP-ID)".
var stepNameRE = regexp.MustCompile(`^(.+) \([^()/]+/[^()/]+\)$`)

// legNames shows a leg's runs by the words of their names: the leg's
// title names the job and the matrix, and the step id is internal.
func legNames(env *report.Envelope) map[string]string {
	names := map[string]string{}
	for _, r := range env.Runs {
		if m := stepNameRE.FindStringSubmatch(r.Name); m != nil {
			names[r.Name] = m[1]
		}
	}
	return names
}

func showsLogs(env *report.Envelope) bool { return slices.ContainsFunc(env.Runs, render.MayShowLogs) }

// legArtifact is the artifact a leg's logs were uploaded to, "" if none.
func legArtifact(env *report.Envelope) string {
	for _, r := range env.Runs {
		for _, l := range r.Logs {
			if l.Artifact != "" {
				return l.Artifact
			}
		}
	}
	return ""
}

type leg struct {
	key string
	env *report.Envelope
}

// readLegs finds report.json files below dir; each directory's path names
// its leg. A file that does not decode is a leg whose status is unknown.
func readLegs(dir string) ([]leg, error) {
	var legs []leg
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "report.json" {
			return err
		}
		rel, _ := filepath.Rel(dir, filepath.Dir(p))
		env := &report.Envelope{Schema: report.Schema, Status: "incomplete"}
		data, err := os.ReadFile(p)
		if err == nil {
			if json.Unmarshal(data, env) != nil || env.Status == "" {
				env = &report.Envelope{Schema: report.Schema, Status: "incomplete",
					Warnings: []string{p + ": not a runledger report"}}
			}
		}
		legs = append(legs, leg{key: rel, env: env})
		return nil
	})
	sort.Slice(legs, func(i, j int) bool { return legs[i].key < legs[j].key })
	return legs, err
}

// worstOf: the matrix passed only when every leg passed.
func worstOf(legs []leg) string {
	statuses := make([]string, len(legs))
	for i, l := range legs {
		statuses[i] = l.env.Status
	}
	return report.Worst(statuses...)
}
