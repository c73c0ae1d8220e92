package artifact

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/hashicorp/go-retryablehttp"
)

// BlockSize is the size of every block but the last.
const BlockSize = 8 << 20

// maxBlocks is Azure's limit of committed blocks per blob.
const maxBlocks = 50000

// azureVersion pins the blob REST API version the requests follow.
const azureVersion = "2023-11-03"

// blockBlob uploads one blob to a signed URL as a sequence of blocks.
type blockBlob struct {
	url  *url.URL // signed: never log it
	http *retryablehttp.Client
}

// blockID is the id of block i. Ids must all have the same length, so the
// number is zero-padded.
func blockID(i int) string {
	return base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "runledger-%08d", i))
}

// upload reads r to its end, puts it in BlockSize blocks, in order, and
// commits them. One block is read while the previous one is sent, so at most
// two blocks are in memory.
func (b *blockBlob) upload(ctx context.Context, r io.Reader) error {
	var bufs [2][]byte
	var ids []string
	sent := make(chan error, 1)
	inflight := false
	for i := 0; ; i++ {
		if bufs[i%2] == nil {
			bufs[i%2] = make([]byte, BlockSize)
		}
		buf := bufs[i%2]
		n, rerr := io.ReadFull(r, buf)
		if inflight {
			if err := <-sent; err != nil {
				return err
			}
			inflight = false
		}
		if rerr != nil && rerr != io.EOF && rerr != io.ErrUnexpectedEOF {
			return rerr
		}
		if n > 0 {
			if len(ids) == maxBlocks {
				return fmt.Errorf("blob exceeds %d blocks of %d bytes", maxBlocks, BlockSize)
			}
			id, block, index := blockID(i), buf[:n], i
			ids = append(ids, id)
			go func() { sent <- b.putBlock(ctx, index, id, block) }()
			inflight = true
		}
		if rerr != nil {
			break
		}
	}
	if inflight {
		if err := <-sent; err != nil {
			return err
		}
	}
	return b.putBlockList(ctx, ids)
}

func (b *blockBlob) putBlock(ctx context.Context, index int, id string, block []byte) error {
	u := b.with(url.Values{"comp": {"block"}, "blockid": {id}})
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPut, u, block)
	if err != nil {
		return b.fail(fmt.Sprintf("put block %d", index), err)
	}
	req.Header.Set("x-ms-version", azureVersion)
	return b.fail(fmt.Sprintf("put block %d", index), b.do(req))
}

// blockList is the body of Put Block List.
type blockList struct {
	XMLName xml.Name `xml:"BlockList"`
	Latest  []string `xml:"Latest"`
}

func (b *blockBlob) putBlockList(ctx context.Context, ids []string) error {
	body, err := xml.Marshal(blockList{Latest: ids})
	if err != nil {
		return fmt.Errorf("encode block list: %w", err)
	}
	body = append([]byte(xml.Header), body...)
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPut, b.with(url.Values{"comp": {"blocklist"}}), body)
	if err != nil {
		return b.fail("put block list", err)
	}
	req.Header.Set("x-ms-version", azureVersion)
	req.Header.Set("Content-Type", "application/xml")
	req.Header.Set("x-ms-blob-content-type", "application/zip")
	return b.fail("put block list", b.do(req))
}

// with is the signed URL with extra query parameters.
func (b *blockBlob) with(extra url.Values) string {
	u := *b.url
	q := u.RawQuery
	if q != "" {
		q += "&"
	}
	u.RawQuery = q + extra.Encode()
	return u.String()
}

func (b *blockBlob) do(req *retryablehttp.Request) error {
	resp, err := b.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 2 {
		_, err := io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponse))
		return err
	}
	detail, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	return fmt.Errorf("HTTP %d from blob storage: %s", resp.StatusCode, bytes.TrimSpace(detail))
}

// fail names the step and keeps the signed URL out of the message.
func (b *blockBlob) fail(step string, err error) error {
	if err == nil {
		return nil
	}
	// redact leaves an already clean message as it is, so wrapped errors
	// are checked whole rather than trusted for having been redacted once.
	return fmt.Errorf("%s: %w", step, redact(err, b.url))
}
