package fakegithub

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
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
