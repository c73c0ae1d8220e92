package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/runledger/runledger/compaction"
)

// BenchmarkProxyLatency measures what the proxy adds to a request: each
// iteration posts the same Messages body once straight to a local
// upstream and once through the proxy in front of it, and the p50 and
// p99 of the two are reported as ratios (proxy / direct), since the
// machines are shared and absolute times are noise. The bodies are real
// agent transcripts of about 100 KB and 1 MB when ../shared/data holds
// them, else synthetic ones of that size; every request after the first
// replays its conversation's frozen decisions, as each turn of a real
// conversation does for its prefix. peak-rss-MB is the test process's
// (client, proxy and upstream together).
//
//	go test ./proxy -run '^$' -bench BenchmarkProxyLatency -benchtime 200x
func BenchmarkProxyLatency(b *testing.B) {
	for _, size := range []struct {
		name       string
		transcript string
		bytes      int
	}{
		{"100KB", "02-mini-astropy-astropy-13236", 100 << 10},
		{"1MB", "21-mini-psf-requests-1142", 1 << 20},
	} {
		b.Run(size.name, func(b *testing.B) {
			body := benchBody(b, size.transcript, size.bytes)
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"id":"msg_1","type":"message","content":[]}`)
			}))
			defer up.Close()
			p := newTestProxy(b, up.URL, nil)
			client := &http.Client{}
			send := func(url string) time.Duration {
				t0 := time.Now()
				resp, err := client.Post(url+"/v1/messages", "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				return time.Since(t0)
			}
			send(p.URL) // the conversation's first turn freezes its decisions
			var direct, proxied []time.Duration
			b.SetBytes(int64(len(body)))
			b.ResetTimer()
			for b.Loop() {
				direct = append(direct, send(up.URL))
				proxied = append(proxied, send(p.URL))
			}
			b.StopTimer()
			d50, d99 := percentiles(direct)
			p50, p99 := percentiles(proxied)
			b.ReportMetric(float64(p50)/float64(d50), "p50-ratio")
			b.ReportMetric(float64(p99)/float64(d99), "p99-ratio")
			b.ReportMetric(float64(p50-d50)/1e6, "p50-added-ms")
			b.ReportMetric(float64(len(body)), "body-bytes")
			b.ReportMetric(peakRSS(), "peak-rss-MB")
		})
	}
}

func percentiles(ds []time.Duration) (p50, p99 time.Duration) {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return at(0.50), at(0.99)
}

// benchBody is the named real transcript as a Messages body, or, without
// the data, a synthetic one of about size bytes: file reads, failed and
// passed test runs.
func benchBody(b *testing.B, transcript string, size int) []byte {
	if data, err := os.ReadFile(filepath.Join(findTranscripts(), transcript, "input.json")); err == nil {
		var in []compaction.Output
		if err := json.Unmarshal(data, &in); err != nil {
			b.Fatal(err)
		}
		return transcriptTurn(in)
	}
	var in []compaction.Output
	for i := 0; ; i++ {
		text := fmt.Sprintf("%d\tdef f_%d():\n", i, i) + strings.Repeat("    return compute(x, y)  # line\n", 60)
		if i%3 == 1 {
			text = failedRun("test_" + strconv.Itoa(i%5))
		}
		in = append(in, compaction.Output{ID: fmt.Sprintf("toolu_%04d", i), Text: text})
		if body := transcriptTurn(in); len(body) >= size {
			return body
		}
	}
}

// peakRSS is the process's high-water resident set in MB, from
// /proc/self/status (Linux); elsewhere the Go heap's system memory.
func peakRSS() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb / 1024
			}
		}
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.Sys) / (1 << 20)
}
