package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Secrets the fake puts in signed URLs; tests assert they never leak.
const (
	uploadSig   = "UPLOADSECRET"
	downloadSig = "DOWNLOADSECRET"
	apiToken    = "api-token-xyz"
)

// fakeService is a strict stand-in for the results service, Azure block
// blob storage and the REST API's artifact download. It refuses anything
// the real services would refuse and checks what they cannot: block order,
// the committed list, the finalize size and hash.
type fakeService struct {
	t       *testing.T
	srv     *httptest.Server
	token   string // runtime token
	run     string
	job     string
	camel   bool // answer in lowerCamel instead of proto names
	discard bool // do not keep blob bytes (memory test)

	mu        sync.Mutex
	faults    map[string][]int // step -> statuses to answer before behaving
	truncate  map[string]int   // step -> responses to cut short
	artifacts map[string]*fakeArtifact
	byID      map[int64]*fakeArtifact
	nextID    int64
	served    int64 // blob bytes served on download
	blockPuts int
	created   []map[string]any
	// expireAfter, when set, makes each signed download URL good for that
	// many range requests, after which the blob host answers 403 as Azure
	// does for an expired SAS; gen counts the URLs handed out.
	expireAfter int
	gen         int
	uses        map[string]int
}

type fakeArtifact struct {
	name      string
	id        int64
	idLen     int
	staged    []string
	sum       hash.Hash
	size      int64
	data      []byte
	blob      io.ReaderAt // what downloads serve
	committed bool
	finalized bool
}

func newFake(t *testing.T) *fakeService {
	f := &fakeService{t: t, run: "8123", job: "8124", faults: map[string][]int{}, truncate: map[string]int{},
		artifacts: map[string]*fakeArtifact{}, byID: map[int64]*fakeArtifact{}, nextID: 9000}
	f.token = fakeToken(t, "Actions.Results:"+f.run+":"+f.job)
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+twirpService+"CreateArtifact", f.create)
	mux.HandleFunc("POST "+twirpService+"FinalizeArtifact", f.finalize)
	mux.HandleFunc("PUT /upload/{name}", f.put)
	mux.HandleFunc("GET /download/{id}", f.download)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// fakeToken is an unsigned JWT with the given scp claim.
func fakeToken(t *testing.T, scp string) string {
	t.Helper()
	payload, err := json.Marshal(map[string]any{"scp": scp, "exp": time.Now().Add(time.Hour).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"RS256","typ":"JWT"}`)) + "." + enc(payload) + "." + enc([]byte("sig"))
}

func (f *fakeService) env() func(string) string {
	vars := map[string]string{
		"ACTIONS_RUNTIME_TOKEN": f.token,
		"ACTIONS_RESULTS_URL":   f.srv.URL + "/some/path/",
		"GITHUB_SERVER_URL":     "https://ghe.example",
		"GITHUB_REPOSITORY":     "octo/repo",
		"GITHUB_RUN_ID":         "77",
	}
	return func(k string) string { return vars[k] }
}

// fault answers with an injected status or truncation if one is queued.
func (f *fakeService) fault(w http.ResponseWriter, step string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if q := f.faults[step]; len(q) > 0 {
		f.faults[step] = q[1:]
		http.Error(w, `{"code":"unavailable","msg":"injected"}`, q[0])
		return true
	}
	return false
}

func (f *fakeService) cut(step string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.truncate[step] > 0 {
		f.truncate[step]--
		return true
	}
	return false
}

func (f *fakeService) reply(w http.ResponseWriter, step string, snake map[string]any) {
	out := map[string]any{}
	for k, v := range snake {
		if f.camel {
			k = camel(k)
		}
		out[k] = v
	}
	data, _ := json.Marshal(out)
	w.Header().Set("Content-Type", "application/json")
	if f.cut(step) {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.Write(data[:len(data)/2]) // the server closes the connection short
		return
	}
	w.Write(data)
}

func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}

func (f *fakeService) twirpAuth(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Authorization") != "Bearer "+f.token || r.Header.Get("Content-Type") != "application/json" {
		http.Error(w, `{"code":"unauthenticated","msg":"bad token"}`, http.StatusUnauthorized)
		return false
	}
	return true
}

// decode reads a Twirp request strictly: unknown fields are refused, as
// protojson does.
func decodeStrict(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		http.Error(w, `{"code":"malformed","msg":"`+err.Error()+`"}`, http.StatusBadRequest)
		return false
	}
	return true
}

func (f *fakeService) create(w http.ResponseWriter, r *http.Request) {
	if f.fault(w, "CreateArtifact") || !f.twirpAuth(w, r) {
		return
	}
	var req struct {
		Run       string `json:"workflow_run_backend_id"`
		Job       string `json:"workflow_job_run_backend_id"`
		Name      string `json:"name"`
		Version   int    `json:"version"`
		ExpiresAt string `json:"expires_at"`
	}
	if !decodeStrict(w, r, &req) {
		return
	}
	if req.Run != f.run || req.Job != f.job || req.Version != 4 || req.Name == "" || strings.ContainsAny(req.Name, forbidden) {
		http.Error(w, `{"code":"invalid_argument","msg":"bad create request"}`, http.StatusBadRequest)
		return
	}
	if req.ExpiresAt != "" {
		if _, err := time.Parse(time.RFC3339, req.ExpiresAt); err != nil {
			http.Error(w, `{"code":"invalid_argument","msg":"bad expires_at"}`, http.StatusBadRequest)
			return
		}
	}
	f.mu.Lock()
	if _, dup := f.artifacts[req.Name]; dup {
		f.mu.Unlock()
		http.Error(w, `{"code":"already_exists","msg":"an artifact with this name already exists on the workflow run"}`, http.StatusConflict)
		return
	}
	f.artifacts[req.Name] = &fakeArtifact{name: req.Name, sum: sha256.New()}
	f.created = append(f.created, map[string]any{"name": req.Name, "expires_at": req.ExpiresAt})
	f.mu.Unlock()
	f.reply(w, "CreateArtifact", map[string]any{"ok": true,
		"signed_upload_url": f.srv.URL + "/upload/" + req.Name + "?sv=2023&se=2099&sig=" + uploadSig})
}

func (f *fakeService) put(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	step := "block"
	if q.Get("comp") == "blocklist" {
		step = "blocklist"
	}
	if f.fault(w, step) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	a := f.artifacts[r.PathValue("name")]
	switch {
	case q.Get("sig") != uploadSig || a == nil || a.committed:
		http.Error(w, "AuthenticationFailed", http.StatusForbidden)
	case r.Header.Get("Authorization") != "":
		http.Error(w, "blob requests must not carry the runtime token", http.StatusBadRequest)
	case step == "block":
		f.putBlock(w, r, a, q.Get("blockid"))
	default:
		f.putBlockList(w, r, a)
	}
}

func (f *fakeService) putBlock(w http.ResponseWriter, r *http.Request, a *fakeArtifact, id string) {
	raw, err := base64.StdEncoding.DecodeString(id)
	if err != nil || len(raw) == 0 || len(raw) > 64 || (a.idLen != 0 && len(id) != a.idLen) {
		http.Error(w, "InvalidBlockId", http.StatusBadRequest)
		return
	}
	for _, s := range a.staged {
		if s == id {
			http.Error(w, "block staged twice (strict fake)", http.StatusBadRequest)
			return
		}
	}
	a.idLen = len(id)
	body := io.Writer(a.sum)
	if !f.discard {
		body = io.MultiWriter(a.sum, (*byteSink)(&a.data))
	}
	n, err := io.Copy(body, r.Body)
	if err != nil || n == 0 || n > BlockSize || n != r.ContentLength {
		http.Error(w, "bad block body", http.StatusBadRequest)
		return
	}
	a.size += n
	a.staged = append(a.staged, id)
	f.blockPuts++
	w.WriteHeader(http.StatusCreated)
}

type byteSink []byte

func (b *byteSink) Write(p []byte) (int, error) { *b = append(*b, p...); return len(p), nil }

func (f *fakeService) putBlockList(w http.ResponseWriter, r *http.Request, a *fakeArtifact) {
	var list struct {
		Latest []string `xml:"Latest"`
	}
	if r.Header.Get("x-ms-blob-content-type") != "application/zip" {
		http.Error(w, "missing x-ms-blob-content-type", http.StatusBadRequest)
		return
	}
	if err := xml.NewDecoder(r.Body).Decode(&list); err != nil {
		http.Error(w, "InvalidXmlDocument", http.StatusBadRequest)
		return
	}
	if strings.Join(list.Latest, ",") != strings.Join(a.staged, ",") {
		http.Error(w, "InvalidBlockList: committed list differs from the staged order", http.StatusBadRequest)
		return
	}
	a.committed = true
	w.WriteHeader(http.StatusCreated)
}

func (f *fakeService) finalize(w http.ResponseWriter, r *http.Request) {
	if f.fault(w, "FinalizeArtifact") || !f.twirpAuth(w, r) {
		return
	}
	var req struct {
		Run  string `json:"workflow_run_backend_id"`
		Job  string `json:"workflow_job_run_backend_id"`
		Name string `json:"name"`
		Size string `json:"size"`
		Hash string `json:"hash"`
	}
	if !decodeStrict(w, r, &req) {
		return
	}
	if id, err := f.commit(req.Name, req.Run, req.Job, req.Size, req.Hash); err != nil {
		http.Error(w, fmt.Sprintf(`{"code":"invalid_argument","msg":%q}`, err.Error()), http.StatusBadRequest)
	} else {
		f.reply(w, "FinalizeArtifact", map[string]any{"ok": true, "artifact_id": strconv.FormatInt(id, 10)})
	}
}

func (f *fakeService) commit(name, run, job, size, hash string) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a := f.artifacts[name]
	if a == nil || !a.committed || a.finalized || run != f.run || job != f.job {
		return 0, fmt.Errorf("no committed upload named %q for this job", name)
	}
	want := "sha256:" + hex.EncodeToString(a.sum.Sum(nil))
	if size != strconv.FormatInt(a.size, 10) || hash != want {
		return 0, fmt.Errorf("finalize says size %s hash %s, blob has %d %s", size, hash, a.size, want)
	}
	f.nextID++
	a.id, a.finalized = f.nextID, true
	a.blob = strings.NewReader(string(a.data))
	f.byID[a.id] = a
	return a.id, nil
}

// addBlob registers a finished zip for download, bypassing upload.
func (f *fakeService) addBlob(name string, blob io.ReaderAt, size int64) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	a := &fakeArtifact{name: name, id: f.nextID, blob: blob, size: size, finalized: true}
	f.artifacts[name], f.byID[a.id] = a, a
	return a.id
}

// open reads artifact id back by ranges, its signed URLs handed out as the
// REST API's redirect would (githubapi's tests cover that call itself).
func (f *fakeService) open(ctx context.Context, id int64) (*Reader, error) {
	return OpenRemote(ctx, nil, fmt.Sprintf("artifact %d", id), func(context.Context) (*url.URL, error) {
		return f.signedURL(id)
	})
}

// signedURL is a fresh signed download URL of artifact id.
func (f *fakeService) signedURL(id int64) (*url.URL, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byID[id] == nil {
		return nil, fmt.Errorf("artifact %d: no such artifact", id)
	}
	f.gen++
	return url.Parse(fmt.Sprintf("%s/download/%d?sv=2023&se=%d&sig=%s", f.srv.URL, id, f.gen, downloadSig))
}

// expired counts a use of the signed URL's generation and reports whether
// it is past its life.
func (f *fakeService) expired(r *http.Request) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.expireAfter == 0 {
		return false
	}
	if f.uses == nil {
		f.uses = map[string]int{}
	}
	se := r.URL.Query().Get("se")
	f.uses[se]++
	return f.uses[se] > f.expireAfter
}

// download serves a blob with Range support, counting the bytes it sends.
func (f *fakeService) download(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	f.mu.Lock()
	a := f.byID[id]
	f.mu.Unlock()
	if a == nil || r.URL.Query().Get("sig") != downloadSig || r.Header.Get("Authorization") != "" {
		http.Error(w, "AuthenticationFailed", http.StatusForbidden)
		return
	}
	if r.Header.Get("Authorization") == "" && f.expired(r) {
		http.Error(w, "AuthenticationFailed: Signed expiry time has passed", http.StatusForbidden)
		return
	}
	cw := &countingWriter{ResponseWriter: w, f: f, limit: -1}
	if r.Header.Get("Range") != "" && !strings.HasPrefix(r.Header.Get("Range"), "bytes=-") && f.cut("range") {
		cw.limit = 10
	}
	http.ServeContent(cw, r, "", time.Time{}, io.NewSectionReader(a.blob, 0, a.size))
}

type countingWriter struct {
	http.ResponseWriter
	f     *fakeService
	limit int64 // bytes to send before dropping the rest; -1 for all
}

// Write counts the bytes before it sends them: counted after, the last
// piece could reach the client, and the test read the count, before the
// count went up.
func (c *countingWriter) Write(p []byte) (int, error) {
	if c.limit >= 0 {
		keep := min(int64(len(p)), c.limit)
		c.limit -= keep
		c.count(int(keep))
		n, err := c.ResponseWriter.Write(p[:keep])
		if err != nil {
			return n, err
		}
		return len(p), nil
	}
	c.count(len(p))
	return c.ResponseWriter.Write(p)
}

func (c *countingWriter) count(n int) {
	c.f.mu.Lock()
	c.f.served += int64(n)
	c.f.mu.Unlock()
}

func (f *fakeService) servedBytes() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.served
}
