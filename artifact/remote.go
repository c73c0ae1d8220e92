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

	"github.com/hashicorp/go-retryablehttp"
)

// readAttempts is how often a ranged read is tried when the body comes back
// shorter than the range: a truncated answer is never taken as the data.
const readAttempts = 3

// Resolver answers with a signed URL of an artifact's zip on the blob host.
// It is asked once on opening and again whenever the host refuses a URL
// that outlived its signature (GitHub's live about a minute): githubapi's
// Client.OpenArtifact asks the REST API, which redirects to the blob.
type Resolver func(ctx context.Context) (*url.URL, error)

// OpenRemote opens the zip that resolve locates for ranged, verified reads:
// the end of the zip, its central directory, and later only what is asked
// for, with Range requests through client (nil: http.DefaultClient). name
// labels errors ("artifact 42"). The signed URL is never logged nor put in
// errors.
func OpenRemote(ctx context.Context, client *http.Client, name string, resolve Resolver) (*Reader, error) {
	if client == nil {
		client = http.DefaultClient
	}
	blobURL, err := resolve(ctx)
	if err != nil {
		return nil, err
	}
	blob := &httpBlob{url: blobURL, http: newRetryClient(client, DefaultRetry), renew: resolve}
	if err := blob.readTail(ctx); err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	r, err := newReader(ctx, blob)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	return r, nil
}

// httpBlob reads a blob by byte ranges. The tail read on opening is kept,
// since the zip's directory usually lies within it.
type httpBlob struct {
	url     *url.URL // signed: never log it
	http    *retryablehttp.Client
	total   int64
	tail    []byte
	tailOff int64
	// renew asks the API for a fresh signed URL: GitHub's lives about a
	// minute, and a long grep outlives it (the blob host then answers 403).
	renew    Resolver
	renewals int
}

// maxRenewals bounds how often one Reader fetches a fresh signed URL.
const maxRenewals = 20

func (b *httpBlob) size() int64 { return b.total }

// readTail fetches the last bytes of the blob and learns its size from
// Content-Range.
func (b *httpBlob) readTail(ctx context.Context) error {
	resp, err := b.get(ctx, fmt.Sprintf("bytes=-%d", tailLen))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusPartialContent:
		first, last, total, err := parseContentRange(resp.Header.Get("Content-Range"))
		if err != nil || last != total-1 || last-first+1 > tailLen {
			return fmt.Errorf("read end of blob: bad Content-Range %q", resp.Header.Get("Content-Range"))
		}
		b.total, b.tailOff = total, first
		b.tail = make([]byte, last-first+1)
	case http.StatusOK:
		// The whole blob, which is only acceptable when it is small.
		if resp.ContentLength < 0 || resp.ContentLength > tailLen {
			return errors.New("read end of blob: the server ignored Range; refusing to download the whole artifact")
		}
		b.total, b.tail = resp.ContentLength, make([]byte, resp.ContentLength)
	default:
		return fmt.Errorf("read end of blob: HTTP %d", resp.StatusCode)
	}
	if _, err := io.ReadFull(resp.Body, b.tail); err != nil {
		return fmt.Errorf("read end of blob: truncated response: %w", redact(err, b.url))
	}
	return nil
}

func (b *httpBlob) readAt(ctx context.Context, p []byte, off int64) error {
	if len(p) == 0 {
		return nil
	}
	if off < 0 || off+int64(len(p)) > b.total {
		return fmt.Errorf("read %d bytes at %d: beyond the blob's %d bytes", len(p), off, b.total)
	}
	if off >= b.tailOff && off+int64(len(p)) <= b.tailOff+int64(len(b.tail)) {
		copy(p, b.tail[off-b.tailOff:])
		return nil
	}
	var err error
	for range readAttempts {
		err = b.readRange(ctx, p, off)
		if errors.Is(err, errExpired) {
			if err = b.renewURL(ctx); err == nil {
				err = b.readRange(ctx, p, off) // the same range, through the fresh URL
			}
		}
		if err == nil || ctx.Err() != nil || !errors.Is(err, io.ErrUnexpectedEOF) {
			return err
		}
	}
	return err
}

// errExpired: the blob host refused the signed URL (403, 410).
var errExpired = errors.New("the signed download URL was refused (expired?)")

// renewURL replaces the signed URL with a fresh one from the API.
func (b *httpBlob) renewURL(ctx context.Context) error {
	if b.renew == nil || b.renewals >= maxRenewals {
		return fmt.Errorf("read blob: %w, and it was renewed %d times already", errExpired, b.renewals)
	}
	b.renewals++
	u, err := b.renew(ctx)
	if err != nil {
		return fmt.Errorf("renew the download URL: %w", err)
	}
	b.url = u
	return nil
}

// readRange fills p from one Range request and refuses anything but exactly
// the bytes asked for.
func (b *httpBlob) readRange(ctx context.Context, p []byte, off int64) error {
	last := off + int64(len(p)) - 1
	resp, err := b.get(ctx, fmt.Sprintf("bytes=%d-%d", off, last))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusPartialContent:
	case http.StatusForbidden, http.StatusGone:
		return fmt.Errorf("read bytes %d-%d of blob: HTTP %d: %w", off, last, resp.StatusCode, errExpired)
	default:
		return fmt.Errorf("read bytes %d-%d of blob: HTTP %d, want 206", off, last, resp.StatusCode)
	}
	first, end, total, err := parseContentRange(resp.Header.Get("Content-Range"))
	if err != nil || first != off || end != last {
		return fmt.Errorf("read bytes %d-%d of blob: server sent Content-Range %q", off, last, resp.Header.Get("Content-Range"))
	}
	if b.total > 0 && total != b.total {
		return fmt.Errorf("read bytes %d-%d of blob: the blob is now %d bytes, was %d (replaced?)", off, last, total, b.total)
	}
	if n, err := io.ReadFull(resp.Body, p); err != nil {
		return fmt.Errorf("read bytes %d-%d of blob: truncated response, %d of %d bytes: %w", off, last, n, len(p), io.ErrUnexpectedEOF)
	}
	return nil
}

func (b *httpBlob) get(ctx context.Context, byteRange string) (*http.Response, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, b.url.String(), nil)
	if err != nil {
		return nil, redact(err, b.url)
	}
	req.Header.Set("Range", byteRange)
	req.Header.Set("x-ms-version", azureVersion)
	req.Header.Set("User-Agent", userAgent)
	resp, err := b.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", safeURL(b.url), redact(err, b.url))
	}
	return resp, nil
}

// parseContentRange parses "bytes first-last/total".
func parseContentRange(h string) (first, last, total int64, err error) {
	spec, ok := strings.CutPrefix(h, "bytes ")
	rng, size, ok2 := strings.Cut(spec, "/")
	from, to, ok3 := strings.Cut(rng, "-")
	if !ok || !ok2 || !ok3 {
		return 0, 0, 0, fmt.Errorf("bad Content-Range %q", h)
	}
	first, err1 := strconv.ParseInt(from, 10, 64)
	last, err2 := strconv.ParseInt(to, 10, 64)
	total, err3 := strconv.ParseInt(size, 10, 64)
	if err := errors.Join(err1, err2, err3); err != nil || first < 0 || last < first || total <= last {
		return 0, 0, 0, fmt.Errorf("bad Content-Range %q", h)
	}
	return first, last, total, nil
}
