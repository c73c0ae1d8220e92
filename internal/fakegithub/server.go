// Package fakegithub is a strict fake of GitHub's REST API for tests: an
// httptest server holding issue comments, workflow runs and artifacts in
// memory that serves exactly the endpoints runledger uses (the publisher's,
// and the baseline lookup's run listings and artifact downloads, with the
// signed blob storage those redirect to), and checks every API request (and
// its own answers) against GitHub's OpenAPI description (github-openapi.json,
// trimmed from @octokit/openapi by publish/testdata/gen/trim-openapi.mjs).
//
// A request GitHub would reject, and an answer GitHub would not give, fail
// the test that owns the server. It lives in its own package so that tests in
// other modules (internal/peers) can run the built binary against it.
package fakegithub

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

//go:embed github-openapi.json
var spec []byte

// Routes, as "METHOD /path/template" from the OpenAPI description; the keys
// of AddFault and CallCount.
const (
	RouteList   = "GET /repos/{owner}/{repo}/issues/{issue_number}/comments"
	RouteCreate = "POST /repos/{owner}/{repo}/issues/{issue_number}/comments"
	RouteEdit   = "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}"
	RouteDelete = "DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}"
	RouteUser   = "GET /user"
	RoutePulls  = "GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls"
	// RouteArtifacts lists a workflow run's artifacts.
	RouteArtifacts = "GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts"
	// RouteWorkflowRuns lists a workflow's runs; workflow_id is its id or
	// file name ("ci.yml").
	RouteWorkflowRuns = "GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs"
	// RouteRepoRuns lists the runs of every workflow of the repository.
	RouteRepoRuns = "GET /repos/{owner}/{repo}/actions/runs"
	// RouteArtifactZip redirects to an artifact's archive (RouteBlob).
	RouteArtifactZip = "GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}"
	// RouteAttemptJobs lists the jobs of one attempt of a workflow run.
	RouteAttemptJobs = "GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs"
)

// Tokens the fake knows; any other is answered 401. An installation token
// (the default GITHUB_TOKEN) cannot call GET /user and comments as
// ActionsBot; the read-only one is what a fork pull request's workflow gets.
const (
	TokenInstallation = "ghs_installationTOKEN0123456789"
	TokenReadOnly     = "ghs_readonlyTOKEN0123456789abc"
	TokenPersonal     = "ghp_personalTOKEN0123456789abc"
)

// GitHub's facts the fake enforces. They are GitHub's, not the publisher's,
// so the fake does not import publish (whose own tests use the fake).
const (
	ActionsBot      = "github-actions[bot]" // author of installation-token comments
	MaxCommentChars = 65536                 // comment body limit, in characters
)

// Fault replaces the fake's answer to one request on a route: after Delay,
// answer Status with Header and Body; Status 0 only delays the real answer.
type Fault struct {
	Status int
	Header map[string]string
	Body   string
	Delay  time.Duration
}

// Comment is an issue comment as the fake holds it.
type Comment struct {
	ID      int64
	User    string
	Body    string
	Created time.Time
	Updated time.Time
}

// Pull is an open or closed pull request whose head is a commit.
type Pull struct {
	Number  int
	State   string
	HeadSHA string
	Head    string // owner/name of the head repository
}

// Server is the fake GitHub. It is safe for concurrent use.
type Server struct {
	t      testing.TB
	srv    *httptest.Server
	prefix string // "/api/v3" for GitHub Enterprise Server
	router routers.Router
	doc    *openapi3.T

	mu        sync.Mutex
	comments  map[int][]*Comment // by pull request number
	nextID    int64
	pulls     map[string][]Pull    // by commit sha
	artifacts map[int64][]artifact // by workflow run id
	runs      []WorkflowRun
	jobs      map[[2]int64][]Job // by run id and attempt
	workflows map[string]int64   // workflow id by file path
	denied    map[string]bool    // tokens DenyActions refuses
	blobKey   []byte             // signs blob URLs
	blob      BlobStats
	calls     map[string]int     // by route
	faults    map[string][]Fault // consumed in order per route
	latency   func() time.Duration
	// foreignEdits counts writes to comments not authored by the caller.
	foreignEdits int
	bodies       []string // every request body, to check nothing leaks
}

// New starts a fake serving the API under prefix ("" as on github.com,
// "/api/v3" as on GitHub Enterprise Server); it stops when t ends. Every
// request the spec or the fake rejects is reported with t.Errorf.
func New(t testing.TB, prefix string) *Server {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(spec)
	if err != nil {
		t.Fatalf("load github-openapi.json: %v", err)
	}
	s := &Server{
		t: t, prefix: prefix, doc: doc, nextID: 1000,
		comments: map[int][]*Comment{}, pulls: map[string][]Pull{}, artifacts: map[int64][]artifact{},
		workflows: map[string]int64{}, denied: map[string]bool{}, blobKey: blobKey(),
		calls: map[string]int{}, faults: map[string][]Fault{},
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	doc.Servers = openapi3.Servers{{URL: s.srv.URL + prefix}}
	// GitHub's own pull-request-simple example lacks a required team
	// "type", so the description's examples are not validated.
	if s.router, err = legacy.NewRouter(doc, openapi3.DisableExamplesValidation()); err != nil {
		t.Fatalf("router: %v", err)
	}
	return s
}

// Artifact is one artifact of a workflow run.
type Artifact struct {
	ID      int64
	Name    string
	Expired bool
}

// AddArtifact records an artifact of workflow run runID whose archive is an
// empty zip and returns its id.
func (s *Server) AddArtifact(runID int64, name string, expired bool) int64 {
	return s.AddArtifactZip(runID, name, emptyZip, expired)
}

// URL is the server's root, without the API prefix.
func (s *Server) URL() string { return s.srv.URL }

// APIURL is what GITHUB_API_URL would hold.
func (s *Server) APIURL() string { return s.srv.URL + s.prefix }

// ServerURL is the web host the fake's html_url links use (GITHUB_SERVER_URL).
func (s *Server) ServerURL() string { return "https://ghes.example.test" }

// AddFault queues faults for the next requests on route, in order.
func (s *Server) AddFault(route string, fs ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[route] = append(s.faults[route], fs...)
}

// SetPulls sets the pull requests GET .../commits/{sha}/pulls answers.
func (s *Server) SetPulls(sha string, pulls []Pull) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pulls[sha] = slices.Clone(pulls)
}

// SetLatency delays each comment read and write between reading state and
// answering, so concurrent clients interleave as on GitHub.
func (s *Server) SetLatency(latency func() time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = latency
}

// JitterLatency spreads requests over up to max, as a busy API would.
func JitterLatency(max time.Duration) func() time.Duration {
	return func() time.Duration { return time.Duration(rand.Int64N(int64(max))) }
}

// CallCount is how many requests route has received, faults included.
func (s *Server) CallCount(route string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[route]
}

// TotalCalls is how many requests the fake has received.
func (s *Server) TotalCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		n += c
	}
	return n
}

// ForeignEdits counts attempts to edit or delete a comment the caller did
// not author (each answered 403).
func (s *Server) ForeignEdits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.foreignEdits
}

// Bodies is every request body received, in order.
func (s *Server) Bodies() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.bodies)
}

// PRComments is a copy of pull request pr's comments, oldest first.
func (s *Server) PRComments(pr int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments[pr] {
		out = append(out, *c)
	}
	return out
}

// AddComment posts a comment as user, bypassing the API; it returns its id.
func (s *Server) AddComment(pr int, user, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	now := time.Now().UTC()
	s.comments[pr] = append(s.comments[pr], &Comment{ID: s.nextID, User: user, Body: body, Created: now, Updated: now})
	return s.nextID
}

// serve validates the request against the spec, applies any injected fault,
// then answers like GitHub.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if s.serveBlob(w, r) {
		return
	}
	// A server-side URL has no scheme or host; the router matches servers.
	r.URL.Scheme, r.URL.Host = "http", r.Host
	route, params, err := s.router.FindRoute(r)
	if err != nil {
		s.t.Errorf("%s %s: no such operation in GitHub's API: %v", r.Method, r.URL, err)
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return
	}
	key := r.Method + " " + route.Path
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	in := &openapi3filter.RequestValidationInput{
		Request: r, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true},
	}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		s.t.Errorf("%s: request does not match GitHub's OpenAPI description: %v", key, err)
	}
	if err := strictRequest(route, r, body); err != nil {
		s.t.Errorf("%s: %v", key, err)
	}
	ft := s.take(key, body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := httptest.NewRecorder()
	if ft != nil {
		time.Sleep(ft.Delay)
	}
	if ft != nil && ft.Status != 0 {
		writeFault(rec, ft)
	} else {
		s.answer(rec, r, key, params, body)
	}
	s.checkResponse(in, rec, key)
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
}

func writeFault(w http.ResponseWriter, ft *Fault) {
	for k, v := range ft.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(ft.Status)
	io.WriteString(w, ft.Body)
}

// take counts the call, keeps its body and dequeues the route's next fault.
func (s *Server) take(key string, body []byte) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[key]++
	s.bodies = append(s.bodies, string(body))
	q := s.faults[key]
	if len(q) == 0 {
		return nil
	}
	ft := q[0]
	s.faults[key] = q[1:]
	return &ft
}

// strictRequest adds what the OpenAPI validator lets through: query
// parameters the operation does not declare, and unknown JSON fields.
func strictRequest(route *routers.Route, r *http.Request, body []byte) error {
	declared := map[string]bool{}
	for _, ps := range []openapi3.Parameters{route.PathItem.Parameters, route.Operation.Parameters} {
		for _, p := range ps {
			if p.Value != nil && p.Value.In == "query" {
				declared[p.Value.Name] = true
			}
		}
	}
	for q := range r.URL.Query() {
		if !declared[q] {
			return fmt.Errorf("query parameter %q is not declared by the operation", q)
		}
	}
	if len(body) == 0 || route.Operation.RequestBody == nil {
		return nil
	}
	var obj map[string]any
	if err := json.Unmarshal(body, &obj); err != nil {
		return fmt.Errorf("body is not a JSON object: %v", err)
	}
	schema := route.Operation.RequestBody.Value.Content.Get("application/json").Schema.Value
	for k := range obj {
		if _, ok := schema.Properties[k]; !ok {
			return fmt.Errorf("body field %q is not in the operation's schema", k)
		}
	}
	return nil
}

// checkResponse holds the fake to the spec too, so answers have real shapes.
func (s *Server) checkResponse(in *openapi3filter.RequestValidationInput, rec *httptest.ResponseRecorder, key string) {
	if rec.Code == http.StatusNoContent {
		return
	}
	err := openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
		Body:    io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
		Options: &openapi3filter.Options{MultiError: true},
	})
	if err != nil {
		s.t.Errorf("%s: fake's %d answer does not match GitHub's OpenAPI description: %v", key, rec.Code, err)
	}
}

func (s *Server) pause() {
	s.mu.Lock()
	latency := s.latency
	s.mu.Unlock()
	if latency != nil {
		time.Sleep(latency())
	}
}
