#!/bin/sh
# Regenerates the cmocka samples in this directory by compiling the
# fixtures (*_test.c) with gcc against Debian's libcmocka-dev and running
# them; their output, stdout and stderr as one stream, is written
# unchanged (the sources are compiled by their base names, so cmocka's
# places are "calc_test.c:11", no path of the temporary directory).
#
#   cd report/runners/testdata/cmocka && ./gen-samples.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/*_test.c "$work/"
for name in calc pass crash setup group; do
	(cd "$work" && gcc -o "$name" "${name}_test.c" -lcmocka)
done
cd "$here"
# calc-fail: four failing tests, one skipped, one passing.
(cd "$work" && ./calc >"$work/out.log" 2>&1) || true
cp "$work/out.log" calc-fail.log
# pass: a named group whose tests all pass.
(cd "$work" && ./pass >"$work/out.log" 2>&1) || true
cp "$work/out.log" pass.log
# crash-abort: a test aborts; cmocka prints no total.
(cd "$work" && ./crash >"$work/out.log" 2>&1) || true
cp "$work/out.log" crash-abort.log
# two-programs: two programs' runs in one log, as make check runs them.
(cd "$work" && { ./pass; ./calc; } >"$work/out.log" 2>&1) || true
cp "$work/out.log" two-programs.log
# setup-error: a test's own setup fails ("[  ERROR   ] name").
(cd "$work" && ./setup >"$work/out.log" 2>&1) || true
cp "$work/out.log" setup-error.log
# group-setup: the group's setup fails; no test runs.
(cd "$work" && ./group >"$work/out.log" 2>&1) || true
cp "$work/out.log" group-setup.log
