package artifact

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// backendIDs name the workflow run and job to the results service. They are
// not the numeric run id of the REST API: the runtime token carries them.
type backendIDs struct {
	Run string
	Job string
}

// backendIDsFromToken reads the ids from the runtime token's "scp" claim,
// "Actions.Results:<run>:<job>" among space-separated scopes. The token is
// not verified: the results service does that. Errors never quote the token.
func backendIDsFromToken(token string) (backendIDs, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return backendIDs{}, fmt.Errorf("malformed runtime token: %d dot-separated parts, want 3", len(parts))
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return backendIDs{}, fmt.Errorf("malformed runtime token: payload is not base64url: %w", errors.Unwrap(err))
	}
	var claims struct {
		Scp string `json:"scp"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil {
		return backendIDs{}, errors.New("malformed runtime token: payload is not a JSON object with a string scp claim")
	}
	for _, scope := range strings.Fields(claims.Scp) {
		f := strings.Split(scope, ":")
		if len(f) == 3 && f[0] == "Actions.Results" && f[1] != "" && f[2] != "" {
			return backendIDs{Run: f[1], Job: f[2]}, nil
		}
	}
	return backendIDs{}, errors.New("malformed runtime token: no Actions.Results:<run>:<job> scope in its scp claim")
}
