package capture

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"

	"github.com/runledger/runledger/record"
)

// CIFromEnv reads the GitHub Actions context a run happens in, or nil
// outside Actions. The PR number comes from the event payload, or from a
// pull request's merge ref.
func CIFromEnv(getenv func(string) string) *record.CI {
	if getenv("GITHUB_ACTIONS") != "true" {
		return nil
	}
	ci := &record.CI{
		Repository: getenv("GITHUB_REPOSITORY"), RunID: getenv("GITHUB_RUN_ID"),
		RunAttempt: getenv("GITHUB_RUN_ATTEMPT"), Job: getenv("GITHUB_JOB"),
		Workflow: getenv("GITHUB_WORKFLOW"), SHA: getenv("GITHUB_SHA"),
		Ref: getenv("GITHUB_REF"), ServerURL: getenv("GITHUB_SERVER_URL"),
	}
	ci.PR = prFromEvent(getenv("GITHUB_EVENT_PATH"))
	if ci.PR == 0 {
		ci.PR = prFromRef(ci.Ref)
	}
	return ci
}

func prFromEvent(path string) int {
	if path == "" {
		return 0
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	var ev struct {
		PullRequest *struct {
			Number int `json:"number"`
		} `json:"pull_request"`
	}
	if json.Unmarshal(data, &ev) != nil || ev.PullRequest == nil {
		return 0
	}
	return ev.PullRequest.Number
}

// prFromRef reads refs/pull/N/merge (or /head).
func prFromRef(ref string) int {
	rest, ok := strings.CutPrefix(ref, "refs/pull/")
	if !ok {
		return 0
	}
	num, _, _ := strings.Cut(rest, "/")
	n, err := strconv.Atoi(num)
	if err != nil {
		return 0
	}
	return n
}
