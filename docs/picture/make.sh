#!/usr/bin/env bash
# Makes docs/comment.png: a real failing `go test` run, re-run once, rendered
# as the comment body, then to HTML with marked and to PNG with headless
# Chromium (Debian's chromium package). Run from the repository root.
set -euo pipefail
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/runledger" ./cmd/runledger
mkdir "$work/fx" && cd "$work/fx"
printf 'module fx\ngo 1.26\n' > go.mod
cat > fx_test.go <<'GO'
package fx

import "testing"

func TestOK(t *testing.T)   {}
func TestBad(t *testing.T)  { t.Fatalf("want 2, got %d", 3) }
func TestSkip(t *testing.T) { t.Skip("later") }
GO
for _ in 1 2; do "$work/runledger" run --quiet --name unit -- go test -v ./... >/dev/null || true; done
"$work/runledger" report --name unit > "$work/comment.md"
cd "$root/docs/picture"
npm install --no-audit --no-fund >/dev/null
node render.mjs "$work/comment.md" "$work/comment.html"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$work/chrome" --hide-scrollbars \
  --window-size=900,900 --screenshot="$root/docs/comment.png" "file://$work/comment.html"
