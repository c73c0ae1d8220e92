package proxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"
)

// entry is what one request's log line says, filled in as the request
// goes through.
type entry struct {
	api                     API
	conversation            string
	outputs, collapsed      int
	frozen                  int
	cold                    bool
	bytesBefore, bytesAfter int64
	decision                time.Duration
	// passKind and passWhy say why a body the proxy would compact went
	// as it came ("" when it was compacted or is not compacted).
	passKind, passWhy string
	status            int
	responseBytes     int64
	upstreamErr       string
	cancelled         bool
}

type entryKey struct{}

func entryOf(r *http.Request) *entry {
	if e, ok := r.Context().Value(entryKey{}).(*entry); ok {
		return e
	}
	return &entry{}
}

// forward compacts the body when the request is one the proxy knows, and
// sends it upstream; the response streams back as it arrives.
func (s *Server) forward(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	api, compactable := route(r)
	e := &entry{api: api}
	rec := &recorder{ResponseWriter: w}
	defer func() {
		p := recover()
		e.status, e.responseBytes = rec.status, rec.bytes
		switch {
		case p == nil || e.upstreamErr != "":
		case r.Context().Err() != nil:
			e.cancelled = true
			e.upstreamErr = "the client went away mid-response: the upstream request was cancelled"
		default:
			e.upstreamErr = "the upstream's response broke off mid-body; the client's was cut"
		}
		s.stats.add(e)
		s.logRequest(r, e, time.Since(start))
		if p != nil {
			panic(p)
		}
	}()
	if compactable {
		s.prepareBody(r, e)
	}
	rp := s.upstream(api, r)
	rp.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), entryKey{}, e)))
}

// prepareBody replaces the request's body by its compacted form, or
// leaves it to go upstream byte for byte, saying why in e.
func (s *Server) prepareBody(r *http.Request, e *entry) {
	if enc := r.Header.Get("Content-Encoding"); enc != "" && !strings.EqualFold(enc, "identity") {
		e.passKind, e.passWhy = "encoded", "the body is "+enc+"-encoded"
		return
	}
	if r.ContentLength > s.cfg.MaxBody {
		e.passKind, e.passWhy = "over_bound", fmt.Sprintf("the body's %d bytes are over the bound of %d", r.ContentLength, s.cfg.MaxBody)
		e.bytesBefore, e.bytesAfter = r.ContentLength, r.ContentLength
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, s.cfg.MaxBody+1))
	if err != nil {
		// The client's body broke off: what came goes on, and the error
		// with it, so the upstream request fails as the client's did.
		r.Body = readCloser{io.MultiReader(bytes.NewReader(body), errReader{err}), r.Body}
		e.passKind, e.passWhy = "read_error", "reading the body: "+err.Error()
		return
	}
	if int64(len(body)) > s.cfg.MaxBody {
		r.Body = readCloser{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
		e.passKind, e.passWhy = "over_bound", fmt.Sprintf("the body is over the bound of %d bytes", s.cfg.MaxBody)
		return
	}
	out := s.compactBody(e, body)
	e.bytesBefore, e.bytesAfter = int64(len(body)), int64(len(out))
	r.Body = io.NopCloser(bytes.NewReader(out))
	r.ContentLength = int64(len(out))
	r.TransferEncoding = nil
	r.Header.Del("Content-Length") // the transport writes the new one
}

type readCloser struct {
	io.Reader
	io.Closer
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// reverseProxy forwards to target: the client's headers (hop-by-hop ones
// aside), the path and query, the response unchanged, flushed after every
// write so that server-sent events reach the client as they come.
func (s *Server) reverseProxy(target *url.URL) *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Rewrite:       func(pr *httputil.ProxyRequest) { rewrite(pr, target) },
		Transport:     s.cfg.Transport,
		FlushInterval: -1,
		ErrorHandler:  upstreamError(target),
		// Errors are told in the request's own log line.
		ErrorLog: log.New(io.Discard, "", 0),
	}
}

// rewrite points the outgoing request at target. A base ending in /v1 (as
// OPENAI_BASE_URL is written) takes a /v1/... path without doubling it.
func rewrite(pr *httputil.ProxyRequest, target *url.URL) {
	path := pr.In.URL.Path
	base := strings.TrimSuffix(target.Path, "/")
	if strings.HasSuffix(base, "/v1") && (path == "/v1" || strings.HasPrefix(path, "/v1/")) {
		path = strings.TrimPrefix(path, "/v1")
	}
	pr.Out.URL.Scheme, pr.Out.URL.Host = target.Scheme, target.Host
	pr.Out.URL.Path, pr.Out.URL.RawPath = base+path, ""
	pr.Out.Host = ""
}

// upstreamError answers a request the upstream could not: 502 (504 on a
// timeout) with a body that names the upstream and why, in the error
// shape both SDKs read. A client that went away gets nothing; the
// upstream request was cancelled with it.
func upstreamError(target *url.URL) func(http.ResponseWriter, *http.Request, error) {
	return func(w http.ResponseWriter, r *http.Request, err error) {
		e := entryOf(r)
		if r.Context().Err() != nil {
			e.cancelled = true
			e.upstreamErr = "the client went away: the upstream request was cancelled"
			return
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is named once, without its query
		}
		status := http.StatusBadGateway
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			status = http.StatusGatewayTimeout
		}
		msg := fmt.Sprintf("runledger proxy: upstream %s could not be reached: %v", origin(target), err)
		e.upstreamErr = msg
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Runledger-Proxy-Error", "upstream")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"type":"error","error":{"type":"api_error","message":%q}}`+"\n", msg)
	}
}

// origin is target without user info or query, for messages.
func origin(target *url.URL) string {
	u := url.URL{Scheme: target.Scheme, Host: target.Host, Path: target.Path}
	return u.String()
}

// recorder notes the status and the bytes written; Unwrap lets the
// reverse proxy flush the client's connection through it.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

// WriteHeader sends an event stream's headers at once: a client waits
// for them before it reads the first event, which may be a while.
func (r *recorder) WriteHeader(code int) {
	final := r.status == 0 && code >= 200
	if final {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
	if final && strings.HasPrefix(r.Header().Get("Content-Type"), "text/event-stream") {
		http.NewResponseController(r.ResponseWriter).Flush()
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
