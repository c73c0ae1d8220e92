package artifact

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// maxNameLen keeps generated names readable; long matrices are shortened
// with a hash so that distinct matrix cells still get distinct names.
const maxNameLen = 120

// forbidden are the characters the artifact service refuses in a name.
const forbidden = "\":<>|*?\r\n\\/"

// SanitizeName replaces every character the artifact service forbids
// (" : < > | * ? CR LF \ /) with '-' after trimming blanks. A name left
// with nothing but dashes and blanks becomes "runledger".
func SanitizeName(name string) string {
	clean := strings.Map(func(r rune) rune {
		if strings.ContainsRune(forbidden, r) {
			return '-'
		}
		return r
	}, strings.TrimSpace(name))
	if strings.Trim(clean, " -") == "" {
		return "runledger"
	}
	return clean
}

// DefaultName is the artifact name for a job: "runledger-<job>", then the
// matrix values in key order, then "-attempt<N>" for re-runs. Matrix cells of
// one job share the job id, so without their values two cells of the same
// run would clash. matrixJSON is `${{ toJSON(matrix) }}`; "" or "null" means
// no matrix.
func DefaultName(job, matrixJSON, runAttempt string) (string, error) {
	parts := []string{"runledger", job}
	values, err := matrixValues(matrixJSON)
	if err != nil {
		return "", err
	}
	parts = append(parts, values...)
	if runAttempt != "" && runAttempt != "1" {
		parts = append(parts, "attempt"+runAttempt)
	}
	name := SanitizeName(strings.Join(nonEmpty(parts), "-"))
	if len(name) > maxNameLen {
		sum := sha256.Sum256([]byte(name))
		name = strings.TrimSpace(name[:maxNameLen-17]) + "-" + hex.EncodeToString(sum[:8])
	}
	return name, nil
}

func matrixValues(matrixJSON string) ([]string, error) {
	if s := strings.TrimSpace(matrixJSON); s == "" || s == "null" {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(matrixJSON), &m); err != nil {
		return nil, fmt.Errorf("parse matrix JSON: %w", err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	values := make([]string, 0, len(keys))
	for _, k := range keys {
		var s string
		if json.Unmarshal(m[k], &s) != nil {
			s = string(m[k]) // numbers, booleans, objects: their JSON text
		}
		values = append(values, s)
	}
	return values, nil
}

func nonEmpty(parts []string) []string {
	out := parts[:0:0]
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}
