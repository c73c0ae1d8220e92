package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// The fake GitHub: an httptest server holding issue comments in memory that
// serves exactly the endpoints the publisher uses, and checks every request
// (and its own answers) against GitHub's OpenAPI description
// (testdata/github-openapi.json, trimmed from @octokit/openapi by
// testdata/gen/trim-openapi.mjs).

const specPath = "testdata/github-openapi.json"

// Tokens the fake knows. An installation token (the default GITHUB_TOKEN)
// cannot call GET /user and comments as github-actions[bot]; the read-only
// one is what a fork pull request's workflow gets.
const (
	tokInstallation = "ghs_installationTOKEN0123456789"
	tokReadOnly     = "ghs_readonlyTOKEN0123456789abc"
	tokPersonal     = "ghp_personalTOKEN0123456789abc"
)

type fault struct {
	status int
	header map[string]string
	body   string
	delay  time.Duration
}

type fakeComment struct {
	ID      int64
	User    string
	Body    string
	Created time.Time
	Updated time.Time
}

type fakePull struct {
	Number  int
	State   string
	HeadSHA string
	Head    string // owner/name of the head repository
}

type fakeGitHub struct {
	t      testing.TB
	srv    *httptest.Server
	prefix string // "/api/v3" for GitHub Enterprise Server
	router routers.Router
	doc    *openapi3.T

	mu       sync.Mutex
	comments map[int][]*fakeComment // by pull request number
	nextID   int64
	pulls    map[string][]fakePull // by commit sha
	calls    map[string]int        // "METHOD /path/template"
	faults   map[string][]fault    // consumed in order per route
	// latency, when set, delays each request between reading state and
	// answering (or writing), so concurrent clients interleave as on GitHub.
	latency func() time.Duration
	// foreignEdits counts writes to comments not authored by the caller.
	foreignEdits int
	bodies       []string // every request body, to check nothing leaks
}

func newFakeGitHub(t testing.TB, prefix string) *fakeGitHub {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromFile(specPath)
	if err != nil {
		t.Fatalf("load %s: %v", specPath, err)
	}
	f := &fakeGitHub{
		t: t, prefix: prefix, doc: doc, nextID: 1000,
		comments: map[int][]*fakeComment{}, pulls: map[string][]fakePull{},
		calls: map[string]int{}, faults: map[string][]fault{},
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	doc.Servers = openapi3.Servers{{URL: f.srv.URL + prefix}}
	// GitHub's own pull-request-simple example lacks a required team
	// "type", so the description's examples are not validated.
	if f.router, err = legacy.NewRouter(doc, openapi3.DisableExamplesValidation()); err != nil {
		t.Fatalf("router: %v", err)
	}
	return f
}

func (f *fakeGitHub) apiURL() string { return f.srv.URL + f.prefix }

// serverURL is the web host the fake's html_url links use.
func (f *fakeGitHub) serverURL() string { return "https://ghes.example.test" }

func (f *fakeGitHub) addFault(route string, fs ...fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults[route] = append(f.faults[route], fs...)
}

func (f *fakeGitHub) callCount(route string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[route]
}

func (f *fakeGitHub) totalCalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		n += c
	}
	return n
}

func (f *fakeGitHub) prComments(pr int) []fakeComment {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeComment
	for _, c := range f.comments[pr] {
		out = append(out, *c)
	}
	return out
}

func (f *fakeGitHub) addComment(pr int, user, body string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	now := time.Now().UTC()
	f.comments[pr] = append(f.comments[pr], &fakeComment{ID: f.nextID, User: user, Body: body, Created: now, Updated: now})
	return f.nextID
}

// serve validates the request against the spec, applies any injected fault,
// then answers like GitHub.
func (f *fakeGitHub) serve(w http.ResponseWriter, r *http.Request) {
	// A server-side URL has no scheme or host; the router matches servers.
	r.URL.Scheme, r.URL.Host = "http", r.Host
	route, params, err := f.router.FindRoute(r)
	if err != nil {
		f.t.Errorf("%s %s: no such operation in GitHub's API: %v", r.Method, r.URL, err)
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
		f.t.Errorf("%s: request does not match GitHub's OpenAPI description: %v", key, err)
	}
	if err := strictRequest(route, r, body); err != nil {
		f.t.Errorf("%s: %v", key, err)
	}
	f.mu.Lock()
	f.calls[key]++
	f.bodies = append(f.bodies, string(body))
	var ft *fault
	if q := f.faults[key]; len(q) > 0 {
		ft, f.faults[key] = &q[0], q[1:]
	}
	f.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := httptest.NewRecorder()
	if ft != nil {
		time.Sleep(ft.delay)
	}
	if ft != nil && ft.status != 0 {
		for k, v := range ft.header {
			rec.Header().Set(k, v)
		}
		rec.Header().Set("Content-Type", "application/json; charset=utf-8")
		rec.WriteHeader(ft.status)
		io.WriteString(rec, ft.body)
	} else {
		f.answer(rec, r, key, params, body)
	}
	f.checkResponse(in, rec, key)
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
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
func (f *fakeGitHub) checkResponse(in *openapi3filter.RequestValidationInput, rec *httptest.ResponseRecorder, key string) {
	if rec.Code == http.StatusNoContent {
		return
	}
	err := openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
		Body:    io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
		Options: &openapi3filter.Options{MultiError: true},
	})
	if err != nil {
		f.t.Errorf("%s: fake's %d answer does not match GitHub's OpenAPI description: %v", key, rec.Code, err)
	}
}

func (f *fakeGitHub) answer(w http.ResponseWriter, r *http.Request, key string, params map[string]string, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Ratelimit-Limit", "5000")
	w.Header().Set("X-Ratelimit-Remaining", "4999")
	w.Header().Set("X-Ratelimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	login, known := map[string]string{tokInstallation: ActionsBot, tokReadOnly: ActionsBot, tokPersonal: "octocat"}[tok]
	if !known {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest", "status": "401"})
		return
	}
	pr, _ := strconv.Atoi(params["issue_number"])
	id, _ := strconv.ParseInt(params["comment_id"], 10, 64)
	switch key {
	case "GET /user":
		f.getUser(w, tok, login)
	case "GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls":
		f.listPulls(w, params)
	case "GET /repos/{owner}/{repo}/issues/{issue_number}/comments":
		f.listComments(w, r, params, pr)
	case "POST /repos/{owner}/{repo}/issues/{issue_number}/comments":
		f.writeComment(w, tok, login, params, pr, 0, body)
	case "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}":
		f.writeComment(w, tok, login, params, 0, id, body)
	case "DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}":
		f.deleteComment(w, tok, login, id)
	default:
		f.t.Errorf("fake serves no %s", key)
		w.WriteHeader(http.StatusNotImplemented)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func forbidden(w http.ResponseWriter) {
	writeJSON(w, http.StatusForbidden, map[string]any{
		"message":           "Resource not accessible by integration",
		"documentation_url": "https://docs.github.com/rest/issues/comments#create-an-issue-comment",
		"status":            "403",
	})
}

func (f *fakeGitHub) example(name string) map[string]any {
	ex := f.doc.Components.Examples[name]
	b, _ := json.Marshal(ex.Value.Value)
	var out any
	json.Unmarshal(b, &out)
	if m, ok := out.(map[string]any); ok {
		return m
	}
	return out.([]any)[0].(map[string]any)
}

func (f *fakeGitHub) getUser(w http.ResponseWriter, tok, login string) {
	if tok != tokPersonal {
		forbidden(w)
		return
	}
	u := f.example("private-user-response-with-public-and-private-profile-information")
	u["login"] = login
	u["user_view_type"] = "private" // GitHub sends it now; the example predates it
	writeJSON(w, http.StatusOK, u)
}

func (f *fakeGitHub) listPulls(w http.ResponseWriter, params map[string]string) {
	f.mu.Lock()
	pulls := slices.Clone(f.pulls[params["commit_sha"]])
	f.mu.Unlock()
	out := []any{}
	full := params["owner"] + "/" + params["repo"]
	for _, p := range pulls {
		m := f.example("pull-request-simple-items")
		m["number"], m["state"] = p.Number, p.State
		m["requested_teams"] = []any{} // the example's team lacks a required field
		head := m["head"].(map[string]any)
		head["sha"] = p.HeadSHA
		head["repo"].(map[string]any)["full_name"] = p.Head
		m["base"].(map[string]any)["repo"].(map[string]any)["full_name"] = full
		out = append(out, m)
	}
	writeJSON(w, http.StatusOK, out)
}

func (f *fakeGitHub) commentJSON(params map[string]string, pr int, c fakeComment) map[string]any {
	m := f.example("issue-comment")
	repo := params["owner"] + "/" + params["repo"]
	m["id"], m["body"] = c.ID, c.Body
	m["html_url"] = fmt.Sprintf("%s/%s/pull/%d#issuecomment-%d", f.serverURL(), repo, pr, c.ID)
	m["url"] = fmt.Sprintf("%s/repos/%s/issues/comments/%d", f.apiURL(), repo, c.ID)
	m["created_at"], m["updated_at"] = c.Created.Format(time.RFC3339), c.Updated.Format(time.RFC3339)
	user := m["user"].(map[string]any)
	user["login"] = c.User
	user["type"] = map[bool]string{true: "Bot", false: "User"}[strings.HasSuffix(c.User, "[bot]")]
	return m
}

// listComments pages like GitHub: per_page (default 30, max 100), page, and
// a Link header with rel="next".
func (f *fakeGitHub) listComments(w http.ResponseWriter, r *http.Request, params map[string]string, pr int) {
	f.mu.Lock()
	var snap []fakeComment
	for _, c := range f.comments[pr] {
		snap = append(snap, *c)
	}
	f.mu.Unlock()
	f.pause()
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 {
		per = 30
	}
	per = min(per, 100)
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	lo, hi := min((page-1)*per, len(snap)), min(page*per, len(snap))
	if hi < len(snap) {
		next := *r.URL
		q := next.Query()
		q.Set("page", strconv.Itoa(page+1))
		next.RawQuery = q.Encode()
		w.Header().Set("Link", fmt.Sprintf(`<%s%s>; rel="next"`, f.srv.URL, next.RequestURI()))
	}
	out := []any{}
	for _, c := range snap[lo:hi] {
		out = append(out, f.commentJSON(params, pr, c))
	}
	writeJSON(w, http.StatusOK, out)
}

// writeComment creates (id == 0) or edits a comment, enforcing GitHub's
// body limit and who may write.
func (f *fakeGitHub) writeComment(w http.ResponseWriter, tok, login string, params map[string]string, pr int, id int64, body []byte) {
	var in struct{ Body string }
	json.Unmarshal(body, &in)
	if tok == tokReadOnly {
		forbidden(w)
		return
	}
	if n := utf8.RuneCountInString(in.Body); n > MaxCommentChars {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{
			"message":           "Validation Failed",
			"errors":            []any{map[string]any{"resource": "IssueComment", "code": "custom", "field": "body", "message": "Body is too long (maximum is 65536 characters)"}},
			"documentation_url": "https://docs.github.com/rest/issues/comments#update-an-issue-comment",
			"status":            "422",
		})
		return
	}
	f.pause()
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now().UTC()
	if id == 0 {
		f.nextID++
		c := &fakeComment{ID: f.nextID, User: login, Body: in.Body, Created: now, Updated: now}
		f.comments[pr] = append(f.comments[pr], c)
		writeJSON(w, http.StatusCreated, f.commentJSON(params, pr, *c))
		return
	}
	for n, cs := range f.comments {
		for _, c := range cs {
			if c.ID != id {
				continue
			}
			if c.User != login {
				f.foreignEdits++
				forbidden(w)
				return
			}
			c.Body, c.Updated = in.Body, now
			writeJSON(w, http.StatusOK, f.commentJSON(params, n, *c))
			return
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found", "documentation_url": "https://docs.github.com/rest", "status": "404"})
}

func (f *fakeGitHub) deleteComment(w http.ResponseWriter, tok, login string, id int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for n, cs := range f.comments {
		for i, c := range cs {
			if c.ID != id {
				continue
			}
			if c.User != login || tok == tokReadOnly {
				f.foreignEdits++
				forbidden(w)
				return
			}
			f.comments[n] = slices.Delete(cs, i, i+1)
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found", "documentation_url": "https://docs.github.com/rest", "status": "404"})
}

func (f *fakeGitHub) pause() {
	if f.latency != nil {
		time.Sleep(f.latency())
	}
}

// jitterLatency spreads requests over up to max, as a busy API would.
func jitterLatency(max time.Duration) func() time.Duration {
	return func() time.Duration { return time.Duration(rand.Int64N(int64(max))) }
}

// fakeClock records the sleeps the publisher asks for, advancing a virtual
// clock instead of waiting (optionally with a small real pause, scaled, so
// concurrent writers still spread out).
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
	scale  time.Duration // real time per virtual second; 0 = none
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	scale := c.scale
	c.mu.Unlock()
	if scale > 0 {
		return sleepCtx(ctx, time.Duration(float64(d)/float64(time.Second)*float64(scale)))
	}
	return ctx.Err()
}

func (c *fakeClock) recorded() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.sleeps)
}

// newTestPublisher points a real Publisher (real go-github, real
// retryablehttp) at the fake.
func newTestPublisher(t testing.TB, f *fakeGitHub, token string, mod func(*Config)) (*Publisher, *fakeClock) {
	t.Helper()
	clk := &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	cfg := Config{
		APIURL: f.apiURL(), ServerURL: f.serverURL(), Repo: "Codertocat/Hello-World", Token: token,
		HTTPClient: &http.Client{Timeout: 5 * time.Second}, Now: clk.Now, Sleep: clk.Sleep,
	}
	if mod != nil {
		mod(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p, clk
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// recordingTB collects the fake's complaints instead of failing the test, so
// a test can check that the fake does complain.
type recordingTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestFakeRejectsRequestsGitHubWouldNot shows the OpenAPI check has teeth.
func TestFakeRejectsRequestsGitHubWouldNot(t *testing.T) {
	tests := []struct{ name, method, path, body, want string }{
		{"undeclared query parameter", "GET", "/repos/o/r/issues/2/comments?sort=created", "", `query parameter "sort"`},
		{"missing required body field", "POST", "/repos/o/r/issues/2/comments", `{"text":"hi"}`, `property "body" is missing`},
		{"wrong body type", "PATCH", "/repos/o/r/issues/comments/5", `{"body":5}`, "string"},
		{"non-integer path parameter", "GET", "/repos/o/r/issues/two/comments", "", "issue_number"},
		{"operation not in GitHub's API", "POST", "/repos/o/r/issues/2/notes", `{"body":"x"}`, "no such operation"},
		{"unknown JSON field", "POST", "/repos/o/r/issues/2/comments", `{"body":"x","sticky":true}`, `"sticky"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			f := newFakeGitHub(rec, "")
			req, _ := http.NewRequest(tt.method, f.apiURL()+tt.path, strings.NewReader(tt.body))
			req.Header.Set("Authorization", "Bearer "+tokInstallation)
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if !strings.Contains(strings.Join(rec.errs, "\n"), tt.want) {
				t.Errorf("fake did not complain with %q; complaints: %q", tt.want, rec.errs)
			}
		})
	}
}
