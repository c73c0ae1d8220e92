package artifact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/hashicorp/go-retryablehttp"
)

const twirpService = "/twirp/github.actions.results.api.v1.ArtifactService/"

// maxResponse bounds what is read of a results-service answer.
const maxResponse = 1 << 20

// results is a client of the results service's ArtifactService.
type results struct {
	origin string // scheme://host of ACTIONS_RESULTS_URL
	token  string
	http   *retryablehttp.Client
}

// reply is a Twirp JSON answer. Servers emit proto field names or their
// lowerCamel JSON names, so fields are looked up under both.
type reply map[string]json.RawMessage

func (r reply) raw(snake, camel string) (json.RawMessage, bool) {
	if v, ok := r[snake]; ok {
		return v, true
	}
	v, ok := r[camel]
	return v, ok
}

func (r reply) str(snake, camel string) string {
	v, _ := r.raw(snake, camel)
	var s string
	if json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

// int64 accepts the proto JSON form (a string) and a plain number.
func (r reply) int64(snake, camel string) (int64, bool) {
	v, ok := r.raw(snake, camel)
	if !ok {
		return 0, false
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil
	}
	var n int64
	return n, json.Unmarshal(v, &n) == nil
}

// ok is false only when the server said "ok": false.
func (r reply) ok() bool {
	v, present := r["ok"]
	var b bool
	return !present || (json.Unmarshal(v, &b) == nil && b)
}

// call posts req to method and decodes the answer.
func (c *results) call(ctx context.Context, method string, req any) (reply, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode %s request: %w", method, err)
	}
	hreq, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, c.origin+twirpService+method, body)
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	hreq.Header.Set("Authorization", "Bearer "+c.token)
	hreq.Header.Set("User-Agent", userAgent)
	resp, err := c.http.Do(hreq)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return nil, fmt.Errorf("read response (HTTP %d): %w", resp.StatusCode, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, twirpError(resp.StatusCode, data)
	}
	var r reply
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("decode response (HTTP %d, %d bytes): %w", resp.StatusCode, len(data), err)
	}
	if !r.ok() {
		return nil, errors.New("the service answered ok=false")
	}
	return r, nil
}

// twirpError turns a Twirp error answer into an error naming its code.
func twirpError(status int, body []byte) error {
	var te struct {
		Code string `json:"code"`
		Msg  string `json:"msg"`
	}
	detail := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &te) == nil && te.Code != "" {
		detail = te.Code + ": " + te.Msg
	}
	if len(detail) > 300 {
		detail = detail[:300] + "…"
	}
	if status == http.StatusConflict || te.Code == "already_exists" {
		return fmt.Errorf("HTTP %d: %s: %w", status, detail, ErrNameConflict)
	}
	return fmt.Errorf("HTTP %d: %s", status, detail)
}
