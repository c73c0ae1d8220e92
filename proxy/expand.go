package proxy

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/runledger/runledger/compaction"
)

// serveExpand is GET /expand/HASH: the text a marker stands for,
// verified against its hash, or 404 saying none is kept under it.
func (s *Server) serveExpand(w http.ResponseWriter, r *http.Request) {
	ref := strings.TrimPrefix(r.URL.Path, "/expand/")
	text, err := compaction.Expand(s.cfg.Store, ref)
	switch {
	case err == nil:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Write(text)
	case errors.Is(err, compaction.ErrNotFound), errors.Is(err, compaction.ErrBadRef):
		http.Error(w, fmt.Sprintf("runledger proxy: no collapsed text is kept under %q in %s (want a 16-hex hash from a <<cg:HASH>> marker)", ref, s.cfg.Store.Dir), http.StatusNotFound)
	default:
		http.Error(w, "runledger proxy: "+err.Error(), http.StatusInternalServerError)
	}
}
