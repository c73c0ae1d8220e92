package fakegithub

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v62/github"
)

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

func (r *recordingTB) complaints() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.errs, "\n")
}

func do(t *testing.T, method, url, token, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
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
			f := New(rec, "")
			do(t, tt.method, f.APIURL()+tt.path, TokenInstallation, tt.body)
			if got := rec.complaints(); !strings.Contains(got, tt.want) {
				t.Errorf("fake did not complain with %q; complaints: %q", tt.want, got)
			}
		})
	}
}

// TestFakeAnswersLikeGitHub: who may write, and what a write answers, under
// both API prefixes; the answers pass the fake's own response check.
func TestFakeAnswersLikeGitHub(t *testing.T) {
	long := strings.Repeat("é", MaxCommentChars+1)
	tests := []struct {
		name, prefix, token, body string
		want                      int
		comments                  int
	}{
		{"installation token creates", "", TokenInstallation, "hello", http.StatusCreated, 1},
		{"enterprise prefix", "/api/v3", TokenPersonal, "hello", http.StatusCreated, 1},
		{"read-only token is forbidden", "", TokenReadOnly, "hello", http.StatusForbidden, 0},
		{"unknown token", "", "ghs_nobody", "hello", http.StatusUnauthorized, 0},
		{"body over GitHub's limit", "", TokenInstallation, long, http.StatusUnprocessableEntity, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := New(t, tt.prefix)
			b, _ := json.Marshal(map[string]string{"body": tt.body})
			code, resp := do(t, "POST", f.APIURL()+"/repos/o/r/issues/7/comments", tt.token, string(b))
			if code != tt.want {
				t.Fatalf("HTTP %d, want %d: %s", code, tt.want, resp)
			}
			cs := f.PRComments(7)
			if len(cs) != tt.comments || f.CallCount(RouteCreate) != 1 {
				t.Fatalf("%d comments after %d creates, want %d after 1", len(cs), f.CallCount(RouteCreate), tt.comments)
			}
			if tt.comments == 0 {
				return
			}
			var c struct {
				HTMLURL string `json:"html_url"`
			}
			json.Unmarshal([]byte(resp), &c)
			if want := fmt.Sprintf("%s/o/r/pull/7#issuecomment-%d", f.ServerURL(), cs[0].ID); c.HTMLURL != want {
				t.Errorf("html_url %q, want %q", c.HTMLURL, want)
			}
		})
	}
}

// TestFakeGuardsOthersComments: nobody edits or deletes a comment they did
// not write, and each attempt is counted.
func TestFakeGuardsOthersComments(t *testing.T) {
	f := New(t, "")
	id := f.AddComment(2, "mallory", "theirs")
	url := fmt.Sprintf("%s/repos/o/r/issues/comments/%d", f.APIURL(), id)
	if code, _ := do(t, "PATCH", url, TokenInstallation, `{"body":"mine now"}`); code != http.StatusForbidden {
		t.Errorf("edit: HTTP %d, want 403", code)
	}
	if code, _ := do(t, "DELETE", url, TokenInstallation, ""); code != http.StatusForbidden {
		t.Errorf("delete: HTTP %d, want 403", code)
	}
	if cs := f.PRComments(2); len(cs) != 1 || cs[0].Body != "theirs" || f.ForeignEdits() != 2 {
		t.Errorf("comments %+v, foreign edits %d; want the comment untouched and 2", cs, f.ForeignEdits())
	}
}

func client(t *testing.T, f *Server, token string) *github.Client {
	t.Helper()
	c := github.NewClient(nil).WithAuthToken(token)
	base, err := url.Parse(f.APIURL() + "/")
	if err != nil {
		t.Fatal(err)
	}
	c.BaseURL = base
	return c
}

func ids(runs []*github.WorkflowRun) []int64 {
	out := []int64{}
	for _, r := range runs {
		out = append(out, r.GetID())
	}
	return out
}

// TestFakeListsWorkflowRunsLikeGitHub: both listings, newest first, with
// GitHub's filters (status matches a status or a conclusion).
func TestFakeListsWorkflowRunsLikeGitHub(t *testing.T) {
	f := New(t, "")
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	shaA, shaB := strings.Repeat("a", 40), strings.Repeat("b", 40)
	pass := f.AddWorkflowRun(WorkflowRun{HeadSHA: shaA, HeadBranch: "main", Created: t0})
	fail := f.AddWorkflowRun(WorkflowRun{HeadSHA: shaA, HeadBranch: "main", Conclusion: "failure", RunAttempt: 2, Created: t0.Add(time.Minute)})
	pr := f.AddWorkflowRun(WorkflowRun{HeadSHA: shaB, HeadBranch: "feature", HeadRepo: "fork/r", Event: "pull_request", Status: "in_progress", Created: t0.Add(2 * time.Minute)})
	lint := f.AddWorkflowRun(WorkflowRun{Name: "Lint", Path: ".github/workflows/lint.yml", HeadSHA: shaA, HeadBranch: "main", Created: t0.Add(3 * time.Minute)})
	tests := []struct {
		name string
		file string // "" lists the repository's runs
		opts github.ListWorkflowRunsOptions
		want []int64
	}{
		{"workflow by file name", "ci.yml", github.ListWorkflowRunsOptions{}, []int64{pr, fail, pass}},
		{"completed runs of a commit", "ci.yml", github.ListWorkflowRunsOptions{HeadSHA: shaA, Status: "completed"}, []int64{fail, pass}},
		{"status matches a conclusion", "ci.yml", github.ListWorkflowRunsOptions{Status: "success"}, []int64{pass}},
		{"branch and event", "ci.yml", github.ListWorkflowRunsOptions{Branch: "feature", Event: "pull_request"}, []int64{pr}},
		{"repository-wide", "", github.ListWorkflowRunsOptions{HeadSHA: shaA, ExcludePullRequests: true}, []int64{lint, fail, pass}},
		{"nothing matches", "", github.ListWorkflowRunsOptions{Event: "push", Status: "in_progress"}, []int64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := client(t, f, TokenReadOnly)
			var got *github.WorkflowRuns
			var err error
			if tt.file != "" {
				got, _, err = c.Actions.ListWorkflowRunsByFileName(context.Background(), "o", "r", tt.file, &tt.opts)
			} else {
				got, _, err = c.Actions.ListRepositoryWorkflowRuns(context.Background(), "o", "r", &tt.opts)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got.WorkflowRuns), tt.want) || got.GetTotalCount() != len(tt.want) {
				t.Errorf("runs %v (total %d), want %v", ids(got.WorkflowRuns), got.GetTotalCount(), tt.want)
			}
		})
	}
	got, _, err := client(t, f, TokenInstallation).Actions.ListWorkflowRunsByFileName(context.Background(), "o", "r", "ci.yml", nil)
	if err != nil {
		t.Fatal(err)
	}
	prRun, failRun := got.WorkflowRuns[0], got.WorkflowRuns[1]
	if failRun.GetHeadSHA() != shaA || failRun.GetRunAttempt() != 2 || failRun.GetConclusion() != "failure" ||
		failRun.GetHTMLURL() != fmt.Sprintf("%s/o/r/actions/runs/%d", f.ServerURL(), fail) {
		t.Errorf("run %d: sha %q attempt %d conclusion %q html_url %q", fail, failRun.GetHeadSHA(),
			failRun.GetRunAttempt(), failRun.GetConclusion(), failRun.GetHTMLURL())
	}
	// go-github v62's WorkflowRun has no Path, so read the workflow files raw.
	_, raw := do(t, "GET", f.APIURL()+"/repos/o/r/actions/runs", TokenInstallation, "")
	var paths struct {
		WorkflowRuns []struct{ Path string } `json:"workflow_runs"`
	}
	json.Unmarshal([]byte(raw), &paths)
	if len(paths.WorkflowRuns) != 4 || paths.WorkflowRuns[0].Path != ".github/workflows/lint.yml" || paths.WorkflowRuns[1].Path != ".github/workflows/ci.yml" {
		t.Errorf("paths %+v, want lint.yml then ci.yml", paths.WorkflowRuns)
	}
	if prRun.Conclusion != nil || prRun.GetHeadRepository().GetFullName() != "fork/r" || prRun.GetRepository().GetFullName() != "o/r" {
		t.Errorf("in-progress fork run: conclusion %v, head %q, repository %q", prRun.Conclusion,
			prRun.GetHeadRepository().GetFullName(), prRun.GetRepository().GetFullName())
	}
	byID, _, err := client(t, f, TokenInstallation).Actions.ListWorkflowRunsByID(context.Background(), "o", "r", failRun.GetWorkflowID(), nil)
	if err != nil || !slices.Equal(ids(byID.WorkflowRuns), []int64{pr, fail, pass}) {
		t.Errorf("by workflow id %d: %v, %v", failRun.GetWorkflowID(), ids(byID.WorkflowRuns), err)
	}
	_, resp, err := client(t, f, TokenInstallation).Actions.ListWorkflowRunsByFileName(context.Background(), "o", "r", "nope.yml", nil)
	if resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown workflow: %v, want 404", err)
	}
}

// TestFakePagesWorkflowRuns: per_page and page, with GitHub's Link header.
func TestFakePagesWorkflowRuns(t *testing.T) {
	f := New(t, "")
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	var want []int64
	for i := range 5 {
		want = slices.Insert(want, 0, f.AddWorkflowRun(WorkflowRun{HeadSHA: strings.Repeat("c", 40), Created: t0.Add(time.Duration(i) * time.Hour)}))
	}
	c := client(t, f, TokenInstallation)
	opts := &github.ListWorkflowRunsOptions{ListOptions: github.ListOptions{PerPage: 2}}
	var got []int64
	for pages := 1; ; pages++ {
		runs, resp, err := c.Actions.ListWorkflowRunsByFileName(context.Background(), "o", "r", "ci.yml", opts)
		if err != nil {
			t.Fatal(err)
		}
		if pages == 1 && (resp.LastPage != 3 || resp.NextPage != 2 || runs.GetTotalCount() != 5) {
			t.Errorf("first page: last %d next %d total %d, want 3, 2, 5", resp.LastPage, resp.NextPage, runs.GetTotalCount())
		}
		if pages == 3 && (resp.PrevPage != 2 || resp.FirstPage != 1) {
			t.Errorf("last page: prev %d first %d, want 2, 1", resp.PrevPage, resp.FirstPage)
		}
		got = append(got, ids(runs.WorkflowRuns)...)
		if resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	if !slices.Equal(got, want) {
		t.Errorf("pages gave %v, want %v", got, want)
	}
}

// bigZip is a zip whose first member is size incompressible bytes and whose
// last is a small index, as a runledger artifact with a large log is.
func bigZip(t *testing.T, size int) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	log, err := zw.CreateHeader(&zip.FileHeader{Name: "run.log", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	noise := make([]byte, size)
	rand.NewChaCha8([32]byte{}).Read(noise)
	log.Write(noise)
	idx, _ := zw.Create("index.json")
	io.WriteString(idx, `{"tests":3}`)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// get fetches url with an optional Range header.
func get(t *testing.T, url, rng string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// rangeReader reads a blob with one Range request per ReadAt, as a client
// that opens only the zip's directory and one member does.
type rangeReader struct {
	t   *testing.T
	url string
}

func (r rangeReader) ReadAt(p []byte, off int64) (int, error) {
	resp, b := get(r.t, r.url, fmt.Sprintf("bytes=%d-%d", off, off+int64(len(p))-1))
	if resp.StatusCode != http.StatusPartialContent {
		return 0, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return copy(p, b), nil
}

// TestFakeServesArtifactsLikeGitHub: the run's artifact listing, the
// download redirect to a signed blob URL, and ranged reads of the blob.
func TestFakeServesArtifactsLikeGitHub(t *testing.T) {
	for _, prefix := range []string{"", "/api/v3"} {
		t.Run("prefix="+prefix, func(t *testing.T) { testServesArtifacts(t, New(t, prefix)) })
	}
}

func testServesArtifacts(t *testing.T, f *Server) {
	sha := strings.Repeat("d", 40)
	run := f.AddWorkflowRun(WorkflowRun{HeadSHA: sha, HeadBranch: "main"})
	body := bigZip(t, 4<<20)
	id := f.AddArtifactZip(run, "runledger-test", body, false)
	c := client(t, f, TokenReadOnly)
	list, _, err := c.Actions.ListWorkflowRunArtifacts(context.Background(), "o", "r", run, nil)
	if err != nil || len(list.Artifacts) != 1 {
		t.Fatalf("artifacts %+v, %v", list, err)
	}
	a := list.Artifacts[0]
	sum := sha256.Sum256(body)
	if a.GetID() != id || a.GetSizeInBytes() != int64(len(body)) || a.GetExpired() || a.GetWorkflowRun().GetHeadSHA() != sha ||
		a.GetWorkflowRun().GetID() != run || a.GetArchiveDownloadURL() != fmt.Sprintf("%s/repos/o/r/actions/artifacts/%d/zip", f.APIURL(), id) {
		t.Errorf("artifact %s", github.Stringify(a))
	}
	_, raw := do(t, "GET", fmt.Sprintf("%s/repos/o/r/actions/runs/%d/artifacts", f.APIURL(), run), TokenReadOnly, "")
	if !strings.Contains(raw, `"digest":"sha256:`+hex.EncodeToString(sum[:])+`"`) {
		t.Errorf("listing lacks the archive's digest: %.300s", raw)
	}
	loc, resp, err := c.Actions.DownloadArtifact(context.Background(), "o", "r", id, 0)
	if err != nil || resp.StatusCode != http.StatusFound || loc.Query().Get("sig") == "" || loc.Host != strings.TrimPrefix(f.URL(), "http://") {
		t.Fatalf("download: %v, %v", resp, err)
	}
	blob := loc.String()
	n := len(body)
	tests := []struct {
		rng, wantRange string
		want           int
		from, to       int // the body expected, body[from:to]
	}{
		{"bytes=0-99", "bytes 0-99/" + strconv.Itoa(n), http.StatusPartialContent, 0, 100},
		{"bytes=-22", fmt.Sprintf("bytes %d-%d/%d", n-22, n-1, n), http.StatusPartialContent, n - 22, n},
		{fmt.Sprintf("bytes=%d-%d", n-10, n+50), fmt.Sprintf("bytes %d-%d/%d", n-10, n-1, n), http.StatusPartialContent, n - 10, n},
		{fmt.Sprintf("bytes=%d-", n), "bytes */" + strconv.Itoa(n), http.StatusRequestedRangeNotSatisfiable, 0, 0},
		{"", "", http.StatusOK, 0, n},
	}
	served := int64(0)
	for _, tt := range tests {
		resp, got := get(t, blob, tt.rng)
		if resp.StatusCode != tt.want || resp.Header.Get("Content-Range") != tt.wantRange {
			t.Errorf("Range %q: HTTP %d Content-Range %q, want %d %q", tt.rng, resp.StatusCode, resp.Header.Get("Content-Range"), tt.want, tt.wantRange)
		}
		if tt.want != http.StatusRequestedRangeNotSatisfiable && !bytes.Equal(got, body[tt.from:tt.to]) {
			t.Errorf("Range %q: %d bytes, not body[%d:%d]", tt.rng, len(got), tt.from, tt.to)
		}
		served += int64(tt.to - tt.from)
	}
	if st := f.BlobStats(); st.Bytes != served || st.Requests != len(tests) || st.Authorized != 0 {
		t.Errorf("blob stats %+v, want %d bytes in %d requests, none authorized", st, served, len(tests))
	}
	before := f.BlobStats().Bytes
	zr, err := zip.NewReader(rangeReader{t, blob}, int64(n))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := zr.Open("index.json")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(idx); string(b) != `{"tests":3}` {
		t.Errorf("index.json %q", b)
	}
	if read := f.BlobStats().Bytes - before; read > int64(n)/100 {
		t.Errorf("reading the index took %d of the blob's %d bytes", read, n)
	}
}

// TestFakeRefusesArtifactsLikeGitHub: expired and unknown artifacts, tokens
// denied actions: read, tampered blob URLs, and faults on the new routes.
func TestFakeRefusesArtifactsLikeGitHub(t *testing.T) {
	f := New(t, "")
	run := f.AddWorkflowRun(WorkflowRun{HeadSHA: strings.Repeat("e", 40)})
	live := f.AddArtifactZip(run, "live", bigZip(t, 1024), false)
	expired := f.AddArtifactZip(run, "old", bigZip(t, 1024), true)
	f.DenyActions(TokenPersonal)
	ctx := context.Background()
	download := func(tok string, id int64) func() (int, string) {
		return func() (int, string) {
			code, body := do(t, "GET", fmt.Sprintf("%s/repos/o/r/actions/artifacts/%d/zip", f.APIURL(), id), tok, "")
			var e struct{ Message string }
			json.Unmarshal([]byte(body), &e)
			return code, e.Message
		}
	}
	listing := func(tok string, call func(c *github.Client) (*github.Response, error)) func() (int, string) {
		return func() (int, string) {
			resp, err := call(client(t, f, tok))
			var e *github.ErrorResponse
			if !errors.As(err, &e) {
				return 0, fmt.Sprint(err)
			}
			return resp.StatusCode, e.Message
		}
	}
	tests := []struct {
		name    string
		call    func() (int, string)
		route   string
		want    int
		message string
	}{
		{"expired artifact", download(TokenInstallation, expired), RouteArtifactZip, http.StatusGone, "Artifact has expired"},
		{"unknown artifact", download(TokenInstallation, 999999), RouteArtifactZip, http.StatusNotFound, "Not Found"},
		{"denied download", download(TokenPersonal, live), RouteArtifactZip, http.StatusForbidden, "Resource not accessible by integration"},
		{"denied workflow runs", listing(TokenPersonal, func(c *github.Client) (*github.Response, error) {
			_, resp, err := c.Actions.ListWorkflowRunsByFileName(ctx, "o", "r", "ci.yml", nil)
			return resp, err
		}), RouteWorkflowRuns, http.StatusForbidden, "Resource not accessible by integration"},
		{"denied repository runs", listing(TokenPersonal, func(c *github.Client) (*github.Response, error) {
			_, resp, err := c.Actions.ListRepositoryWorkflowRuns(ctx, "o", "r", nil)
			return resp, err
		}), RouteRepoRuns, http.StatusForbidden, "Resource not accessible by integration"},
		{"denied artifact listing", listing(TokenPersonal, func(c *github.Client) (*github.Response, error) {
			_, resp, err := c.Actions.ListWorkflowRunArtifacts(ctx, "o", "r", run, nil)
			return resp, err
		}), RouteArtifacts, http.StatusForbidden, "Resource not accessible by integration"},
		{"injected fault", listing(TokenInstallation, func(c *github.Client) (*github.Response, error) {
			f.AddFault(RouteWorkflowRuns, Fault{Status: http.StatusServiceUnavailable, Body: `{"message":"Service Unavailable"}`})
			_, resp, err := c.Actions.ListWorkflowRunsByFileName(ctx, "o", "r", "ci.yml", nil)
			return resp, err
		}), RouteWorkflowRuns, http.StatusServiceUnavailable, "Service Unavailable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := f.CallCount(tt.route)
			code, msg := tt.call()
			if code != tt.want || msg != tt.message || f.CallCount(tt.route) != calls+1 {
				t.Errorf("HTTP %d %q after %d calls, want %d %q after 1", code, msg, f.CallCount(tt.route)-calls, tt.want, tt.message)
			}
		})
	}
	if _, resp, err := client(t, f, TokenInstallation).Actions.DownloadArtifact(ctx, "o", "r", expired, 0); err == nil || resp.StatusCode != http.StatusGone {
		t.Errorf("go-github download of an expired artifact: %v, want HTTP 410", err)
	}
	loc, _, err := client(t, f, TokenReadOnly).Actions.DownloadArtifact(ctx, "o", "r", live, 0)
	if err != nil {
		t.Fatalf("a public repository's fork token may download: %v", err)
	}
	other := *loc
	other.Path = fmt.Sprintf("/actions-results/%d/artifacts/%d.zip", run, expired)
	unsigned := *loc
	unsigned.RawQuery = ""
	f.AddFault(RouteBlob, Fault{Status: http.StatusInternalServerError, Body: "busy"})
	for _, tt := range []struct {
		name string
		url  string
		want int
	}{
		{"injected fault", loc.String(), http.StatusInternalServerError},
		{"signature of another blob", other.String(), http.StatusForbidden},
		{"no signature", unsigned.String(), http.StatusForbidden},
		{"valid", loc.String(), http.StatusOK},
	} {
		if resp, _ := get(t, tt.url, ""); resp.StatusCode != tt.want {
			t.Errorf("%s: HTTP %d, want %d", tt.name, resp.StatusCode, tt.want)
		}
	}
	if n := f.CallCount(RouteBlob); n != 4 {
		t.Errorf("%d blob calls, want 4", n)
	}
}
