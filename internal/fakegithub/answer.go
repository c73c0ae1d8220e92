package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// answer serves one validated request as GitHub would, from the fake's state.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, key string, params map[string]string, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Ratelimit-Limit", "5000")
	w.Header().Set("X-Ratelimit-Remaining", "4999")
	w.Header().Set("X-Ratelimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	login, known := map[string]string{TokenInstallation: ActionsBot, TokenReadOnly: ActionsBot, TokenPersonal: "octocat"}[tok]
	if !known {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest", "status": "401"})
		return
	}
	if s.actionsDenied(w, key, tok) {
		return
	}
	pr, _ := strconv.Atoi(params["issue_number"])
	id, _ := strconv.ParseInt(params["comment_id"], 10, 64)
	switch key {
	case RouteUser:
		s.getUser(w, tok, login)
	case RoutePulls:
		s.listPulls(w, params)
	case RouteList:
		s.listComments(w, r, params, pr)
	case RouteCreate:
		s.writeComment(w, tok, login, params, pr, 0, body)
	case RouteEdit:
		s.writeComment(w, tok, login, params, 0, id, body)
	case RouteDelete:
		s.deleteComment(w, tok, login, id)
	case RouteArtifacts:
		s.listArtifacts(w, r, params)
	case RouteWorkflowRuns, RouteRepoRuns:
		s.listRuns(w, r, key, params)
	case RouteArtifactZip:
		s.downloadArtifact(w, params)
	case RouteAttemptJobs:
		s.listJobs(w, params)
	default:
		s.t.Errorf("fake serves no %s", key)
		w.WriteHeader(http.StatusNotImplemented)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func forbidden(w http.ResponseWriter) {
	forbiddenAt(w, "https://docs.github.com/rest/issues/comments#create-an-issue-comment")
}

func forbiddenAt(w http.ResponseWriter, doc string) {
	writeJSON(w, http.StatusForbidden, map[string]any{"message": "Resource not accessible by integration", "documentation_url": doc, "status": "403"})
}

func notFound(w http.ResponseWriter) { notFoundAt(w, "https://docs.github.com/rest") }

func notFoundAt(w http.ResponseWriter, doc string) {
	writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found", "documentation_url": doc, "status": "404"})
}

// example is a fresh copy of one of the description's examples, so answers
// start from GitHub's own shapes.
func (s *Server) example(name string) map[string]any {
	ex := s.doc.Components.Examples[name]
	b, _ := json.Marshal(ex.Value.Value)
	var out any
	json.Unmarshal(b, &out)
	if m, ok := out.(map[string]any); ok {
		return m
	}
	return out.([]any)[0].(map[string]any)
}

func (s *Server) getUser(w http.ResponseWriter, tok, login string) {
	if tok != TokenPersonal {
		forbidden(w)
		return
	}
	u := s.example("private-user-response-with-public-and-private-profile-information")
	u["login"] = login
	u["user_view_type"] = "private" // GitHub sends it now; the example predates it
	writeJSON(w, http.StatusOK, u)
}

func (s *Server) listPulls(w http.ResponseWriter, params map[string]string) {
	s.mu.Lock()
	pulls := slices.Clone(s.pulls[params["commit_sha"]])
	s.mu.Unlock()
	out := []any{}
	full := params["owner"] + "/" + params["repo"]
	for _, p := range pulls {
		m := s.example("pull-request-simple-items")
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

func (s *Server) commentJSON(params map[string]string, pr int, c Comment) map[string]any {
	m := s.example("issue-comment")
	repo := params["owner"] + "/" + params["repo"]
	m["id"], m["body"] = c.ID, c.Body
	m["html_url"] = fmt.Sprintf("%s/%s/pull/%d#issuecomment-%d", s.ServerURL(), repo, pr, c.ID)
	m["url"] = fmt.Sprintf("%s/repos/%s/issues/comments/%d", s.APIURL(), repo, c.ID)
	m["created_at"], m["updated_at"] = c.Created.Format(time.RFC3339), c.Updated.Format(time.RFC3339)
	user := m["user"].(map[string]any)
	user["login"] = c.User
	user["type"] = map[bool]string{true: "Bot", false: "User"}[strings.HasSuffix(c.User, "[bot]")]
	return m
}

// listComments pages like GitHub: per_page (default 30, max 100), page, and
// a Link header with rel="next".
func (s *Server) listComments(w http.ResponseWriter, r *http.Request, params map[string]string, pr int) {
	snap := s.PRComments(pr)
	s.pause()
	lo, hi := s.page(w, r, len(snap))
	out := []any{}
	for _, c := range snap[lo:hi] {
		out = append(out, s.commentJSON(params, pr, c))
	}
	writeJSON(w, http.StatusOK, out)
}

// page reads per_page (30 by default, at most 100) and page, sets the Link
// header as GitHub does (prev, next, last, first, each when it applies) and
// returns the slice bounds.
func (s *Server) page(w http.ResponseWriter, r *http.Request, n int) (lo, hi int) {
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 {
		per = 30
	}
	per = min(per, 100)
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	last := max((n+per-1)/per, 1)
	var links []string
	link := func(p int, rel string) {
		u := *r.URL
		q := u.Query()
		q.Set("page", strconv.Itoa(p))
		u.RawQuery = q.Encode()
		links = append(links, fmt.Sprintf(`<%s%s>; rel="%s"`, s.srv.URL, u.RequestURI(), rel))
	}
	if page > 1 {
		link(min(page-1, last), "prev")
	}
	if page < last {
		link(page+1, "next")
		link(last, "last")
	}
	if page > 1 {
		link(1, "first")
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	return min((page-1)*per, n), min(page*per, n)
}

// listArtifacts answers as GitHub's "list workflow run artifacts" does,
// name filter included.
func (s *Server) listArtifacts(w http.ResponseWriter, r *http.Request, params map[string]string) {
	id, _ := strconv.ParseInt(params["run_id"], 10, 64)
	s.mu.Lock()
	var all []artifact
	for _, a := range s.artifacts[id] {
		if name := r.URL.Query().Get("name"); name == "" || a.Name == name {
			all = append(all, a)
		}
	}
	run := s.run(id)
	s.mu.Unlock()
	lo, hi := s.page(w, r, len(all))
	out := []any{}
	for _, a := range all[lo:hi] {
		out = append(out, s.artifactJSON(params, a, run))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(all), "artifacts": out})
}

// writeComment creates (id == 0) or edits a comment, enforcing GitHub's
// body limit and who may write.
func (s *Server) writeComment(w http.ResponseWriter, tok, login string, params map[string]string, pr int, id int64, body []byte) {
	var in struct{ Body string }
	json.Unmarshal(body, &in)
	if tok == TokenReadOnly {
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
	s.pause()
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now().UTC()
	if id == 0 {
		s.nextID++
		c := &Comment{ID: s.nextID, User: login, Body: in.Body, Created: now, Updated: now}
		s.comments[pr] = append(s.comments[pr], c)
		writeJSON(w, http.StatusCreated, s.commentJSON(params, pr, *c))
		return
	}
	n, c := s.find(id)
	if c == nil {
		notFound(w)
		return
	}
	if c.User != login {
		s.foreignEdits++
		forbidden(w)
		return
	}
	c.Body, c.Updated = in.Body, now
	writeJSON(w, http.StatusOK, s.commentJSON(params, n, *c))
}

func (s *Server) deleteComment(w http.ResponseWriter, tok, login string, id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, c := s.find(id)
	if c == nil {
		notFound(w)
		return
	}
	if c.User != login || tok == TokenReadOnly {
		s.foreignEdits++
		forbidden(w)
		return
	}
	s.comments[n] = slices.DeleteFunc(s.comments[n], func(x *Comment) bool { return x.ID == id })
	w.WriteHeader(http.StatusNoContent)
}

// find returns comment id and its pull request; the caller holds s.mu.
func (s *Server) find(id int64) (int, *Comment) {
	for n, cs := range s.comments {
		for _, c := range cs {
			if c.ID == id {
				return n, c
			}
		}
	}
	return 0, nil
}
