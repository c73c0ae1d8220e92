package fakegithub

import (
	"bytes"
	"crypto/hmac"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// RouteBlob is the blob storage an artifact download redirects to, like the
// signed Azure blob URLs GitHub hands out. It is not GitHub's API, so the
// OpenAPI checks do not apply, but AddFault and CallCount do.
const RouteBlob = "GET /actions-results/{run_id}/artifacts/{artifact_id}.zip"

var blobPath = regexp.MustCompile(`^/actions-results/(\d+)/artifacts/(\d+)\.zip$`)

// blobLifetime is how long a download URL stays valid; GitHub documents one
// minute.
const blobLifetime = time.Minute

// blobURL is a's signed download URL on the fake's host.
func (s *Server) blobURL(a artifact) string {
	p := fmt.Sprintf("/actions-results/%d/artifacts/%d.zip", a.run, a.ID)
	se := time.Now().UTC().Add(blobLifetime).Format(time.RFC3339)
	q := url.Values{
		"sv": {"2024-08-04"}, "sr": {"b"}, "sp": {"r"}, "se": {se},
		"rscd": {fmt.Sprintf("attachment; filename=%q", a.Name+".zip")},
		"sig":  {s.sign(p, se)},
	}
	return s.srv.URL + p + "?" + q.Encode()
}

func (s *Server) sign(p, se string) string {
	h := hmac.New(sha256.New, s.blobKey)
	h.Write([]byte(p + "\n" + se))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// serveBlob answers a blob request as Azure blob storage does: the
// signature and expiry are checked, one byte range is honoured (206, or 416
// past the end). It reports false for a path that is not a blob's.
func (s *Server) serveBlob(w http.ResponseWriter, r *http.Request) bool {
	m := blobPath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		return false
	}
	if ft := s.take(RouteBlob, nil); ft != nil {
		time.Sleep(ft.Delay)
		if ft.Status != 0 {
			writeFault(w, ft)
			return true
		}
	}
	q := r.URL.Query()
	if detail := s.checkSignature(r.URL.Path, q.Get("se"), q.Get("sig")); detail != "" {
		azureError(w, http.StatusForbidden, "AuthenticationFailed", detail)
		return true
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		azureError(w, http.StatusForbidden, "AuthorizationPermissionMismatch", "This request is not authorized to perform this operation using this permission.")
		return true
	}
	id, _ := strconv.ParseInt(m[2], 10, 64)
	a, _ := s.findArtifact(id)
	if a == nil {
		azureError(w, http.StatusNotFound, "BlobNotFound", "The specified blob does not exist.")
		return true
	}
	if strings.Contains(r.Header.Get("Range"), ",") {
		s.t.Errorf("%s: Range %q: blob storage serves one range per request", RouteBlob, r.Header.Get("Range"))
		azureError(w, http.StatusRequestedRangeNotSatisfiable, "InvalidRange", "The range specified is invalid for the current size of the resource.")
		return true
	}
	sum := sha256.Sum256(a.zip)
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", q.Get("rscd"))
	w.Header().Set("ETag", fmt.Sprintf(`"0x%X"`, sum[:8]))
	w.Header().Set("X-Ms-Blob-Type", "BlockBlob")
	cw := &countingWriter{ResponseWriter: w}
	http.ServeContent(cw, r, "", a.created, bytes.NewReader(a.zip))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blob.Requests++
	s.blob.Bytes += cw.n
	if r.Header.Get("Authorization") != "" {
		s.blob.Authorized++
	}
	return true
}

// checkSignature says why a blob URL is not valid now, or "".
func (s *Server) checkSignature(p, se, sig string) string {
	if !hmac.Equal([]byte(sig), []byte(s.sign(p, se))) {
		return "Signature did not match."
	}
	exp, err := time.Parse(time.RFC3339, se)
	if err != nil || time.Now().After(exp) {
		return fmt.Sprintf("Signed expiry time [%s] must be after current time.", se)
	}
	return ""
}

func azureError(w http.ResponseWriter, code int, name, msg string) {
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("X-Ms-Error-Code", name)
	w.WriteHeader(code)
	fmt.Fprintf(w, `<?xml version="1.0" encoding="utf-8"?><Error><Code>%s</Code><Message>%s</Message></Error>`, name, msg)
}

// countingWriter counts the body bytes of successful answers.
type countingWriter struct {
	http.ResponseWriter
	code int
	n    int64
}

func (c *countingWriter) WriteHeader(code int) {
	c.code = code
	c.ResponseWriter.WriteHeader(code)
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.ResponseWriter.Write(b)
	if c.code == 0 || c.code/100 == 2 {
		c.n += int64(n)
	}
	return n, err
}

// blobKey is a fresh signing key, so a URL from one server (or one signed
// by a test by hand) is not valid on another.
func blobKey() []byte {
	k := make([]byte, 32)
	crand.Read(k)
	return k
}
