#!/usr/bin/env bash
# Makes docs/comment.png, the README's picture: the comment the Action posts
# on a pull request whose tests show a new failure, one the base branch has
# too, and a flaky one. action/picture_test.go (TestCommentPicture) runs the
# Action twice, on the base commit and on the pull request, the second
# finding the first's artifact through the baseline lookup, and writes the
# body as posted; it is rendered as GitHub renders a comment (marked with
# GFM and github-markdown-css: internal/peers/node/render.mjs, the browser
# test's renderer) and screenshotted by headless Chromium.
#
# Run from the repository root; needs go, node with npm, and chromium
# (apt-get install chromium fonts-noto-color-emoji). Run it again whenever
# the comment changes: TestCommentPicture's golden file,
# action/testdata/comment/readme.md, fails first (accept it with
# `go test ./action -run TestCommentPicture -update`, then run this). When
# flaky tests are also judged from the branch's history, the same script
# shows the new rendering: nothing here names how a test was judged.
set -euo pipefail
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
RUNLEDGER_COMMENT_OUT="$work/comment.md" go test -count=1 ./action -run '^TestCommentPicture$' >/dev/null
npm ci --prefix internal/peers/node --no-audit --no-fund --silent
node internal/peers/node/render.mjs "$work" "$work/comment.md"
# The page measures itself, so the screenshot is as tall as the comment.
sed -i 's|</body>|<script>document.body.dataset.h = Math.ceil(document.querySelector(".markdown-body").getBoundingClientRect().bottom) + 16</script></body>|' "$work/comment.html"
chrome() {
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$work/chrome" --hide-scrollbars "$@" 2>/dev/null
}
height=$(chrome --window-size=830,2000 --dump-dom "file://$work/comment.html" | grep -o 'data-h="[0-9]*"' | grep -o '[0-9]*')
chrome --window-size="830,${height:-1400}" --screenshot="$root/docs/comment.png" "file://$work/comment.html"
echo "docs/comment.png: 830x${height:-1400}"
