package action

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/report"
)

// maxNameTries bounds the suffixes tried after an artifact name conflict.
const maxNameTries = 5

// upload writes the envelope and uploads it with the logs. The envelope
// names its artifact before the upload, so the copy inside the artifact
// says where it lives; a failed upload takes the name back.
func (s *step) upload(ctx context.Context, env *report.Envelope) {
	st, out := s.st, &s.out
	base, err := s.artifactName()
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
		if res, err = s.uploadLogs(ctx, env, name); err == nil {
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

func (s *step) uploadLogs(ctx context.Context, env *report.Envelope, name string) (*artifact.Result, error) {
	u, err := s.env.NewUploader(s.env.Getenv, s.env.Stdout, s.in.retentionDays)
	if err != nil {
		return nil, err
	}
	files := []artifact.File{{Name: "report.json", Path: s.out.reportPath}}
	for _, r := range env.Runs {
		fs, err := artifact.RunFiles(filepath.Join(s.st.Dir, r.ID), r.ID)
		if err != nil {
			return nil, err
		}
		files = append(files, fs...)
	}
	return u.Upload(ctx, name, files)
}

// artifactName is the artifact-name input, or one derived from the job and
// the run name (a Docker action cannot see the matrix values).
func (s *step) artifactName() (string, error) {
	return s.artifactNameFor(s.env.Getenv("GITHUB_RUN_ATTEMPT"))
}

// artifactNameFor is the artifact's name on run attempt attempt.
func (s *step) artifactNameFor(attempt string) (string, error) {
	in := s.in
	if in.artifactName != "" {
		return artifact.SanitizeName(in.artifactName), nil
	}
	// The step's identity keeps two steps of a job (and a second use of
	// the action) from uploading one name, which GitHub refuses (409).
	parts := map[string]string{}
	if in.name != "" {
		parts["name"] = in.name
	}
	if step := s.env.Getenv("GITHUB_ACTION"); step != "" && in.name == "" {
		parts["step"] = strings.TrimLeft(step, "_")
	}
	matrix := ""
	if len(parts) > 0 {
		b, _ := json.Marshal(parts)
		matrix = string(b)
	}
	name, err := artifact.DefaultName(s.env.Getenv("GITHUB_JOB"), matrix, attempt)
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

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
