// Package artifact keeps a job's full logs as a GitHub Actions artifact
// (protocol version 4) and reads cited byte ranges back out of it.
//
// The Action's container has no Node.js, so runledger speaks the protocol
// itself: the results service's Twirp JSON API (CreateArtifact,
// FinalizeArtifact) and Azure block-blob uploads to the signed URL it hands
// out. The zip is written while it is uploaded, so memory stays flat however
// large the logs are.
//
// Logs are stored in the zip uncompressed, which makes a byte range of a log
// a byte range of the blob: a reader fetches the end-of-central-directory,
// the central directory, one local header and then exactly the cited bytes
// with HTTP Range requests, whatever the artifact's size.
//
// Nothing here ever logs or returns the signed URLs: they grant access to
// the artifact without a token.
package artifact

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrNotInActions means the process has no Actions runtime to upload to:
// ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL is unset. Callers treat it as
// "the logs stay in the local store", never as a failed command.
var ErrNotInActions = errors.New("not running inside GitHub Actions: ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL is unset")

// ErrNameConflict means the run already has an artifact of that name.
var ErrNameConflict = errors.New("an artifact of that name already exists in this workflow run")

// ErrCompressed means a ranged read asked for an entry that is not stored
// uncompressed, so its bytes are not a byte range of the blob.
var ErrCompressed = errors.New("entry is compressed; ranged reads need an entry stored uncompressed")

// ErrHashMismatch means the bytes read back do not hash to the cited sha256.
var ErrHashMismatch = errors.New("sha256 of the bytes read does not match the cited hash")

// UploadError is every failure of Uploader.Upload. The caller reports it as a
// warning ("logs stay in the local store at …") and keeps the command's status.
type UploadError struct {
	Name string // the artifact's name
	Step string // e.g. "CreateArtifact", "put block 3", "zip stdout.log"
	Err  error
}

func (e *UploadError) Error() string {
	return fmt.Sprintf("upload artifact %q: %s: %v", e.Name, e.Step, e.Err)
}

func (e *UploadError) Unwrap() error { return e.Err }

// redacted hides the query string of a signed URL in an error message while
// keeping the wrapped error for errors.Is. Signed URLs carry their
// credentials in the query string.
type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }

// redact removes every occurrence of secret's query string from err's message.
func redact(err error, secret *url.URL) error {
	if err == nil || secret == nil || secret.RawQuery == "" {
		return err
	}
	msg := err.Error()
	clean := strings.ReplaceAll(msg, secret.RawQuery, "REDACTED")
	if esc := url.QueryEscape(secret.RawQuery); esc != secret.RawQuery {
		clean = strings.ReplaceAll(clean, esc, "REDACTED")
	}
	if clean == msg {
		return err
	}
	return &redacted{msg: clean, err: err}
}

// safeURL is u without its query string, for messages.
func safeURL(u *url.URL) string {
	c := *u
	c.RawQuery, c.Fragment, c.User = "", "", nil
	if u.RawQuery != "" {
		return c.String() + "?REDACTED"
	}
	return c.String()
}
