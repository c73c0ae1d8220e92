package baseline

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Base is the commit a run's change is measured against, from the event:
// a pull request's base commit and branch, or for a push the commit
// before it on the pushed branch.
type Base struct {
	SHA, Branch string
	// Note says why there is none (an event without a base, a new branch).
	Note string
}

// BaseOf reads the event payload at path for event name.
func BaseOf(eventName, path string) Base {
	var ev struct {
		PullRequest *struct {
			Base struct {
				SHA string `json:"sha"`
				Ref string `json:"ref"`
			} `json:"base"`
		} `json:"pull_request"`
		Before string `json:"before"`
		Ref    string `json:"ref"`
	}
	if path == "" {
		return Base{Note: "no event payload (GITHUB_EVENT_PATH is unset)"}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Base{Note: fmt.Sprintf("read event payload: %v", err)}
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return Base{Note: fmt.Sprintf("parse event payload %s: %v", path, err)}
	}
	switch {
	case ev.PullRequest != nil && ev.PullRequest.Base.SHA != "":
		return Base{SHA: ev.PullRequest.Base.SHA, Branch: ev.PullRequest.Base.Ref}
	case eventName == "push" && strings.Trim(ev.Before, "0") == "":
		return Base{Note: "the push created its branch: there is no earlier commit on it"}
	case eventName == "push" && ev.Before != "":
		return Base{SHA: ev.Before, Branch: strings.TrimPrefix(ev.Ref, "refs/heads/")}
	}
	return Base{Note: fmt.Sprintf("a %s event names no base commit", eventName)}
}
