package fakegithub

import (
	"archive/zip"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Where GitHub's Actions errors point (their documentation_url).
const (
	docWorkflowRuns = "https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-workflow"
	docRepoRuns     = "https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-repository"
	docArtifacts    = "https://docs.github.com/rest/actions/artifacts#list-workflow-run-artifacts"
	docDownload     = "https://docs.github.com/rest/actions/artifacts#download-an-artifact"
	docJobs         = "https://docs.github.com/rest/actions/workflow-jobs#list-jobs-for-a-workflow-run-attempt"
)

// repoID is the repository id of every run and artifact: the fake holds one
// repository, whatever owner/name a request names.
const repoID = 1296269

// artifactDays is how long GitHub keeps an artifact by default.
const artifactDays = 90

// WorkflowRun is a run of a workflow as the fake holds it. Zero fields take
// the defaults AddWorkflowRun names.
type WorkflowRun struct {
	ID           int64
	Name         string // the workflow's name
	Path         string // the workflow file, ".github/workflows/ci.yml"
	HeadSHA      string
	HeadBranch   string // "" answers null, as for a tag push
	HeadRepo     string // owner/name of the head repository; "" is the repository itself
	Event        string
	Status       string // queued, in_progress, completed, ...
	Conclusion   string // success, failure, ...; "" answers null
	RunNumber    int
	RunAttempt   int
	CheckSuiteID int64
	Actor        string
	Title        string // display_title
	Created      time.Time
	Updated      time.Time
}

// artifact is an Artifact with what its listing and download serve.
type artifact struct {
	Artifact
	run     int64
	zip     []byte
	created time.Time
}

// BlobStats is what the fake's blob storage (the host archive downloads
// redirect to) has served.
type BlobStats struct {
	Requests int   // requests with a valid signature
	Bytes    int64 // body bytes of 200 and 206 answers
	// Authorized counts requests that carried an Authorization header: a
	// GitHub token sent on to the storage host.
	Authorized int
}

// AddWorkflowRun records a run and returns its id. Defaults: ID assigned,
// Name "CI", Path ".github/workflows/ci.yml", Event "push", Status
// "completed", Conclusion "success" when completed, RunAttempt 1, RunNumber
// and CheckSuiteID assigned, Actor "octocat", Title Name, Created now,
// Updated Created. A run whose ID is already held replaces it, as a re-run's
// newest attempt replaces the old one in GitHub's listings.
func (s *Server) AddWorkflowRun(run WorkflowRun) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.defaults(&run)
	if _, ok := s.workflows[run.Path]; !ok {
		s.nextID++
		s.workflows[run.Path] = s.nextID
	}
	s.runs = slices.DeleteFunc(s.runs, func(r WorkflowRun) bool { return r.ID == run.ID })
	s.runs = append(s.runs, run)
	return run.ID
}

// defaults fills run's zero fields; the caller holds s.mu.
func (s *Server) defaults(run *WorkflowRun) {
	next := func() int64 { s.nextID++; return s.nextID }
	if run.ID == 0 {
		run.ID = next()
	}
	if run.CheckSuiteID == 0 {
		run.CheckSuiteID = next()
	}
	if run.RunNumber == 0 {
		run.RunNumber = len(s.runs) + 1
	}
	run.RunAttempt = max(run.RunAttempt, 1)
	def := func(f *string, v string) {
		if *f == "" {
			*f = v
		}
	}
	def(&run.Name, "CI")
	def(&run.Path, ".github/workflows/ci.yml")
	def(&run.Event, "push")
	def(&run.Status, "completed")
	def(&run.Actor, "octocat")
	def(&run.Title, run.Name)
	if run.Status == "completed" {
		def(&run.Conclusion, "success")
	}
	if run.Created.IsZero() {
		run.Created = time.Now().UTC().Truncate(time.Second)
	}
	if run.Updated.IsZero() {
		run.Updated = run.Created
	}
}

// AddArtifactZip records an artifact of run runID whose archive is zip and
// returns its id. Its listing's workflow_run comes from the run when
// AddWorkflowRun knows it.
func (s *Server) AddArtifactZip(runID int64, name string, zip []byte, expired bool) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	created := time.Now().UTC().Truncate(time.Second)
	if expired {
		created = created.AddDate(0, 0, -artifactDays-1)
	}
	a := artifact{Artifact: Artifact{ID: s.nextID, Name: name, Expired: expired}, run: runID, zip: slices.Clone(zip), created: created}
	s.artifacts[runID] = append(s.artifacts[runID], a)
	return s.nextID
}

// emptyZip is the archive of an artifact recorded without content.
var emptyZip = func() []byte {
	var b bytes.Buffer
	zip.NewWriter(&b).Close()
	return b.Bytes()
}()

// DenyActions makes the Actions routes (run listings, artifact listing and
// download) answer requests with any of tokens 403 "Resource not accessible
// by integration", as GitHub answers a token without actions: read (a
// workflow with permissions: {}, or a fork's pull request in a private
// repository). Fork tokens of public repositories may read actions, so the
// read-only token is allowed unless a test denies it.
func (s *Server) DenyActions(tokens ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range tokens {
		s.denied[t] = true
	}
}

// BlobStats is what the blob storage has served so far.
func (s *Server) BlobStats() BlobStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.blob
}

// actionsDenied answers 403 when DenyActions named tok.
func (s *Server) actionsDenied(w http.ResponseWriter, key, tok string) bool {
	doc := map[string]string{RouteWorkflowRuns: docWorkflowRuns, RouteRepoRuns: docRepoRuns, RouteArtifacts: docArtifacts, RouteArtifactZip: docDownload, RouteAttemptJobs: docJobs}[key]
	s.mu.Lock()
	denied := s.denied[tok]
	s.mu.Unlock()
	if doc == "" || !denied {
		return false
	}
	forbiddenAt(w, doc)
	return true
}

// listRuns answers both run listings: newest first, filtered and paged as
// GitHub does. The workflow listing answers 404 for a workflow id or file
// name no run has.
func (s *Server) listRuns(w http.ResponseWriter, r *http.Request, key string, params map[string]string) {
	q := r.URL.Query()
	if q.Has("created") {
		s.t.Errorf("%s: the fake does not filter by created; add it before relying on it", key)
	}
	s.mu.Lock()
	runs := slices.Clone(s.runs)
	workflows := maps.Clone(s.workflows)
	s.mu.Unlock()
	if key == RouteWorkflowRuns {
		file, ok := workflowPath(workflows, params["workflow_id"])
		if !ok {
			notFoundAt(w, docWorkflowRuns)
			return
		}
		runs = slices.DeleteFunc(runs, func(run WorkflowRun) bool { return run.Path != file })
	}
	runs = slices.DeleteFunc(runs, func(run WorkflowRun) bool { return !run.matches(q) })
	slices.SortFunc(runs, func(a, b WorkflowRun) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	lo, hi := s.page(w, r, len(runs))
	out := []any{}
	for _, run := range runs[lo:hi] {
		out = append(out, s.runJSON(params, run, workflows[run.Path]))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(runs), "workflow_runs": out})
}

// workflowPath resolves a workflow_id, a number or a file name, to the path
// of the workflow file.
func workflowPath(workflows map[string]int64, id string) (string, bool) {
	n, err := strconv.ParseInt(id, 10, 64)
	for p, wid := range workflows {
		if (err == nil && wid == n) || (err != nil && path.Base(p) == id) {
			return p, true
		}
	}
	return "", false
}

// matches applies the listing's filters; status matches a run's status or
// its conclusion, as GitHub's does.
func (run WorkflowRun) matches(q url.Values) bool {
	for name, got := range map[string]string{
		"head_sha": run.HeadSHA, "branch": run.HeadBranch, "event": run.Event, "actor": run.Actor,
		"check_suite_id": strconv.FormatInt(run.CheckSuiteID, 10),
	} {
		if want := q.Get(name); want != "" && want != got {
			return false
		}
	}
	st := q.Get("status")
	return st == "" || st == run.Status || st == run.Conclusion
}

// runJSON is run as GitHub's workflow-run, starting from GitHub's example.
func (s *Server) runJSON(params map[string]string, run WorkflowRun, workflowID int64) map[string]any {
	m := s.example("workflow-run-paginated")["workflow_runs"].([]any)[0].(map[string]any)
	full := params["owner"] + "/" + params["repo"]
	api := fmt.Sprintf("%s/repos/%s/actions/runs/%d", s.APIURL(), full, run.ID)
	for k, v := range map[string]any{
		"id": run.ID, "name": run.Name, "node_id": fmt.Sprintf("WFR_fake%d", run.ID),
		"check_suite_id": run.CheckSuiteID, "check_suite_node_id": fmt.Sprintf("CS_fake%d", run.CheckSuiteID),
		"head_branch": nullable(run.HeadBranch), "head_sha": run.HeadSHA, "path": run.Path,
		"run_number": run.RunNumber, "run_attempt": run.RunAttempt, "event": run.Event, "display_title": run.Title,
		"status": run.Status, "conclusion": nullable(run.Conclusion), "workflow_id": workflowID,
		"url": api, "html_url": fmt.Sprintf("%s/%s/actions/runs/%d", s.ServerURL(), full, run.ID),
		"pull_requests": []any{}, "created_at": run.Created.Format(time.RFC3339), "updated_at": run.Updated.Format(time.RFC3339),
		"run_started_at": run.Created.Format(time.RFC3339),
		"jobs_url":       api + "/jobs", "logs_url": api + "/logs", "artifacts_url": api + "/artifacts",
		"cancel_url": api + "/cancel", "rerun_url": api + "/rerun",
		"check_suite_url": fmt.Sprintf("%s/repos/%s/check-suites/%d", s.APIURL(), full, run.CheckSuiteID),
		"workflow_url":    fmt.Sprintf("%s/repos/%s/actions/workflows/%d", s.APIURL(), full, workflowID),
	} {
		m[k] = v
	}
	if run.RunAttempt > 1 {
		m["previous_attempt_url"] = fmt.Sprintf("%s/attempts/%d", api, run.RunAttempt-1)
	}
	m["actor"].(map[string]any)["login"] = run.Actor
	m["triggering_actor"].(map[string]any)["login"] = run.Actor
	commit := m["head_commit"].(map[string]any)
	commit["id"], commit["timestamp"] = run.HeadSHA, run.Created.Format(time.RFC3339)
	head := full
	if run.HeadRepo != "" {
		head = run.HeadRepo
	}
	s.setRepo(m["repository"].(map[string]any), full, false)
	m["head_repository"] = s.example("workflow-run-paginated")["workflow_runs"].([]any)[0].(map[string]any)["repository"]
	s.setRepo(m["head_repository"].(map[string]any), head, head != full)
	return m
}

// setRepo renames the example's minimal-repository to full (owner/name).
func (s *Server) setRepo(m map[string]any, full string, fork bool) {
	owner, name, _ := strings.Cut(full, "/")
	m["full_name"], m["name"], m["fork"] = full, name, fork
	m["html_url"] = s.ServerURL() + "/" + full
	m["url"] = s.APIURL() + "/repos/" + full
	m["owner"].(map[string]any)["login"] = owner
}

func nullable(v string) any {
	if v == "" {
		return nil
	}
	return v
}

// artifactJSON is a as GitHub's artifact; run is its workflow run when known.
func (s *Server) artifactJSON(params map[string]string, a artifact, run *WorkflowRun) map[string]any {
	api := fmt.Sprintf("%s/repos/%s/%s/actions/artifacts/%d", s.APIURL(), params["owner"], params["repo"], a.ID)
	wr := map[string]any{"id": a.run, "repository_id": repoID, "head_repository_id": repoID,
		"head_branch": "feature", "head_sha": "0123456789abcdef0123456789abcdef01234567"}
	if run != nil {
		wr["head_branch"], wr["head_sha"] = run.HeadBranch, run.HeadSHA
	}
	sum := sha256.Sum256(a.zip)
	return map[string]any{
		"id": a.ID, "node_id": fmt.Sprintf("MDg6QXJ0aWZhY3Q%d", a.ID), "name": a.Name, "size_in_bytes": len(a.zip),
		"url": api, "archive_download_url": api + "/zip", "expired": a.Expired,
		"created_at": a.created.Format(time.RFC3339), "updated_at": a.created.Format(time.RFC3339),
		"expires_at": a.created.AddDate(0, 0, artifactDays).Format(time.RFC3339),
		"digest":     "sha256:" + hex.EncodeToString(sum[:]), "workflow_run": wr,
	}
}

// findArtifact returns artifact id and its run, if AddWorkflowRun knows it.
func (s *Server) findArtifact(id int64) (*artifact, *WorkflowRun) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, as := range s.artifacts {
		for i := range as {
			if as[i].ID == id {
				a := as[i]
				return &a, s.run(a.run)
			}
		}
	}
	return nil, nil
}

// run returns a copy of run id, or nil; the caller holds s.mu.
func (s *Server) run(id int64) *WorkflowRun {
	for _, r := range s.runs {
		if r.ID == id {
			return &r
		}
	}
	return nil
}

// downloadArtifact redirects to a signed blob URL as GitHub does, or answers
// 410 for an expired artifact and 404 for an unknown one.
func (s *Server) downloadArtifact(w http.ResponseWriter, params map[string]string) {
	id, _ := strconv.ParseInt(params["artifact_id"], 10, 64)
	a, _ := s.findArtifact(id)
	if a == nil || params["archive_format"] != "zip" {
		notFoundAt(w, docDownload)
		return
	}
	if a.Expired {
		writeJSON(w, http.StatusGone, map[string]any{"message": "Artifact has expired", "documentation_url": docDownload, "status": "410"})
		return
	}
	w.Header().Del("Content-Type")
	w.Header().Set("Location", s.blobURL(*a))
	w.WriteHeader(http.StatusFound)
}
