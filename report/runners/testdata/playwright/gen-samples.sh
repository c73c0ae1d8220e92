#!/bin/sh
# Regenerates the Playwright Test samples in this directory by really
# running @playwright/test (pinned by package-lock.json) on fixture/, whose
# tests need no browser. The absolute paths of the temporary copy the
# tests run in are replaced by /src, and nothing else is changed.
#
#   cd report/runners/testdata/playwright && ./gen-samples.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
[ -d node_modules/@playwright/test ] || npm ci --no-audit --no-fund
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R fixture/. "$work/"
ln -s "$here/node_modules" "$work/node_modules"
pw="$here/node_modules/.bin/playwright"

run() { # sample name, then playwright's arguments
	out=$1
	shift
	(cd "$work" && CI=1 FORCE_COLOR=0 "$pw" test "$@" >"$work/out.log" 2>&1) || true
	sed "s|$work|/src|g" "$work/out.log" >"$here/$out.log"
}

run list-fail --reporter=list
run list-retries --reporter=list --retries=1
run line-retries --reporter=line --retries=1
run line-pass --reporter=line tests/math.spec.js:3
run dot-fail --reporter=dot
run list-projects-maxfail --reporter=list --config=projects.config.js --max-failures=2
