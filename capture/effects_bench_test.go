package capture

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkEffects: what watching a 10,000-file workspace costs an attempt
// (the scan at its start and the one at its end, with 100 files changed
// between them), in a git work tree and as a snapshot. Run:
//
//	go test -run '^$' -bench Effects -benchtime 20x ./capture
func BenchmarkEffects(b *testing.B) {
	for _, method := range []string{"git", "snapshot"} {
		b.Run(method+"-10k", func(b *testing.B) {
			dir := b.TempDir()
			for i := range 10_000 {
				p := filepath.Join(dir, fmt.Sprintf("pkg%03d", i/100), fmt.Sprintf("file%05d.go", i))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(fmt.Sprintf("package p // %d\n", i)), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			if method == "git" {
				for _, args := range [][]string{{"init", "-q"}, {"add", "-A"},
					{"-c", "user.name=b", "-c", "user.email=b@example.com", "-c", "gc.auto=0", "-c", "maintenance.auto=false", "commit", "-q", "-m", "init"}, {"status", "-s"}} {
					if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
						b.Skipf("git %v: %v %s", args, err, out)
					}
				}
				// An index written in the same second as the files marks
				// them racily clean, and a status that may not refresh it
				// (runledger's) re-reads them all: a status a second later
				// refreshes it, as any git command in the workspace would.
				time.Sleep(1100 * time.Millisecond)
				if out, err := exec.Command("git", "-C", dir, "status", "-s").CombinedOutput(); err != nil {
					b.Fatalf("git status: %v %s", err, out)
				}
			}
			store := filepath.Join(b.TempDir(), "store")
			b.ResetTimer()
			for i := range b.N {
				w := watchWorkspace(dir, store)
				for k := range 100 {
					os.WriteFile(filepath.Join(dir, "pkg000", fmt.Sprintf("file%05d.go", k)), []byte(fmt.Sprint(i)), 0o644)
				}
				e, _ := w.finish()
				if e.Method != method || e.Total != 100 {
					b.Fatalf("method %s (%s), total %d", e.Method, e.Reason, e.Total)
				}
			}
		})
	}
}
