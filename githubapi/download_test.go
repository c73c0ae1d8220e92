package githubapi

import (
	"archive/zip"
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/fakegithub"
)

// TestOpenArtifact reads an entry back through the API's redirect and the
// blob host's ranges; every way the download can be refused is an error
// that says which artifact and why, and names neither the token nor the
// signed URL.
func TestOpenArtifact(t *testing.T) {
	f := fakegithub.New(t, "/api/v3")
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "run-1/stdout.log", Method: zip.Store})
	w.Write([]byte("hello from the artifact\n"))
	zw.Close()
	id := f.AddArtifactZip(41, "runledger-test", b.Bytes(), false)
	gone := f.AddArtifactZip(41, "runledger-old", b.Bytes(), true)
	ctx := context.Background()

	c, _ := newTestClient(t, f, tokInstallation, nil)
	r, err := c.OpenArtifact(ctx, id)
	if err != nil {
		t.Fatalf("OpenArtifact: %v", err)
	}
	got, err := r.ReadRange(ctx, "run-1/stdout.log", 6, 10)
	if err != nil || string(got) != "from" {
		t.Fatalf("ReadRange: %q, %v", got, err)
	}
	tests := []struct {
		name, repo, token string
		id                int64
		wantErr           string
	}{
		{name: "unknown artifact", repo: "Codertocat/Hello-World", token: tokInstallation, id: 9999, wantErr: "no such artifact"},
		{name: "expired artifact", repo: "Codertocat/Hello-World", token: tokInstallation, id: gone, wantErr: "HTTP 410"},
		{name: "bad credentials", repo: "Codertocat/Hello-World", token: "ghs_wrongwrongwrong", id: id, wantErr: "HTTP 401"},
		{name: "bad repo", repo: "Codertocat", token: tokInstallation, id: id, wantErr: "want owner/name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := OpenArtifact(ctx, &http.Client{}, f.APIURL(), tt.repo, tt.id, tt.token)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want %q", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), tt.token) || strings.Contains(err.Error(), "sig=") {
				t.Errorf("error names a secret: %v", err)
			}
		})
	}
}
