package artifact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

const userAgent = "runledger-artifact"

// Retry bounds the retries of 429 and 5xx answers and connection errors.
// Other 4xx answers are never retried.
type Retry struct {
	Max     int           // retries after the first attempt
	WaitMin time.Duration // first backoff; doubles up to WaitMax
	WaitMax time.Duration
}

// DefaultRetry is the policy NewUploader and Open start with.
var DefaultRetry = Retry{Max: 5, WaitMin: time.Second, WaitMax: 30 * time.Second}

// Uploader uploads one artifact per job to the Actions results service.
// Call Upload from one goroutine at a time.
type Uploader struct {
	// Stdout receives the ::add-mask:: workflow command for the signed
	// upload URL when running in Actions. Nil prints nothing.
	Stdout io.Writer
	// RetentionDays asks for an expiry; 0 leaves the repository's default.
	// It is capped by GITHUB_RETENTION_DAYS.
	RetentionDays int
	Retry         Retry
	// Now is the clock for expires_at; nil means time.Now.
	Now func() time.Time

	env     func(string) string
	client  *http.Client
	results *results
	ids     backendIDs
}

// Result is what an upload produced.
type Result struct {
	ID      int64
	Name    string
	URL     string // {GITHUB_SERVER_URL}/{repo}/actions/runs/{run}/artifacts/{id}; "" if unknown
	SHA256  string // of the whole zip, as given to FinalizeArtifact
	Size    int64  // bytes of the zip
	Entries []Entry
}

// NewUploader reads the Actions runtime from env (os.Getenv in production).
// It returns ErrNotInActions when there is no runtime, and an error for a
// malformed token or results URL. client may be nil.
func NewUploader(env func(string) string, client *http.Client) (*Uploader, error) {
	token, resultsURL := env("ACTIONS_RUNTIME_TOKEN"), env("ACTIONS_RESULTS_URL")
	if token == "" || resultsURL == "" {
		return nil, ErrNotInActions
	}
	ids, err := backendIDsFromToken(token)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(resultsURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("ACTIONS_RESULTS_URL is not an absolute URL")
	}
	if client == nil {
		client = http.DefaultClient
	}
	up := &Uploader{env: env, client: client, ids: ids, Retry: DefaultRetry}
	up.results = &results{origin: u.Scheme + "://" + u.Host, token: token}
	return up, nil
}

// Upload zips files (plus the manifest) and uploads the zip as the artifact
// name, sanitised. The zip is produced while it is sent. Every failure is an
// *UploadError; a name the run already used wraps ErrNameConflict.
func (u *Uploader) Upload(ctx context.Context, name string, files []File) (*Result, error) {
	name = SanitizeName(name)
	fail := func(step string, err error) (*Result, error) {
		return nil, &UploadError{Name: name, Step: step, Err: err}
	}
	u.results.http = newRetryClient(u.client, u.Retry)
	signed, err := u.create(ctx, name)
	if err != nil {
		return fail("CreateArtifact", err)
	}
	u.mask(signed.String())
	blob := &blockBlob{url: signed, http: u.results.http}
	entries, size, sum, err := u.stream(ctx, blob, files)
	if err != nil {
		return fail("upload zip", err)
	}
	id, err := u.finalize(ctx, name, size, sum)
	if err != nil {
		return fail("FinalizeArtifact", err)
	}
	return &Result{ID: id, Name: name, URL: u.artifactURL(id), SHA256: sum, Size: size, Entries: entries}, nil
}

// stream writes the zip into a pipe that the blob upload reads from.
func (u *Uploader) stream(ctx context.Context, blob *blockBlob, files []File) ([]Entry, int64, string, error) {
	pr, pw := io.Pipe()
	type zipped struct {
		entries []Entry
		size    int64
		sum     string
		err     error
	}
	done := make(chan zipped, 1)
	go func() {
		var z zipped
		z.entries, z.size, z.sum, z.err = writeZip(pw, files)
		pw.CloseWithError(z.err)
		done <- z
	}()
	uerr := blob.upload(ctx, pr)
	pr.CloseWithError(fmt.Errorf("upload stopped: %w", uerr)) // unblocks the writer if the upload gave up
	z := <-done
	if uerr != nil {
		return nil, 0, "", uerr
	}
	if z.err != nil {
		return nil, 0, "", z.err
	}
	return z.entries, z.size, z.sum, nil
}

func (u *Uploader) create(ctx context.Context, name string) (*url.URL, error) {
	req := map[string]any{
		"workflow_run_backend_id":     u.ids.Run,
		"workflow_job_run_backend_id": u.ids.Job,
		"name":                        name,
		"version":                     4,
	}
	if exp, ok := u.expiresAt(); ok {
		req["expires_at"] = exp.UTC().Format(time.RFC3339)
	}
	r, err := u.results.call(ctx, "CreateArtifact", req)
	if err != nil {
		return nil, err
	}
	raw := r.str("signed_upload_url", "signedUploadUrl")
	signed, err := url.Parse(raw)
	if raw == "" || err != nil || signed.Scheme == "" || signed.Host == "" {
		return nil, errors.New("the answer has no usable signed upload URL")
	}
	return signed, nil
}

func (u *Uploader) finalize(ctx context.Context, name string, size int64, sum string) (int64, error) {
	r, err := u.results.call(ctx, "FinalizeArtifact", map[string]any{
		"workflow_run_backend_id":     u.ids.Run,
		"workflow_job_run_backend_id": u.ids.Job,
		"name":                        name,
		"size":                        strconv.FormatInt(size, 10),
		"hash":                        "sha256:" + sum,
	})
	if err != nil {
		return 0, err
	}
	id, ok := r.int64("artifact_id", "artifactId")
	if !ok || id <= 0 {
		return 0, errors.New("the answer has no artifact id")
	}
	return id, nil
}

// expiresAt honours RetentionDays, capped by the repository's maximum.
func (u *Uploader) expiresAt() (time.Time, bool) {
	days := u.RetentionDays
	if days <= 0 {
		return time.Time{}, false
	}
	if max, err := strconv.Atoi(u.env("GITHUB_RETENTION_DAYS")); err == nil && max > 0 && days > max {
		days = max
	}
	now := time.Now
	if u.Now != nil {
		now = u.Now
	}
	return now().AddDate(0, 0, days), true
}

// mask tells the runner to hide the signed URL should anything print it.
// Workflow-command data escapes %, CR and LF; the runner unescapes them, so
// the masked value is the URL itself.
func (u *Uploader) mask(signed string) {
	if u.Stdout == nil || u.env("GITHUB_ACTIONS") != "true" {
		return
	}
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(signed)
	fmt.Fprintf(u.Stdout, "::add-mask::%s\n", esc)
}

func (u *Uploader) artifactURL(id int64) string {
	server, repo, run := u.env("GITHUB_SERVER_URL"), u.env("GITHUB_REPOSITORY"), u.env("GITHUB_RUN_ID")
	if server == "" || repo == "" || run == "" {
		return ""
	}
	return fmt.Sprintf("%s/%s/actions/runs/%s/artifacts/%d", strings.TrimSuffix(server, "/"), repo, run, id)
}

// newRetryClient wraps client with the retry policy. It has no logger: the
// library would print request URLs, and signed URLs must never be printed.
func newRetryClient(client *http.Client, r Retry) *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient:   client,
		Logger:       nil,
		RetryWaitMin: r.WaitMin,
		RetryWaitMax: r.WaitMax,
		RetryMax:     r.Max,
		CheckRetry:   retryablehttp.DefaultRetryPolicy,
		Backoff:      retryablehttp.DefaultBackoff,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
}
