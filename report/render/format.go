package render

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
)

var markerRE = regexp.MustCompile(`^<<cg:[0-9a-f]{16}>>$`)

func streamOrder(logs map[string]report.Log) []string {
	var names []string
	for _, s := range record.StreamNames {
		if _, ok := logs[s]; ok {
			names = append(names, s)
		}
	}
	var rest []string
	for s := range logs {
		if knownStream(s) {
			continue
		}
		rest = append(rest, s)
	}
	sort.Strings(rest)
	return append(names, rest...)
}

func knownStream(s string) bool {
	for _, k := range record.StreamNames {
		if s == k {
			return true
		}
	}
	return false
}

// linkTo renders a link to an http(s) URL, or "" for anything else. Bytes
// that could end the destination or start markup are percent-encoded.
func linkTo(text, url string) string {
	if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		return ""
	}
	var b strings.Builder
	for i := 0; i < len(url); i++ {
		c := url[i]
		if c > ' ' && c < 0x7f && !strings.ContainsRune("<>()[]\\\"'`|{}^ ", rune(c)) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return "[" + text + "](" + b.String() + ")"
}

// short cuts s to at most n runes for display; the envelope keeps it whole.
func short(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func positive(n *int) bool { return n != nil && *n > 0 }

func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, suffix := float64(n), []string{"KiB", "MiB", "GiB", "TiB"}
	i := -1
	for v >= unit && i < len(suffix)-1 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %s", v, suffix[i])
}

func duration(ms *int64) string {
	switch {
	case ms == nil:
		return "—"
	case *ms < 1000:
		return fmt.Sprintf("%dms", *ms)
	case *ms < 60_000:
		return fmt.Sprintf("%.1fs", float64(*ms)/1000)
	}
	s := *ms / 1000
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}
